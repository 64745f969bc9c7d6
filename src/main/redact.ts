/**
 * Tokens must never reach logs, errors or files. Known tokens are registered here when they are
 * loaded and removed from any text that leaves the main side; `Bearer …` is always masked.
 *
 * A token is caught in every form a message, a URL, a header or a service echoing it back may
 * carry it (issue 23, item 16), character by character, so forms may even be mixed:
 * - as typed, in any letter case;
 * - %-encoded (any character, either case of hex digits, `+` for a space, encoded twice: `%25…`);
 * - hex: its UTF-8 bytes as hex digits (`4c76…`, `\x4c`, `0x4c`);
 * - HTML entities: `&#76;`, `&#x4C;`, named ones (`&amp;`, `&quot;`, `&plus;`, `&sol;`…), escaped twice (`&amp;#43;`);
 * - JSON or JavaScript escapes: `\"`, `\\`, `\/`, `\u00f1`, `\x2b`, escaped again inside another string;
 * - UTF-16 hex: each character as four hex digits (`004c0076…`, or `4c007600…` little-endian);
 * - full-width: `Ｌｖ３…` (U+FF01–U+FF5E for `!`–`~`, U+3000 for a space);
 * - spaced out: whitespace, soft hyphens (U+00AD), zero-width or other invisible characters, or
 *   terminal (ANSI) escape sequences — raw or escaped as `\u001b[31m` — between its characters;
 * - a part of it: any run of 16 or more of its characters, wherever in the token it starts (its
 *   first 16, its last 16, a run from the middle: a service or a log that cuts it);
 * - inside base64, standard or URL-safe, at any byte offset, which covers the base64 of the token
 *   alone, of `Bearer <token>` and of the `user:token` a Basic header holds — and base64 of such a
 *   base64 text (encoded twice).
 */
const REDACTED = '[redacted]';

/** Shortest token whose base64 forms are looked for: shorter ones would match ordinary words. */
const MIN_BASE64_TOKEN = 8;

/** A part of the token is caught from this many of its characters in a row on. */
const MIN_RUN = 16;

/**
 * A run of MIN_RUN characters always holds the ANCHOR characters that start at a multiple of
 * ANCHOR (as MIN_RUN ≥ 2 × ANCHOR): a part of the token is found by those, then followed both ways
 * as far as the token goes on (runSpans). One pattern per starting point and length instead would
 * grow with the square of the token's length.
 */
const ANCHOR = 8;

/** How far back a character's form may start (its longest forms: escaped entities, %25 repeated). */
const LOOK_BACK = 96;

interface SecretPatterns {
  /** The whole token in any of the forms above but base64. */
  plain: RegExp;
  /** Parts of the token (null for a token shorter than MIN_RUN). */
  runs: RunPatterns | null;
  /** The token's characters in base64, once or twice (null for a short token). */
  base64: RegExp | null;
}

interface RunPatterns {
  /** Each character of the token as a regular-expression source (characterPattern). */
  chars: string[];
  /** ANCHOR characters starting at each multiple of ANCHOR, group i+1 for the one at i × ANCHOR. */
  anchors: RegExp;
  /** The patterns of `forward` and `backward`, made when first needed. */
  made: Map<string, RegExp>;
}

const known = new Map<string, SecretPatterns>();

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The base64 characters that depend on the token's bytes alone, when it starts at each of the
 * three byte offsets a base64 group can have: whatever precedes or follows it, an encoding of a
 * text containing the token contains one of these.
 */
function base64Cores(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const cores: string[] = [];
  for (let offset = 0; offset < 3; offset++) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
    const core = encoded.slice(Math.ceil((8 * offset) / 6), Math.floor((8 * (offset + bytes.length)) / 6));
    cores.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return cores;
}

/** One regular expression matching any of `texts`, longest first (so none is cut short by a shorter one inside it). */
function anyOf(texts: Iterable<string>): RegExp {
  return new RegExp(
    [...new Set(texts)]
      .sort((a, b) => b.length - a.length)
      .map(escapeRegExp)
      .join('|'),
    'gi',
  );
}

/** HTML's named entities for characters a token may hold (numeric ones cover every character). */
const NAMED_ENTITIES: Record<string, string[]> = {
  '&': ['amp'],
  '<': ['lt'],
  '>': ['gt'],
  '"': ['quot'],
  "'": ['apos'],
  ' ': ['nbsp'],
  '+': ['plus'],
  '/': ['sol'],
  '=': ['equals'],
  _: ['lowbar', 'UnderBar'],
  '.': ['period'],
  ',': ['comma'],
  ':': ['colon'],
  ';': ['semi'],
  '!': ['excl'],
  '?': ['quest'],
  '#': ['num'],
  $: ['dollar'],
  '%': ['percnt'],
  '*': ['ast', 'midast'],
  '(': ['lpar'],
  ')': ['rpar'],
  '[': ['lsqb', 'lbrack'],
  ']': ['rsqb', 'rbrack'],
  '{': ['lcub', 'lbrace'],
  '}': ['rcub', 'rbrace'],
  '|': ['verbar', 'vert'],
  '\\': ['bsol'],
  '^': ['Hat'],
  '`': ['grave'],
  '@': ['commat'],
  '~': ['tilde'],
  '-': ['hyphen', 'dash'],
};

/**
 * A terminal escape sequence (colour, cursor): ESC `[` … final byte, or ESC and one byte; ESC raw,
 * as JSON/JavaScript escape it (`\u001b`, `\x1b`), as shells write it (`\033`, `\e`), as `cat -v`
 * shows it (`^[`) or as its picture (␛); or the one-byte CSI (U+009B).
 */
const ANSI = '(?:(?:\\x1b|\\\\+(?:u001b|x1b|033|e)|\\^\\[|\\u241b)(?:\\[[0-?]*[ -/]*[@-~]|[@-Z\\\\-_])|\\x9b[0-?]*[ -/]*[@-~])';

/**
 * Between two characters of a token spaced out: a little whitespace, invisible characters (soft
 * hyphen, zero-width and direction marks, word joiners, byte-order mark) or terminal escapes.
 */
const SPACING = `(?:[\\s\\u00a0\\u00ad\\u034f\\u180e\\u200b-\\u200f\\u202a-\\u202e\\u2060-\\u2064\\u2066-\\u2069\\ufeff]|${ANSI}){0,4}`;

const hex2 = (n: number) => n.toString(16).padStart(2, '0');
const hex4 = (n: number) => n.toString(16).padStart(4, '0');

/** Every way one character of the token can be written (as regular-expression sources; the pattern is case-insensitive). */
function characterForms(ch: string): string[] {
  const code = ch.codePointAt(0) ?? 0;
  const bytes = [...Buffer.from(ch, 'utf8')];
  const units = code > 0xffff ? [ch.charCodeAt(0), ch.charCodeAt(1)] : [code];
  const amp = '&(?:amp;)*';
  const forms = [
    escapeRegExp(ch),
    // %-encoded (also twice, %25…), byte by byte; a space may be `+`.
    bytes.map((b) => `%(?:25)*${hex2(b)}`).join(''),
    // UTF-16 hex: each code unit as four hex digits, big-endian (bare, 0x…, U+…) or little-endian;
    // before the bytes' hex, of which it is the longer form for most characters.
    units.map((u) => `(?:0x|u\\+)?${hex4(u)}`).join(''),
    units.map((u) => hex2(u & 0xff) + hex2(u >> 8)).join(''),
    // Hex: the bytes as two hex digits each, bare or as \x / 0x.
    bytes.map((b) => `(?:\\\\x|0x)?${hex2(b)}`).join(''),
    // HTML numeric entities, decimal or hex, semicolon optional, escaped again (&amp;#…).
    `${amp}#0*${code};?`,
    `${amp}#x0*${code.toString(16)};?`,
    // JSON / JavaScript escapes, however many backslashes a string inside a string adds.
    units.map((u) => `\\\\+u${hex4(u)}`).join(''),
    ...(code < 0x100 ? [`\\\\+x${hex2(code)}`] : []),
    ...(NAMED_ENTITIES[ch] ?? []).map((name) => `${amp}${name};`),
  ];
  // Full-width: `Ａ` for `A`, `＝` for `=` (U+FF01–U+FF5E), the ideographic space for a space.
  if (code >= 0x21 && code <= 0x7e) forms.push(escapeRegExp(String.fromCharCode(code + 0xfee0)));
  if (ch === ' ') forms.push('\\+', '\\u3000');
  if (ch === '"' || ch === '/' || ch === "'" || ch === '\\') forms.push(`\\\\+${escapeRegExp(ch)}`);
  return forms;
}

/** One character of the token, as a regular-expression source matching any of its forms. */
function characterPattern(ch: string): string {
  const forms = characterForms(ch);
  // A character whose other forms start with itself (`&` of `&amp;`, `\` of `\u…`) tries them first.
  return `(?:${['&', '\\', '%'].includes(ch) ? [...forms.slice(1), forms[0]].join('|') : forms.join('|')})`;
}

/** The whole token, character by character in any of its forms, spacing allowed between them. */
function plainPattern(chars: string[]): RegExp {
  return new RegExp(chars.join(SPACING), 'gi');
}

/** The patterns that find a part of the token (see RunPatterns); null when it is shorter than MIN_RUN. */
function runPatterns(chars: string[]): RunPatterns | null {
  if (chars.length < MIN_RUN) return null;
  const anchors: string[] = [];
  for (let i = 0; i + ANCHOR <= chars.length; i += ANCHOR) anchors.push(`(${chars.slice(i, i + ANCHOR).join(SPACING)})`);
  return { chars, anchors: new RegExp(anchors.join('|'), 'gi'), made: new Map() };
}

function made(runs: RunPatterns, key: string, source: () => string, flags: string): RegExp {
  let pattern = runs.made.get(key);
  if (!pattern) {
    pattern = new RegExp(source(), flags);
    runs.made.set(key, pattern);
  }
  return pattern;
}

/** Characters `from` to `from + count - 1` of the token, at a position (sticky). */
function forward(runs: RunPatterns, from: number, count: number): RegExp {
  return made(runs, `f${from}:${count}`, () => runs.chars.slice(from, from + count).join(SPACING), 'iy');
}

/** The `count` characters of the token before `before`, with spacing after them, ending the text. */
function backward(runs: RunPatterns, before: number, count: number): RegExp {
  return made(runs, `b${before}:${count}`, () => `${runs.chars.slice(before - count, before).join(SPACING)}${SPACING}$`, 'i');
}

/** The largest count from `least` up to `most` for which `fits` holds (it holds for every smaller count too). */
function largest(least: number, most: number, fits: (count: number) => boolean): number {
  let low = least;
  let high = most;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (fits(mid)) low = mid;
    else high = mid - 1;
  }
  return low;
}

/**
 * The spans of `text` holding MIN_RUN or more characters of the token in a row. Where an anchor
 * matches, the token is followed on from it, and back before it, as far as it goes: each side is
 * one pattern of that many characters, so a character that can be read two ways (`0` or the
 * start of `0030`) is read the way that lets the run go on.
 */
function runSpans(text: string, runs: RunPatterns): [number, number][] {
  const spans: [number, number][] = [];
  const length = runs.chars.length;
  runs.anchors.lastIndex = 0;
  for (let m = runs.anchors.exec(text); m; m = runs.anchors.exec(text)) {
    const at = m.index;
    const first = ANCHOR * m.slice(1).findIndex((group) => group !== undefined);
    const matchesOn = (count: number) => {
      const pattern = forward(runs, first, count);
      pattern.lastIndex = at;
      return pattern.test(text);
    };
    const window = (count: number) => text.slice(Math.max(0, at - count * LOOK_BACK), at);
    const on = largest(ANCHOR, length - first, matchesOn);
    const back = largest(0, first, (count) => backward(runs, first, count).test(window(count)));
    if (on + back < MIN_RUN) {
      runs.anchors.lastIndex = at + 1;
      continue;
    }
    const after = forward(runs, first, on);
    after.lastIndex = at;
    after.test(text);
    const end = after.lastIndex;
    const start = back === 0 ? at : at - (backward(runs, first, back).exec(window(back))?.[0].length ?? 0);
    spans.push([start, end]);
    runs.anchors.lastIndex = end;
  }
  return spans;
}

/** `text` with each span replaced (spans in order; overlapping ones as one). */
function redactSpans(text: string, spans: [number, number][]): string {
  let out = '';
  let last = 0;
  for (const [start, end] of spans) {
    if (end <= last) continue;
    out += text.slice(last, Math.max(start, last)) + (start >= last ? REDACTED : '');
    last = end;
  }
  return out + text.slice(last);
}

function patternsFor(secret: string): SecretPatterns {
  const chars = [...secret].map(characterPattern);
  const once = base64Cores(secret);
  return {
    plain: plainPattern(chars),
    runs: runPatterns(chars),
    base64: Buffer.byteLength(secret) >= MIN_BASE64_TOKEN ? anyOf([...once, ...once.flatMap(base64Cores)]) : null,
  };
}

function isBase64Char(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 43 || c === 47 || c === 45 || c === 95;
}

/** Replaces the whole base64 word around each match, so no neighbouring character leaks the token's bits. */
function redactBase64(text: string, pattern: RegExp): string {
  let out = '';
  let last = 0;
  for (const m of text.matchAll(pattern)) {
    let start = m.index;
    let end = start + m[0].length;
    if (start < last) continue;
    while (start > last && isBase64Char(text.charCodeAt(start - 1))) start--;
    while (end < text.length && isBase64Char(text.charCodeAt(end))) end++;
    for (let pad = 0; pad < 2 && text.charCodeAt(end) === 61; pad++) end++;
    out += text.slice(last, start) + REDACTED;
    last = end;
  }
  return last === 0 ? text : out + text.slice(last);
}

export function registerSecret(secret: string): void {
  if (secret.length >= 4 && !known.has(secret)) known.set(secret, patternsFor(secret));
}

export function redactSecrets(text: string): string {
  let out = text.replace(/Bearer\s+[^\s"',]+/gi, `Bearer ${REDACTED}`);
  for (const { plain, runs, base64 } of known.values()) {
    out = out.replace(plain, REDACTED);
    if (runs) out = redactSpans(out, runSpans(out, runs));
    if (base64) out = redactBase64(out, base64);
  }
  return out;
}
