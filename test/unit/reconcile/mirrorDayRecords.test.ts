/**
 * The mirror's days kept as reconcile reads them (`log_day_records`, migration 40): a reading
 * that finds a day kept must give exactly what reading its entries gives, after any write to an
 * entry of that day, and a day's texts read in a snapshot are never stored once an entry of the
 * day has changed after it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { fillMirror, generateLogEntries } from '../../../bench/generate/vendorExport';
import { exportAndMirror, NO_DIFFERENCES } from '../../support/exportAndMirror';
import { keepMirrorDays, startBackgroundReads } from '../../../src/main/reconcile/backgroundReads';
import { mirrorDaysKept, mirrorQuery, mirrorSegments } from '../../../src/main/reconcile/mirrorEntries';
import { reconcileFile } from '../../../src/main/reconcile/reconcileService';
import { runView } from '../../../src/main/reconcile/reconcileRunStore';
import { parseMirrorColumns, readMirrorSlices, type ParsedMirror } from '../../../src/main/reconcile/threadedReaders';
import { openDatabase, type Db } from '../../../src/main/store/database';
import { mirrorEntriesOf } from '../../support/parsedMirror';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-day-records-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const START = Date.UTC(2026, 2, 1, 5); // 06:00 Lagos, 1 March
const FROM = '2026-02-28T23:00:00.000Z'; // Lagos midnight, 1 March
const TO = '2026-03-03T23:00:00.000Z'; // Lagos midnight, 4 March: three whole days

function mirrorDb(name: string): Db {
  const db = openDatabase(path.join(dir, name));
  // Three Lagos days of entries, one every two minutes.
  fillMirror(db, 'p', generateLogEntries(2000, { startMs: START, stepMs: 120_000, seed: 41 }));
  return db;
}

/** What reading the entries themselves gives (the one query, no kept days). */
function fromEntries(db: Db): ParsedMirror {
  const q = mirrorQuery('p', FROM, TO);
  return parseMirrorColumns(
    ...(db
      .prepare(q.sql)
      .raw()
      .get(...q.params) as [Buffer, Buffer]),
  );
}

const columns = mirrorEntriesOf;

async function throughWorker(db: Db, sliceRows?: number): Promise<ParsedMirror> {
  const reads = startBackgroundReads({ dbPath: db.name, ...mirrorQuery('p', FROM, TO), filePath: db.name, ...(sliceRows ? { sliceRows } : {}) });
  const mirror = await reads.mirror;
  await reads.fileHash;
  if (!mirror) throw new Error('the worker read no mirror');
  return mirror;
}

const keptDays = (db: Db) => db.prepare('SELECT day, entries FROM log_day_records WHERE profile_id = ? AND records IS NOT NULL ORDER BY day').raw().all('p');

describe("the mirror's days kept for reconcile", () => {
  it('cuts a range at Lagos midnights, naming only whole days', () => {
    expect(mirrorSegments('2026-03-01T10:00:00.000Z', '2026-03-03T23:00:00.000Z')).toEqual([
      ['2026-03-01T10:00:00.000Z', '2026-03-01T23:00:00.000Z', null],
      ['2026-03-01T23:00:00.000Z', '2026-03-02T23:00:00.000Z', '2026-03-02'],
      ['2026-03-02T23:00:00.000Z', '2026-03-03T23:00:00.000Z', '2026-03-03'],
    ]);
    expect(mirrorSegments(TO, TO)).toEqual([[TO, TO, null]]);
  });

  it('keeps each whole day on a first reading and reads the kept days as the entries read, also a day kept from several slices', async () => {
    const db = mirrorDb('kept.db');
    try {
      const expected = columns(fromEntries(db));
      expect(keptDays(db)).toEqual([]);
      // Slices of 300 entries: each day (~720 entries) is read in three and kept joined.
      expect(columns(await throughWorker(db, 300))).toEqual(expected);
      const kept = keptDays(db) as [string, number][];
      expect(kept.map(([day]) => day)).toEqual(['2026-03-01', '2026-03-02', '2026-03-03']);
      // (The last 20 entries fall on 4 March, after the range.)
      expect(kept.reduce((sum, [, n]) => sum + n, 0)).toBe(1980);
      expect(expected.n).toBe(1980);
      // The second reading takes the kept days (the entries' table is not what it reads: emptied
      // behind the triggers' back, it is still the same), and gives the same.
      db.exec('DROP TRIGGER log_day_records_delete');
      db.exec("DELETE FROM log_entries WHERE profile_id = 'p'");
      expect(columns(await throughWorker(db))).toEqual(expected);
    } finally {
      db.close();
    }
  });

  it('reads a day again from its entries after any write to one of them: a new entry, a status and time changed, a status alone, a reference, an entry removed', async () => {
    const db = mirrorDb('writes.db');
    try {
      expect(mirrorDaysKept(db, 'p', FROM, TO)).toBe(false);
      await throughWorker(db);
      expect(keptDays(db)).toHaveLength(3);
      expect(mirrorDaysKept(db, 'p', FROM, TO)).toBe(true);
      const writes = [
        () => fillMirror(db, 'p', generateLogEntries(1, { startMs: Date.UTC(2026, 2, 2, 12), stepMs: 1, firstId: 90_001, seed: 5 })),
        () => db.prepare("UPDATE log_entries SET status = 'FAILED', updated_at = '2026-03-03T10:00:00.000Z' WHERE profile_id = 'p' AND id = 1200").run(),
        () => db.prepare("UPDATE log_entries SET status = 'PENDING' WHERE profile_id = 'p' AND id = 300").run(),
        () => db.prepare("UPDATE log_entries SET transaction_id = 'TX-CHANGED' WHERE profile_id = 'p' AND id = 1700").run(),
        () => db.prepare("DELETE FROM log_entries WHERE profile_id = 'p' AND id = 10").run(),
      ];
      for (const write of writes) {
        write();
        expect(keptDays(db)).toHaveLength(2);
        expect(mirrorDaysKept(db, 'p', FROM, TO)).toBe(false);
        expect(columns(await throughWorker(db))).toEqual(columns(fromEntries(db)));
        expect(keptDays(db)).toHaveLength(3);
      }
      const read = await throughWorker(db);
      expect(read.n).toBe(1980); // one entry more, one less
      expect(read.status[[...read.logId].indexOf(1200)]).toBe(2);
      expect(read.bytes.toString('utf8', read.txStart[[...read.logId].indexOf(1700)], read.txEnd[[...read.logId].indexOf(1700)])).toBe('TX-CHANGED');
    } finally {
      db.close();
    }
  });

  it('keeps, as after a sync, only the days not kept yet, each as a reading would keep it', async () => {
    const db = mirrorDb('after-sync.db');
    try {
      expect(await keepMirrorDays(db.name, 'p', FROM, TO)).toBe(3);
      expect(keptDays(db)).toHaveLength(3);
      expect(columns(await throughWorker(db))).toEqual(columns(fromEntries(db)));
      expect(await keepMirrorDays(db.name, 'p', FROM, TO)).toBe(0);
      db.prepare("UPDATE log_entries SET amount_kobo = amount_kobo + 100 WHERE profile_id = 'p' AND id = 900").run();
      expect(await keepMirrorDays(db.name, 'p', FROM, TO)).toBe(1);
      expect(keptDays(db)).toHaveLength(3);
      expect(columns(await throughWorker(db))).toEqual(columns(fromEntries(db)));
    } finally {
      db.close();
    }
  });

  it('never stores a day read before one of its entries changed', () => {
    const db = mirrorDb('race.db');
    const reader = new Database(db.name, { readonly: true });
    try {
      const q = mirrorQuery('p', FROM, TO);
      const claim = db.prepare(q.claimSql);
      for (const [, , day] of q.segments) if (day) claim.run('p', day);
      const store = db.prepare(q.storeSql);
      let stored = 0;
      readMirrorSlices(
        reader,
        q,
        10_000,
        () => undefined,
        (day, stamp, n, records, refs) => {
          // A sync lands between the reader's snapshot and its storing: the 2 March entries' statuses move on.
          if (day === '2026-03-02')
            db.prepare(
              "UPDATE log_entries SET status = 'FAILED', updated_at = created_at WHERE profile_id = 'p' AND created_at >= '2026-03-01T23:00:00.000Z' AND created_at < '2026-03-02T23:00:00.000Z'",
            ).run();
          stored += store.run(n, records, refs, 'p', day, stamp).changes;
        },
      );
      expect(stored).toBe(2);
      expect((keptDays(db) as [string, number][]).map(([day]) => day)).toEqual(['2026-03-01', '2026-03-03']);
      // So the next reading reads 2 March from its entries: every entry of it failed.
      const again = readMirrorSlices(reader, q, 10_000, () => undefined);
      expect(columns({ ...fromEntries(db), ...again } as ParsedMirror).status).toEqual(columns(fromEntries(db)).status);
      expect(again.status.filter((s) => s === 2).length).toBeGreaterThanOrEqual(719);
    } finally {
      reader.close();
      db.close();
    }
  });
});

describe('reconcile over kept days', () => {
  it('reports what the mirror holds now: a status that changed after the first run is the second run’s', async () => {
    const start = Date.UTC(2026, 2, 1);
    const entries = generateLogEntries(1500, { startMs: start, stepMs: 120_000, seed: 8 });
    const { csv, db, exported } = exportAndMirror(dir, 'reconcile', entries, NO_DIFFERENCES);
    try {
      const run = async () =>
        runView(
          db,
          (await reconcileFile(db, { path: csv, fileName: 'export.csv', profileId: 'p', from: '2026-03-01', to: '2026-03-02', matchWindowMinutes: 15, duplicateWindowMinutes: 10 }))
            .runId,
        ).totals;
      const first = await run();
      // Every entry of 1 and 2 March (Lagos) matched: 00:00 UTC on the 1st to 23:00 UTC on the 2nd.
      const inRange = exported.filter((e) => e.created_at < '2026-03-02T23:00:00.000Z').length;
      expect(inRange).toBe(1410);
      expect(first.matched.count).toBe(inRange);
      expect(keptDays(db).length).toBeGreaterThanOrEqual(2);
      // A requery moves one success to failed in the mirror: the export still says success.
      const success = exported.find((e) => e.status === 'SUCCESS' && Date.parse(e.created_at) > start + 86_400_000);
      db.prepare("UPDATE log_entries SET status = 'FAILED', updated_at = created_at WHERE profile_id = 'p' AND id = ?").run(success?.id);
      const second = await run();
      expect(second.statusMismatch.count).toBe(first.statusMismatch.count + 1);
      expect(second.matched.count).toBe(inRange - 1);
    } finally {
      db.close();
    }
  });
});
