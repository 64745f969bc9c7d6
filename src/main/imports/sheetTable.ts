/**
 * The one shape every reader produces: the header row and the data rows of one sheet, with
 * row numbers as the spreadsheet program shows them, blank rows left out.
 */
import type { SpreadsheetFormat } from './inspectSpreadsheet';
import { isKnownHeader } from './columnMapping';
import { ImportError } from './importError';

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
  signal?: AbortSignal;
  /** Called now and then with the number of rows read so far. */
  onProgress?: (rowsRead: number) => void;
}

/** How many non-blank rows at the top of a sheet may come before the header row. */
export const HEADER_SEARCH_ROWS = 20;

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
 * header row is known, then counts data rows against the limit.
 */
export class TableBuilder {
  private readonly pending: SheetRow[] = [];
  readonly rows: SheetRow[] = [];
  headerIndex = -1;
  headerRow = 0;
  headers: string[] = [];
  private dataRows = 0;
  private readonly maxRows: number;

  constructor(maxRows: number) {
    this.maxRows = maxRows;
  }

  /** Adds a row (blank rows are ignored); throws `too_many_rows` past the limit. */
  add(row: number, cells: CellValue[]): void {
    if (isBlankRow(cells)) return;
    if (this.headerIndex < 0) {
      this.pending.push({ row, cells });
      if (this.pending.length >= HEADER_SEARCH_ROWS) this.settleHeader();
      return;
    }
    if (++this.dataRows > this.maxRows) throw tooManyRowsError(this.maxRows);
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
    for (const r of rest) {
      if (++this.dataRows > this.maxRows) throw tooManyRowsError(this.maxRows);
      this.rows.push(r);
    }
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
