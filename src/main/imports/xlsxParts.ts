/**
 * The workbook-wide parts a worksheet's cells refer to: the shared strings (a cell of type `s`
 * holds an index into them) and the cell styles (a number cell styled as a date is a date).
 * Both are read within budgets, whatever counts the file claims: shared strings streamed through
 * the tokenizer, the styles (kilobytes in a real workbook) read whole up to 16 MB.
 */
import type { FileHandle } from 'node:fs/promises';
import { ImportError } from './importError';
import { MAX_CELL_CHARS, cellTooLongError } from './sheetTable';
import { XmlTokenizer, xmlAttributes, xmlText, type XmlEvents } from './xmlTokens';
import { inflateZipEntry, MAX_TOTAL_UNCOMPRESSED, readZipEntryText, type ZipEntry } from './zipDirectory';

export interface SharedStringBudget {
  /** Most strings accepted. */
  maxStrings: number;
  /** Most characters, all strings together. */
  maxChars: number;
}

function tooManyStringsError(what: string): ImportError {
  return new ImportError(
    'too_many_cells',
    `The workbook holds ${what}, more than one import can take. Copy just the data you need to a new workbook (or split it into smaller files), save, and import again.`,
  );
}

const SI = 0;
const T = 1;
const RPH = 2;

class SharedStringsReader implements XmlEvents {
  readonly strings: string[] = [];
  private current: string | null = null;
  private inText = false;
  private inPhonetic = false;
  private chars = 0;

  constructor(private readonly budget: SharedStringBudget) {}

  open(name: number, _buf: Buffer, _s: number, _e: number, selfClosing: boolean): void {
    if (name === SI) {
      this.current = '';
      if (selfClosing) this.close(SI);
    } else if (name === T) this.inText = !selfClosing && this.current !== null && !this.inPhonetic;
    else if (name === RPH) this.inPhonetic = !selfClosing;
  }

  close(name: number): void {
    if (name === T) this.inText = false;
    else if (name === RPH) this.inPhonetic = false;
    else if (name === SI && this.current !== null) {
      const text = this.current;
      this.current = null;
      this.chars += text.length;
      if (this.strings.length >= this.budget.maxStrings) throw tooManyStringsError(`more than ${this.budget.maxStrings.toLocaleString('en-US')} different texts`);
      if (this.chars > this.budget.maxChars) throw tooManyStringsError(`more than ${this.budget.maxChars.toLocaleString('en-US')} characters of text`);
      this.strings.push(text);
    }
  }

  text(buf: Buffer, start: number, end: number, cdata: boolean): void {
    if (!this.inText || this.current === null) return;
    this.current += cdata ? buf.toString('utf8', start, end) : xmlText(buf, start, end);
    if (this.current.length > MAX_CELL_CHARS) throw cellTooLongError(`the workbook's shared strings (string ${this.strings.length + 1})`);
  }
}

/** Every shared string, in order. */
export async function readSharedStrings(path: string, handle: FileHandle, entry: ZipEntry, budget: SharedStringBudget, signal?: AbortSignal): Promise<string[]> {
  const reader = new SharedStringsReader(budget);
  const tokenizer = new XmlTokenizer(['si', 't', 'rPh'], reader, entry.name);
  for await (const chunk of inflateZipEntry(path, handle, entry, MAX_TOTAL_UNCOMPRESSED)) {
    signal?.throwIfAborted();
    tokenizer.write(chunk);
  }
  return reader.strings;
}

/** Excel's built-in number formats that show a date or a time. */
function isBuiltInDateFormat(id: number): boolean {
  return (id >= 14 && id <= 22) || (id >= 27 && id <= 36) || (id >= 45 && id <= 47) || (id >= 50 && id <= 58);
}

/** A format code shows a date when, outside quoted text, brackets and escapes, it has a date or time letter. */
export function isDateFormatCode(code: string): boolean {
  const bare = code
    .replace(/\[[^\]]*\]/g, '')
    .replace(/"[^"]*"/g, '')
    .replace(/[\\_*]./g, '');
  return /[ymdhsb]/i.test(bare);
}

/** For each cell style (the `s` of a cell), whether it shows a number as a date. */
export async function readDateStyles(handle: FileHandle, entry: ZipEntry | undefined): Promise<Uint8Array> {
  if (!entry) return new Uint8Array(0);
  const xml = await readZipEntryText(handle, entry);
  const custom = new Map<number, string>();
  for (const m of xml.matchAll(/<(?:\w+:)?numFmt\b([^<>]*)>/g)) {
    const attrs = xmlAttributes(m[1]);
    if (attrs.numFmtId !== undefined && attrs.formatCode !== undefined) custom.set(Number(attrs.numFmtId), attrs.formatCode);
  }
  const section = /<(?:\w+:)?cellXfs\b[^<>]*>([\s\S]*?)<\/(?:\w+:)?cellXfs>/.exec(xml);
  if (!section) return new Uint8Array(0);
  const isDate: number[] = [];
  for (const m of section[1].matchAll(/<(?:\w+:)?xf\b([^<>]*)>/g)) {
    const id = Number(xmlAttributes(m[1]).numFmtId ?? '0');
    const code = custom.get(id);
    isDate.push((code !== undefined ? isDateFormatCode(code) : isBuiltInDateFormat(id)) ? 1 : 0);
  }
  return Uint8Array.from(isDate);
}
