/**
 * Reads a vendor-exported transaction log (CSV or XLSX, the spec's log-entry columns in any
 * order and spelling) into {@link LogColumns}, through the one importer: its file checks, its
 * header detection and column mapping (`vendorLog`), and its cell parsing.
 *
 * A vendor export can hold a million rows, which the importer's general path (papaparse, one
 * array of cells per row) reads in several seconds. So a UTF-8 CSV takes a fast path here: the
 * file is scanned once as bytes, only the columns matching needs are decoded (reference, id,
 * amount, cost, status, time), and the plain forms of those (`NGN 1,000.00`, `970.5`, ISO
 * times) are read straight from the bytes; anything else goes to the importer's own
 * `amountFromCell`/`dateFromCell`. The other columns of a row are decoded only when the row ends
 * up in a report. XLSX files and other encodings go through `readSpreadsheet` unchanged.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { AppError } from '../../shared/appError';
import { excerpt } from '../../shared/excerpt';
import {
  amountFromCell,
  assertMappingComplete,
  dateFromCell,
  detectDelimiter,
  detectEncoding,
  detectMapping,
  ImportError,
  phoneFromCell,
  readSpreadsheet,
  textFromCell,
  type CellValue,
  type ColumnMapping,
  type FieldKey,
} from '../imports';
import { utf8Text } from '../imports/bytesText';
import { openSpreadsheet } from '../imports/inspectSpreadsheet';
import { MAX_RECORD_CHARS, recordTooLongError } from '../imports/readCsv';
import { findHeaderRow, noHeaderError, type SheetRow } from '../imports/sheetTable';
import { STATUS_FAILED, STATUS_PENDING, STATUS_SUCCESS, statusCode, type EntryDetail, type LogColumns } from './logColumns';

/** A vendor export may be large: up to 1 GB and 5,000,000 rows. */
export const EXPORT_MAX_BYTES = 1024 * 1024 * 1024;
export const EXPORT_MAX_ROWS = 5_000_000;
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
  onProgress?: (rowsRead: number, bytesRead: number | null, bytesTotal: number | null) => void;
}

const UNREADABLE_KEPT = 1000;

function unreadableError(fileRows: number): AppError {
  return new AppError(
    'export_unreadable',
    `None of the ${fileRows.toLocaleString('en-US')} rows of the export could be read (amount or status missing or not a value).`,
    'Check that this is the vendor transaction log (columns such as transaction_id, amount, status, created_at) and export it again.',
  );
}

/** Grows typed columns as rows arrive. */
class ColumnBuilder {
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
    const g = <T extends Float64Array | Uint8Array | Int32Array>(a: T, make: (n: number) => T): T => {
      const b = make(this.cap);
      b.set(a);
      return b;
    };
    this.logId = g(this.logId, (n) => new Float64Array(n));
    this.amountKobo = g(this.amountKobo, (n) => new Float64Array(n));
    this.costKobo = g(this.costKobo, (n) => new Float64Array(n));
    this.status = g(this.status, (n) => new Uint8Array(n));
    this.createdMs = g(this.createdMs, (n) => new Float64Array(n));
    this.updatedMs = g(this.updatedMs, (n) => new Float64Array(n));
    this.where = g(this.where, (n) => new Float64Array(n));
    this.rowNumber = g(this.rowNumber, (n) => new Int32Array(n));
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

function detailFromCells(cells: readonly CellValue[], mapping: ColumnMapping, rowNumber: number): EntryDetail {
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

function idFromCell(cell: CellValue): number {
  if (cell === null) return NaN;
  if (typeof cell === 'number') return Number.isInteger(cell) ? cell : NaN;
  const text = textFromCell(cell);
  return /^\d+$/.test(text) ? Number(text) : NaN;
}

/** Cost may be 0 (a free item): the importer's amount rule (more than zero) is for purchases. */
function costFromCell(cell: CellValue): number {
  if (cell === null) return NaN;
  if (cell === 0 || (typeof cell === 'string' && /^\s*0+(\.0+)?\s*$/.test(cell))) return 0;
  const a = amountFromCell(cell);
  return a.ok ? a.kobo : NaN;
}

function timeFromCell(cell: CellValue): number {
  if (cell === null) return NaN;
  const d = dateFromCell(cell);
  return d.ok ? d.value.getTime() : NaN;
}

// ---------------------------------------------------------------- entry point

export async function readVendorExport(path: string, options: ReadExportOptions = {}): Promise<VendorExport> {
  options.signal?.throwIfAborted();
  const opened = await openSpreadsheet(path, EXPORT_MAX_BYTES);
  if (opened.format === 'csv') {
    const encoding = detectEncoding(opened.sample);
    if (encoding.encoding === 'utf-8') return readCsvFast(path, encoding.bomLength, options);
  }
  return readThroughImporter(path, options);
}

// ---------------------------------------------------------------- general path: the importer

async function readThroughImporter(path: string, options: ReadExportOptions): Promise<VendorExport> {
  const table = await readSpreadsheet(path, {
    sheet: options.sheet,
    maxRows: EXPORT_MAX_ROWS,
    maxBytes: EXPORT_MAX_BYTES,
    maxCells: EXPORT_MAX_CELLS,
    signal: options.signal,
    onProgress: (rows) => options.onProgress?.(rows, null, null),
  });
  const mapping = detectMapping(table.headers, 'vendorLog');
  assertMappingComplete(mapping, 'vendorLog', table.headers);
  const rows: SheetRow[] = table.rows;
  const b = new ColumnBuilder(rows.length);
  const unreadable: UnreadableExportRow[] = [];
  let unreadableCount = 0;
  const col = (f: FieldKey) => mapping[f];
  const cellAt = (cells: CellValue[], f: FieldKey): CellValue => {
    const c = col(f);
    return c === null ? null : (cells[c] ?? null);
  };
  for (let r = 0; r < rows.length; r++) {
    const { cells, row } = rows[r];
    const amount = amountFromCell(cellAt(cells, 'amount'));
    const status = statusCode(textFromCell(cellAt(cells, 'status')));
    if (!amount.ok || status === 0) {
      unreadableCount++;
      if (unreadable.length < UNREADABLE_KEPT) unreadable.push({ row, message: unreadableMessage(row, amount.ok ? null : amount.reason, status === 0 ? textFromCell(cellAt(cells, 'status')) : null) });
      continue;
    }
    b.push(
      textFromCell(cellAt(cells, 'transactionId')),
      idFromCell(cellAt(cells, 'id')),
      amount.kobo,
      costFromCell(cellAt(cells, 'transactionCost')),
      status,
      timeFromCell(cellAt(cells, 'createdAt') ?? cellAt(cells, 'time')),
      status === STATUS_FAILED ? timeFromCell(cellAt(cells, 'updatedAt')) : NaN,
      r,
      row,
    );
  }
  if (b.length === 0 && rows.length > 0) throw unreadableError(rows.length);
  const where = b.where;
  return {
    columns: b.finish((i) => detailFromCells(rows[where[i]].cells, mapping, rows[where[i]].row)),
    format: table.format,
    fileHash: table.fileHash,
    sheetName: table.sheetName,
    headers: table.headers,
    mapping,
    unreadable,
    unreadableCount,
  };
}

function unreadableMessage(row: number, amountReason: string | null, badStatus: string | null): string {
  const parts: string[] = [];
  if (amountReason) parts.push(`amount: ${amountReason}`);
  if (badStatus !== null) parts.push(badStatus === '' ? 'status is empty' : `status "${excerpt(badStatus)}" is not SUCCESS, FAILED or PENDING`);
  return `Row ${row}: ${parts.join('; ')}. The row was left out; correct it in the export and reconcile again.`;
}

// ---------------------------------------------------------------- fast path: UTF-8 CSV as bytes

const QUOTE = 0x22;
const CR = 0x0d;
const LF = 0x0a;

/** Number of fields of the record scanRecord read last. */
let scannedFields = 0;
/** Whether scanRecord stopped at `stopAfter` fields, before the end of the record. */
let scanStoppedEarly = false;

/**
 * Splits one record starting at `pos` into field bounds (`starts`/`ends`, `quoted`: 1 quoted,
 * 2 with escaped quotes); returns the offset after it and leaves the field count in
 * `scannedFields` (no object per record: this runs a million times).
 */
function scanRecord(buf: Buffer, pos: number, delim: number, starts: Int32Array, ends: Int32Array, quoted: Uint8Array, maxFields: number, stopAfter = Infinity): number {
  const len = buf.length;
  let f = 0;
  let i = pos;
  scanStoppedEarly = false;
  for (;;) {
    let start = i;
    let end: number;
    let q = 0;
    if (i < len && buf[i] === QUOTE) {
      q = 1;
      start = ++i;
      for (;;) {
        while (i < len && buf[i] !== QUOTE) i++;
        if (i + 1 < len && buf[i + 1] === QUOTE) {
          q = 2; // has an escaped quote
          i += 2;
          continue;
        }
        break;
      }
      end = i;
      if (i < len) i++; // closing quote
      while (i < len && buf[i] !== delim && buf[i] !== LF && buf[i] !== CR) i++;
    } else {
      while (i < len) {
        const c = buf[i];
        if (c === delim || c === LF || c === CR) break;
        i++;
      }
      end = i;
    }
    if (f < maxFields) {
      starts[f] = start;
      ends[f] = end;
      quoted[f] = q;
    }
    f++;
    if (i >= len) {
      scannedFields = f;
      return len;
    }
    const c = buf[i];
    if (c === delim) {
      i++;
      if (f >= stopAfter) {
        scanStoppedEarly = true;
        scannedFields = f;
        return i;
      }
      continue;
    }
    if (c === CR) i++;
    if (i < len && buf[i] === LF) i++;
    scannedFields = f;
    return i;
  }
}

function fieldString(buf: Buffer, s: number, e: number, q: number): string {
  const text = utf8Text(buf, s, e);
  return q === 2 ? text.replace(/""/g, '"') : text;
}

function trimStart(buf: Buffer, s: number, e: number): number {
  while (s < e && (buf[s] === 0x20 || buf[s] === 0x09)) s++;
  return s;
}

function trimEnd(buf: Buffer, s: number, e: number): number {
  while (e > s && (buf[e - 1] === 0x20 || buf[e - 1] === 0x09)) e--;
  return e;
}

/**
 * `1500`, `1500.5`, `1,500.00`, `NGN 1,500.00`, `₦1,500.00` straight from the bytes; NaN for
 * anything else (negative, more than two decimals, other text), which the caller hands to the
 * importer's `amountFromCell`.
 */
export function plainKoboFromBytes(buf: Buffer, s: number, e: number): number {
  s = trimStart(buf, s, e);
  e = trimEnd(buf, s, e);
  if (e - s >= 3 && (buf[s] === 0x4e || buf[s] === 0x6e) && (buf[s + 1] === 0x47 || buf[s + 1] === 0x67) && (buf[s + 2] === 0x4e || buf[s + 2] === 0x6e)) {
    s += 3;
  } else if (e - s >= 3 && buf[s] === 0xe2 && buf[s + 1] === 0x82 && buf[s + 2] === 0xa6) {
    s += 3;
  }
  while (s < e && buf[s] === 0x20) s++;
  if (s >= e) return NaN;
  let whole = 0;
  let digits = 0;
  let i = s;
  for (; i < e; i++) {
    const c = buf[i];
    if (c >= 0x30 && c <= 0x39) {
      whole = whole * 10 + (c - 0x30);
      digits++;
    } else if (c === 0x2c && digits > 0) continue;
    else break;
  }
  if (digits === 0) return NaN;
  let frac = 0;
  if (i < e && buf[i] === 0x2e) {
    i++;
    let n = 0;
    for (; i < e && n < 3; i++, n++) {
      const c = buf[i];
      if (c < 0x30 || c > 0x39) break;
      frac = frac * 10 + (c - 0x30);
    }
    if (n === 3) return NaN;
    if (n === 1) frac *= 10;
  }
  if (i !== e) return NaN;
  const kobo = whole * 100 + frac;
  return Number.isSafeInteger(kobo) ? kobo : NaN;
}

function digitsAt(buf: Buffer, i: number, n: number): number {
  let v = 0;
  for (let k = 0; k < n; k++) {
    const c = buf[i + k] - 0x30;
    if (c < 0 || c > 9) return -1;
    v = v * 10 + c;
  }
  return v;
}

/** `2026-11-22T14:14:08.000Z` / `2026-11-22 14:14:08` (UTC) from the bytes; NaN for other forms. */
export function isoMsFromBytes(buf: Buffer, s: number, e: number): number {
  s = trimStart(buf, s, e);
  e = trimEnd(buf, s, e);
  const n = e - s;
  if (n < 19 || buf[s + 4] !== 0x2d || buf[s + 7] !== 0x2d || (buf[s + 10] !== 0x54 && buf[s + 10] !== 0x20) || buf[s + 13] !== 0x3a || buf[s + 16] !== 0x3a) return NaN;
  const y = digitsAt(buf, s, 4);
  const mo = digitsAt(buf, s + 5, 2);
  const d = digitsAt(buf, s + 8, 2);
  const h = digitsAt(buf, s + 11, 2);
  const mi = digitsAt(buf, s + 14, 2);
  const se = digitsAt(buf, s + 17, 2);
  if (y < 0 || mo < 1 || mo > 12 || d < 1 || d > 31 || h < 0 || h > 23 || mi < 0 || mi > 59 || se < 0 || se > 59) return NaN;
  let i = s + 19;
  let ms = 0;
  if (i < e && buf[i] === 0x2e) {
    i++;
    let k = 0;
    let scale = 100;
    for (; i < e && buf[i] >= 0x30 && buf[i] <= 0x39; i++, k++) {
      if (k < 3) ms += (buf[i] - 0x30) * scale;
      scale /= 10;
    }
    if (k === 0) return NaN;
  }
  if (i < e && buf[i] === 0x5a) i++;
  if (i !== e) return NaN;
  return Date.UTC(y, mo - 1, d, h, mi, se, ms);
}

function statusFromBytes(buf: Buffer, s: number, e: number): number {
  s = trimStart(buf, s, e);
  e = trimEnd(buf, s, e);
  const len = e - s;
  const c = buf[s] | 0x20;
  if (len === 7 && c === 0x73 && (buf[s + 6] | 0x20) === 0x73) return STATUS_SUCCESS; // success
  if (len === 6 && c === 0x66 && (buf[s + 5] | 0x20) === 0x64) return STATUS_FAILED; // failed
  if (len === 7 && c === 0x70 && (buf[s + 6] | 0x20) === 0x67) return STATUS_PENDING; // pending
  return statusCode(buf.toString('utf8', s, e));
}

function idFromBytes(buf: Buffer, s: number, e: number): number {
  s = trimStart(buf, s, e);
  e = trimEnd(buf, s, e);
  if (s === e || e - s > 15) return NaN;
  let v = 0;
  for (let i = s; i < e; i++) {
    const c = buf[i] - 0x30;
    if (c < 0 || c > 9) return NaN;
    v = v * 10 + c;
  }
  return v;
}

const YIELD_EVERY_ROWS = 65_536;

async function readCsvFast(path: string, bomLength: number, options: ReadExportOptions): Promise<VendorExport> {
  const buf = fs.readFileSync(path);
  options.signal?.throwIfAborted();
  const fileHash = options.skipHash ? '' : createHash('sha256').update(buf).digest('hex');
  const sampleText = buf.toString('utf8', bomLength, Math.min(buf.length, bomLength + 64 * 1024));
  if (buf.subarray(bomLength).toString('utf8', 0, Math.min(buf.length - bomLength, 1024 * 1024)).includes('\uFFFD')) {
    // Not UTF-8 after all (Windows-1252): the importer reads it with the right decoder.
    return readThroughImporter(path, options);
  }
  const delim = detectDelimiter(sampleText).charCodeAt(0);

  // Header: the importer's rule over the first records.
  const maxFields = 256;
  const starts = new Int32Array(maxFields);
  const ends = new Int32Array(maxFields);
  const quoted = new Uint8Array(maxFields);
  const cellsOf = (fields: number): CellValue[] => {
    const cells: CellValue[] = [];
    for (let f = 0; f < Math.min(fields, maxFields); f++) {
      const text = fieldString(buf, starts[f], ends[f], quoted[f]);
      cells.push(text === '' ? null : text);
    }
    return cells;
  };
  const top: SheetRow[] = [];
  const topEnds: number[] = [];
  let pos = bomLength;
  let rowNumber = 0;
  const refuseLongRecord = (start: number, end: number, row: number) => {
    if (end - start > MAX_RECORD_CHARS) throw recordTooLongError(row, buf.toString('utf8', start, start + 200));
  };
  while (pos < buf.length && top.length < 20) {
    const next = scanRecord(buf, pos, delim, starts, ends, quoted, maxFields);
    rowNumber++;
    refuseLongRecord(pos, next, rowNumber);
    const cells = cellsOf(scannedFields);
    if (cells.some((c) => c !== null && String(c).trim() !== '')) {
      top.push({ row: rowNumber, cells });
      topEnds.push(next);
    }
    pos = next;
  }
  if (top.length === 0) throw new ImportError('empty', 'The export is empty: it has no rows. Export the transaction log again and choose the new file.');
  const headerIndex = findHeaderRow(top);
  if (headerIndex < 0) throw noHeaderError();
  const headers = top[headerIndex].cells.map((c) => textFromCell(c));
  const mapping = detectMapping(headers, 'vendorLog');
  assertMappingComplete(mapping, 'vendorLog', headers);

  // Data: restart right after the header record.
  pos = topEnds[headerIndex];
  rowNumber = top[headerIndex].row;
  const colTx = mapping.transactionId ?? -1;
  const colId = mapping.id ?? -1;
  const colAmount = mapping.amount ?? -1;
  const colCost = mapping.transactionCost ?? -1;
  const colStatus = mapping.status ?? -1;
  const colCreated = mapping.createdAt ?? mapping.time ?? -1;
  const colUpdated = mapping.updatedAt ?? -1;
  // Fields after the last one needed every row are skipped by jumping to the end of the line
  // (native memchr), unless a quote there could hide a line break; failed rows read on for updated_at.
  const lastNeeded = Math.max(colTx, colId, colAmount, colCost, colStatus, colCreated);
  const b = new ColumnBuilder(Math.ceil(buf.length / 120));
  const unreadable: UnreadableExportRow[] = [];
  let unreadableCount = 0;
  let fileRows = 0;
  let sinceYield = 0;
  const fieldCell = (col: number, fields: number): CellValue => (col >= 0 && col < fields ? fieldString(buf, starts[col], ends[col], quoted[col]) || null : null);

  while (pos < buf.length) {
    const recordStart = pos;
    pos = scanRecord(buf, pos, delim, starts, ends, quoted, lastNeeded + 1 < maxFields ? lastNeeded + 1 : maxFields, lastNeeded + 1);
    let fields = scannedFields;
    if (scanStoppedEarly) {
      const lf = buf.indexOf(LF, pos);
      const lineEnd = lf === -1 ? buf.length : lf;
      const quote = buf.indexOf(QUOTE, pos);
      if ((quote !== -1 && quote < lineEnd) || (colUpdated > lastNeeded && statusFromBytes(buf, starts[colStatus], ends[colStatus]) === STATUS_FAILED)) {
        pos = scanRecord(buf, recordStart, delim, starts, ends, quoted, maxFields);
        fields = scannedFields;
      } else {
        pos = lf === -1 ? buf.length : lf + 1;
        fields = lastNeeded + 1;
      }
    }
    rowNumber++;
    refuseLongRecord(recordStart, pos, rowNumber);
    if (fields === 1 && starts[0] === ends[0]) continue; // blank line
    fileRows++;
    if (++sinceYield === YIELD_EVERY_ROWS) {
      sinceYield = 0;
      options.onProgress?.(b.length, pos, buf.length);
      await new Promise<void>((resolve) => setImmediate(resolve));
      options.signal?.throwIfAborted();
    }
    if (b.length >= EXPORT_MAX_ROWS) {
      throw new ImportError('too_many_rows', `The export has more than ${EXPORT_MAX_ROWS.toLocaleString('en-US')} rows. Export a shorter date range and reconcile the ranges one by one.`);
    }

    let amount = colAmount < fields ? plainKoboFromBytes(buf, starts[colAmount], ends[colAmount]) : NaN;
    if (Number.isNaN(amount)) {
      const a = amountFromCell(fieldCell(colAmount, fields));
      if (a.ok) amount = a.kobo;
    }
    const status = colStatus < fields ? statusFromBytes(buf, starts[colStatus], ends[colStatus]) : 0;
    if (Number.isNaN(amount) || status === 0) {
      unreadableCount++;
      if (unreadable.length < UNREADABLE_KEPT) {
        const a = amountFromCell(fieldCell(colAmount, fields));
        unreadable.push({ row: rowNumber, message: unreadableMessage(rowNumber, a.ok ? null : a.reason, status === 0 ? (fieldCell(colStatus, fields) as string | null) ?? '' : null) });
      }
      continue;
    }
    let cost = NaN;
    if (colCost >= 0 && colCost < fields) {
      cost = plainKoboFromBytes(buf, starts[colCost], ends[colCost]);
      if (Number.isNaN(cost)) cost = costFromCell(fieldCell(colCost, fields));
    }
    let created = NaN;
    if (colCreated >= 0 && colCreated < fields) {
      created = isoMsFromBytes(buf, starts[colCreated], ends[colCreated]);
      if (Number.isNaN(created)) created = timeFromCell(fieldCell(colCreated, fields));
    }
    let tx = '';
    if (colTx >= 0 && colTx < fields) {
      const ts = trimStart(buf, starts[colTx], ends[colTx]);
      tx = fieldString(buf, ts, trimEnd(buf, ts, ends[colTx]), quoted[colTx]);
    }
    let updated = NaN;
    if (colUpdated >= 0 && colUpdated < fields && status === STATUS_FAILED) {
      updated = isoMsFromBytes(buf, starts[colUpdated], ends[colUpdated]);
      if (Number.isNaN(updated)) updated = timeFromCell(fieldCell(colUpdated, fields));
    }
    const id = colId >= 0 && colId < fields ? idFromBytes(buf, starts[colId], ends[colId]) : NaN;
    b.push(tx, id, amount, cost, status, created, updated, recordStart, rowNumber);
  }
  options.onProgress?.(b.length, buf.length, buf.length);
  if (b.length === 0 && fileRows > 0) throw unreadableError(fileRows);

  const where = b.where;
  const rows = b.rowNumber;
  const detailStarts = new Int32Array(maxFields);
  const detailEnds = new Int32Array(maxFields);
  const detailQuoted = new Uint8Array(maxFields);
  return {
    columns: b.finish((i) => {
      scanRecord(buf, where[i], delim, detailStarts, detailEnds, detailQuoted, maxFields);
      const fields = scannedFields;
      const cells: CellValue[] = [];
      for (let f = 0; f < Math.min(fields, maxFields); f++) {
        const text = fieldString(buf, detailStarts[f], detailEnds[f], detailQuoted[f]);
        cells.push(text === '' ? null : text);
      }
      return detailFromCells(cells, mapping, rows[i]);
    }),
    format: 'csv',
    fileHash,
    sheetName: null,
    headers,
    mapping,
    unreadable,
    unreadableCount,
  };
}
