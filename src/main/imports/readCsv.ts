/**
 * CSV reading: encoding (UTF-8, UTF-16 LE/BE, Windows-1252) and delimiter (comma, semicolon,
 * tab) detected, BOM stripped, parsed by papaparse as the file streams in. Row numbers count
 * every record, blank ones too, so they match what a spreadsheet program shows.
 */
import { createHash } from 'node:crypto';
import { open, type FileHandle } from 'node:fs/promises';
import { Readable } from 'node:stream';
import Papa from 'papaparse';
import { detectEncoding, type TextEncodingName } from './detectEncoding';
import { emptyFileError, type OpenedSpreadsheet } from './inspectSpreadsheet';
import { ImportError } from './importError';
import { TableBuilder, type CellValue, type ReadSpreadsheetOptions, type SheetTable } from './sheetTable';

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

function parseCsv(
  path: string,
  encoding: TextEncodingName,
  fatal: boolean,
  delimiter: CsvDelimiter,
  options: ReadSpreadsheetOptions,
  maxRows: number,
): Promise<SheetTable> {
  const { signal, onProgress } = options;
  signal?.throwIfAborted();
  const hash = createHash('sha256');
  const decoder = new TextDecoder(encoding, { fatal });
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
        if (text.length > 0) yield text;
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
    if (tail.length > 0) yield tail;
  }
  const closeFile = async () => {
    const h = handle;
    handle = null;
    await h?.close();
  };
  const input = Readable.from(decodedChunks(), { objectMode: true });
  const builder = new TableBuilder(maxRows);
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
        if (error instanceof NotUtf8) fail(error);
        else fail(new ImportError('corrupt', `The CSV file could not be read (${error.message}). Open it in a spreadsheet program, save it again as CSV, and import the new file.`, { cause: error }));
      },
    });
  });
}
