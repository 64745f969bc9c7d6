/**
 * Upserts into the mirror as a user sees them: new entries appear once, a status that changes is
 * updated, a page read twice adds nothing, and the search finds the new and changed rows.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ParsedLogEntry } from '../../../src/main/api/parseLogEntry';
import { logTotals, queryLogRows } from '../../../src/main/transactions/logQuery';
import { beginBulkLoad, bulkLoadTransaction, endBulkLoad, ensureLogIndexes, upsertLogEntries, upsertLogEntriesInTransaction } from '../../../src/main/transactions/logStore';
import { logFacets } from '../../../src/main/transactions/logFacets';
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

  it('finds the new rows of a batch that also holds known ones, and offers their new filter choices', () => {
    const entries = [...generateLogEntries(300)];
    upsertLogEntriesInTransaction(db, 'p', entries.slice(0, 200), 't1');
    // A search builds the in-process index, which the next batches then extend.
    expect(logTotals(db, 'p', { search: entries[10].phoneNumber }).count).toBeGreaterThanOrEqual(1);
    const fresh = entries.slice(200, 260).map((e, i) => (i === 7 ? { ...e, status: 'PENDING' as const, network: 'SMILE', phoneNumber: '09123456780' } : e));
    const batch = [...entries.slice(150, 200), ...fresh, { ...entries[5], status: 'FAILED' as const }];
    expect(upsertLogEntriesInTransaction(db, 'p', batch, 't2')).toEqual({ inserted: 60, updated: entries[5].status === 'FAILED' ? 0 : 1 });
    expect(queryLogRows(db, 'p', { search: '123456780' }, 'time_desc', 0, 10).map((r) => r.id)).toEqual([fresh[7].id]);
    const last = fresh[59];
    expect(queryLogRows(db, 'p', { search: last.transactionId.toLowerCase() }, 'time_desc', 0, 10).map((r) => r.id)).toEqual([last.id]);
    expect(logFacets(db, 'p').statuses).toContain('PENDING');
    expect(logFacets(db, 'p').networks.flatMap((g) => g.networks)).toContain('SMILE');
    expect(ids()).toHaveLength(260);
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
      const made = fresh.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'log_entries' AND sql IS NOT NULL ORDER BY name").all() as {
        name: string;
        sql: string;
      }[];
      const normal = (sql: string) =>
        sql
          .replace(/IF NOT EXISTS /, '')
          .replace(/;$/, '')
          .replace(/\s+/g, ' ');
      expect(made.map((i) => i.name)).toEqual(Object.keys(LOG_ENTRY_INDEXES).sort());
      for (const { name, sql } of made) expect(normal(sql)).toBe(normal(LOG_ENTRY_INDEXES[name as keyof typeof LOG_ENTRY_INDEXES]));
    } finally {
      fresh.close();
    }
  });

  const indexes = () => db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'log_entries' AND sql IS NOT NULL ORDER BY name").pluck().all() as string[];
  const plan = (filter: string) =>
    (db.prepare(`EXPLAIN QUERY PLAN SELECT count(*) FROM log_entries WHERE profile_id = 'p' AND ${filter}`).all() as { detail: string }[]).map((r) => r.detail).join(' ');

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

  it('keeps one row per id, the last read, when a first sync reads an entry twice in a batch or in two batches', () => {
    expect(beginBulkLoad(db)).toBe(true);
    const entries = [...generateLogEntries(2_500)];
    const batch = (rows: ParsedLogEntry[]) => bulkLoadTransaction(db, true, () => upsertLogEntries(db, 'p', rows, 't'));
    // Entries 997–999 settled while the first batch was read: read twice in it, FAILED the second time.
    const settled = entries.slice(997, 1000).map((e) => ({ ...e, status: 'FAILED' as const }));
    expect(batch([...entries.slice(0, 1000), ...settled])).toEqual({ inserted: 1000, updated: 0 });
    // The log shifted: the next batch starts 5 entries back (995–999 again, as the service now
    // has them: 995 with a corrected amount, 997–999 settled).
    const corrected = { ...entries[995], amountKobo: entries[995].amountKobo + 5_000 };
    expect(batch([corrected, entries[996], ...settled, ...entries.slice(1000, 2000)])).toEqual({ inserted: 1000, updated: 1 });
    expect(batch(entries.slice(2000, 2500))).toEqual({ inserted: 500, updated: 0 });
    endBulkLoad(db);
    expect(ids()).toEqual(entries.map((e) => e.id).sort((a, b) => a - b));
    const row = (id: number) => db.prepare('SELECT status, amount_kobo AS amountKobo FROM log_entries WHERE id = ?').get(id);
    expect(row(entries[998].id)).toEqual({ status: 'FAILED', amountKobo: entries[998].amountKobo });
    expect(row(entries[995].id)).toEqual({ status: entries[995].status, amountKobo: corrected.amountKobo });
    expect(logTotals(db, 'p', {}).count).toBe(2_500);
    // The search finds rows of every batch, the one mixing new and known rows included.
    for (const e of [entries[10], entries[1500], entries[2499]]) expect(queryLogRows(db, 'p', { search: e.transactionId }, 'time_desc', 0, 5).map((r) => r.id)).toEqual([e.id]);
  });

  it('commits a bulk load’s batch with synchronous NORMAL and gives the connection FULL back, however the batch ends', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-bulk-'));
    const file = openDatabase(path.join(dir, 'mirror.db'));
    try {
      const sync = () => file.pragma('synchronous', { simple: true });
      expect(file.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(sync()).toBe(2);
      expect(bulkLoadTransaction(file, true, () => [sync(), file.inTransaction])).toEqual([1, true]);
      expect(sync()).toBe(2);
      // A batch that fails rolls back whole and still gives FULL back.
      expect(() =>
        bulkLoadTransaction(file, true, () => {
          upsertLogEntries(file, 'p', [...generateLogEntries(3)], 't');
          throw new Error('page refused');
        }),
      ).toThrow('page refused');
      expect(sync()).toBe(2);
      expect(file.prepare('SELECT count(*) FROM log_entries').pluck().get()).toBe(0);
      // Not a bulk load (the mirror had rows): FULL throughout.
      expect(bulkLoadTransaction(file, false, () => sync())).toBe(2);
      expect(file.pragma('journal_mode', { simple: true })).toBe('wal');
    } finally {
      file.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('commits entries mirrored outside a sync with synchronous NORMAL, never inside a purchase’s write, and gives FULL back', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-copy-'));
    const file = openDatabase(path.join(dir, 'mirror.db'));
    try {
      const sync = () => file.pragma('synchronous', { simple: true });
      // A purchase's own entries, as its answer mirrors them (the commit itself: unflushedCommit.test.ts).
      expect(upsertLogEntriesInTransaction(file, 'p', [...generateLogEntries(3)], 't', { copy: true })).toEqual({ inserted: 3, updated: 0 });
      expect(sync()).toBe(2);
      expect(file.prepare('SELECT count(*) FROM log_entries').pluck().get()).toBe(3);
      // Inside another write (a purchase's, which must reach the disk), the setting is left alone.
      expect(file.transaction(() => upsertLogEntriesInTransaction(file, 'p', [...generateLogEntries(2)], 't', { copy: true }))()).toEqual({ inserted: 0, updated: 0 });
      expect(sync()).toBe(2);
    } finally {
      file.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
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
