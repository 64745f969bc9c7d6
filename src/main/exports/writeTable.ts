/**
 * The one spreadsheet exporter of vendesk: tables (rows of values, described by columns) to XLSX
 * through exceljs's streaming WorkbookWriter, or to CSV. Rows are pulled one at a time from an
 * iterable or async iterable and committed as they go, so a 1,000,000-row export never holds the
 * table in memory. In both formats money is a number (Naira, from integer kobo) with a Naira
 * format, counts are integers, dates are dates, and text that a spreadsheet could evaluate as a
 * formula is never one: a plain string cell with the quote-prefix style in XLSX, a quoted text in CSV.
 *
 * A file is written under a temporary name beside `path` and renamed when complete: a failed or
 * cancelled export never leaves a half-written file at `path`.
 *
 * Over 400 lines because the XLSX and CSV writers share one row loop, one temporary-file rename and
 * the styles made once per column (issue 42: a style per cell was most of a 1M-row close pack's time).
 */
import { makePrivate, PRIVATE_FILE_MODE } from '../privateFiles';
import fs from 'node:fs';
import { once } from 'node:events';
import type ExcelJS from 'exceljs';
import { AppError } from '../../shared/appError';
import { columnWidth, DATETIME_HEADER_NOTE, csvDateTime, NUM_FORMATS, toCellValue, type CellValue, type ExportColumn } from './exportColumns';
import { needsNeutralizing, neutralizeCsvText } from './neutralizeFormula';
import { allowQuotePrefix, quoted } from './quotePrefixStyle';

export type { ExportColumn, ExportColumnKind } from './exportColumns';
export { neutralizeFormula, neutralizeCsvText } from './neutralizeFormula';

export type ExportRows = Iterable<readonly unknown[]> | AsyncIterable<readonly unknown[]>;

export interface ExportSheet {
  name: string;
  columns: ExportColumn[];
  rows: ExportRows;
  /** Keep the header row visible while scrolling (default true). */
  freezeHeader?: boolean;
  /** Filter buttons on the header row (default true). */
  autoFilter?: boolean;
  /** Printed landscape with every column on the page's width (a summary that should print on one page). */
  printOnePageWide?: boolean;
  /** One line of text above the header (bold), such as the period the sheet covers; the header then is row 2. */
  caption?: string;
}

export interface ExportOptions {
  /** Called with the number of data rows written so far (every 1,000 rows and at the end). */
  onProgress?(rows: number): void;
  /** Cancels the export; the partial file is removed and an AppError `cancelled` is thrown. */
  signal?: AbortSignal;
}

export interface ExportResult {
  /** Data rows written (headers not counted), over all sheets. */
  rows: number;
  /** Size of the written file. */
  bytes: number;
}

/** Rows sampled at the start of each sheet to size its columns. */
const WIDTH_SAMPLE_ROWS = 200;
const PROGRESS_EVERY = 1000;
/** Rows between turns given to the zip and file streams (and backpressure checks). */
const YIELD_EVERY = 100;

function cancelled(): AppError {
  return new AppError('cancelled', 'The export was cancelled; no file was written.');
}

function exportFailed(path: string, error: unknown): AppError {
  if (error instanceof AppError) return error;
  const detail = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown } | null)?.code;
  const hint =
    code === 'EACCES' || code === 'EPERM' || code === 'EBUSY'
      ? 'The file may be open in Excel or the folder is read-only: close it or choose another place, then export again.'
      : code === 'ENOSPC'
        ? 'The disk is full: free some space or choose another drive, then export again.'
        : code === 'ENOENT'
          ? 'The folder does not exist: choose another place, then export again.'
          : 'Choose another place or file name and export again.';
  return new AppError('export_failed', `The export to ${path} failed: ${detail}.`, hint, { code: typeof code === 'string' ? code : undefined });
}

function temporaryPath(path: string): string {
  return `${path}.${process.pid}.${Date.now().toString(36)}.partial`;
}

function removeQuietly(path: string): void {
  try {
    fs.rmSync(path, { force: true });
  } catch {
    // nothing more can be done; the name says it is partial
  }
}

/** Gives other work (the zip and file streams) a turn, so output drains while rows are produced. */
function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

function validateColumns(columns: ExportColumn[], where: string): void {
  if (columns.length === 0) throw new AppError('export_no_columns', `${where} has no columns to export.`);
}

/** Excel sheet names: at most 31 characters, none of `[]:*?/\`, unique, not empty. */
export function sheetName(name: string, taken: Set<string>): string {
  let base =
    name
      .replace(/[[\]:*?/\\]/g, ' ')
      .replace(/^'+|'+$/g, '')
      .trim()
      .slice(0, 31) || 'Sheet';
  let candidate = base;
  for (let n = 2; taken.has(candidate.toLowerCase()); n++) {
    const suffix = ` (${n})`;
    base = base.slice(0, 31 - suffix.length);
    candidate = base + suffix;
  }
  taken.add(candidate.toLowerCase());
  return candidate;
}

/** Bytes a downstream stream may hold before the writer waits for it. */
const HIGH_WATER_BYTES = 1024 * 1024;

interface Drainable {
  once(event: 'drain' | 'close' | 'error', listener: () => void): unknown;
  removeListener(event: 'drain' | 'close' | 'error', listener: () => void): unknown;
}

function isDrainable(value: unknown): value is Drainable {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { once?: unknown }).once === 'function' &&
    typeof (value as { removeListener?: unknown }).removeListener === 'function'
  );
}

/** Bytes waiting in a writable; `_writableState.length` for readable-stream v2 (archiver's). */
function bufferedBytes(stream: unknown): number {
  const s = stream as { writableLength?: unknown; _writableState?: { length?: unknown } };
  if (typeof s.writableLength === 'number') return s.writableLength;
  if (typeof s._writableState?.length === 'number') return s._writableState.length;
  return 0;
}

/**
 * exceljs's sheet stream pushes into the zip's deflate stream without honouring backpressure, so
 * when rows come faster than they compress the compressed-but-unwritten data piles up (hundreds
 * of MB for a million rows). Waiting for the streams it feeds to drain keeps memory flat. The
 * streams are found through exceljs internals (`worksheet.stream.pipes`); if they are not there,
 * this only yields to the event loop.
 */
async function waitForDrain(targets: readonly unknown[]): Promise<void> {
  for (const target of targets) {
    if (!isDrainable(target) || bufferedBytes(target) < HIGH_WATER_BYTES) continue;
    await new Promise<void>((resolve) => {
      const done = () => {
        target.removeListener('drain', done);
        target.removeListener('close', done);
        target.removeListener('error', done);
        resolve();
      };
      target.once('drain', done);
      target.once('close', done);
      target.once('error', done);
    });
  }
}

function downstreamOf(worksheet: unknown): readonly unknown[] {
  const stream = (worksheet as { stream?: { pipes?: unknown } } | null)?.stream;
  return Array.isArray(stream?.pipes) ? stream.pipes : [];
}

class RowCounter {
  total = 0;
  /** Streams to wait for every PROGRESS_EVERY rows (the current sheet's zip entry). */
  downstream: () => readonly unknown[] = () => [];
  constructor(private readonly options: ExportOptions) {}

  async tick(): Promise<void> {
    this.total++;
    if (this.total % YIELD_EVERY === 0) {
      if (this.total % PROGRESS_EVERY === 0) this.options.onProgress?.(this.total);
      await yieldToEventLoop();
      await waitForDrain(this.downstream());
    }
    if (this.options.signal?.aborted) throw cancelled();
  }
}

/**
 * Writes sheets of rows to an XLSX file with exceljs's streaming writer. Each sheet has a bold
 * header row (frozen, with filter buttons unless turned off) and columns sized from the header
 * and the first rows. Cells: `text` as plain string cells holding exactly the text (one starting
 * with `=`, `+`, `-`, `@`, tab or CR gets the quote-prefix style, so editing it in Excel keeps it
 * text; it is never a formula), `naira` as numbers in Naira with `"₦"#,##0.00`,
 * `integer`/`number` as numbers, `datetime`/`date` as Excel dates (Lagos wall-clock time; the
 * header of a date-time column carries a note naming the zone).
 */
export async function writeTableXlsx(path: string, sheets: ExportSheet[], options: ExportOptions = {}): Promise<ExportResult> {
  if (sheets.length === 0) throw new AppError('export_no_sheets', 'There is nothing to export.');
  sheets.forEach((sheet) => validateColumns(sheet.columns, `Sheet "${sheet.name}"`));
  if (options.signal?.aborted) throw cancelled();

  const tmp = temporaryPath(path);
  const counter = new RowCounter(options);
  let workbook: ExcelJS.stream.xlsx.WorkbookWriter | null = null;
  try {
    // exceljs takes ~0.25 s to load: only a workbook being written loads it, not every start of the app or a command.
    const { default: excel } = await import('exceljs');
    workbook = new excel.stream.xlsx.WorkbookWriter({ filename: tmp, useStyles: true, useSharedStrings: false });
    allowQuotePrefix(workbook);
    workbook.creator = 'vendesk';
    workbook.created = new Date();
    const taken = new Set<string>();
    for (const sheet of sheets) {
      await writeSheet(workbook, sheet, sheetName(sheet.name, taken), counter);
    }
    await workbook.commit();
    workbook = null;
    makePrivate(tmp);
    fs.renameSync(tmp, path);
  } catch (error) {
    if (workbook) {
      try {
        await workbook.commit();
      } catch {
        // the file is removed below either way
      }
    }
    removeQuietly(tmp);
    throw exportFailed(path, error);
  }
  options.onProgress?.(counter.total);
  return { rows: counter.total, bytes: fs.statSync(path).size };
}

const HEADER_STYLE: Partial<ExcelJS.Style> = { font: { bold: true }, alignment: { vertical: 'middle' } };
const HEADER_QUOTED = quoted(HEADER_STYLE);
/** One style object for every quoted text cell, so exceljs registers it once. */
const QUOTED = quoted();
/** Every data row's own style (none), one object so exceljs registers it once rather than once a row. */
const ROW_STYLE: Partial<ExcelJS.Style> = {};

async function writeSheet(workbook: ExcelJS.stream.xlsx.WorkbookWriter, sheet: ExportSheet, name: string, counter: RowCounter): Promise<void> {
  const { columns } = sheet;
  const freeze = sheet.freezeHeader ?? true;
  const headerRow = sheet.caption === undefined ? 1 : 2;
  const worksheet = workbook.addWorksheet(name, {
    views: freeze ? [{ state: 'frozen', xSplit: 0, ySplit: headerRow }] : [],
    ...(sheet.printOnePageWide ? { pageSetup: { orientation: 'landscape', fitToPage: true, fitToWidth: 1, fitToHeight: 0 } } : {}),
  });

  // Sample the first rows to size the columns, then write them and stream the rest.
  const iterator = toAsyncIterator(sheet.rows);
  const sample: CellValue[][] = [];
  let dataRow = 0;
  while (sample.length < WIDTH_SAMPLE_ROWS) {
    const next = await iterator.next();
    if (next.done) break;
    dataRow++;
    sample.push(columns.map((column, i) => toCellValue(column, next.value[i], dataRow)));
  }

  // One style object per column, shared by every cell of it: exceljs registers a style once per
  // object (its styles' WeakMap), where each cell's own merged copy cost a registration — the XML
  // rendered and looked up — per cell (2.9 s of a 60,000-row sheet's 4.9 s of committed rows).
  const cellStyles: Partial<ExcelJS.Style>[] = columns.map((column) => {
    const numFmt = NUM_FORMATS[column.kind];
    return numFmt ? { numFmt } : {};
  });
  worksheet.columns = columns.map((column, i) => ({
    key: `c${i}`,
    width: columnWidth(
      column,
      sample.map((row) => row[i]),
    ),
    ...(NUM_FORMATS[column.kind] ? { style: cellStyles[i] } : {}),
  }));
  if (sheet.caption !== undefined) {
    const caption = worksheet.addRow([sheet.caption]);
    caption.getCell(1).style = needsNeutralizing(sheet.caption) ? HEADER_QUOTED : HEADER_STYLE;
    caption.commit();
  }
  const header = worksheet.addRow(columns.map((column) => column.header));
  header.eachCell((cell, n) => {
    cell.style = needsNeutralizing(String(cell.value)) ? HEADER_QUOTED : HEADER_STYLE;
    if (columns[n - 1]?.kind === 'datetime') cell.note = DATETIME_HEADER_NOTE;
  });
  header.commit();
  if (sheet.autoFilter ?? true) {
    worksheet.autoFilter = { from: { row: headerRow, column: 1 }, to: { row: headerRow, column: columns.length } };
  }
  counter.downstream = () => downstreamOf(worksheet);

  const addRow = (values: CellValue[]) => {
    const row = worksheet.addRow(values);
    (row as unknown as { style: Partial<ExcelJS.Style> }).style = ROW_STYLE; // a row's style is not in exceljs's types
    for (let i = 0; i < columns.length; i++) {
      const value = values[i];
      row.getCell(i + 1).style = columns[i].kind === 'text' && typeof value === 'string' && needsNeutralizing(value) ? QUOTED : cellStyles[i];
    }
    row.commit();
  };
  for (const values of sample) {
    addRow(values);
    await counter.tick();
  }
  for (;;) {
    const next = await iterator.next();
    if (next.done) break;
    dataRow++;
    addRow(columns.map((column, i) => toCellValue(column, next.value[i], dataRow)));
    await counter.tick();
  }
  counter.downstream = () => [];
  worksheet.commit();
}

function toAsyncIterator<T>(rows: Iterable<T> | AsyncIterable<T>): AsyncIterator<T> {
  if (Symbol.asyncIterator in rows) return (rows as AsyncIterable<T>)[Symbol.asyncIterator]();
  const sync = (rows as Iterable<T>)[Symbol.iterator]();
  return {
    next: async () => sync.next(),
    return: async (value?: unknown) => sync.return?.(value) ?? { done: true, value: undefined },
  };
}

// ---------------------------------------------------------------- CSV

/** Quoted: separators (`;` too, so a reader guessing the separator is not misled), quotes, line breaks, edge spaces. */
const CSV_NEEDS_QUOTES = /[",;\r\n]|^\s|\s$/;

function csvField(text: string): string {
  return CSV_NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Integer kobo as plain Naira text with two decimals, exactly (`-1234567` → `-12345.67`). */
function koboToPlainNaira(kobo: number): string {
  const sign = kobo < 0 ? '-' : '';
  const abs = Math.abs(kobo);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

function csvCell(column: ExportColumn, raw: unknown, value: CellValue): string {
  if (value === null) return '';
  switch (column.kind) {
    case 'naira':
      return koboToPlainNaira(typeof raw === 'bigint' ? Number(raw) : (raw as number));
    case 'datetime':
      return csvDateTime(value as Date);
    case 'date':
      return (value as Date).toISOString().slice(0, 10);
    case 'integer':
    case 'number':
      return String(value);
    case 'text':
      return csvField(neutralizeCsvText(value as string));
  }
}

/**
 * Writes rows to a CSV file: UTF-8 with a byte-order mark (so Excel reads ₦ and Nigerian names
 * right), CRLF line ends, a header row. Money is a plain number with two decimals (Naira), a
 * date-time `YYYY-MM-DD HH:MM:SS` (Lagos time), a date `YYYY-MM-DD`; text is quoted when needed, and a
 * `'` goes before a formula trigger at its start or after a `,`, `;`, tab or line break inside it, so
 * no cell starts a formula whether the file is opened with `,`, `;` or a tab as the separator.
 */
export async function writeTableCsv(path: string, columns: ExportColumn[], rows: ExportRows, options: ExportOptions = {}): Promise<ExportResult> {
  validateColumns(columns, 'The CSV export');
  if (options.signal?.aborted) throw cancelled();
  const tmp = temporaryPath(path);
  const counter = new RowCounter(options);
  const out = fs.createWriteStream(tmp, { encoding: 'utf8', mode: PRIVATE_FILE_MODE });
  const failed = new Promise<never>((_, reject) => out.once('error', reject));
  failed.catch(() => undefined);
  const write = async (chunk: string) => {
    if (!out.write(chunk)) await Promise.race([once(out, 'drain'), failed]);
  };
  try {
    await write('\uFEFF' + columns.map((column) => csvField(neutralizeCsvText(column.header))).join(',') + '\r\n');
    let buffer = '';
    let dataRow = 0;
    for await (const raw of rows) {
      dataRow++;
      buffer += columns.map((column, i) => csvCell(column, raw[i], toCellValue(column, raw[i], dataRow))).join(',') + '\r\n';
      if (buffer.length >= 64 * 1024) {
        await write(buffer);
        buffer = '';
      }
      await counter.tick();
    }
    if (buffer) await write(buffer);
    const closed = once(out, 'close');
    out.end();
    await Promise.race([closed, failed]);
    fs.renameSync(tmp, path);
  } catch (error) {
    out.destroy();
    removeQuietly(tmp);
    throw exportFailed(path, error);
  }
  options.onProgress?.(counter.total);
  return { rows: counter.total, bytes: fs.statSync(path).size };
}
