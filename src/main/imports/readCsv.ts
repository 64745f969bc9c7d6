/**
 * CSV reading: encoding (UTF-8, UTF-16 LE/BE, Windows-1252) and delimiter (comma, semicolon,
 * tab) detected, BOM stripped, parsed by papaparse as the file streams in. Row numbers count
 * every record, blank ones too, so they match what a spreadsheet program shows.
 */
import { createHash } from 'node:crypto';
import { open, type FileHandle } from 'node:fs/promises';
import { Readable } from 'node:stream';
import Papa from 'papaparse';
import { excerpt } from '../../shared/excerpt';
import { detectEncoding, type TextEncodingName } from './detectEncoding';
import { emptyFileError, type OpenedSpreadsheet } from './inspectSpreadsheet';
import { ImportError } from './importError';
import { MAX_COLUMNS, TableBuilder, type CellValue, type ReadSpreadsheetOptions, type SheetTable } from './sheetTable';

export type CsvDelimiter = ',' | ';' | '\t' | '|';
const CANDIDATES: readonly CsvDelimiter[] = [',', ';', '\t', '|'];

/**
 * The delimiter that splits the first lines into the same number of fields most consistently
 * (quotes respected), so `1,000` amounts in a semicolon file do not fool it.
 */
export function detectDelimiter(text: string): CsvDelimiter {
  // Excel's own hint on the first line: `sep=;`
  const hint = /^\uFEFF?sep=(.)\r?$/im.exec(text.slice(0, text.indexOf('\n') >>> 0));
  if (hint && (CANDIDATES as readonly string[]).includes(hint[1])) return hint[1] as CsvDelimiter;
  const lines: string[] = [];
  let start = 0;
  while (lines.length < 30 && start < text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const line = text.slice(start, end);
    if (line.trim() !== '') lines.push(line);
    start = end + 1;
  }
  let best: CsvDelimiter = ',';
  let bestScore = 0;
  for (const d of CANDIDATES) {
    const counts = new Map<number, number>();
    for (const line of lines) {
      let n = 0;
      let quoted = false;
      for (let i = 0; i < line.length; i++) {
        const ch = line[i];
        if (ch === '"') quoted = !quoted;
        else if (ch === d && !quoted) n++;
      }
      if (n > 0) counts.set(n, (counts.get(n) ?? 0) + 1);
    }
    // Score: lines sharing the most common field count, weighted a little by that count.
    let score = 0;
    for (const [fields, lineCount] of counts) score = Math.max(score, lineCount * 1000 + fields);
    if (score > bestScore) {
      bestScore = score;
      best = d;
    }
  }
  return best;
}

class NotUtf8 extends Error {}

/** Longest CSV record accepted, in characters: no spreadsheet row comes near it. */
export const MAX_RECORD_CHARS = 1_000_000;

/** A CSV record over {@link MAX_RECORD_CHARS}; `start` is its first characters. */
export function recordTooLongError(row: number, start: string): ImportError {
  return new ImportError(
    'too_long',
    `Row ${row.toLocaleString('en-US')} of the file is longer than ${MAX_RECORD_CHARS.toLocaleString('en-US')} characters (it starts "${excerpt(start.replace(/\s+/g, ' '), undefined, false)}"), far more than a spreadsheet row holds; the file was not read. If a quote (") on that row is never closed, the rest of the file runs into one cell: fix the quotes (or check that this is a real CSV file), save it again, and import the new file.`,
  );
}

/**
 * Watches the text as it streams in, before papaparse has to hold it: refuses a record longer
 * than {@link MAX_RECORD_CHARS} or of more than {@link MAX_COLUMNS} fields. Records are told
 * apart as papaparse does (a quote opens a quoted field only at the start of a field, `""` inside
 * one is a quote), so a quote that never closes, or a file with no line breaks, is caught within
 * a megabyte. Line breaks are found with indexOf, so a well-formed file costs a few milliseconds.
 */
export class CsvShapeGuard {
  private inQuotes = false;
  private newline: '' | '\n' | '\r' = '';
  /** The last character of the previous chunk (a line break before the first: a record starts). */
  private lastChar = 10;
  private record = 1;
  /** The current record's text from earlier chunks (it is refused before this grows past the limit). */
  private before = '';

  constructor(private readonly delimiter: number) {}

  check(text: string): void {
    const delimiter = this.delimiter;
    let inQuotes = this.inQuotes;
    let recordStart = 0;
    let i = 0;
    // Like papaparse, one line break for the whole file: \n (also ending \r\n), or \r alone when the file has no \n.
    if (this.newline === '') this.newline = text.includes('\n') ? '\n' : text.includes('\r') ? '\r' : '';
    const newline = this.newline || '\n';
    let quote = text.indexOf('"');
    let next = text.indexOf(newline);
    for (;;) {
      if (quote !== -1 && quote < i) quote = text.indexOf('"', i);
      if (inQuotes) {
        if (quote === -1) break; // the quoted field runs on into the next chunk
        if (text.charCodeAt(quote + 1) === 34)
          i = quote + 2; // "" is a quote inside the field
        else {
          inQuotes = false;
          i = quote + 1;
        }
        continue;
      }
      if (next !== -1 && next < i) next = text.indexOf(newline, i);
      const lineBreak = next;
      if (quote !== -1 && (lineBreak === -1 || quote < lineBreak)) {
        const previous = quote === 0 ? this.lastChar : text.charCodeAt(quote - 1);
        if (previous === delimiter || previous === 10 || previous === 13) inQuotes = true;
        i = quote + 1;
        continue;
      }
      if (lineBreak === -1) break;
      this.endRecord(text, recordStart, lineBreak);
      i = recordStart = lineBreak + 1;
    }
    this.inQuotes = inQuotes;
    if (text.length > 0) this.lastChar = text.charCodeAt(text.length - 1);
    // The record still open goes on in the next chunk.
    if (recordStart < text.length) {
      this.before += text.slice(recordStart);
      this.checkFields(this.before, text, recordStart);
      if (this.before.length > MAX_RECORD_CHARS) throw recordTooLongError(this.record, this.start(text, recordStart));
    }
  }

  private endRecord(text: string, start: number, lineBreak: number): void {
    const record = this.before.length > 0 ? this.before + text.slice(start, lineBreak) : null;
    let length = this.before.length + lineBreak - start;
    // The \r of a \r\n is not part of the record.
    if (length > 0 && (record !== null ? record.charCodeAt(record.length - 1) : text.charCodeAt(lineBreak - 1)) === 13) length--;
    if (length > MAX_RECORD_CHARS) throw recordTooLongError(this.record, this.start(text, start));
    if (length >= MAX_COLUMNS) this.checkFields(record ?? text.slice(start, lineBreak), text, start);
    this.record++;
    this.before = '';
  }

  /** A record shorter than the column limit cannot have more fields than it, so only long ones are counted. */
  private checkFields(record: string, text: string, start: number): void {
    if (record.length >= MAX_COLUMNS && this.fields(record) > MAX_COLUMNS) throw this.tooWide(text, start);
  }

  /** Fields of one record, quotes respected (only for the rare record long enough to have too many). */
  private fields(record: string): number {
    let fields = 1;
    let inQuotes = false;
    for (let i = 0; i < record.length; i++) {
      const c = record.charCodeAt(i);
      if (inQuotes) {
        if (c === 34) {
          if (record.charCodeAt(i + 1) === 34) i++;
          else inQuotes = false;
        }
      } else if (c === 34 && (i === 0 || record.charCodeAt(i - 1) === this.delimiter)) inQuotes = true;
      else if (c === this.delimiter) fields++;
    }
    return fields;
  }

  /** The first characters of the current record, which began at `recordStart` of `text` (or before it). */
  private start(text: string, recordStart: number): string {
    return (this.before.slice(0, 200) + text.slice(recordStart, recordStart + 200)).slice(0, 200);
  }

  private tooWide(text: string, recordStart: number): ImportError {
    return new ImportError(
      'too_wide',
      `Row ${this.record.toLocaleString('en-US')} of the file has more than ${MAX_COLUMNS.toLocaleString('en-US')} columns (it starts "${excerpt(this.start(text, recordStart).replace(/\s+/g, ' '), undefined, false)}"), more than a spreadsheet can have; the file was not read. Check that you chose the right file and that it is a real CSV, save it again, and import the new file.`,
    );
  }
}

const READ_CHUNK_BYTES = 1 << 20;

export async function readCsv(path: string, opened: OpenedSpreadsheet, options: ReadSpreadsheetOptions, maxRows: number): Promise<SheetTable> {
  const detected = detectEncoding(opened.sample);
  const delimiter = detectDelimiter(new TextDecoder(detected.encoding).decode(opened.sample));
  try {
    return await parseCsv(path, detected.encoding, detected.encoding === 'utf-8' && detected.bomLength === 0, delimiter, options, maxRows);
  } catch (error) {
    // Invalid UTF-8 beyond the sample: the file is Windows-1252 after all; read it again as such.
    if (error instanceof NotUtf8) return parseCsv(path, 'windows-1252', false, delimiter, options, maxRows);
    throw error;
  }
}

function parseCsv(path: string, encoding: TextEncodingName, fatal: boolean, delimiter: CsvDelimiter, options: ReadSpreadsheetOptions, maxRows: number): Promise<SheetTable> {
  const { signal, onProgress } = options;
  signal?.throwIfAborted();
  const hash = createHash('sha256');
  const decoder = new TextDecoder(encoding, { fatal });
  const guard = new CsvShapeGuard(delimiter.charCodeAt(0));
  // One buffer, read into again and again: the file's bytes are decoded at once into the text
  // papaparse needs, so at most one chunk of raw bytes is held at any time (a stream would
  // allocate a fresh buffer per chunk and leave them all for the garbage collector).
  let handle: FileHandle | null = null;
  async function* decodedChunks(): AsyncGenerator<string> {
    handle = await open(path, 'r');
    try {
      const buffer = Buffer.allocUnsafe(READ_CHUNK_BYTES);
      for (;;) {
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
        if (bytesRead === 0) break;
        const bytes = buffer.subarray(0, bytesRead);
        hash.update(bytes);
        let text: string;
        try {
          text = decoder.decode(bytes, { stream: true });
        } catch {
          throw new NotUtf8();
        }
        if (text.length > 0) {
          guard.check(text);
          yield text;
        }
      }
    } finally {
      await closeFile();
    }
    let tail: string;
    try {
      tail = decoder.decode();
    } catch {
      throw new NotUtf8();
    }
    if (tail.length > 0) {
      guard.check(tail);
      yield tail;
    }
  }
  const closeFile = async () => {
    const h = handle;
    handle = null;
    await h?.close();
  };
  const input = Readable.from(decodedChunks(), { objectMode: true });
  const builder = new TableBuilder(maxRows, options.maxCells);
  let rowNumber = 0;

  return new Promise<SheetTable>((resolve, reject) => {
    let settled = false;
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      input.destroy();
      void closeFile().catch(() => undefined);
      reject(error);
    };
    let parserRef: Papa.Parser | null = null;
    const onAbort = () => {
      fail(signal?.reason ?? new DOMException('The import was cancelled', 'AbortError'));
      parserRef?.abort();
    };
    signal?.addEventListener('abort', onAbort, { once: true });

    Papa.parse<string[]>(input, {
      delimiter,
      quoteChar: '"',
      skipEmptyLines: false,
      chunk(results, parser) {
        parserRef = parser;
        if (settled) return;
        try {
          const records = results.data as unknown as CellValue[][];
          for (let r = 0; r < records.length; r++) {
            const cells = records[r];
            rowNumber++;
            for (let c = 0; c < cells.length; c++) if (cells[c] === '') cells[c] = null;
            builder.add(rowNumber, cells);
          }
          onProgress?.(builder.rowsRead);
        } catch (error) {
          fail(error); // before abort(): papaparse calls complete() from inside abort()
          parser.abort();
        }
      },
      complete() {
        if (settled) return;
        try {
          const { headerRow, headers, rows } = builder.finish(emptyFileError);
          settled = true;
          signal?.removeEventListener('abort', onAbort);
          resolve({ format: 'csv', sheetName: null, fileHash: hash.digest('hex'), headerRow, headers, rows });
        } catch (error) {
          fail(error);
        }
      },
      error(error: Error) {
        if (error instanceof NotUtf8 || error instanceof ImportError) fail(error);
        else
          fail(
            new ImportError(
              'corrupt',
              `The CSV file could not be read (${excerpt(error.message, 120)}). Open it in a spreadsheet program, save it again as CSV, and import the new file.`,
              { cause: error },
            ),
          );
      },
    });
  });
}
