/**
 * `vendesk logs --from --to --all` and `export logs` read the mirror a chunk at a time, each chunk
 * after the last row of the one before. Every row of the range comes once, in order; and each next
 * chunk seeks by that last row, not from the edge of the range (at ten million entries a month's
 * listing walked the range again on every chunk: 0.76 s a chunk near its end).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LogFilter, LogSort } from '../../../src/shared/contract/logs';
import { iterateLogRows, logChunkQueries, whereOf } from '../../../src/main/transactions/logQuery';
import { upsertLogEntriesInTransaction } from '../../../src/main/transactions/logStore';
import { openDatabase, type Db } from '../../../src/main/store/database';
import { generateLogEntries } from '../../../bench/generate/logEntries';

let dir: string;
let db: Db;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-chunks-'));
  db = openDatabase(path.join(dir, 'vendesk.db'));
  // Rows on Lagos days 17 to 22 November, another connection's among them.
  for (let d = 0; d < 6; d++) upsertLogEntriesInTransaction(db, 'p', [...generateLogEntries(400, 1 + d * 1000, Date.UTC(2026, 10, 17 + d, 1))], `t${d}`);
  upsertLogEntriesInTransaction(db, 'other', [...generateLogEntries(300, 90_001, Date.UTC(2026, 10, 19, 1))], 'o');
});
afterAll(() => {
  db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const ORDER: Record<LogSort, string> = {
  time_desc: 'e.created_at DESC, e.id DESC',
  time_asc: 'e.created_at ASC, e.id ASC',
  amount_desc: 'e.amount_kobo DESC, e.id DESC',
  amount_asc: 'e.amount_kobo ASC, e.id ASC',
};

describe('a listing over days read a chunk at a time', () => {
  const filters: LogFilter[] = [
    { from: '2026-11-18', to: '2026-11-20' },
    { from: '2026-11-19' },
    { to: '2026-11-19', status: 'SUCCESS' },
    { search: '080', from: '2026-11-18', to: '2026-11-21' },
    // One day of six: in amount order, few enough to be sorted in the time index a chunk at a time.
    { from: '2026-11-18', to: '2026-11-18' },
    { to: '2026-11-17', status: 'SUCCESS' },
    {},
  ];
  it('gives every row of the range once, in the order SQL gives them all at once', () => {
    for (const filter of filters) {
      for (const sort of Object.keys(ORDER) as LogSort[]) {
        const where = whereOf(db, 'p', filter);
        const all = db
          .prepare(`SELECT e.rowid FROM log_entries e WHERE ${where.sql} ORDER BY ${ORDER[sort]}`)
          .pluck()
          .all(...where.params);
        expect(all.length).toBeGreaterThan(100);
        const chunked = [...iterateLogRows(db, 'p', filter, sort, 97)].map((r) => r.rowid);
        expect(chunked, `${JSON.stringify(filter)} ${sort}`).toEqual(all);
      }
    }
  });

  it('seeks each next chunk by the last row read, whatever bounds the range has', () => {
    // (A search's few hits are read by rowid instead, a plan of their own.)
    for (const filter of filters.filter((f) => !f.search)) {
      for (const [sort, cmp] of [
        ['time_desc', '<'],
        ['time_asc', '>'],
      ] as const) {
        const { next } = logChunkQueries(db, 'p', filter, sort);
        const plan = (db.prepare(`EXPLAIN QUERY PLAN ${next.sql}`).all(...next.params, '2026-11-19T12:00:00.000Z', 1, 2000) as { detail: string }[])
          .map((r) => r.detail)
          .join('; ');
        expect(plan, `${JSON.stringify(filter)} ${sort}`).toContain(`(created_at,id)${cmp}(?,?)`);
      }
    }
  });

  it('reads a range of days in amount order by the amount index when it holds many entries, and sorts a few in the time index alone', () => {
    const planOf = (filter: LogFilter, sort: LogSort, chunk: number) => {
      const q = logChunkQueries(db, 'p', filter, sort, chunk);
      const detail = (sql: string, params: unknown[]) => (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((r) => r.detail).join('; ');
      return { first: detail(q.first.sql, [...q.first.params, chunk]), next: detail(q.next.sql, [...q.next.params, 5000, 1, chunk]) };
    };
    for (const sort of ['amount_asc', 'amount_desc'] as const) {
      // Five days of six (2,000 of 2,400 entries), chunks of 97: 2,000² > 97 × 2,400. Walked in the amount index from the last row, never sorted whole.
      const many = planOf({ from: '2026-11-18', to: '2026-11-22' }, sort, 97);
      for (const plan of [many.first, many.next]) {
        expect(plan, sort).toContain('USING INDEX log_entries_amount');
        expect(plan, sort).not.toContain('TEMP B-TREE');
      }
      expect(many.next).toContain(`(amount_kobo,id)${sort === 'amount_asc' ? '>' : '<'}(?,?)`);
      // One day (400 entries): 400² < 97 × 2,400. Its rows found and sorted in the time index alone (it holds amount and id), then read by rowid.
      const few = planOf({ from: '2026-11-18', to: '2026-11-18' }, sort, 97);
      for (const plan of [few.first, few.next]) {
        expect(plan, sort).toContain('USING COVERING INDEX log_entries_created (profile_id=? AND created_at>? AND created_at<?)');
        expect(plan, sort).toContain('USING INTEGER PRIMARY KEY (rowid=?)');
      }
    }
  });
});
