/**
 * Partial search on phone number and transaction id, as the Transactions page uses it: any part
 * of a number, any case of a transaction id, short searches, other spellings of a full number,
 * and the same answers as a LIKE over the table.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { logTotals, queryLogRows } from '../../../src/main/transactions/logQuery';
import { searchRowids } from '../../../src/main/transactions/logSearchIndex';
import { upsertLogEntriesInTransaction } from '../../../src/main/transactions/logStore';
import { openDatabase, type Db } from '../../../src/main/store/database';
import { generateLogEntries } from '../../../bench/generate/logEntries';

let db: Db;
const entries = [...generateLogEntries(2000)];
beforeEach(() => {
  db = openDatabase(':memory:');
  upsertLogEntriesInTransaction(db, 'p', entries, 't');
});
afterEach(() => db.close());

function likeRowids(text: string): number[] {
  const pattern = `%${text}%`;
  return db
    .prepare("SELECT rowid FROM log_entries WHERE profile_id = 'p' AND (phone_number LIKE ? OR transaction_id LIKE ?) ORDER BY rowid")
    .pluck()
    .all(pattern, pattern) as number[];
}

describe('search index', () => {
  it('matches any part of a phone number, as LIKE does', () => {
    for (const e of [entries[0], entries[999], entries[1999]]) {
      for (const part of [e.phoneNumber, e.phoneNumber.slice(3), e.phoneNumber.slice(2, 8), e.phoneNumber.slice(-4)]) {
        expect(searchRowids(db, 'p', part)).toEqual(likeRowids(part));
      }
    }
  });

  it('finds a transaction id with letters beyond ASCII in any case, as the search typed', () => {
    const e = { ...entries[0], id: 900_001, transactionId: 'RÉF-ÜBER-Ω42', phoneNumber: '08039990001' };
    upsertLogEntriesInTransaction(db, 'p', [e], 't');
    for (const term of ['réf-über', 'RÉF-ÜBER-Ω42', 'über-ω4']) expect(queryLogRows(db, 'p', { search: term }, 'time_desc', 0, 10).map((r) => r.id)).toEqual([e.id]);
    // Its ASCII neighbours written in the same buffer still match as LIKE does.
    const next = entries[1].phoneNumber.slice(2, 9);
    expect(searchRowids(db, 'p', next)).toEqual(likeRowids(next));
  });

  it('matches part of a transaction id in any case', () => {
    const ref = entries[1234].transactionId;
    const hits = queryLogRows(db, 'p', { search: ref.slice(-7).toLowerCase() }, 'time_desc', 0, 10);
    expect(hits.map((r) => r.transactionId)).toContain(ref);
    expect(searchRowids(db, 'p', ref.slice(5, 12).toLowerCase())).toEqual(likeRowids(ref.slice(5, 12)));
  });

  it('handles 1- and 2-character searches, with totals equal to a scan', () => {
    for (const short of ['7', '99', 'a']) {
      const expected = likeRowids(short).length;
      expect(logTotals(db, 'p', { search: short }).count).toBe(expected);
    }
    // Too many hits for the index: the query falls back to LIKE and still answers.
    expect(searchRowids(db, 'p', '0', 100)).toBeNull();
  });

  it('finds a full number written with the country code', () => {
    const phone = entries[42].phoneNumber;
    const rows = queryLogRows(db, 'p', { search: `+234 ${phone.slice(1)}` }, 'time_desc', 0, 10);
    expect(rows.map((r) => r.phoneNumber)).toContain(phone);
  });

  it('combines with other filters and orders like the unsearched list', () => {
    const part = entries[500].phoneNumber.slice(4, 8);
    const filter = { search: part, status: 'SUCCESS' as const };
    const rows = queryLogRows(db, 'p', filter, 'amount_desc', 0, 1000);
    const expected = db
      .prepare("SELECT id FROM log_entries WHERE profile_id = 'p' AND status = 'SUCCESS' AND (phone_number LIKE ? OR transaction_id LIKE ?) ORDER BY amount_kobo DESC, id DESC")
      .pluck()
      .all(`%${part}%`, `%${part}%`);
    expect(rows.map((r) => r.id)).toEqual(expected);
    expect(logTotals(db, 'p', filter).count).toBe(expected.length);
  });
});

describe('deep windows', () => {
  it('reads a window near the end from the other end, with the same rows as OFFSET', () => {
    const big = [...generateLogEntries(25_000)];
    const d = openDatabase(':memory:');
    upsertLogEntriesInTransaction(d, 'p', big, 't');
    for (const sort of ['time_desc', 'amount_asc'] as const) {
      const order = sort === 'time_desc' ? 'created_at DESC, id DESC' : 'amount_kobo ASC, id ASC';
      for (const offset of [24_900, 24_950, 24_999, 21_000]) {
        const expected = d.prepare(`SELECT id FROM log_entries WHERE profile_id = 'p' ORDER BY ${order} LIMIT 100 OFFSET ?`).pluck().all(offset);
        expect(queryLogRows(d, 'p', {}, sort, offset, 100).map((r) => r.id)).toEqual(expected);
      }
    }
    expect(queryLogRows(d, 'p', { status: 'FAILED' }, 'time_desc', 30_000, 100)).toEqual([]);
    d.close();
  });
});
