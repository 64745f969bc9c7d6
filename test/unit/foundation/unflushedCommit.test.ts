/**
 * `commitUnflushed` (src/main/store/unflushedCommit.ts): a commit that does not wait for the disk
 * is made with synchronous NORMAL on a database file in WAL mode, and the connection's FULL, which
 * every purchase's write relies on, is back as soon as it ends, however it ends.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../src/main/store/database';
import { commitUnflushed } from '../../../src/main/store/unflushedCommit';

describe('a commit that does not wait for the disk', () => {
  let dir: string;
  let db: Db;
  const sync = () => db.pragma('synchronous', { simple: true });

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-unflushed-'));
    db = openDatabase(path.join(dir, 'vendesk.db'));
    db.exec('CREATE TABLE t (v INTEGER)');
  });
  afterEach(() => {
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('commits with NORMAL, in one transaction, then gives the connection FULL back', () => {
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(sync()).toBe(2);
    expect(commitUnflushed(db, () => [sync(), db.inTransaction])).toEqual([1, true]);
    expect(commitUnflushed(db, () => sync(), { immediate: true })).toBe(1);
    expect(sync()).toBe(2);
    // The next write, a purchase's, waits for the disk again.
    db.prepare('INSERT INTO t VALUES (1)').run();
    expect(sync()).toBe(2);
  });

  it('rolls a failed write back whole and still gives FULL back', () => {
    expect(() =>
      commitUnflushed(db, () => {
        db.prepare('INSERT INTO t VALUES (2)').run();
        throw new Error('refused');
      }),
    ).toThrow('refused');
    expect(sync()).toBe(2);
    expect(db.prepare('SELECT count(*) FROM t').pluck().get()).toBe(0);
  });

  it('inside another transaction leaves the setting to that transaction’s commit', () => {
    expect(db.transaction(() => commitUnflushed(db, () => sync()))()).toBe(2);
    expect(sync()).toBe(2);
  });
});
