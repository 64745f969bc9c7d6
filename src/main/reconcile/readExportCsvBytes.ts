/**
 * The fast way of reading a UTF-8 CSV vendor export: the file is scanned once as bytes, only the
 * columns matching needs are read (reference, id, amount, cost, status, time), and the plain
 * forms of those (`NGN 1,000.00`, `970.5`, ISO times) straight from the bytes (threadedReaders.ts);
 * a row with anything else is read again with the importer's own `amountFromCell`/`dateFromCell`.
 * A plain-ASCII reference stays bytes (the file's, or a copy of them) until a string of it is asked
 * for, and the other columns of a row are decoded only when the row ends up in a report. A large
 * file may be read in two halves at once (below); otherwise it is read a chunk at a time, and a
 * reported row is read again from the file (exportFileWindow.ts). A file that turns out not to be
 * UTF-8 goes to the importer.
 *
 * Over 400 lines because one reading shares its state (the file's bytes, the mapping, the columns
 * and the rows left out) from the header to the accessors of the result.
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
  type RecordsWorker,
  plainKoboFromBytes,
  plainStatusFromBytes,
  scanRecord,
  trimEnd,
  trimStart,
  type ExportRecords,
} from './threadedReaders';
import { readThroughImporter } from './readExportWithImporter';
import { CHUNK_BYTES, chunkedFile, exportChangedError, fieldBounds, readFully, readShared, rereadRecords, sameFile, wholeFile, type FieldBounds } from './exportFileWindow';
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

/** The first line break at or after file offset `at`, plus one (the start of the next line); -1 when none before `size`. */
function lineStartAfter(fd: number, at: number, size: number): number {
  const window = Buffer.allocUnsafe(64 * 1024);
  for (let from = at; from < size; from += window.length) {
    const n = readFully(fd, window, 0, Math.min(window.length, size - from), from);
    const lf = window.subarray(0, n).indexOf(LF);
    if (lf !== -1) return from + lf + 1 < size ? from + lf + 1 : -1;
    if (n === 0) break;
  }
  return -1;
}

/** Room for the references' bytes to start with, a row (the store grows when they are longer). */
const REFERENCE_BYTES_A_ROW = 16;

/** The start of the file that says whether it is UTF-8 (and the delimiter, from its first 64 KB). */
const SAMPLE_BYTES = 1024 * 1024;

export async function readCsvFast(path: string, bomLength: number, options: ReadExportOptions): Promise<VendorExport> {
  const twoThreadsFrom = options.twoThreadsFromBytes ?? TWO_THREADS_FROM_BYTES;
  const fd = fs.openSync(path, 'r');
  try {
    return await readCsvFrom(path, fd, bomLength, options, twoThreadsFrom);
  } finally {
    fs.closeSync(fd);
  }
}

async function readCsvFrom(path: string, fd: number, bomLength: number, options: ReadExportOptions, twoThreadsFrom: number): Promise<VendorExport> {
  const stat = fs.fstatSync(fd);
  const size = stat.size;
  // In two halves at once, the file is held whole (a worker reads the second half); else in chunks.
  const shared = size >= twoThreadsFrom;
  const sample = Buffer.allocUnsafe(Math.min(size, bomLength + SAMPLE_BYTES));
  readFully(fd, sample, 0, sample.length, 0);
  options.signal?.throwIfAborted();
  const sampleText = sample.toString('utf8', bomLength, Math.min(sample.length, bomLength + 64 * 1024));
  if (sample.subarray(bomLength).toString('utf8').includes('\uFFFD')) {
    // Not UTF-8 after all (Windows-1252): the importer reads it with the right decoder.
    return readThroughImporter(path, options);
  }
  const hash = options.skipHash ? null : createHash('sha256');
  const file = shared ? wholeFile(readShared(fd, size)) : chunkedFile(fd, size, options.chunkBytes ?? CHUNK_BYTES, hash);
  if (shared) hash?.update(file.buf);
  const delim = detectDelimiter(sampleText).charCodeAt(0);

  // Header: the importer's rule over the first records.
  const maxFields = 256;
  const bounds = fieldBounds(maxFields);
  const { starts, ends, quoted, scanned } = bounds;
  let view = file.buf.subarray(0, file.have);
  const refill = (keepFrom: number) => {
    file.refill(keepFrom);
    view = file.buf.subarray(0, file.have);
  };
  const refuseLongRecord = (bytes: Buffer, start: number, end: number, row: number) => {
    if (end - start > MAX_RECORD_CHARS) throw recordTooLongError(row, bytes.toString('utf8', start, start + 200));
  };
  /** The record at file offset `at`, whole in `view`: returns its end in `view` (`at - file.base` is its start). */
  const scanWhole = (at: number, row: number): number => {
    for (;;) {
      const start = at - file.base;
      const next = scanRecord(view, start, delim, starts, ends, quoted, maxFields, Infinity, scanned);
      if (next < file.have || file.eof) return next;
      refuseLongRecord(view, start, file.have, row);
      refill(start);
    }
  };
  const cellsOf = (bytes: Buffer, fields: number, f: FieldBounds = bounds): CellValue[] => {
    const cells: CellValue[] = [];
    for (let k = 0; k < Math.min(fields, maxFields); k++) {
      const text = fieldString(bytes, f.starts[k], f.ends[k], f.quoted[k]);
      cells.push(text === '' ? null : text);
    }
    return cells;
  };
  const top: SheetRow[] = [];
  const topEnds: number[] = [];
  let pos = bomLength;
  let rowNumber = 0;
  while (pos < size && top.length < 20) {
    const next = scanWhole(pos, rowNumber + 1);
    rowNumber++;
    refuseLongRecord(view, pos - file.base, next, rowNumber);
    const cells = cellsOf(view, scanned[0]);
    if (cells.some((c) => c !== null && String(c).trim() !== '')) {
      top.push({ row: rowNumber, cells });
      topEnds.push(file.base + next);
    }
    pos = file.base + next;
  }
  if (top.length === 0) throw new ImportError('empty', 'The export is empty: it has no rows. Export the transaction log again and choose the new file.');
  const headerIndex = findHeaderRow(top);
  if (headerIndex < 0) throw noHeaderError();
  const headers = top[headerIndex].cells.map((c) => textFromCell(c));
  const mapping = detectMapping(headers, 'vendorLog');
  assertMappingComplete(mapping, 'vendorLog', headers);

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
  const estimate = estimateRows(sample, dataStart, size);

  // Rows with a cell not in a plain form: read again, whole, with the importer's cell readers
  // (while their bytes are in the buffer). `dropped`: the rows that cannot be read.
  const unreadable: UnreadableExportRow[] = [];
  const dropped: number[] = [];
  const colAmount = cols[2];
  const colCost = cols[3];
  const colCreated = cols[5];
  const readSlowRows = (r: ExportRecords, from: number, to: number, bytes: Buffer, base: number, rowBase: number) => {
    for (let i = from; r.slowCount > 0 && i < to; i++) {
      if (r.slow[i] === 0) continue;
      scanRecord(bytes, r.where[i] - base, delim, starts, ends, quoted, maxFields, Infinity, scanned);
      const fields = scanned[0];
      const fieldCell = (col: number): CellValue => (col >= 0 && col < fields ? fieldString(bytes, starts[col], ends[col], quoted[col]) || null : null);
      let amount = colAmount < fields ? plainKoboFromBytes(bytes, starts[colAmount], ends[colAmount]) : NaN;
      if (Number.isNaN(amount)) {
        const a = amountFromCell(fieldCell(colAmount));
        if (a.ok) amount = a.kobo;
      }
      const status = colStatus < fields ? statusFromBytes(bytes, starts[colStatus], ends[colStatus]) : 0;
      if (Number.isNaN(amount) || status === 0) {
        dropped.push(i);
        if (unreadable.length < UNREADABLE_KEPT) {
          const a = amountFromCell(fieldCell(colAmount));
          const row = rowBase + r.record[i];
          unreadable.push({ row, message: unreadableMessage(row, a.ok ? null : a.reason, status === 0 ? ((fieldCell(colStatus) as string | null) ?? '') : null) });
        }
        continue;
      }
      r.amountKobo[i] = amount;
      r.status[i] = status;
      if (colCost >= 0 && colCost < fields) {
        const cost = plainKoboFromBytes(bytes, starts[colCost], ends[colCost]);
        r.costKobo[i] = Number.isNaN(cost) ? costFromCell(fieldCell(colCost)) : cost;
      }
      if (colCreated >= 0 && colCreated < fields) {
        const created = isoMsFromBytes(bytes, starts[colCreated], ends[colCreated]);
        r.createdMs[i] = Number.isNaN(created) ? timeFromCell(fieldCell(colCreated)) : created;
      }
      let updated = NaN;
      if (colUpdated >= 0 && colUpdated < fields && status === STATUS_FAILED) {
        updated = isoMsFromBytes(bytes, starts[colUpdated], ends[colUpdated]);
        if (Number.isNaN(updated)) updated = timeFromCell(fieldCell(colUpdated));
      }
      r.updatedMs[i] = updated;
    }
  };
  const refuseTooLong = (r: ExportRecords, bytes: Buffer, base: number, rowBase: number) => {
    if (r.tooLongRecord !== -1) refuseLongRecord(bytes, r.tooLongAt, Infinity, rowBase + r.tooLongRecord);
  };

  let all: ExportRecords;
  let fileRows: number;
  let split = -1;
  if (shared && size - dataStart >= twoThreadsFrom) {
    const lf = file.buf.indexOf(LF, dataStart + Math.floor((size - dataStart) / 2));
    if (lf !== -1 && lf + 1 < size) split = lf + 1;
  }
  if (split !== -1) {
    // Two halves, the second read on a worker thread from the first line break after the middle.
    // That break starts a record only if it is not inside a quoted cell: known for sure once the
    // first half is read — when its last record ends exactly there. Otherwise (or when the worker
    // fails) this thread reads on itself.
    const buf = file.buf;
    const first = newExportRecords(dataStart, split, delim, cols, MAX_RECORD_CHARS, maxRows, estimate >> 1);
    const second = parseRecordsInWorker(buf.buffer as SharedArrayBuffer, newExportRecords(split, size, delim, cols, MAX_RECORD_CHARS, maxRows, estimate >> 1));
    const readOn = async (r: ExportRecords) => {
      for (;;) {
        parseExportRecords(buf, r, YIELD_EVERY_ROWS);
        refuseTooLong(r, buf, 0, headerRow);
        if (r.pos >= r.end || r.length >= r.maxRows) return;
        options.onProgress?.(r.length, r.pos, size);
        await new Promise<void>((resolve) => setImmediate(resolve));
        options.signal?.throwIfAborted();
      }
    };
    let rest: ExportRecords | null = null;
    try {
      await readOn(first);
      if (first.pos === split && first.length < maxRows) rest = await second.result;
      if (rest === null) {
        first.end = size;
        await readOn(first);
      }
    } finally {
      second.stop();
    }
    if (rest) refuseTooLong(rest, buf, 0, headerRow + first.records);
    all = rest ? joinRecords(first, rest, headerRow, headerRow + first.records) : withRowBase(first, headerRow);
    fileRows = all.length;
    if (fileRows >= maxRows) throw tooManyRowsError();
    readSlowRows(all, 0, fileRows, buf, 0, 0);
  } else {
    // One thread, a chunk at a time: a record the chunk cuts is read again from its start with
    // the next. Plain-ASCII references are copied out as they are read (the chunk's bytes are
    // reused), into a store that grows with them.
    // (The first records after the header may have moved the buffer past the data's start.)
    if (dataStart < file.base) {
      file.seek(dataStart);
      view = file.buf.subarray(0, file.have);
    }
    // From `halvesFromBytes` up, the records from the first line break after the middle on are
    // read on a worker thread of its own, from the file, a chunk at a time, meanwhile: that break
    // starts a record only if it is not inside a quoted cell, known for sure once this thread's
    // half is read — when its last record ends exactly there. Otherwise (or when the worker could
    // not read its half plainly: a cell for the importer's readers, a record too long) this thread
    // reads on itself.
    let partEnd = size;
    let second: RecordsWorker | null = null;
    if (!shared && size - dataStart >= (options.halvesFromBytes ?? TWO_THREADS_FROM_BYTES)) {
      const split = lineStartAfter(fd, dataStart + Math.floor((size - dataStart) / 2), size);
      if (split !== -1) {
        const part = newExportRecords(split, size, delim, cols, MAX_RECORD_CHARS, maxRows, estimate >> 1);
        part.spanStart = split;
        part.spanEnd = size;
        part.refs = new Uint8Array(Math.min(size - split, REFERENCE_BYTES_A_ROW * (estimate >> 1)));
        second = parseRecordsInWorker({ path, chunkBytes: options.chunkBytes ?? CHUNK_BYTES }, part);
        partEnd = split;
      }
    }
    // (Room for the whole file's rows: the worker's half is copied in after this one's.)
    const r = newExportRecords(dataStart - file.base, file.have, delim, cols, MAX_RECORD_CHARS, maxRows, estimate);
    r.spanStart = dataStart;
    r.spanEnd = partEnd;
    if (!shared) r.refs = new Uint8Array(Math.min(Math.max(0, partEnd - dataStart), REFERENCE_BYTES_A_ROW * estimate));
    let sinceYield = 0;
    let rest: ExportRecords | null = null;
    try {
      for (;;) {
        r.base = file.base;
        r.end = Math.min(file.have, partEnd - file.base);
        r.more = file.eof ? 0 : 1;
        const before = r.length;
        parseExportRecords(view, r, YIELD_EVERY_ROWS - sinceYield);
        refuseTooLong(r, view, 0, headerRow);
        readSlowRows(r, before, r.length, view, file.base, headerRow);
        sinceYield += r.length - before;
        if (r.length >= r.maxRows || (r.pos >= file.have && file.eof)) break;
        if (second && r.partial === 0 && file.base + r.pos >= partEnd) {
          // This half is read: the worker's is the rest of the file if this one ended at the split.
          const theirs = file.base + r.pos === partEnd ? await second.result : null;
          if (theirs && theirs.slowCount === 0 && theirs.tooLongRecord === -1 && theirs.length < maxRows) {
            rest = theirs;
            break;
          }
          second.stop();
          second = null;
          partEnd = size;
          r.spanEnd = size;
          continue;
        }
        if (r.partial === 1 || r.pos >= file.have) {
          // The record at r.pos goes on after the buffer: too long already, or read on.
          refuseLongRecord(view, r.pos, file.have, headerRow + r.records + 1);
          refill(r.pos);
          r.pos = 0;
          r.nextQuote = -1;
          r.quoteFrom = Infinity;
        }
        if (sinceYield >= YIELD_EVERY_ROWS) {
          sinceYield = 0;
          // (While the worker reads the second half as fast, the bytes read are about twice this thread's.)
          const at = file.base + r.pos;
          options.onProgress?.(r.length, second ? Math.min(size, dataStart + 2 * (at - dataStart)) : at, size);
          await new Promise<void>((resolve) => setImmediate(resolve));
          options.signal?.throwIfAborted();
        }
      }
    } finally {
      second?.stop();
    }
    // The hash is of the whole file, read or not.
    while (hash && !file.eof) refill(file.have);
    if (!sameFile(fs.fstatSync(fd), stat)) throw exportChangedError();
    if (rest) {
      const refs = joinedRefs(r, rest);
      all = joinRecords(r, withRefsAfter(rest, r), headerRow, headerRow + r.records);
      all.refs = refs;
    } else all = withRowBase(r, headerRow);
    fileRows = all.length;
    if (fileRows >= maxRows) throw tooManyRowsError();
  }
  const fileHash = hash ? hash.digest('hex') : '';
  options.onProgress?.(fileRows, size, size);

  const unreadableCount = dropped.length;
  if (unreadableCount > 0) {
    const keep = new Uint8Array(fileRows).fill(1);
    for (const i of dropped) keep[i] = 0;
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
  const detailBounds = fieldBounds(maxFields);
  // A report's row: from the file held whole, or read again from the file.
  const recordAt: (where: number, f: FieldBounds) => Buffer = shared
    ? (at, f) => {
        scanRecord(file.buf, at, delim, f.starts, f.ends, f.quoted, maxFields, Infinity, f.scanned);
        return file.buf;
      }
    : rereadRecords(path, stat, delim);
  // References in plain ASCII are spans of their bytes (the file's, or their copies) until a string is asked for.
  const refs = (all.refs ? Buffer.from(all.refs.buffer, all.refs.byteOffset, all.refs.byteLength) : file.buf) as Buffer & {
    latin1Slice?: (s: number, e: number) => string;
  };
  const { txId: odd, txStart, txEnd, txLazy } = all;
  const txIdOf = (i: number): string => (txLazy[i] === 1 ? (refs.latin1Slice ? refs.latin1Slice(txStart[i], txEnd[i]) : refs.toString('latin1', txStart[i], txEnd[i])) : odd[i]);
  let wholeTxId: string[] | null = null;
  const colTx = cols[0];
  const sameReference = (bytes: Buffer, f: FieldBounds, i: number): boolean => {
    if (colTx < 0 || colTx >= f.scanned[0]) return txLazy[i] === 0 && odd[i] === '';
    const s = trimStart(bytes, f.starts[colTx], f.ends[colTx]);
    const e = trimEnd(bytes, s, f.ends[colTx]);
    if (txLazy[i] === 0) return fieldString(bytes, s, e, f.quoted[colTx]) === odd[i];
    if (e - s !== txEnd[i] - txStart[i]) return false;
    for (let k = 0; k < e - s; k++) if (bytes[s + k] !== refs[txStart[i] + k]) return false;
    return true;
  };
  return {
    columns: {
      length: n,
      get txId(): string[] {
        wholeTxId ??= Array.from({ length: n }, (_, i) => txIdOf(i));
        return wholeTxId;
      },
      txIdOf,
      hasTxId: (i) => txLazy[i] === 1 || odd[i] !== '',
      txIdIs: (i, bytes, start, end) => {
        if (txLazy[i] === 0) return spanIs(odd[i], bytes, start, end);
        const at = txStart[i];
        if (end - start !== txEnd[i] - at) return false;
        for (let k = 0; k < end - start; k++) if (bytes[start + k] !== refs[at + k]) return false;
        return true;
      },
      txBytes: { bytes: refs, start: txStart, end: txEnd, inFile: txLazy },
      txHash: all.txHash.subarray(0, n),
      logId: all.logId.subarray(0, n),
      amountKobo: all.amountKobo.subarray(0, n),
      costKobo: all.costKobo.subarray(0, n),
      status: all.status.subarray(0, n),
      createdMs: all.createdMs.subarray(0, n),
      updatedMs: all.updatedMs.subarray(0, n),
      rowNumbers: rows.subarray(0, n),
      detail: rememberedDetail((i) => {
        const bytes = recordAt(where[i], detailBounds);
        // The row read again is the row that was read: its reference says so too.
        if (!sameReference(bytes, detailBounds, i)) throw exportChangedError();
        return detailFromCells(cellsOf(bytes, detailBounds.scanned[0], detailBounds), mapping, rows[i]);
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

/**
 * Rows to make room for at first: the data's bytes over the bytes a line of the sample's data
 * (the first MB after the header; exact for a smaller file), a little more. The columns grow from
 * there as the rest is read (threadedReaders' `parseExportRecords`), so a guess too small costs a
 * copy, one too big memory that stays unused to the end: a fixed 120 bytes a row held a third of
 * the columns of a 3,000,000-row export empty.
 */
function estimateRows(sample: Buffer, dataStart: number, size: number): number {
  const data = size - dataStart;
  if (data <= 0) return 16;
  let lines = 0;
  let last = -1;
  for (let at = sample.indexOf(LF, dataStart); at !== -1; at = sample.indexOf(LF, at + 1)) {
    lines++;
    last = at;
  }
  if (sample.length >= size) return lines + 1;
  if (lines === 0) return Math.ceil(data / 120);
  return Math.ceil((data / (last + 1 - dataStart)) * lines * 1.02) + 64;
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

/** `r` with its row numbers counted in the file (`rowBase` rows before its first), in place. */
function withRowBase(r: ExportRecords, rowBase: number): ExportRecords {
  const record = r.record;
  for (let i = 0; i < r.length; i++) record[i] += rowBase;
  return r;
}

/**
 * The two halves' rows as one file's, with their row numbers in the file: `b`'s copied into
 * `a`'s columns after its rows when they have room (the first half's are made for the whole
 * file's), else both into new ones.
 */
function joinRecords(a: ExportRecords, b: ExportRecords, rowBaseA: number, rowBaseB: number): ExportRecords {
  const n = a.length + b.length;
  const inPlace = a.logId.length >= n;
  const joined: ExportRecords = { ...a, length: n, slowCount: a.slowCount + b.slowCount, txId: a.txId.concat(b.txId) };
  for (const key of RECORD_COLUMNS) {
    const column = a[key];
    const both = inPlace ? column : new (column.constructor as new (length: number) => typeof column)(n);
    if (!inPlace) both.set(column.subarray(0, a.length));
    both.set(b[key].subarray(0, b.length), a.length);
    (joined[key] as typeof column) = both;
  }
  for (let i = 0; i < a.length; i++) joined.record[i] += rowBaseA;
  for (let i = a.length; i < n; i++) joined.record[i] += rowBaseB;
  return joined;
}

/** `b`'s references moved past `a`'s in one store ({@link joinedRefs}), in place. */
function withRefsAfter(b: ExportRecords, a: ExportRecords): ExportRecords {
  for (let i = 0; i < b.length; i++) {
    b.txStart[i] += a.refsLength;
    b.txEnd[i] += a.refsLength;
  }
  return b;
}

/** The two halves' copied references as one store: `a`'s, then `b`'s. */
function joinedRefs(a: ExportRecords, b: ExportRecords): Uint8Array {
  const refs = new Uint8Array(a.refsLength + b.refsLength);
  if (a.refs) refs.set(a.refs.subarray(0, a.refsLength));
  if (b.refs) refs.set(b.refs.subarray(0, b.refsLength), a.refsLength);
  return refs;
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
