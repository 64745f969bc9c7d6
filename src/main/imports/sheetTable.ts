/**
 * The one shape every reader produces: the header row and the data rows of one sheet, with
 * row numbers as the spreadsheet program shows them, blank rows left out.
 */
import type { SpreadsheetFormat } from './inspectSpreadsheet';
import { isKnownHeader } from './columnMapping';
import { DEFAULT_MAX_CELLS, ImportError } from './importError';

/** A formula cell gives its cached result; an empty cell is null. */
export type CellValue = string | number | boolean | Date | null;

export interface SheetRow {
  /** Row number as the spreadsheet shows it (1-based, blank rows counted). */
  row: number;
  /** Cells by column: index 0 is column A. */
  cells: CellValue[];
}

export interface SheetTable {
  format: SpreadsheetFormat;
  /** The worksheet read; null for CSV. */
  sheetName: string | null;
  fileHash: string;
  /** Row number of the header row as the spreadsheet shows it. */
  headerRow: number;
  headers: string[];
  rows: SheetRow[];
}

export interface ReadSpreadsheetOptions {
  /** Worksheet to read (XLSX); default the first visible one. */
  sheet?: string;
  /** Most data rows accepted (default 200,000). */
  maxRows?: number;
  /** Largest file accepted in bytes (default 100 MB). */
  maxBytes?: number;
  /**
   * Most cells held, counting the empty ones between values (default 6,000,000): what bounds the
   * memory a sheet can take, whatever its dimensions claim.
   */
  maxCells?: number;
  signal?: AbortSignal;
  /** Called now and then with the number of rows read so far. */
  onProgress?: (rowsRead: number) => void;
}

/** How many non-blank rows at the top of a sheet may come before the header row. */
export const HEADER_SEARCH_ROWS = 20;

/** Excel's own limits: columns A to XFD, rows 1 to 1,048,576, 32,767 characters in a cell. */
export const MAX_COLUMNS = 16_384;
export const MAX_ROW_NUMBER = 1_048_576;
export const MAX_CELL_CHARS = 32_767;

/** `A`, `Z`, `AA`, `XFD` for columns 1, 26, 27, 16,384. */
export function columnLetters(column: number): string {
  let out = '';
  for (let n = column; n > 0; n = Math.floor((n - 1) / 26)) out = String.fromCharCode(65 + ((n - 1) % 26)) + out;
  return out;
}

export function cellTooLongError(where: string): ImportError {
  return new ImportError(
    'too_long',
    `A cell in ${where} holds more than ${MAX_CELL_CHARS.toLocaleString('en-US')} characters, more than a spreadsheet cell can hold; the file was not read. Check that you chose the right file, or open it in Excel or LibreOffice, shorten that cell, save, and import again.`,
  );
}

/**
 * Rows may hold empty cells between their values, but not mostly: past this many cells, those
 * held may be at most SPARSE_FACTOR times the values. A sheet whose rows reach column XFD for
 * one value each is refused after a few hundred rows instead of filling memory with nothing.
 */
const SPARSE_SLACK = 2_000_000;
const SPARSE_FACTOR = 16;

function mostlyEmptyError(row: number, width: number, values: number): ImportError {
  return new ImportError(
    'too_many_cells',
    `The sheet's rows reach far beyond their values (row ${row} reaches column ${columnLetters(width)} with ${values} value${values === 1 ? '' : 's'}), so almost all it would hold is empty cells; it was not read. Delete the empty columns and any stray values far to the right of your data (or copy just the data to a new sheet), save, and import again.`,
  );
}

/** Characters of text a sheet may hold, for each cell of its budget. */
const CHARS_PER_CELL = 8;

function tooMuchTextError(maxChars: number, row: number): ImportError {
  return new ImportError(
    'too_many_cells',
    `The sheet holds more than ${maxChars.toLocaleString('en-US')} characters of text (reached at row ${row}), more than one import can take. Delete the columns the import does not need (long notes, descriptions) or split the file into smaller ones, save, and import again.`,
  );
}

export function tooManyCellsError(maxCells: number, row: number, width: number): ImportError {
  return new ImportError(
    'too_many_cells',
    `The sheet holds more than ${maxCells.toLocaleString('en-US')} cells, counting the empty cells between values (row ${row} reaches column ${columnLetters(width)}), more than one import can take. Delete empty columns and any stray values far to the right of your data (or copy just the data to a new sheet), save, and import again; or split it into smaller files.`,
  );
}

/** True when every cell is empty or whitespace. */
export function isBlankRow(cells: readonly CellValue[]): boolean {
  for (let i = 0; i < cells.length; i++) {
    const c = cells[i];
    if (c === null || c === undefined) continue;
    if (typeof c !== 'string') return false;
    if (c.length !== 0 && (c.charCodeAt(0) > 32 || c.trim() !== '')) return false;
  }
  return true;
}

function cellText(cell: CellValue): string {
  if (cell === null || cell === undefined) return '';
  if (cell instanceof Date) return cell.toISOString();
  return String(cell).trim();
}

function isNumericText(text: string): boolean {
  return /^[+\-₦]?[\d\s,.()+-]+$/.test(text);
}

/**
 * Index (into `rows`) of the header row among the first rows: the first row with two or more
 * known column names, else the first with one, else the first row of two or more text cells
 * none of which looks like a number. -1 when nothing looks like a header.
 */
export function findHeaderRow(rows: readonly SheetRow[]): number {
  const limit = Math.min(rows.length, HEADER_SEARCH_ROWS);
  let firstWithOne = -1;
  let firstAllText = -1;
  for (let i = 0; i < limit; i++) {
    const cells = rows[i].cells;
    let known = 0;
    let texts = 0;
    let nonText = 0;
    for (const cell of cells) {
      const text = cellText(cell);
      if (text === '') continue;
      if (typeof cell === 'string' && !isNumericText(text)) texts++;
      else nonText++;
      if (typeof cell === 'string' && isKnownHeader(text)) known++;
    }
    if (known >= 2) return i;
    if (known === 1 && firstWithOne < 0) firstWithOne = i;
    if (texts >= 2 && nonText === 0 && firstAllText < 0) firstAllText = i;
  }
  if (firstWithOne >= 0) return firstWithOne;
  return firstAllText;
}

export function noHeaderError(): ImportError {
  return new ImportError(
    'no_header',
    `No header row found in the first ${HEADER_SEARCH_ROWS} rows. Add a row of column names above the data (for example Phone, Amount, Network; download a template to see them) and import again.`,
  );
}

export function tooManyRowsError(maxRows: number): ImportError {
  return new ImportError(
    'too_many_rows',
    `The sheet has more than ${maxRows.toLocaleString('en-US')} data rows, the most one import can take. Split it into files of at most ${maxRows.toLocaleString('en-US')} rows and import them one by one.`,
  );
}

/**
 * Collects rows as a reader produces them: skips blank rows, holds the top rows until the
 * header row is known, then counts data rows against the limit. Data rows are cut to the
 * header's width (no column can be mapped beyond it), and every cell held, empty or not, counts
 * against `maxCells`, so no sheet can take more memory than that whatever its shape.
 */
export class TableBuilder {
  private readonly pending: SheetRow[] = [];
  readonly rows: SheetRow[] = [];
  headerIndex = -1;
  headerRow = 0;
  headers: string[] = [];
  private dataRows = 0;
  private cellsHeld = 0;
  private valuesHeld = 0;
  private charsHeld = 0;
  private readonly maxRows: number;
  private readonly maxCells: number;

  constructor(maxRows: number, maxCells = DEFAULT_MAX_CELLS) {
    this.maxRows = maxRows;
    this.maxCells = maxCells;
  }

  /** The widest row worth building: the header's width once it is known. */
  get widthLimit(): number {
    return this.headerIndex < 0 ? MAX_COLUMNS : this.headers.length;
  }

  /**
   * Adds a row (blank rows are ignored: `blank` says so when the caller knows better, e.g. it
   * left out cells beyond {@link widthLimit}); throws `too_many_rows` or `too_many_cells`.
   */
  add(row: number, cells: CellValue[], blank = isBlankRow(cells)): void {
    if (blank) return;
    if (this.headerIndex < 0) {
      this.hold(row, cells);
      this.pending.push({ row, cells });
      if (this.pending.length >= HEADER_SEARCH_ROWS) this.settleHeader();
      return;
    }
    this.addData(row, cells);
  }

  private hold(row: number, cells: CellValue[]): void {
    let values = 0;
    let chars = 0;
    for (let i = 0; i < cells.length; i++) {
      const cell = cells[i];
      if (cell === null || cell === undefined) continue;
      values++;
      if (typeof cell === 'string') chars += cell.length;
    }
    this.cellsHeld += cells.length;
    this.valuesHeld += values;
    this.charsHeld += chars;
    if (this.cellsHeld > this.maxCells) throw tooManyCellsError(this.maxCells, row, cells.length);
    if (this.charsHeld > this.maxCells * CHARS_PER_CELL) throw tooMuchTextError(this.maxCells * CHARS_PER_CELL, row);
    if (this.cellsHeld > SPARSE_SLACK + SPARSE_FACTOR * this.valuesHeld) throw mostlyEmptyError(row, cells.length, values);
  }

  private addData(row: number, cells: CellValue[]): void {
    if (++this.dataRows > this.maxRows) throw tooManyRowsError(this.maxRows);
    if (cells.length > this.headers.length) cells.length = this.headers.length;
    this.hold(row, cells);
    this.rows.push({ row, cells });
  }

  get rowsRead(): number {
    return this.pending.length + this.rows.length;
  }

  private settleHeader(): void {
    const index = findHeaderRow(this.pending);
    if (index < 0) throw noHeaderError();
    this.headerIndex = index;
    const header = this.pending[index];
    this.headerRow = header.row;
    this.headers = header.cells.map((c) => cellText(c));
    const rest = this.pending.slice(index + 1);
    this.pending.length = 0;
    this.cellsHeld = 0;
    this.valuesHeld = 0;
    this.charsHeld = 0;
    this.hold(header.row, header.cells);
    for (const r of rest) this.addData(r.row, r.cells);
  }

  /** Finishes the table; throws `empty` or `no_header` when there is nothing to import. */
  finish(emptyError: () => Error): { headerRow: number; headers: string[]; rows: SheetRow[] } {
    if (this.headerIndex < 0) {
      if (this.pending.length === 0) throw emptyError();
      this.settleHeader();
    }
    return { headerRow: this.headerRow, headers: this.headers, rows: this.rows };
  }
}
