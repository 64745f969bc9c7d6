/**
 * Upserts into the mirror as a user sees them: new entries appear once, a status that changes is
 * updated, a page read twice adds nothing, and the search finds the new and changed rows.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ParsedLogEntry } from '../../../src/main/api/parseLogEntry';
import { logTotals, queryLogRows } from '../../../src/main/transactions/logQuery';
import { beginBulkLoad, endBulkLoad, ensureLogIndexes, upsertLogEntries, upsertLogEntriesInTransaction } from '../../../src/main/transactions/logStore';
import { openDatabase, type Db } from '../../../src/main/store/database';
import { LOG_ENTRY_INDEXES } from '../../../src/main/store/logEntryIndexes';
import { generateLogEntries } from '../../../bench/generate/logEntries';

let db: Db;
beforeEach(() => {
  db = openDatabase(':memory:');
});
afterEach(() => db.close());

const ids = (profile = 'p') => db.prepare('SELECT id FROM log_entries WHERE profile_id = ? ORDER BY id').pluck().all(profile) as number[];

describe('upsertLogEntries', () => {
  it('inserts new entries once and counts them, across multi-row statements and a remainder', () => {
    const entries = [...generateLogEntries(173)];
    expect(upsertLogEntriesInTransaction(db, 'p', entries, 't1')).toEqual({ inserted: 173, updated: 0 });
    expect(ids()).toEqual(entries.map((e) => e.id).sort((a, b) => a - b));
    // The same pages again: nothing new, nothing changed, no duplicate.
    expect(upsertLogEntriesInTransaction(db, 'p', entries, 't2')).toEqual({ inserted: 0, updated: 0 });
    expect(ids()).toHaveLength(173);
    const syncedAt = db.prepare('SELECT DISTINCT synced_at FROM log_entries').pluck().all();
    expect(syncedAt).toEqual(['t1']);
  });

  it('updates a status that changed and counts it as updated', () => {
    const entries: ParsedLogEntry[] = [...generateLogEntries(120)].map((e) => ({ ...e, status: 'PENDING' }));
    upsertLogEntriesInTransaction(db, 'p', entries, 't1');
    expect(logTotals(db, 'p', { status: 'PENDING' }).count).toBe(120);
    const settled = entries.map((e, i) => (i % 3 === 0 ? { ...e, status: 'SUCCESS' as const } : e));
    expect(upsertLogEntriesInTransaction(db, 'p', settled, 't2')).toEqual({ inserted: 0, updated: 40 });
    expect(logTotals(db, 'p', { status: 'SUCCESS' }).count).toBe(40);
    expect(logTotals(db, 'p', { status: 'PENDING' }).count).toBe(80);
  });

  it('keeps an entry read twice in one batch once, with its later version', () => {
    const [a, b] = [...generateLogEntries(2)];
    const counts = upsertLogEntriesInTransaction(db, 'p', [a, b, { ...a, status: 'FAILED' }], 't');
    expect(counts).toEqual({ inserted: 2, updated: 0 });
    expect(db.prepare('SELECT status FROM log_entries WHERE id = ?').pluck().get(a.id)).toBe('FAILED');
  });

  it('mixes new and known entries in one batch', () => {
    const entries = [...generateLogEntries(100)];
    upsertLogEntriesInTransaction(db, 'p', entries.slice(0, 60), 't');
    const changed = { ...entries[10], status: 'FAILED' as const, amountKobo: entries[10].amountKobo + 100 };
    const batch = [...entries.slice(40, 100), changed];
    expect(upsertLogEntriesInTransaction(db, 'p', batch, 't')).toEqual({ inserted: 40, updated: 1 });
    expect(ids()).toHaveLength(100);
  });

  it('keeps profiles apart', () => {
    const entries = [...generateLogEntries(10)];
    upsertLogEntriesInTransaction(db, 'a', entries, 't');
    expect(upsertLogEntriesInTransaction(db, 'b', entries, 't')).toEqual({ inserted: 10, updated: 0 });
    expect(ids('a')).toHaveLength(10);
    expect(ids('b')).toHaveLength(10);
    expect(logTotals(db, 'a', { search: entries[3].phoneNumber }).count).toBeGreaterThanOrEqual(1);
  });

  it('finds rows by search after they are written, changed or written by someone else', () => {
    const entries = [...generateLogEntries(300)];
    db.transaction(() => upsertLogEntries(db, 'p', entries.slice(0, 200), 't'))();
    const phone = entries[150].phoneNumber;
    expect(queryLogRows(db, 'p', { search: phone.slice(3, 9) }, 'time_desc', 0, 50).map((r) => r.id)).toContain(entries[150].id);
    // Rows added later, by the upsert and by a plain INSERT of another writer.
    db.transaction(() => upsertLogEntries(db, 'p', entries.slice(200, 250), 't'))();
    const e = entries[260];
    db.prepare(
      `INSERT INTO log_entries (profile_id, id, transaction_id, partner_reference, phone_number, amount_kobo, cost_kobo, commission_kobo, type, network,
         operator, region, description, data_plan, status, time_text, created_at, updated_at, synced_at)
       VALUES ('p', ?, ?, '', '07019998888', 100, 97, 3, 'AIRTIME', 'MTN', 'MTN', 'NG', '', '', 'SUCCESS', ?, ?, ?, 't')`,
    ).run(e.id, e.transactionId, e.time, e.createdAt, e.updatedAt);
    expect(logTotals(db, 'p', { search: entries[230].phoneNumber }).count).toBeGreaterThanOrEqual(1);
    expect(logTotals(db, 'p', { search: '019998' }).count).toBe(1);
    // A corrected phone number: the old one no longer matches, the new one does.
    db.prepare("UPDATE log_entries SET phone_number = '09090000001' WHERE id = ?").run(e.id);
    expect(logTotals(db, 'p', { search: '019998' }).count).toBe(0);
    expect(logTotals(db, 'p', { search: '9090000001' }).count).toBe(1);
    // A deleted row is gone from the search.
    db.prepare('DELETE FROM log_entries WHERE id = ?').run(e.id);
    expect(logTotals(db, 'p', { search: '9090000001' }).count).toBe(0);
  });
});

describe('a bulk first load (a first sync into an empty mirror)', () => {
  it('rebuilds exactly the indexes migration 2 made (the released step is not edited; the list is held equal to it)', () => {
    const fresh = openDatabase(':memory:');
    try {
      const made = fresh.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'log_entries' AND sql IS NOT NULL ORDER BY name").all() as { name: string; sql: string }[];
      const normal = (sql: string) => sql.replace(/IF NOT EXISTS /, '').replace(/;$/, '').replace(/\s+/g, ' ');
      expect(made.map((i) => i.name)).toEqual(Object.keys(LOG_ENTRY_INDEXES).sort());
      for (const { name, sql } of made) expect(normal(sql)).toBe(normal(LOG_ENTRY_INDEXES[name as keyof typeof LOG_ENTRY_INDEXES]));
    } finally {
      fresh.close();
    }
  });

  const indexes = () => db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'log_entries' AND sql IS NOT NULL ORDER BY name").pluck().all() as string[];
  const plan = (filter: string) => (db.prepare(`EXPLAIN QUERY PLAN SELECT count(*) FROM log_entries WHERE profile_id = 'p' AND ${filter}`).all() as { detail: string }[]).map((r) => r.detail).join(' ');

  it('writes the rows without the secondary indexes, then builds them: the same rows once, the same answers', () => {
    const before = indexes();
    expect(before).toEqual(['log_entries_amount', 'log_entries_created', 'log_entries_pending']);
    expect(beginBulkLoad(db)).toBe(true);
    // The two big ones go; the partial index of the few PENDING rows stays.
    expect(indexes()).toEqual(['log_entries_pending']);
    const entries: ParsedLogEntry[] = [...generateLogEntries(2_345)].map((e, i) => (i % 50 === 0 ? { ...e, status: 'PENDING' } : e));
    for (let i = 0; i < entries.length; i += 1000) upsertLogEntriesInTransaction(db, 'p', entries.slice(i, i + 1000), 't1');
    // A page read again during the load adds nothing (the unique key stays in place).
    expect(upsertLogEntriesInTransaction(db, 'p', entries.slice(0, 1000), 't2')).toEqual({ inserted: 0, updated: 0 });
    endBulkLoad(db);
    expect(indexes()).toEqual(before);
    expect(ids()).toEqual(entries.map((e) => e.id).sort((a, b) => a - b));
    // The same totals and windows as a mirror written with its indexes in place.
    const plain = openDatabase(':memory:');
    try {
      upsertLogEntriesInTransaction(plain, 'p', entries, 't1');
      for (const filter of [{}, { status: 'PENDING' as const }, { type: 'DATA' as const, network: 'MTN' }]) {
        expect(logTotals(db, 'p', filter)).toEqual(logTotals(plain, 'p', filter));
        expect(queryLogRows(db, 'p', filter, 'amount_desc', 40, 25)).toEqual(queryLogRows(plain, 'p', filter, 'amount_desc', 40, 25));
      }
    } finally {
      plain.close();
    }
    expect(logTotals(db, 'p', {}).count).toBe(2_345);
    expect(logTotals(db, 'p', { status: 'PENDING' }).count).toBe(47);
    // The queries use the rebuilt indexes again.
    expect(plan("status = 'PENDING' AND created_at > ''")).toContain('log_entries_pending');
    expect(plan('amount_kobo > 0')).toContain('log_entries_amount');
  });

  it('leaves a mirror that holds rows as it is, its indexes in place', () => {
    upsertLogEntriesInTransaction(db, 'other', [...generateLogEntries(3)], 't');
    expect(beginBulkLoad(db)).toBe(false);
    expect(indexes()).toEqual(['log_entries_amount', 'log_entries_created', 'log_entries_pending']);
  });

  it('gets the indexes back after a load cut short (the process killed before it built them)', () => {
    expect(beginBulkLoad(db)).toBe(true);
    upsertLogEntriesInTransaction(db, 'p', [...generateLogEntries(10)], 't');
    // The next run finds rows: it builds what is missing before it writes.
    expect(beginBulkLoad(db)).toBe(false);
    expect(indexes()).toEqual(['log_entries_amount', 'log_entries_created', 'log_entries_pending']);
    ensureLogIndexes(db);
    expect(indexes()).toHaveLength(3);
  });
});
