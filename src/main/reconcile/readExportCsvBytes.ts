/**
 * The fast way of reading a UTF-8 CSV vendor export: the file is scanned once as bytes, only the
 * columns matching needs are read (reference, id, amount, cost, status, time), and the plain
 * forms of those (`NGN 1,000.00`, `970.5`, ISO times) straight from the bytes (threadedReaders.ts);
 * a row with anything else is read again with the importer's own `amountFromCell`/`dateFromCell`.
 * A plain-ASCII reference stays bytes of the file until a string of it is asked for, and the
 * other columns of a row are decoded only when the row ends up in a report. A large file may be
 * read in two halves at once (below). A file that turns out not to be UTF-8 goes to the importer.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { amountFromCell, assertMappingComplete, detectDelimiter, detectMapping, ImportError, textFromCell, type CellValue } from '../imports';
import { utf8Text } from '../imports/bytesText';
import { MAX_RECORD_CHARS, recordTooLongError } from '../imports/readCsv';
import { findHeaderRow, noHeaderError, type SheetRow } from '../imports/sheetTable';
import { rememberedDetail, spanIs, STATUS_FAILED, statusCode } from './logColumns';
import {
  isoMsFromBytes,
  newExportRecords,
  parseExportRecords,
  parseRecordsInWorker,
  plainKoboFromBytes,
  plainStatusFromBytes,
  scanRecord,
  trimEnd,
  trimStart,
  type ExportRecords,
} from './threadedReaders';
import { readThroughImporter } from './readExportWithImporter';
import {
  costFromCell,
  detailFromCells,
  EXPORT_MAX_ROWS,
  timeFromCell,
  UNREADABLE_KEPT,
  unreadableError,
  unreadableMessage,
  type ReadExportOptions,
  type UnreadableExportRow,
  type VendorExport,
} from './vendorExportColumns';

const LF = 0x0a;

function fieldString(buf: Buffer, s: number, e: number, q: number): string {
  const text = utf8Text(buf, s, e);
  return q === 2 ? text.replace(/""/g, '"') : text;
}

function statusFromBytes(buf: Buffer, s: number, e: number): number {
  const plain = plainStatusFromBytes(buf, s, e);
  return plain !== 0 ? plain : statusCode(buf.toString('utf8', trimStart(buf, s, e), trimEnd(buf, s, e)));
}

const YIELD_EVERY_ROWS = 65_536;

/** Files from this size up are read in two halves at once (the second on a worker thread). */
const TWO_THREADS_FROM_BYTES = 16 * 1024 * 1024;

/** The whole file in memory a worker thread can read too. */
function readShared(path: string): Buffer {
  const fd = fs.openSync(path, 'r');
  try {
    const size = fs.fstatSync(fd).size;
    const buf = Buffer.from(new SharedArrayBuffer(size));
    let at = 0;
    while (at < size) {
      const n = fs.readSync(fd, buf, at, size - at, at);
      if (n === 0) break;
      at += n;
    }
    return at === size ? buf : buf.subarray(0, at);
  } finally {
    fs.closeSync(fd);
  }
}

export async function readCsvFast(path: string, bomLength: number, options: ReadExportOptions): Promise<VendorExport> {
  const twoThreadsFrom = options.twoThreadsFromBytes ?? TWO_THREADS_FROM_BYTES;
  const shared = fs.statSync(path).size >= twoThreadsFrom;
  const buf = shared ? readShared(path) : fs.readFileSync(path);
  options.signal?.throwIfAborted();
  const fileHash = options.skipHash ? '' : createHash('sha256').update(buf).digest('hex');
  const sampleText = buf.toString('utf8', bomLength, Math.min(buf.length, bomLength + 64 * 1024));
  if (
    buf
      .subarray(bomLength)
      .toString('utf8', 0, Math.min(buf.length - bomLength, 1024 * 1024))
      .includes('\uFFFD')
  ) {
    // Not UTF-8 after all (Windows-1252): the importer reads it with the right decoder.
    return readThroughImporter(path, options);
  }
  const delim = detectDelimiter(sampleText).charCodeAt(0);

  // Header: the importer's rule over the first records.
  const maxFields = 256;
  const starts = new Int32Array(maxFields);
  const ends = new Int32Array(maxFields);
  const quoted = new Uint8Array(maxFields);
  const scanned = new Int32Array(2);
  const scanWhole = (at: number): number => scanRecord(buf, at, delim, starts, ends, quoted, maxFields, Infinity, scanned);
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
    const next = scanWhole(pos);
    rowNumber++;
    refuseLongRecord(pos, next, rowNumber);
    const cells = cellsOf(scanned[0]);
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

  // Data: from right after the header record; a large file in two halves, the second read on a
  // worker thread from the first line break after the middle. That break starts a record only if
  // it is not inside a quoted cell: known for sure once the first half is read — when its last
  // record ends exactly there. Otherwise (or when the worker fails) this thread reads on itself.
  const dataStart = topEnds[headerIndex];
  const headerRow = top[headerIndex].row;
  const colStatus = mapping.status ?? -1;
  const colUpdated = mapping.updatedAt ?? -1;
  const cols = Int32Array.of(
    mapping.transactionId ?? -1,
    mapping.id ?? -1,
    mapping.amount ?? -1,
    mapping.transactionCost ?? -1,
    colStatus,
    mapping.createdAt ?? mapping.time ?? -1,
    colUpdated,
  );
  const maxRows = 2 * EXPORT_MAX_ROWS;
  const estimate = Math.ceil(buf.length / 120);
  let split = -1;
  if (shared && buf.length - dataStart >= twoThreadsFrom) {
    const lf = buf.indexOf(LF, dataStart + Math.floor((buf.length - dataStart) / 2));
    if (lf !== -1 && lf + 1 < buf.length) split = lf + 1;
  }
  const first = newExportRecords(dataStart, split === -1 ? buf.length : split, delim, cols, MAX_RECORD_CHARS, maxRows, split === -1 ? estimate : estimate >> 1);
  const second =
    split === -1 ? null : parseRecordsInWorker(buf.buffer as SharedArrayBuffer, newExportRecords(split, buf.length, delim, cols, MAX_RECORD_CHARS, maxRows, estimate >> 1));
  const refuseTooLong = (r: ExportRecords, rowBase: number) => {
    if (r.tooLongRecord !== -1) refuseLongRecord(r.tooLongAt, Infinity, rowBase + r.tooLongRecord);
  };
  const readOn = async (r: ExportRecords) => {
    for (;;) {
      parseExportRecords(buf, r, YIELD_EVERY_ROWS);
      refuseTooLong(r, headerRow);
      if (r.pos >= r.end || r.length >= r.maxRows) return;
      options.onProgress?.(r.length, r.pos, buf.length);
      await new Promise<void>((resolve) => setImmediate(resolve));
      options.signal?.throwIfAborted();
    }
  };
  let rest: ExportRecords | null = null;
  try {
    await readOn(first);
    if (second) {
      if (first.pos === split && first.length < maxRows) rest = await second.result;
      if (rest === null) {
        first.end = buf.length;
        await readOn(first);
      }
    }
  } finally {
    second?.stop();
  }
  if (rest) refuseTooLong(rest, headerRow + first.records);
  const all = rest ? joinRecords(first, rest, headerRow, headerRow + first.records) : { ...first, record: first.record.map((r) => r + headerRow) };
  const fileRows = all.length;
  if (fileRows >= maxRows) throw tooManyRowsError();
  options.onProgress?.(fileRows, buf.length, buf.length);

  // Rows with a cell not in a plain form: read again, whole, with the importer's cell readers.
  const unreadable: UnreadableExportRow[] = [];
  let unreadableCount = 0;
  const keep = all.slowCount > 0 ? new Uint8Array(fileRows).fill(1) : null;
  const colAmount = cols[2];
  const colCost = cols[3];
  const colCreated = cols[5];
  for (let i = 0; keep && i < fileRows; i++) {
    if (all.slow[i] === 0) continue;
    scanWhole(all.where[i]);
    const fields = scanned[0];
    const fieldCell = (col: number): CellValue => (col >= 0 && col < fields ? fieldString(buf, starts[col], ends[col], quoted[col]) || null : null);
    let amount = colAmount < fields ? plainKoboFromBytes(buf, starts[colAmount], ends[colAmount]) : NaN;
    if (Number.isNaN(amount)) {
      const a = amountFromCell(fieldCell(colAmount));
      if (a.ok) amount = a.kobo;
    }
    const status = colStatus < fields ? statusFromBytes(buf, starts[colStatus], ends[colStatus]) : 0;
    if (Number.isNaN(amount) || status === 0) {
      keep[i] = 0;
      unreadableCount++;
      if (unreadable.length < UNREADABLE_KEPT) {
        const a = amountFromCell(fieldCell(colAmount));
        const row = all.record[i];
        unreadable.push({ row, message: unreadableMessage(row, a.ok ? null : a.reason, status === 0 ? ((fieldCell(colStatus) as string | null) ?? '') : null) });
      }
      continue;
    }
    all.amountKobo[i] = amount;
    all.status[i] = status;
    if (colCost >= 0 && colCost < fields) {
      const cost = plainKoboFromBytes(buf, starts[colCost], ends[colCost]);
      all.costKobo[i] = Number.isNaN(cost) ? costFromCell(fieldCell(colCost)) : cost;
    }
    if (colCreated >= 0 && colCreated < fields) {
      const created = isoMsFromBytes(buf, starts[colCreated], ends[colCreated]);
      all.createdMs[i] = Number.isNaN(created) ? timeFromCell(fieldCell(colCreated)) : created;
    }
    let updated = NaN;
    if (colUpdated >= 0 && colUpdated < fields && status === STATUS_FAILED) {
      updated = isoMsFromBytes(buf, starts[colUpdated], ends[colUpdated]);
      if (Number.isNaN(updated)) updated = timeFromCell(fieldCell(colUpdated));
    }
    all.updatedMs[i] = updated;
  }
  if (keep && unreadableCount > 0) {
    // The row limit counts readable rows: a row read after the limit's worth is one too many.
    let readable = 0;
    for (let i = 0; fileRows > EXPORT_MAX_ROWS && i < fileRows; i++) {
      if (readable >= EXPORT_MAX_ROWS) throw tooManyRowsError();
      readable += keep[i];
    }
    compact(all, keep);
  } else if (fileRows > EXPORT_MAX_ROWS) throw tooManyRowsError();
  if (all.length === 0 && fileRows > 0) throw unreadableError(fileRows);

  const n = all.length;
  const where = all.where;
  const rows = all.record;
  const detailStarts = new Int32Array(maxFields);
  const detailEnds = new Int32Array(maxFields);
  const detailQuoted = new Uint8Array(maxFields);
  const detailScanned = new Int32Array(2);
  // References in plain ASCII are spans of the file until a string is asked for.
  const { txId: odd, txStart, txEnd, txLazy } = all;
  const latin1 = buf as Buffer & { latin1Slice?: (s: number, e: number) => string };
  const txIdOf = (i: number): string => (txLazy[i] === 1 ? (latin1.latin1Slice ? latin1.latin1Slice(txStart[i], txEnd[i]) : buf.toString('latin1', txStart[i], txEnd[i])) : odd[i]);
  let wholeTxId: string[] | null = null;
  return {
    columns: {
      length: n,
      get txId(): string[] {
        wholeTxId ??= Array.from({ length: n }, (_, i) => txIdOf(i));
        return wholeTxId;
      },
      txIdOf,
      hasTxId: (i) => txLazy[i] === 1 || odd[i] !== '',
      txIdIs: (i, text, start, end) => {
        if (txLazy[i] === 0) return spanIs(odd[i], text, start, end);
        const at = txStart[i];
        if (end - start !== txEnd[i] - at) return false;
        for (let k = 0; k < end - start; k++) if (text.charCodeAt(start + k) !== buf[at + k]) return false;
        return true;
      },
      txBytes: { bytes: buf, start: txStart, end: txEnd, inFile: txLazy },
      txHash: all.txHash.subarray(0, n),
      logId: all.logId.subarray(0, n),
      amountKobo: all.amountKobo.subarray(0, n),
      costKobo: all.costKobo.subarray(0, n),
      status: all.status.subarray(0, n),
      createdMs: all.createdMs.subarray(0, n),
      updatedMs: all.updatedMs.subarray(0, n),
      rowNumbers: rows.subarray(0, n),
      detail: rememberedDetail((i) => {
        scanRecord(buf, where[i], delim, detailStarts, detailEnds, detailQuoted, maxFields, Infinity, detailScanned);
        const fields = detailScanned[0];
        const cells: CellValue[] = [];
        for (let f = 0; f < Math.min(fields, maxFields); f++) {
          const text = fieldString(buf, detailStarts[f], detailEnds[f], detailQuoted[f]);
          cells.push(text === '' ? null : text);
        }
        return detailFromCells(cells, mapping, rows[i]);
      }),
    },
    format: 'csv',
    fileHash,
    sheetName: null,
    headers,
    mapping,
    unreadable,
    unreadableCount,
  };
}

function tooManyRowsError(): ImportError {
  return new ImportError(
    'too_many_rows',
    `The export has more than ${EXPORT_MAX_ROWS.toLocaleString('en-US')} rows. Export a shorter date range and reconcile the ranges one by one.`,
  );
}

type RecordColumns = Pick<
  ExportRecords,
  'txHash' | 'txStart' | 'txEnd' | 'txLazy' | 'logId' | 'amountKobo' | 'costKobo' | 'status' | 'createdMs' | 'updatedMs' | 'where' | 'record' | 'slow'
>;
const RECORD_COLUMNS: readonly (keyof RecordColumns)[] = [
  'txHash',
  'txStart',
  'txEnd',
  'txLazy',
  'logId',
  'amountKobo',
  'costKobo',
  'status',
  'createdMs',
  'updatedMs',
  'where',
  'record',
  'slow',
];

/** The two halves' rows as one file's, with their row numbers in the file. */
function joinRecords(a: ExportRecords, b: ExportRecords, rowBaseA: number, rowBaseB: number): ExportRecords {
  const n = a.length + b.length;
  const joined: ExportRecords = { ...a, length: n, slowCount: a.slowCount + b.slowCount, txId: a.txId.concat(b.txId) };
  for (const key of RECORD_COLUMNS) {
    const column = a[key];
    const both = new (column.constructor as new (length: number) => typeof column)(n);
    both.set(column.subarray(0, a.length));
    both.set(b[key].subarray(0, b.length), a.length);
    (joined[key] as typeof column) = both;
  }
  for (let i = 0; i < a.length; i++) joined.record[i] += rowBaseA;
  for (let i = a.length; i < n; i++) joined.record[i] += rowBaseB;
  return joined;
}

/** Leaves only the rows with `keep[i]` 1, in order. */
function compact(r: ExportRecords, keep: Uint8Array): void {
  let k = 0;
  for (let i = 0; i < r.length; i++) {
    if (keep[i] === 0) continue;
    if (k !== i) {
      r.txId[k] = r.txId[i];
      for (const key of RECORD_COLUMNS) r[key][k] = r[key][i];
    }
    k++;
  }
  r.txId.length = k;
  r.length = k;
}
