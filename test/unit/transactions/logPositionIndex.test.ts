/**
 * The Transactions table's windows from the position index are exactly the rows SQL's ORDER BY …
 * LIMIT … OFFSET gives, for every sort, filter and offset, and stay so while the mirror changes:
 * statuses that settle, entries older and newer than the mirrored ones, equal times, deletions,
 * and writes by another connection (a CLI sync in another process).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ParsedLogEntry } from '../../../src/main/api/parseLogEntry';
import type { LogFilter, LogSort } from '../../../src/shared/contract/logs';
import { forgetPositionIndex, positionIndexBuilds, setPositionIndexBuildSizes, warmPositionIndex, windowRowids } from '../../../src/main/transactions/logPositionIndex';
import { queryLogRows, whereOf } from '../../../src/main/transactions/logQuery';
import { upsertLogEntriesInTransaction } from '../../../src/main/transactions/logStore';
import { openDatabase, type Db } from '../../../src/main/store/database';
import { generateLogEntries } from '../../../bench/generate/logEntries';

const ORDER: Record<LogSort, string> = {
  time_desc: 'e.created_at DESC, e.id DESC',
  time_asc: 'e.created_at ASC, e.id ASC',
  amount_desc: 'e.amount_kobo DESC, e.id DESC',
  amount_asc: 'e.amount_kobo ASC, e.id ASC',
};
const SORTS = Object.keys(ORDER) as LogSort[];
const FILTERS: LogFilter[] = [
  {},
  { status: 'FAILED' },
  { type: 'DATA' },
  { network: 'GLO' },
  { from: '2026-11-20', to: '2026-11-21' },
  { type: 'AIRTIME', network: 'MTN', status: 'SUCCESS', from: '2026-11-21' },
  { search: '0803' },
  { search: '0803', type: 'CABLETV', to: '2026-11-21' },
  { network: 'IKEDC' },
];

let dir: string;
let db: Db;
const entries = [...generateLogEntries(6000)];
// A search with few hits (sorted by themselves rather than picked out of the whole order).
FILTERS.push({ search: entries[4242].phoneNumber.slice(4, 8) }, { search: entries[4242].phoneNumber.slice(4, 8), status: 'SUCCESS', from: '2026-11-20' });

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-positions-'));
  db = openDatabase(path.join(dir, 'vendesk.db'));
  upsertLogEntriesInTransaction(db, 'p', entries, 't');
  // Another connection's rows never show.
  upsertLogEntriesInTransaction(db, 'other', [...generateLogEntries(300, 1)], 't');
  // Blocks of 64 rows, so that windows are counted by many tallied blocks, not found in one.
  setPositionIndexBuildSizes({ tallyBlockRows: 64 });
});
afterEach(() => {
  setPositionIndexBuildSizes({});
  forgetPositionIndex(db);
  db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function sqlWindow(filter: LogFilter, sort: LogSort, offset: number, limit: number): number[] {
  const where = whereOf(db, 'p', filter);
  return db
    .prepare(`SELECT e.rowid FROM log_entries e WHERE ${where.sql} ORDER BY ${ORDER[sort]} LIMIT ? OFFSET ?`)
    .pluck()
    .all(...where.params, limit, offset) as number[];
}

function count(filter: LogFilter): number {
  const where = whereOf(db, 'p', filter);
  return db
    .prepare(`SELECT COUNT(*) FROM log_entries e WHERE ${where.sql}`)
    .pluck()
    .get(...where.params) as number;
}

/** Every sort and filter, windows at the start, the middle, the end and past the end. */
function expectSameAsSql(): void {
  for (const filter of FILTERS) {
    const n = count(filter);
    for (const sort of SORTS) {
      for (const offset of [0, Math.floor(n / 2), Math.max(0, n - 100), n + 5]) {
        const rows = queryLogRows(db, 'p', filter, sort, offset, 100).map((r) => r.rowid);
        expect(rows, `${JSON.stringify(filter)} ${sort} @${offset}`).toEqual(sqlWindow(filter, sort, offset, 100));
      }
    }
  }
}

const changed = (e: ParsedLogEntry, patch: Partial<ParsedLogEntry>): ParsedLogEntry => ({ ...e, ...patch });

describe('position index', () => {
  it('gives the same window as ORDER BY … LIMIT … OFFSET for every sort, filter and offset', () => {
    expectSameAsSql();
    // Those windows came from the index (built once), not from SQL.
    expect(windowRowids(db, 'p', { status: 'FAILED' }, 'amount_asc', 100, 5)).toEqual(sqlWindow({ status: 'FAILED' }, 'amount_asc', 100, 5));
    expect(positionIndexBuilds(db)).toBe(1);
  });

  it('gives the same windows when they are asked out of order: the last page first, then the first, the middle, past the end, in both directions', () => {
    // A filter's rows are found from either end as far as a window needs; the two scans meet in the middle.
    const steps: [number | 'last' | 'middle' | 'past', 'desc' | 'asc'][] = [
      ['last', 'asc'],
      ['last', 'desc'],
      [0, 'desc'],
      ['middle', 'asc'],
      ['middle', 'desc'],
      [0, 'asc'],
      ['past', 'desc'],
      [137, 'asc'],
    ];
    // Rows on the days before too (Lagos 19, 20 and 21 November), so that a date filter's bounds cut the amount order.
    upsertLogEntriesInTransaction(
      db,
      'p',
      [...generateLogEntries(1500, 20_001, Date.UTC(2026, 10, 19, 23, 30)), ...generateLogEntries(1500, 30_001, Date.UTC(2026, 10, 21, 2))],
      't0',
    );
    const dated: LogFilter[] = [
      { status: 'SUCCESS', from: '2026-11-20', to: '2026-11-20' },
      { type: 'DATA', from: '2026-11-21' },
      { network: 'MTN', to: '2026-11-20' },
    ];
    // And filters the first and last row of each order pass (the rows where the two scans start).
    const ends = db
      .prepare(
        `SELECT status, type, network FROM (SELECT * FROM log_entries WHERE profile_id = 'p' ORDER BY created_at DESC, id DESC LIMIT 1)
         UNION ALL SELECT status, type, network FROM (SELECT * FROM log_entries WHERE profile_id = 'p' ORDER BY created_at ASC, id ASC LIMIT 1)
         UNION ALL SELECT status, type, network FROM (SELECT * FROM log_entries WHERE profile_id = 'p' ORDER BY amount_kobo DESC, id DESC LIMIT 1)
         UNION ALL SELECT status, type, network FROM (SELECT * FROM log_entries WHERE profile_id = 'p' ORDER BY amount_kobo ASC, id ASC LIMIT 1)`,
      )
      .all() as LogFilter[];
    // Windows counted by tallied blocks (one block of 8,192 rows here, and blocks of 64), and by the scans alone (no tallies).
    for (const sizes of [{}, { tallyBlockRows: 64 }, { tallyKinds: 0 }]) {
      setPositionIndexBuildSizes(sizes);
      for (const filter of [...FILTERS, ...dated, ...ends]) {
        const n = count(filter);
        for (const by of ['time', 'amount'] as const) {
          forgetPositionIndex(db);
          for (const [at, direction] of steps) {
            const sort = `${by}_${direction}` as LogSort;
            const offset = at === 'last' ? Math.max(0, n - 100) : at === 'middle' ? Math.floor(n / 2) : at === 'past' ? n + 5 : at;
            const rows = queryLogRows(db, 'p', filter, sort, offset, 100).map((r) => r.rowid);
            expect(rows, `${JSON.stringify(sizes)} ${JSON.stringify(filter)} ${sort} @${offset}`).toEqual(sqlWindow(filter, sort, offset, 100));
          }
        }
      }
    }
  });

  it('follows statuses that settle, new entries before and after the mirrored ones, equal times and corrected amounts', () => {
    expectSameAsSql();
    const tied = entries[3000].createdAt;
    upsertLogEntriesInTransaction(
      db,
      'p',
      [
        changed(entries[10], { status: 'FAILED' }),
        changed(entries[4000], { status: 'PENDING', type: 'DATA', network: 'GLOBACOM' }),
        changed(entries[20], { amountKobo: 5_000_000 }),
        changed(entries[5999], { createdAt: '2026-11-22T23:00:00.000Z' }),
        changed(entries[0], { id: 900_001, transactionId: 'NEWEST', createdAt: '2026-11-23T08:00:00.000Z' }),
        changed(entries[1], { id: 900_002, transactionId: 'OLDEST', createdAt: '2026-01-01T08:00:00.000Z' }),
        changed(entries[2], { id: 900_003, transactionId: 'TIED-A', createdAt: tied }),
        changed(entries[3], { id: 2, transactionId: 'TIED-B', createdAt: tied }),
      ],
      't2',
    );
    expectSameAsSql();
    expect(queryLogRows(db, 'p', {}, 'time_desc', 0, 1)[0].transactionId).toBe('NEWEST');
    expect(queryLogRows(db, 'p', {}, 'time_asc', 0, 1)[0].transactionId).toBe('OLDEST');
    // A hundred statuses settling at once.
    upsertLogEntriesInTransaction(
      db,
      'p',
      entries.slice(1000, 1100).map((e) => changed(e, { status: 'PENDING' })),
      't3',
    );
    expectSameAsSql();
    // A few settling alone: their codes change where they stand, and the blocks are counted again.
    upsertLogEntriesInTransaction(
      db,
      'p',
      entries.slice(2000, 2003).map((e) => changed(e, { status: e.status === 'FAILED' ? 'SUCCESS' : 'FAILED' })),
      't4',
    );
    expectSameAsSql();
    expect(positionIndexBuilds(db), 'followed row by row').toBe(1);
  });

  it('counts its blocks a slice per turn after a sync: windows asked in between, and changes in between, give what SQL gives', async () => {
    // Rows on three Lagos days, so that the amount order's blocks are counted by day as well.
    upsertLogEntriesInTransaction(
      db,
      'p',
      [...generateLogEntries(1500, 20_001, Date.UTC(2026, 10, 19, 23, 30)), ...generateLogEntries(1500, 30_001, Date.UTC(2026, 10, 21, 2))],
      't0',
    );
    setPositionIndexBuildSizes({ tallyBlockRows: 64, tallyStepRows: 700 });
    const turn = () => new Promise((resolve) => setImmediate(resolve));
    expectSameAsSql();
    for (let k = 0; k < 4; k++) {
      // A sync wrote: warming counts 700 positions of an order now and the rest on later turns.
      upsertLogEntriesInTransaction(db, 'p', [changed(entries[100 + k], { status: k % 2 ? 'FAILED' : 'PENDING', amountKobo: 10_000 * (k + 1) })], `w${k}`);
      const warming = warmPositionIndex(db, 'p');
      for (let t = 0; t < 1 + 5 * k; t++) await turn();
      // Asked part-way through the count: of the time order (700 positions a turn of its 9,000), of the amount order in the last round.
      expectSameAsSql();
      await warming;
    }
    // A change part-way through a count: the count in progress is dropped and the next windows count anew.
    const warming = warmPositionIndex(db, 'p');
    upsertLogEntriesInTransaction(
      db,
      'p',
      entries.slice(3000, 3040).map((e) => changed(e, { status: 'PENDING' })),
      'w9',
    );
    await turn();
    await turn();
    expectSameAsSql();
    await warming;
    expect(positionIndexBuilds(db), 'followed row by row').toBe(1);
  });

  it('follows rows deleted and rows written by another connection to the same file', () => {
    expectSameAsSql();
    db.prepare("DELETE FROM log_entries WHERE profile_id = 'p' AND id IN (5, 3001, 5990)").run();
    expectSameAsSql();
    const other = openDatabase(path.join(dir, 'vendesk.db'));
    upsertLogEntriesInTransaction(other, 'p', [...generateLogEntries(50, 700_000, Date.UTC(2026, 10, 24))].concat(changed(entries[100], { status: 'PENDING' })), 't3');
    other.close();
    expectSameAsSql();
    expect(positionIndexBuilds(db), 'followed row by row').toBe(1);
  });

  it('rebuilds when more changed at once than it follows row by row', () => {
    expectSameAsSql();
    upsertLogEntriesInTransaction(
      db,
      'p',
      entries.slice(0, 3000).map((e) => changed(e, { status: 'PENDING' })),
      't4',
    );
    upsertLogEntriesInTransaction(db, 'p', [...generateLogEntries(2500, 800_000, Date.UTC(2026, 10, 10))], 't4');
    expectSameAsSql();
    expect(positionIndexBuilds(db)).toBe(2);
  });

  it('builds a big mirror’s index in the background while SQL answers, following the writes made meanwhile', async () => {
    setPositionIndexBuildSizes({ syncBuildRows: 1000, chunkRows: 400 });
    // Not ready: answered by SQL, and the build starts.
    expect(windowRowids(db, 'p', {}, 'time_desc', 0, 10)).toBeNull();
    expectSameAsSql();
    const warm = warmPositionIndex(db, 'p');
    for (let k = 0; k < 6; k++) {
      await new Promise((r) => setImmediate(r));
      upsertLogEntriesInTransaction(
        db,
        'p',
        [
          changed(entries[500 * k + 1], { status: 'PENDING' }),
          changed(entries[500 * k + 2], { createdAt: `2026-11-2${k}T10:00:00.000Z` }),
          changed(entries[0], { id: 950_000 + k, transactionId: `DURING-${k}`, createdAt: `2026-11-1${k}T10:00:00.000Z` }),
        ],
        `t${k}`,
      );
    }
    await warm;
    expect(positionIndexBuilds(db)).toBe(1);
    expect(windowRowids(db, 'p', {}, 'time_desc', 0, 10)).not.toBeNull();
    expectSameAsSql();
  });

  it('answers inside a transaction too (from SQL, which sees the transaction’s own rows)', () => {
    expectSameAsSql();
    db.transaction(() => {
      upsertLogEntriesInTransaction(db, 'p', [changed(entries[7], { status: 'PENDING' })], 't5');
      expect(queryLogRows(db, 'p', { status: 'PENDING' }, 'time_desc', 0, 10).map((r) => r.id)).toEqual([entries[7].id]);
    })();
    expectSameAsSql();
  });
});
