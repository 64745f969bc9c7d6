/**
 * An occurrence is bought once: the database refuses every write that would let it be bought
 * again (attacked here with plain SQL, as a stray statement or another process would), and no SQL
 * outside standing/occurrenceMoves.ts writes an occurrence.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../src/main/store/database';
import { OccurrenceMoves } from '../../../src/main/standing/occurrenceMoves';

let db: Db;
const key = { orderId: 'o1', scheduledDay: '2027-01-31' };

beforeEach(() => {
  db = openDatabase(':memory:');
  db.prepare(
    `INSERT INTO standing_orders (id, name, kind, profile_id, connection_kind, base_url, state, version, team, created_by, created_at)
     VALUES ('o1', 'Staff', 'airtime', 'sandbox', 'sandbox', 'http://127.0.0.1', 'active', 1, 0, 'ada', '2027-01-01T00:00:00Z')`,
  ).run();
});
afterEach(() => db.close());

describe('an occurrence is one job, once', () => {
  it('a second runner’s start of a started occurrence moves nothing', () => {
    const moves = new OccurrenceMoves(db);
    expect(moves.wait(key, { dueDay: '2027-01-31', version: 1, reasonCode: 'wallet_short', reason: 'short' })).toBe(true);
    expect(moves.start(key, { dueDay: '2027-01-31', version: 1, jobId: 'job-1' })).toBe(true);
    expect(moves.start(key, { dueDay: '2027-01-31', version: 1, jobId: 'job-2' })).toBe(false);
    expect(moves.skip(key, { dueDay: '2027-01-31', version: 1, reason: 'skip' })).toBe(false);
    expect(moves.wait(key, { dueDay: '2027-01-31', version: 1, reasonCode: 'missed', reason: 'x' })).toBe(false);
    expect(db.prepare('SELECT state, job_id FROM standing_occurrences').all()).toEqual([{ state: 'started', job_id: 'job-1' }]);
  });

  it('the database refuses a started occurrence moved back, given another job, started without a job, or deleted', () => {
    new OccurrenceMoves(db).start(key, { dueDay: '2027-01-31', version: 1, jobId: 'job-1' });
    expect(() => db.prepare("UPDATE standing_occurrences SET state = 'waiting'").run()).toThrow(/state table/);
    expect(() => db.prepare("UPDATE standing_occurrences SET job_id = 'job-2'").run()).toThrow(/one job/);
    expect(() => db.prepare('DELETE FROM standing_occurrences').run()).toThrow();
    expect(() =>
      db
        .prepare(
          "INSERT INTO standing_occurrences (order_id, scheduled_day, due_day, state, created_at, updated_at) VALUES ('o1', '2027-02-28', '2027-02-28', 'started', 'x', 'x')",
        )
        .run(),
    ).toThrow(/has its job/);
    expect(() =>
      db
        .prepare(
          "INSERT INTO standing_occurrences (order_id, scheduled_day, due_day, state, job_id, created_at, updated_at) VALUES ('o1', '2027-01-31', '2027-01-31', 'started', 'job-3', 'x', 'x')",
        )
        .run(),
    ).toThrow(/UNIQUE/);
    expect(db.prepare('SELECT state, job_id FROM standing_occurrences').all()).toEqual([{ state: 'started', job_id: 'job-1' }]);
  });

  it('no SQL outside occurrenceMoves.ts writes an occurrence', () => {
    const root = path.resolve(__dirname, '../../../src');
    const writers: string[] = [];
    const walk = (dir: string) => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else if (/\.tsx?$/.test(e.name) && /(INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+standing_occurrences\b/i.test(fs.readFileSync(p, 'utf8'))) writers.push(path.relative(root, p));
      }
    };
    walk(root);
    expect(writers.sort()).toEqual(['main/standing/occurrenceMoves.ts']);
  });
});
