/**
 * What a vendor export is read into, shared by the two ways of reading it (the fast CSV byte path
 * and the importer): the result and its limits, the typed columns that grow as rows arrive, the
 * readers of single cells, and the messages for rows that cannot be read.
 */
import { AppError } from '../../shared/appError';
import { excerpt } from '../../shared/excerpt';
import { grownColumn } from '../typedColumns';
import { amountFromCell, dateFromCell, phoneFromCell, textFromCell, type CellValue, type ColumnMapping, type FieldKey } from '../imports';
import type { EntryDetail, LogColumns } from './logColumns';

/**
 * A vendor export may be large: a UTF-8 CSV up to 4 GB and 15,000,000 rows (read a megabyte at a
 * time, its rows kept as typed columns: issue 42 reconciles 10,000,000); an export read through
 * the importer (XLSX, other encodings), whole in memory as cells, up to 1 GB and 5,000,000 rows.
 */
export const EXPORT_MAX_BYTES = 4 * 1024 * 1024 * 1024;
export const EXPORT_MAX_ROWS = 15_000_000;
export const IMPORTER_EXPORT_MAX_BYTES = 1024 * 1024 * 1024;
export const IMPORTER_EXPORT_MAX_ROWS = 5_000_000;
/** Cells an export read through the importer (XLSX, other encodings) may hold: a full-height sheet (1,048,576 rows) of 30 columns. */
export const EXPORT_MAX_CELLS = 32_000_000;

export interface UnreadableExportRow {
  row: number;
  message: string;
}

export interface VendorExport {
  columns: LogColumns;
  format: 'csv' | 'xlsx';
  fileHash: string;
  sheetName: string | null;
  headers: string[];
  mapping: ColumnMapping;
  /** Rows left out because an amount or the status could not be read. */
  unreadable: UnreadableExportRow[];
  unreadableCount: number;
}

export interface ReadExportOptions {
  sheet?: string;
  /** Leave the SHA-256 to the caller (computed elsewhere at the same time); `fileHash` is then ''. */
  skipHash?: boolean;
  signal?: AbortSignal;
  /** A UTF-8 CSV export of at least this many bytes is read in two halves at once (default 16 MB; tests set it low). */
  twoThreadsFromBytes?: number;
  /** Otherwise it is read this many bytes at a time (default 1 MB; tests set it low to cut records), */
  chunkBytes?: number;
  /** and from this many bytes up its second half on a worker thread of its own, from the file (default 16 MB; tests set it low). */
  halvesFromBytes?: number;
  onProgress?: (rowsRead: number, bytesRead: number | null, bytesTotal: number | null) => void;
}

export const UNREADABLE_KEPT = 1000;

export function unreadableError(fileRows: number): AppError {
  return new AppError(
    'export_unreadable',
    `None of the ${fileRows.toLocaleString('en-US')} rows of the export could be read (amount or status missing or not a value).`,
    'Check that this is the vendor transaction log (columns such as transaction_id, amount, status, created_at) and export it again.',
  );
}

/** Grows typed columns as rows arrive. */
export class ColumnBuilder {
  length = 0;
  private cap: number;
  txId: string[] = [];
  logId: Float64Array;
  amountKobo: Float64Array;
  costKobo: Float64Array;
  status: Uint8Array;
  createdMs: Float64Array;
  /** `updated_at` of failed rows (their refund time); NaN otherwise. */
  updatedMs: Float64Array;
  /** Byte offset of the row's record (CSV fast path) or the index into the sheet rows. */
  where: Float64Array;
  rowNumber: Int32Array;

  constructor(capacity: number) {
    this.cap = Math.max(16, capacity);
    this.logId = new Float64Array(this.cap);
    this.amountKobo = new Float64Array(this.cap);
    this.costKobo = new Float64Array(this.cap);
    this.status = new Uint8Array(this.cap);
    this.createdMs = new Float64Array(this.cap);
    this.updatedMs = new Float64Array(this.cap);
    this.where = new Float64Array(this.cap);
    this.rowNumber = new Int32Array(this.cap);
  }

  private grow(): void {
    this.cap *= 2;
    this.logId = grownColumn(this.logId, this.cap);
    this.amountKobo = grownColumn(this.amountKobo, this.cap);
    this.costKobo = grownColumn(this.costKobo, this.cap);
    this.status = grownColumn(this.status, this.cap);
    this.createdMs = grownColumn(this.createdMs, this.cap);
    this.updatedMs = grownColumn(this.updatedMs, this.cap);
    this.where = grownColumn(this.where, this.cap);
    this.rowNumber = grownColumn(this.rowNumber, this.cap);
  }

  push(tx: string, id: number, amount: number, cost: number, status: number, created: number, updated: number, where: number, row: number): void {
    if (this.length === this.cap) this.grow();
    const i = this.length++;
    this.txId.push(tx);
    this.logId[i] = id;
    this.amountKobo[i] = amount;
    this.costKobo[i] = cost;
    this.status[i] = status;
    this.createdMs[i] = created;
    this.updatedMs[i] = updated;
    this.where[i] = where;
    this.rowNumber[i] = row;
  }

  finish(detail: (index: number) => EntryDetail): LogColumns {
    const n = this.length;
    return {
      length: n,
      txId: this.txId,
      logId: this.logId.subarray(0, n),
      amountKobo: this.amountKobo.subarray(0, n),
      costKobo: this.costKobo.subarray(0, n),
      status: this.status.subarray(0, n),
      createdMs: this.createdMs.subarray(0, n),
      updatedMs: this.updatedMs.subarray(0, n),
      rowNumbers: this.rowNumber.subarray(0, n),
      detail,
    };
  }
}

// ---------------------------------------------------------------- cell readers (shared by both paths)

export function detailFromCells(cells: readonly CellValue[], mapping: ColumnMapping, rowNumber: number): EntryDetail {
  const cell = (f: FieldKey): CellValue => {
    const c = mapping[f];
    return c === null ? null : (cells[c] ?? null);
  };
  const phoneCell = cell('phone');
  const phone = phoneFromCell(phoneCell);
  const created = cell('createdAt') ?? cell('time');
  const createdDate = created === null ? null : dateFromCell(created);
  const updated = cell('updatedAt');
  const updatedDate = updated === null ? null : dateFromCell(updated);
  const dataPlan = textFromCell(cell('dataPlan'));
  return {
    phone: phone.ok ? phone.phone : textFromCell(phoneCell),
    type: textFromCell(cell('type')).toUpperCase(),
    product: dataPlan || textFromCell(cell('description')),
    network: textFromCell(cell('network')).toUpperCase(),
    createdAt: createdDate?.ok ? createdDate.value.toISOString() : null,
    updatedMs: updatedDate?.ok ? updatedDate.value.getTime() : NaN,
    rowNumber,
  };
}

export function idFromCell(cell: CellValue): number {
  if (cell === null) return NaN;
  if (typeof cell === 'number') return Number.isInteger(cell) ? cell : NaN;
  const text = textFromCell(cell);
  return /^\d+$/.test(text) ? Number(text) : NaN;
}

/** Cost may be 0 (a free item): the importer's amount rule (more than zero) is for purchases. */
export function costFromCell(cell: CellValue): number {
  if (cell === null) return NaN;
  if (cell === 0 || (typeof cell === 'string' && /^\s*0+(\.0+)?\s*$/.test(cell))) return 0;
  const a = amountFromCell(cell);
  return a.ok ? a.kobo : NaN;
}

export function timeFromCell(cell: CellValue): number {
  if (cell === null) return NaN;
  const d = dateFromCell(cell);
  return d.ok ? d.value.getTime() : NaN;
}

export function unreadableMessage(row: number, amountReason: string | null, badStatus: string | null): string {
  const parts: string[] = [];
  if (amountReason) parts.push(`amount: ${amountReason}`);
  if (badStatus !== null) parts.push(badStatus === '' ? 'status is empty' : `status "${excerpt(badStatus)}" is not SUCCESS, FAILED or PENDING`);
  return `Row ${row}: ${parts.join('; ')}. The row was left out; correct it in the export and reconcile again.`;
}
