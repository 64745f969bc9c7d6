/**
 * A streaming tokenizer for the XML parts of a workbook (a worksheet, the shared strings): bytes
 * in, element and text events out. It keeps no tree and holds at most one unfinished token
 * between chunks, so neither deep nesting, nor millions of elements, nor a part of gigabytes can
 * grow its memory; a single tag or text longer than {@link MAX_TOKEN_BYTES} is refused. No DTD
 * is read (a DOCTYPE is refused), so no entity can expand.
 */
import { utf8Text } from './bytesText';
import { ImportError } from './importError';

/** Longest tag or text accepted: far above a 32,767-character cell written with entities. */
export const MAX_TOKEN_BYTES = 1024 * 1024;

export interface XmlEvents {
  /** An element opened; its attributes are `buf[attrStart, attrEnd)`. `name` is the index of its local name in the tokenizer's list, -1 for others. */
  open(name: number, buf: Buffer, attrStart: number, attrEnd: number, selfClosing: boolean): void;
  close(name: number): void;
  /** Character data `buf[start, end)`, raw (entities not yet decoded, unless `cdata`). */
  text(buf: Buffer, start: number, end: number, cdata: boolean): void;
}

const LT = 0x3c;
const GT = 0x3e;
const SLASH = 0x2f;
const BANG = 0x21;
const QUESTION = 0x3f;
const COLON = 0x3a;
const DQUOTE = 0x22;
const SQUOTE = 0x27;

const COMMENT_OPEN = Buffer.from('<!--');
const COMMENT_CLOSE = Buffer.from('-->');
const CDATA_OPEN = Buffer.from('<![CDATA[');
const CDATA_CLOSE = Buffer.from(']]>');
const PI_CLOSE = Buffer.from('?>');

function isSpace(b: number): boolean {
  return b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;
}

export function tokenTooLongError(part: string): ImportError {
  return new ImportError(
    'too_long',
    `The workbook holds a piece of text or markup of more than 1 MB in ${part}, far more than a spreadsheet cell can hold (32,767 characters); it was not read. Open the file in Excel or LibreOffice, save it again as .xlsx or CSV, and import the new file.`,
  );
}

function unsupportedMarkup(part: string): ImportError {
  return new ImportError(
    'corrupt',
    `The workbook could not be read (${part} contains a DOCTYPE declaration, which a spreadsheet never has). Open it in Excel or LibreOffice, save it again as .xlsx (or CSV), and import the new file.`,
  );
}

/** `buf[at…]` starts with `prefix` (`complete`), or could once more bytes arrive (`partial`), or does not. */
function prefixAt(buf: Buffer, at: number, prefix: Buffer): 'complete' | 'partial' | 'no' {
  const n = Math.min(prefix.length, buf.length - at);
  for (let i = 0; i < n; i++) if (buf[at + i] !== prefix[i]) return 'no';
  return n === prefix.length ? 'complete' : 'partial';
}

export class XmlTokenizer {
  private carry: Buffer | null = null;
  private readonly names: Buffer[];
  private stopped = false;

  /**
   * @param names local names (without a namespace prefix) the caller wants told apart
   * @param part the part's name, for messages
   */
  constructor(
    names: readonly string[],
    private readonly events: XmlEvents,
    private readonly part: string,
  ) {
    this.names = names.map((n) => Buffer.from(n));
  }

  /** No more events after the current one (the caller has what it needs). */
  stop(): void {
    this.stopped = true;
  }

  get isStopped(): boolean {
    return this.stopped;
  }

  private nameId(buf: Buffer, start: number, end: number): number {
    let s = start;
    for (let i = start; i < end; i++) if (buf[i] === COLON) s = i + 1;
    const length = end - s;
    const names = this.names;
    for (let k = 0; k < names.length; k++) {
      const n = names[k];
      if (n.length !== length) continue;
      let i = 0;
      while (i < length && buf[s + i] === n[i]) i++;
      if (i === length) return k;
    }
    return -1;
  }

  private keep(buf: Buffer, from: number): void {
    if (buf.length - from > MAX_TOKEN_BYTES) throw tokenTooLongError(this.part);
    this.carry = from < buf.length ? Buffer.from(buf.subarray(from)) : null;
  }

  write(data: Buffer): void {
    if (this.stopped) return;
    const buf = this.carry ? Buffer.concat([this.carry, data]) : data;
    this.carry = null;
    const len = buf.length;
    const events = this.events;
    let pos = 0;
    while (pos < len && !this.stopped) {
      let lt = pos;
      while (lt < len && buf[lt] !== LT) lt++;
      if (lt >= len) return this.keep(buf, pos);
      if (lt > pos) events.text(buf, pos, lt, false);
      pos = lt;
      if (lt + 1 >= len) return this.keep(buf, lt);
      const c1 = buf[lt + 1];
      if (c1 === BANG) {
        const comment = prefixAt(buf, lt, COMMENT_OPEN);
        const cdata = prefixAt(buf, lt, CDATA_OPEN);
        if (comment === 'complete') {
          const end = buf.indexOf(COMMENT_CLOSE, lt + 4);
          if (end === -1) return this.keep(buf, lt);
          pos = end + 3;
        } else if (cdata === 'complete') {
          const end = buf.indexOf(CDATA_CLOSE, lt + 9);
          if (end === -1) return this.keep(buf, lt);
          events.text(buf, lt + 9, end, true);
          pos = end + 3;
        } else if (comment === 'partial' || cdata === 'partial') {
          return this.keep(buf, lt);
        } else {
          throw unsupportedMarkup(this.part);
        }
        continue;
      }
      if (c1 === QUESTION) {
        const end = buf.indexOf(PI_CLOSE, lt + 2);
        if (end === -1) return this.keep(buf, lt);
        pos = end + 2;
        continue;
      }
      // An element tag: its '>' is the first one outside quoted attribute values.
      let gt = lt + 1;
      let quote = 0;
      for (; gt < len; gt++) {
        const b = buf[gt];
        if (quote !== 0) {
          if (b === quote) quote = 0;
        } else if (b === GT) break;
        else if (b === DQUOTE || b === SQUOTE) quote = b;
      }
      if (gt >= len) return this.keep(buf, lt);
      if (c1 === SLASH) {
        let e = lt + 2;
        while (e < gt && !isSpace(buf[e])) e++;
        events.close(this.nameId(buf, lt + 2, e));
      } else {
        const selfClosing = buf[gt - 1] === SLASH;
        const tagEnd = selfClosing ? gt - 1 : gt;
        let e = lt + 1;
        while (e < tagEnd && !isSpace(buf[e])) e++;
        events.open(this.nameId(buf, lt + 1, e), buf, e, tagEnd, selfClosing);
      }
      pos = gt + 1;
    }
  }
}

/**
 * Finds single-letter attributes (`r`, `s`, `t`, …) of a tag: their values' bounds go into
 * `into[letter * 2]` and `into[letter * 2 + 1]` (letter = char code - 97), -1 when absent.
 * Other attributes are skipped.
 */
export function letterAttributes(buf: Buffer, start: number, end: number, into: Int32Array): void {
  into.fill(-1);
  let i = start;
  while (i < end) {
    while (i < end && isSpace(buf[i])) i++;
    const nameStart = i;
    while (i < end && buf[i] !== 0x3d && !isSpace(buf[i])) i++;
    const nameEnd = i;
    while (i < end && isSpace(buf[i])) i++;
    if (i >= end || buf[i] !== 0x3d) return;
    i++;
    while (i < end && isSpace(buf[i])) i++;
    const quote = buf[i];
    if (quote !== DQUOTE && quote !== SQUOTE) return;
    const valueStart = ++i;
    while (i < end && buf[i] !== quote) i++;
    const valueEnd = i;
    i++;
    if (nameEnd - nameStart === 1) {
      const letter = buf[nameStart] - 97;
      if (letter >= 0 && letter < 26) {
        into[letter * 2] = valueStart;
        into[letter * 2 + 1] = valueEnd;
      }
    }
  }
}

/** The text of `buf[start, end)`, decoded from UTF-8, with XML's entities and character references decoded. */
export function xmlText(buf: Buffer, start: number, end: number): string {
  const raw = utf8Text(buf, start, end);
  return raw.includes('&') ? decodeXmlText(raw) : raw;
}

export function decodeXmlText(text: string): string {
  return text.replace(/&(lt|gt|amp|quot|apos|#\d{1,7}|#x[0-9a-fA-F]{1,6});/g, (whole, e: string) => {
    switch (e) {
      case 'lt':
        return '<';
      case 'gt':
        return '>';
      case 'amp':
        return '&';
      case 'quot':
        return '"';
      case 'apos':
        return "'";
      default: {
        const code = e[1] === 'x' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
        return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
      }
    }
  });
}

/** The attributes of a tag's inside (`name="value"`), decoded. */
export function xmlAttributes(source: string): Record<string, string> {
  const attrs: Record<string, string> = {};
  // A name must follow whitespace (or the start): no backtracking through a long run of letters.
  for (const m of source.matchAll(/(?:^|\s)([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) attrs[m[1]] = decodeXmlText(m[2] ?? m[3]);
  return attrs;
}
