/**
 * A long read on a worker thread (src/main/store/readOnWorker.ts): the rows the main connection
 * would read, while this thread goes on; the query's own error as an error; null where no worker
 * can read (an in-memory database, a missing file), so the caller reads itself.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readOnWorker } from '../../../src/main/store/readOnWorker';

let dir: string;
let dbPath: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'read-on-worker-'));
  dbPath = path.join(dir, 'app.db');
  const db = new Database(dbPath);
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE spend (centre TEXT, kobo INTEGER)');
  const insert = db.prepare('INSERT INTO spend VALUES (?, ?)');
  db.transaction(() => {
    for (let i = 0; i < 1000; i++) insert.run(['Ops', 'Sales', 'Unassigned'][i % 3], 100 * i);
  })();
  db.close();
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const SQL = 'SELECT centre, count(*) AS n, sum(kobo) AS kobo FROM spend WHERE kobo >= ? GROUP BY centre ORDER BY centre';

describe('a read on a worker thread', () => {
  it('gives the rows this thread’s connection reads, and this thread runs meanwhile', async () => {
    const here = new Database(dbPath, { readonly: true });
    const expected = here.prepare(SQL).all(500);
    here.close();
    let turned = false;
    setImmediate(() => (turned = true));
    const rows = await readOnWorker(dbPath, SQL, [500]);
    expect(rows).toEqual(expected);
    expect(rows).toHaveLength(3);
    // The event loop turned before the answer came: the query did not run on this thread.
    expect(turned).toBe(true);
  });

  it('throws the query’s own error', async () => {
    await expect(readOnWorker(dbPath, 'SELECT * FROM no_such_table', [])).rejects.toThrow(/no such table/);
  });

  it('gives null where a worker cannot read: an in-memory database, a file that is not there', async () => {
    expect(await readOnWorker(':memory:', SQL, [0])).toBeNull();
    expect(await readOnWorker(path.join(dir, 'missing.db'), SQL, [0])).toBeNull();
  });
});
