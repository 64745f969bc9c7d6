/**
 * The fast way of reading a UTF-8 CSV vendor export: the file is scanned once as bytes, only the
 * columns matching needs are decoded (reference, id, amount, cost, status, time), and the plain
 * forms of those (`NGN 1,000.00`, `970.5`, ISO times) are read straight from the bytes; anything
 * else goes to the importer's own `amountFromCell`/`dateFromCell`. The other columns of a row are
 * decoded only when the row ends up in a report. A file that turns out not to be UTF-8 goes to
 * the importer.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { amountFromCell, assertMappingComplete, detectDelimiter, detectMapping, ImportError, textFromCell, type CellValue } from '../imports';
import { utf8Text } from '../imports/bytesText';
import { MAX_RECORD_CHARS, recordTooLongError } from '../imports/readCsv';
import { findHeaderRow, noHeaderError, type SheetRow } from '../imports/sheetTable';
import { STATUS_FAILED, STATUS_PENDING, STATUS_SUCCESS, statusCode } from './logColumns';
import { readThroughImporter } from './readExportWithImporter';
import { ColumnBuilder, costFromCell, detailFromCells, EXPORT_MAX_ROWS, timeFromCell, UNREADABLE_KEPT, unreadableError, unreadableMessage, type ReadExportOptions, type UnreadableExportRow, type VendorExport } from './vendorExportColumns';

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

export async function readCsvFast(path: string, bomLength: number, options: ReadExportOptions): Promise<VendorExport> {
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