/**
 * A large UTF-8 CSV export is read in two halves at once, the second on a worker thread from the
 * first line break after the middle. Whatever the file holds around that break (quoted cells with
 * line breaks and commas, CRLF, a BOM, rows only the importer's readers understand, a record too
 * long), the result must be the one-thread read's, exactly. The threshold is set low here so
 * small real files take the two-thread path.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { startBackgroundReads } from '../../../src/main/reconcile/backgroundReads';
import { generateLogEntries } from '../../../bench/generate/vendorExport';
import { exportAndMirror } from '../../support/exportAndMirror';
import { mirrorEntriesOf } from '../../support/parsedMirror';
import { inRange, reconcileEntries } from '../../../src/main/reconcile/categorizeEntries';
import { columnsFromEntries, txIdAt, type LogColumns } from '../../../src/main/reconcile/logColumns';
import { amountFromCell } from '../../../src/main/imports';
import { matchEntries, pairByReference, RULE_PHONE_AMOUNT_TIME, RULE_TRANSACTION_ID } from '../../../src/main/reconcile/matchEntries';
import { mirrorFromParsed, mirrorQuery, mirrorReferenceColumns, readMirror } from '../../../src/main/reconcile/mirrorEntries';
import {
  indexMirrorReferences,
  isoMsFromBytes,
  mirrorReferences,
  newExportRecords,
  parseExportRecords,
  parseMirrorColumns,
  parseRecordsInWorker,
  plainKoboFromBytes,
  utcMs,
} from '../../../src/main/reconcile/threadedReaders';
import { readVendorExport, type VendorExport } from '../../../src/main/reconcile/vendorExportRows';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-two-threads-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function file(name: string, content: string): string {
  const p = path.join(dir, name);
  fs.writeFileSync(p, content);
  return p;
}

const HEADER = 'created_at,transaction_id,id,phone_number,amount,transaction_cost,status,description,updated_at';

/** Row `i` of a plain export; `extra` replaces the description. */
function row(i: number, description = `MTN airtime ${i}`): string {
  const ms = Date.UTC(2026, 2, 1) + i * 61_000;
  const status = i % 17 === 0 ? 'FAILED' : i % 23 === 0 ? 'PENDING' : 'SUCCESS';
  const amount = i % 3 === 0 ? `"NGN ${1 + (i % 9)},000.00"` : `${100 + i}`;
  return `${new Date(ms).toISOString()},TX${i},${i},0803${String(1_000_000 + i).slice(1)},${amount},${95 + i},${status},${description},${new Date(ms + 5000).toISOString()}`;
}

function exportText(rows: string[], eol = '\n', bom = false): string {
  return (bom ? '\uFEFF' : '') + [HEADER, ...rows].join(eol) + eol;
}

/** Everything a reading gives, as plain data. */
function plain(r: VendorExport) {
  const c = r.columns;
  return {
    length: c.length,
    txId: c.txId,
    logId: [...c.logId],
    amountKobo: [...c.amountKobo],
    costKobo: [...c.costKobo],
    status: [...c.status],
    createdMs: [...c.createdMs],
    updatedMs: [...(c.updatedMs ?? [])],
    rowNumbers: [...(c.rowNumbers ?? [])],
    details: Array.from({ length: c.length }, (_, i) => c.detail(i)),
    unreadable: r.unreadable,
    unreadableCount: r.unreadableCount,
    headers: r.headers,
    fileHash: r.fileHash,
  };
}

/** Read in chunks, the second half on a worker thread reading the file itself (chunks of 4 KB: records cut everywhere). */
const HALVES = { twoThreadsFromBytes: Infinity, halvesFromBytes: 1, chunkBytes: 4096 } as const;

async function bothWays(p: string) {
  const one = await readVendorExport(p, { twoThreadsFromBytes: Infinity, halvesFromBytes: Infinity });
  const two = await readVendorExport(p, { twoThreadsFromBytes: 1 });
  const halves = await readVendorExport(p, HALVES);
  return { one: plain(one), two: plain(two), halves: plain(halves) };
}

/** Byte offsets where the rows of `exportText(rows, eol, true)` start. */
function rowStarts(rows: string[], eol: string): number[] {
  const starts: number[] = [];
  let at = 3 + Buffer.byteLength(HEADER + eol);
  for (const r of rows) {
    starts.push(at);
    at += Buffer.byteLength(r + eol);
  }
  return starts;
}

/** The offset the two-thread read splits at: the first line break after the middle of the data. */
function splitOf(text: string): number {
  const bytes = Buffer.from(text);
  const dataStart = bytes.indexOf(10) + 1;
  return bytes.indexOf(10, dataStart + Math.floor((bytes.length - dataStart) / 2)) + 1;
}

describe('reading a large export in two halves at once', () => {
  it('gives the one-thread result for a file with quoted cells holding commas, quotes and line breaks around the middle, CRLF and a BOM', async () => {
    const rows = Array.from({ length: 400 }, (_, i) => row(i + 1, i % 5 === 0 ? `"Airtime, ""VTU""\r\nline ${i}\nmore"` : `plain ${i}`));
    // Quoted line breaks on the rows next to the middle; the row the split starts is a plain one
    // (a row more at the top moves the middle until it is), so the worker's half is the one used.
    const near = (i: number) => row(i + 1, `"near the middle,\r\n""${i}""\r\n,"`);
    for (let i = 190; i < 210; i++) rows[i] = near(i);
    let text = exportText(rows, '\r\n', true);
    for (let k = 0; !rowStarts(rows, '\r\n').includes(splitOf(text)) && k < 50; k++) {
      rows.unshift(row(1000 + k));
      text = exportText(rows, '\r\n', true);
    }
    const split = splitOf(text);
    expect(rowStarts(rows, '\r\n')).toContain(split);
    const bytes = Buffer.from(text);
    expect(bytes.subarray(split - 2000, split + 2000).toString()).toContain('near the middle,\r\n');
    const { one, two, halves } = await bothWays(file('quoted.csv', text));
    expect(two).toEqual(one);
    expect(halves).toEqual(one);
    expect(one.length).toBe(rows.length);
    expect(one.rowNumbers[rows.length - 1]).toBe(rows.length + 1);
    expect(one.details.find((d) => d.product.startsWith('near the middle'))?.product).toBe('near the middle,\r\n"190"\r\n,');
  });

  it('gives the one-thread result when the middle falls inside one quoted cell of many lines', async () => {
    const rows = Array.from({ length: 60 }, (_, i) => row(i + 1));
    rows[30] = row(31, `"${Array.from({ length: 400 }, (_, k) => `line ${k}, of a long note`).join('\n')}"`);
    const text = exportText(rows);
    const split = splitOf(text);
    const bytes = Buffer.from(text);
    const noteStart = bytes.indexOf('"line 0');
    // The worker's start is inside the quoted cell: its half is thrown away and this thread reads on.
    expect(split).toBeGreaterThan(noteStart);
    expect(split).toBeLessThan(bytes.indexOf('of a long note"') + 1);
    const { one, two, halves } = await bothWays(file('long-note.csv', text));
    expect(two).toEqual(one);
    expect(halves).toEqual(one);
    expect(one.length).toBe(60);
    expect(one.txId[31]).toBe('TX32');
    expect(one.rowNumbers[31]).toBe(33);
  });

  it('never takes lines inside a quoted cell for rows, even lines that read as plain rows, when the middle falls among them', async () => {
    const rows = Array.from({ length: 60 }, (_, i) => row(i + 1));
    // A note quoting other rows of an export, line by line: every line of it reads as a plain row.
    const quoted = Array.from({ length: 300 }, (_, k) => 5000 + k).filter((i) => i % 3 !== 0); // (plain amounts: no quotes to leave out)
    rows[30] = row(31, `"${quoted.map((i) => row(i)).join('\n')}"`);
    const text = exportText(rows);
    const bytes = Buffer.from(text);
    const split = splitOf(text);
    expect(split).toBeGreaterThan(bytes.indexOf('TX5000'));
    expect(split).toBeLessThan(bytes.indexOf('TX5299'));
    const { one, two, halves } = await bothWays(file('quoted-rows.csv', text));
    expect(two).toEqual(one);
    expect(halves).toEqual(one);
    expect(one.length).toBe(60);
    expect(one.txId.filter((t) => /^TX5\d{3}$/.test(t))).toEqual([]);
  });

  it('reads rows only the importer understands, and lists unreadable ones with their row numbers, in the second half as in the first', async () => {
    const rows = Array.from({ length: 200 }, (_, i) => row(i + 1));
    for (const i of [20, 150]) {
      rows[i] = `02/03/2026 10:${String(i % 60).padStart(2, '0')},TX${i + 1},${i + 1},08031234567,N1500,  ,Successful,odd,`;
      rows[i + 1] = `2026-03-02T10:00:00Z,TX${i + 2},${i + 2},08031234567,abc,95,SUCCESS,bad amount,`;
      rows[i + 2] = `2026-03-02T10:00:00Z,TX${i + 3},${i + 3},08031234567,500,95,maybe,bad status,`;
      rows[i + 3] = `2026-03-02T10:00:00Z,TX${i + 4},${i + 4},08031234567,500,95,Unsuccessful,refused,02/03/2026 11:00`;
      rows[i + 4] = '';
    }
    const { one, two, halves } = await bothWays(file('odd.csv', exportText(rows)));
    expect(two).toEqual(one);
    expect(halves).toEqual(one);
    expect(one.unreadableCount).toBe(4);
    expect(one.unreadable.map((u) => u.row)).toEqual([23, 24, 153, 154]);
    expect(one.length).toBe(194);
  });

  it('refuses a record too long in the second half with the row number the one-thread read gives', async () => {
    const rows = Array.from({ length: 30_000 }, (_, i) => row(i + 1));
    rows.push(row(30_001, `"${'x'.repeat(1_100_000)}"`), row(30_002));
    const text = exportText(rows);
    expect(splitOf(text)).toBeLessThan(text.indexOf('"xxx'));
    const p = file('long-record.csv', text);
    const one = await readVendorExport(p, { twoThreadsFromBytes: Infinity }).catch((e: Error) => e.message);
    const two = await readVendorExport(p, { twoThreadsFromBytes: 1 }).catch((e: Error) => e.message);
    const halves = await readVendorExport(p, HALVES).catch((e: Error) => e.message);
    expect(one).toMatch(/^Row 30,002 of the file is longer than 1,000,000 characters/);
    expect(two).toBe(one);
    expect(halves).toBe(one);
  });

  it('reads a file too small to split, or without a line break after the middle, on one thread with the same result', async () => {
    const tiny = exportText([row(1)]);
    const { one, two, halves } = await bothWays(file('tiny.csv', tiny));
    expect(two).toEqual(one);
    expect(halves).toEqual(one);
    expect(one.txId).toEqual(['TX1']);
    const noFinalBreak = exportText([row(1), row(2), row(3)]).replace(/\n$/, '');
    const last = await bothWays(file('no-final-break.csv', noFinalBreak));
    expect(last.two).toEqual(last.one);
    expect(last.halves).toEqual(last.one);
    expect(last.one.txId).toEqual(['TX1', 'TX2', 'TX3']);
  });

  it('the worker thread reads its part as this thread does (its code is the same functions, run from their source)', async () => {
    const text = exportText(
      Array.from({ length: 300 }, (_, i) => row(i + 1, i % 4 === 0 ? '"a, ""b""\nc"' : 'd')),
      '\r\n',
    );
    const bytes = Buffer.from(text);
    const shared = new SharedArrayBuffer(bytes.length);
    Buffer.from(shared).set(bytes);
    const start = splitOf(text);
    const cols = Int32Array.of(1, 2, 4, 5, 6, 0, 8);
    const here = newExportRecords(start, bytes.length, 44, cols, 1_000_000, 1_000_000, 16);
    parseExportRecords(Buffer.from(shared), here, Infinity);
    const there = await parseRecordsInWorker(shared, newExportRecords(start, bytes.length, 44, cols, 1_000_000, 1_000_000, 16)).result;
    expect(there).not.toBeNull();
    const columns = (r: typeof here) => ({
      length: r.length,
      txId: r.txId,
      txHash: [...r.txHash.subarray(0, r.length)],
      amount: [...r.amountKobo.subarray(0, r.length)],
      created: [...r.createdMs.subarray(0, r.length)],
      record: [...r.record.subarray(0, r.length)],
      where: [...r.where.subarray(0, r.length)],
    });
    expect(there && columns(there)).toEqual(columns(here));
    expect(here.length).toBeGreaterThan(100);
  });

  it('the worker thread reads its part from the file a chunk at a time as this thread reads it held whole, references copied out', async () => {
    const text = exportText(
      Array.from({ length: 300 }, (_, i) => row(i + 1, i % 4 === 0 ? '"a, ""b""\nc"' : 'd')),
      '\r\n',
    );
    const p = file('part.csv', text);
    const bytes = Buffer.from(text);
    const start = splitOf(text);
    const cols = Int32Array.of(1, 2, 4, 5, 6, 0, 8);
    const here = newExportRecords(start, bytes.length, 44, cols, 1_000_000, 1_000_000, 16);
    parseExportRecords(bytes, here, Infinity);
    const part = newExportRecords(start, bytes.length, 44, cols, 1_000_000, 1_000_000, 16);
    part.refs = new Uint8Array(64);
    // Chunks of 256 bytes: most records are cut, some longer than a chunk.
    const there = await parseRecordsInWorker({ path: p, chunkBytes: 256 }, part).result;
    expect(there).not.toBeNull();
    const columns = (r: typeof here, refs: Uint8Array) => ({
      length: r.length,
      references: Array.from({ length: r.length }, (_, i) => Buffer.from(refs.subarray(r.txStart[i], r.txEnd[i])).toString()),
      txHash: [...r.txHash.subarray(0, r.length)],
      amount: [...r.amountKobo.subarray(0, r.length)],
      created: [...r.createdMs.subarray(0, r.length)],
      record: [...r.record.subarray(0, r.length)],
      where: [...r.where.subarray(0, r.length)],
    });
    expect(there && there.refs && columns(there, there.refs)).toEqual(columns(here, bytes));
    expect(here.length).toBeGreaterThan(140);
  });

  it('a mirror the worker cannot read gives no references and no mirror as soon as it fails, not after hashing the file', async () => {
    const dbPath = path.join(dir, 'no-mirror.db');
    new Database(dbPath).close(); // no log_entries table: the query fails
    const reads = startBackgroundReads({ dbPath, ...mirrorQuery('p', '2026-03-01T00:00:00.000Z', '2026-03-02T00:00:00.000Z'), filePath: dbPath });
    const first = await Promise.race([reads.references.then((r) => ({ r, what: 'references' })), reads.fileHash.then(() => ({ r: null, what: 'hash' }))]);
    expect(first).toEqual({ r: null, what: 'references' });
    expect(await reads.mirror).toBeNull();
    expect(await reads.fileHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('the background worker reads the mirror into the columns this thread would', async () => {
    const dbPath = path.join(dir, 'mirror.db');
    const db = new Database(dbPath);
    db.exec(`CREATE TABLE log_entries (profile_id TEXT, id INTEGER, transaction_id TEXT, amount_kobo INTEGER, cost_kobo INTEGER, status TEXT, created_at TEXT, updated_at TEXT)`);
    const insert = db.prepare('INSERT INTO log_entries VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
    db.transaction(() => {
      for (let i = 1; i <= 500; i++) {
        const at = new Date(Date.UTC(2026, 2, 1) + i * 60_000).toISOString();
        insert.run('p', i, i % 50 === 0 ? '' : i % 70 === 0 ? 'TX,1' : `TX,${i}`, 1000 * i, 970 * i, ['SUCCESS', 'FAILED', 'PENDING'][i % 3], at, at.replace(':00.000Z', ':05Z'));
      }
    })();
    const q = mirrorQuery('p', '2026-03-01T00:00:00.000Z', '2026-03-02T00:00:00.000Z');
    const here = parseMirrorColumns(
      ...(db
        .prepare(q.sql)
        .raw()
        .get(...q.params) as [Buffer, Buffer]),
    );
    db.close();
    const reads = startBackgroundReads({ dbPath, ...q, filePath: dbPath });
    const there = await reads.mirror;
    await reads.fileHash;
    expect(there).not.toBeNull();
    const columns = (p: typeof here) => ({
      ...mirrorEntriesOf(p),
      bytes: p.bytes,
      ascii: p.ascii,
      txStart: [...p.txStart],
      txEnd: [...p.txEnd],
      txIndex: p.txIndex && { slots: [...p.txIndex.slots], first: [...p.txIndex.first], duplicates: p.txIndex.duplicates },
    });
    expect(there && columns(there)).toEqual(columns({ ...here, txIndex: indexMirrorReferences(here) }));
    // Empty references are left out of the table; the first of two alike is the one kept.
    expect(there?.txIndex?.first[49]).toBe(0);
    expect(there?.txIndex?.first[0]).toBe(1);
    expect(there?.txIndex?.first[69]).toBe(0);
    expect(there?.txIndex?.duplicates).toBe(6);
    expect(here.n).toBe(500);
    expect(mirrorReferences(here).slice(0, 2)).toEqual(['TX,1', 'TX,2']);
    expect(mirrorReferences(here)[49]).toBe('');
    expect(here.updatedMs[0]).toBe(Date.UTC(2026, 2, 1, 0, 1, 5));
    // The last records: a failure's refund time, then a pending entry's time and none.
    expect(here.updatedMs[498]).toBe(Date.UTC(2026, 2, 1) + 499 * 60_000 + 5000);
    expect(here.createdMs[499]).toBe(Date.UTC(2026, 2, 1) + 500 * 60_000);
    expect(here.updatedMs[499]).toBeNaN();
    expect(here.status[499]).toBe(3);
    expect(mirrorReferences(here)[498]).toBe('TX,499');
  });
});

describe('times read by arithmetic', () => {
  it('equal Date.UTC for every day of years 0 to 9999 (sampled), day overflow and odd months included', () => {
    const differ: string[] = [];
    for (let y = 0; y <= 9999; y += y < 2200 ? 1 : 7) {
      for (let mo = 0; mo <= 13; mo++) {
        for (let d = 0; d <= 32; d++) {
          const h = (y * 7 + d) % 24;
          const mi = (mo * 13 + d) % 60;
          const se = (y + d) % 60;
          const ms = (y * 31 + d) % 1000;
          const a = utcMs(y, mo, d, h, mi, se, ms);
          const b = Date.UTC(y, mo - 1, d, h, mi, se, ms);
          if (!Object.is(a, b)) differ.push(`${y}-${mo}-${d}`);
        }
      }
    }
    expect(differ).toEqual([]);
    expect(utcMs(2026, 2, 29, 0, 0, 0, 0)).toBe(Date.UTC(2026, 2, 1));
    expect(utcMs(NaN, 1, 1, 0, 0, 0, 0)).toBeNaN();
    expect(utcMs(275_761, 1, 1, 0, 0, 0, 0)).toBeNaN();
  });

  it("read from an export's bytes with the day remembered, equal what they read alone, row after row across days, years and forms", () => {
    const texts: string[] = [];
    for (const y of ['0050', '0099', '1970', '2026', '9999']) {
      for (const [mo, d] of [
        ['01', '01'],
        ['02', '29'],
        ['02', '31'],
        ['12', '31'],
        ['13', '01'],
      ]) {
        for (const time of ['00:00:00', '13:07:59.5', '23:59:59.999Z', '23:59:60', '07:30:00.1234Z', '24:00:00']) {
          texts.push(`${y}-${mo}-${d}T${time}`, ` ${y}-${mo}-${d} ${time} `, `${y}-${mo}-${d}T${time}x`);
        }
      }
    }
    const day = new Float64Array(2);
    const read = texts.map((t) => {
      const b = Buffer.from(t);
      return [isoMsFromBytes(b, 0, b.length, day), isoMsFromBytes(b, 0, b.length)];
    });
    expect(read.filter(([a, b]) => !Object.is(a, b))).toEqual([]);
    expect(read.filter(([a]) => !Number.isNaN(a)).length).toBeGreaterThan(100);
    expect(read[texts.indexOf('2026-12-31T23:59:59.999Z')][0]).toBe(Date.UTC(2026, 11, 31, 23, 59, 59, 999));
  });
});

describe('references read from the bytes on demand', () => {
  it('match the mirror by transaction_id whatever they hold: ASCII, other characters, escaped quotes, spaces around, none', async () => {
    const refs = ['TX1', 'ТХ2-кириллица', 'T"3"', 'TX4', '', 'TX6'];
    const cells = ['TX1', 'ТХ2-кириллица', '"T""3"""', '  TX4  ', '', 'TX6'];
    const lines = cells.map((c, i) => `2026-03-02T10:0${i}:00.000Z,${c},${i + 1},08031234567,1000,970,SUCCESS,x,`);
    const p = file('refs.csv', exportText(lines));
    const exp = (await readVendorExport(p)).columns;
    expect(refs.map((_, i) => txIdAt(exp, i))).toEqual(refs);
    expect(exp.txId).toEqual(refs);
    // The mirror in another order, one reference only a prefix of an export's, one differing in case.
    const mirrorRefs = ['TX6', 'T"3"', 'TX', 'ТХ2-кириллица', 'tx1', 'TX4', 'TX1'];
    const mir = columnsFromEntries(
      mirrorRefs.map((transactionId, i) => ({
        transactionId,
        id: 100 + i,
        amountKobo: 100_000,
        costKobo: 97_000,
        status: 'SUCCESS',
        createdAt: '2026-03-02T10:00:00.000Z',
        phone: '08031234567',
        type: 'AIRTIME',
        product: '',
        network: 'MTN',
      })),
    );
    const m = matchEntries(exp, mir, { windowMs: 15 * 60_000 });
    // The row without a reference is paired by phone, amount and time with the one left ('TX').
    expect([...m.exportToMirror]).toEqual([6, 3, 1, 5, 2, 0]);
    expect([...m.exportRule]).toEqual([RULE_TRANSACTION_ID, RULE_TRANSACTION_ID, RULE_TRANSACTION_ID, RULE_TRANSACTION_ID, RULE_PHONE_AMOUNT_TIME, RULE_TRANSACTION_ID]);
  });
});

describe('a reconciliation with references kept as bytes and spans', () => {
  it('finds what it finds with every reference a string, also when mirror entries before the range are left out of matching, and with references past ASCII', async () => {
    const start = Date.UTC(2026, 0, 1);
    const entries = generateLogEntries(3000, { startMs: start, stepMs: 60_000, seed: 26 });
    // References past ASCII on both sides (the export's read as strings, the mirror's as UTF-8 bytes), one on each day.
    const wide = [1500, 1510, 2000, 2990].map((i, k) => {
      entries[i].transaction_id = ['ТХ-кириллица', 'réf-été', '参照-番号', 'x-ü'][k] + i;
      return entries[i].transaction_id;
    });
    const { csv, db } = exportAndMirror(dir, 'planned', entries, {
      missingLocally: 20,
      missingInExport: 20,
      amountMismatch: 10,
      statusMismatch: 10,
      pending: 10,
      byId: 30,
      byPhoneAmountTime: 5,
    });
    try {
      const exp = (await readVendorExport(csv, { skipHash: true })).columns;
      // The mirror from the first entry on, the range a day later: the first day's entries are masked.
      const mir = readMirror(db, 'p', new Date(start).toISOString(), new Date(start + 3 * 86_400_000).toISOString()).columns;
      expect(mir.txSpans).toBeDefined();
      const strings = (c: LogColumns): LogColumns => ({
        ...c,
        txId: [...c.txId],
        txIdOf: undefined,
        hasTxId: undefined,
        txIdIs: undefined,
        txSpans: undefined,
        txIndex: undefined,
      });
      const run = (e: LogColumns, m: LogColumns, fromMs: number) => {
        const o = reconcileEntries({
          exp: e,
          mir: m,
          local: [],
          snapshots: [],
          rangeStartMs: fromMs,
          rangeEndMs: start + 3 * 86_400_000,
          matchWindowMs: 15 * 60_000,
          duplicateWindowMs: 10 * 60_000,
        });
        return { totals: o.totals, byRule: o.matchedByRule, exportToMirror: [...o.match.exportToMirror], items: o.items.map((i) => [i.category, i.transactionId]) };
      };
      for (const fromMs of [start, start + 86_400_000]) {
        const lazy = run(exp, mir, fromMs);
        expect(lazy).toEqual(run(strings(exp), strings(mir), fromMs));
        expect(lazy.totals.matched.count).toBeGreaterThan(1000);
        expect(lazy.byRule.id + lazy.byRule.phone_amount_time).toBeGreaterThan(0);
      }
      // Each of them paired by its reference, and named in full.
      const o = reconcileEntries({
        exp,
        mir,
        local: [],
        snapshots: [],
        rangeStartMs: start,
        rangeEndMs: start + 3 * 86_400_000,
        matchWindowMs: 15 * 60_000,
        duplicateWindowMs: 10 * 60_000,
      });
      for (const ref of wide) {
        const e = exp.txId.indexOf(ref);
        expect(e, ref).toBeGreaterThanOrEqual(0);
        expect(o.match.exportRule[e], ref).toBe(RULE_TRANSACTION_ID);
        expect(txIdAt(mir, o.match.exportToMirror[e])).toBe(ref);
      }
    } finally {
      db.close();
    }
  });
});

describe("matching's first pass, run while the rest of the mirror is read", () => {
  it("over the mirror's references alone finds what matching finds in one go, and is left aside when entries before the range are masked", async () => {
    const start = Date.UTC(2026, 0, 1);
    const end = start + 3 * 86_400_000;
    const entries = generateLogEntries(3000, { startMs: start, stepMs: 60_000, seed: 27 });
    const { csv, db } = exportAndMirror(dir, 'early', entries, {
      missingLocally: 20,
      missingInExport: 20,
      amountMismatch: 10,
      statusMismatch: 10,
      pending: 10,
      byId: 30,
      byPhoneAmountTime: 5,
    });
    try {
      const exp = (await readVendorExport(csv, { skipHash: true })).columns;
      const [fromIso, toIso] = [new Date(start).toISOString(), new Date(end).toISOString()];
      const q = mirrorQuery('p', fromIso, toIso);
      const parsed = parseMirrorColumns(
        ...(db
          .prepare(q.sql)
          .raw()
          .get(...q.params) as [Buffer, Buffer]),
      );
      const read = { ...parsed, txIndex: indexMirrorReferences(parsed) };
      const mir = mirrorFromParsed(db, 'p', read, fromIso, toIso).columns;
      const findings = (o: ReturnType<typeof reconcileEntries>) => ({
        totals: o.totals,
        byRule: o.matchedByRule,
        exportToMirror: [...o.match.exportToMirror],
        items: o.items.map((i) => [i.category, i.transactionId]),
      });
      for (const fromMs of [start, start + 86_400_000]) {
        const input = { exp, mir, local: [], snapshots: [], rangeStartMs: fromMs, rangeEndMs: end, matchWindowMs: 15 * 60_000, duplicateWindowMs: 10 * 60_000 };
        const exportInRange = inRange(exp.createdMs, fromMs, end);
        const early = pairByReference(exp, mirrorReferenceColumns(read), exportInRange.mask);
        const withEarly = reconcileEntries({ ...input, exportInRange, byReference: early });
        const inOneGo = reconcileEntries(input);
        expect(findings(withEarly)).toEqual(findings(inOneGo));
        expect(inOneGo.totals.matched.count).toBeGreaterThan(1000);
        // The early pairs are the run's own when every mirror entry is in the range; else matching pairs again.
        expect(withEarly.match.exportToMirror === early.exportToMirror).toBe(fromMs === start);
      }
    } finally {
      db.close();
    }
  });
});

describe("the export reader's amounts from bytes", () => {
  it('reads an amount only as the one Naira grammar reads it, and leaves every other text to the importer', () => {
    const texts = [
      '1500',
      '1500.5',
      '1,500.00',
      'NGN 1,500.00',
      '₦1,500.00',
      'ngn 2,000',
      '  750.25 ',
      '12,500,000.75',
      // Not plain, or not amounts at all: the importer's reader decides (and says why).
      '1,0,0',
      '1500,000',
      '1,5000',
      '15,00',
      '1 000',
      '1500.',
      '1500.505',
      '0',
      '0.00',
      'NGN 0',
      '-500',
      '(500)',
      'N500',
      '500 naira',
      'abc',
      '',
      ',500',
    ];
    for (const text of texts) {
      const bytes = Buffer.from(text, 'utf8');
      const fast = plainKoboFromBytes(bytes, 0, bytes.length);
      const slow = amountFromCell(text);
      if (Number.isNaN(fast)) continue;
      expect(slow, `${text} is read from the bytes, so the importer must read it too`).toEqual({ ok: true, kobo: fast });
    }
    // The fast reading is not empty: the common shapes are read from the bytes.
    const plain = ['1500', '1,500.00', 'NGN 1,500.00', '₦1,500.00'].map((t) => plainKoboFromBytes(Buffer.from(t), 0, Buffer.byteLength(t)));
    expect(plain).toEqual([150_000, 150_000, 150_000, 150_000]);
    // And the shapes the grammar refuses are never read from the bytes.
    for (const refused of ['1,0,0', '1500,000', '1500.', '0']) expect(plainKoboFromBytes(Buffer.from(refused), 0, refused.length), refused).toBeNaN();
  });
});

describe('reading an export a chunk at a time, and its reported rows again from the file', () => {
  /** The file held whole in memory, on one thread (no split: the threshold is the file's size). */
  const whole = async (p: string) => plain(await readVendorExport(p, { twoThreadsFromBytes: fs.statSync(p).size }));
  const inChunks = async (p: string, chunkBytes: number) => plain(await readVendorExport(p, { twoThreadsFromBytes: Infinity, chunkBytes }));

  it('gives the whole-file result wherever the chunks cut the records: quoted line breaks, CRLF, a BOM, a preamble before the header, odd and unreadable rows, non-ASCII and long references, no final line break', async () => {
    const rows = Array.from({ length: 300 }, (_, i) => row(i + 1, i % 7 === 0 ? `"Airtime, ""VTU""\r\nline ${i}\nmore"` : `plain ${i}`));
    rows[40] = `02/03/2026 10:40,TX41,41,08031234567,N1500,  ,Successful,odd,`;
    rows[41] = `2026-03-02T10:00:00Z,TX42,42,08031234567,abc,95,SUCCESS,bad amount,`;
    rows[42] = '';
    rows[43] = `2026-03-02T10:00:00Z,ТХ44-кириллица,44,08031234567,500,95,SUCCESS,non-ASCII,`;
    rows[44] = `2026-03-02T10:00:00Z,"  T""45""  ",45,08031234567,500,95,FAILED,quoted,2026-03-02T10:05:00Z`;
    rows[45] = row(46, `"${'a long note, '.repeat(400)}"`);
    // References longer than their store's first room: it grows.
    for (let i = 100; i < 250; i++) rows[i] = rows[i].replace(`,TX${i + 1},`, `,TX${i + 1}-${'R'.repeat(80)},`);
    // A preamble of more records than a small chunk holds: the data starts before the buffer then is.
    const preamble = Array.from({ length: 12 }, (_, i) => `Vendor transaction log,page ${i + 1},,,`).join('\r\n') + '\r\n\r\n';
    const text = '\uFEFF' + preamble + exportText(rows, '\r\n').replace(/\r\n$/, '');
    const p = file('chunks.csv', text);
    const expected = await whole(p);
    expect(expected.length).toBe(298);
    expect(expected.unreadable.map((u) => u.row)).toEqual([14 + 42]);
    expect(expected.txId.slice(41, 43)).toEqual(['ТХ44-кириллица', 'T"45"']);
    for (const chunkBytes of [64, 97, 150, 211, 1000, 4096, 65_536]) expect(await inChunks(p, chunkBytes), `chunks of ${chunkBytes} bytes`).toEqual(expected);
  });

  it('refuses a record too long with the row number and words of the whole-file read, whatever the chunk', async () => {
    const rows = Array.from({ length: 2000 }, (_, i) => row(i + 1));
    rows.push(row(2001, `"${'x'.repeat(1_000_100)}`), row(2002));
    const p = file('chunks-long-record.csv', exportText(rows));
    const expected = await readVendorExport(p, { twoThreadsFromBytes: fs.statSync(p).size }).catch((e: Error) => e.message);
    expect(expected).toMatch(/^Row 2,002 of the file is longer than 1,000,000 characters/);
    for (const chunkBytes of [100, 65_536, 1 << 20]) expect(await readVendorExport(p, { twoThreadsFromBytes: Infinity, chunkBytes }).catch((e: Error) => e.message)).toBe(expected);
  });

  it("refuses to report a row of a file that changed after it was read, rather than show another file's row", async () => {
    const rows = Array.from({ length: 50 }, (_, i) => row(i + 1));
    const text = exportText(rows);
    const changed = /The export file changed while it was being reconciled/;

    // Rewritten with the same size and modification time, one reference different.
    const p = file('changes.csv', text);
    const mtime = new Date('2026-03-02T10:00:00Z');
    fs.utimesSync(p, mtime, mtime);
    const read = (await readVendorExport(p, { twoThreadsFromBytes: Infinity, chunkBytes: 256 })).columns;
    fs.writeFileSync(p, text.replace('TX30,', 'TY30,'));
    fs.utimesSync(p, mtime, mtime);
    expect(read.detail(28).rowNumber).toBe(30);
    expect(() => read.detail(29)).toThrow(changed);
    // Its own code and a hint that says what to do, not "fix the file".
    expect(() => read.detail(29)).toThrow(expect.objectContaining({ code: 'export_changed', hint: expect.stringMatching(/reconcile again/) }));

    // A row added at the end (the rows before are the same bytes).
    const q = file('grows.csv', text);
    const grown = (await readVendorExport(q, { twoThreadsFromBytes: Infinity })).columns;
    fs.appendFileSync(q, `${row(51)}\n`);
    await new Promise((resolve) => setImmediate(resolve));
    expect(() => grown.detail(0)).toThrow(changed);

    // Another file moved to its name, alike to the byte.
    const r = file('replaced.csv', text);
    fs.utimesSync(r, mtime, mtime);
    const replaced = (await readVendorExport(r, { twoThreadsFromBytes: Infinity })).columns;
    const copy = file('replaced.csv.new', text);
    fs.utimesSync(copy, mtime, mtime);
    fs.renameSync(copy, r);
    await new Promise((resolve) => setImmediate(resolve));
    expect(() => replaced.detail(0)).toThrow(changed);

    // Untouched, every row reads back as it was read.
    const s = file('untouched.csv', text);
    expect(await inChunks(s, 300)).toEqual(await whole(s));
  });
});
