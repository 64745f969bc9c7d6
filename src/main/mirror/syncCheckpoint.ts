/**
 * The sync checkpoint of a profile (table `sync_checkpoints`): the last finished sync, and the
 * run in progress — its date range and the NextPage URL after its last committed page — written
 * in the same transaction as that page's rows, so after a crash or a cancel the next sync
 * continues exactly after the last page that reached the mirror.
 */
import type { SyncResult } from '../../shared/contract/logs';
import type { Db } from '../store/database';

export interface SyncCheckpoint {
  lastFinishedAt: string | null;
  lastResult: SyncResult | null;
  run: {
    startedAt: string;
    startdate: string | null;
    enddate: string | null;
    nextUrl: string | null;
    pages: number;
    fetched: number;
    inserted: number;
    updated: number;
    total: number | null;
  } | null;
}

interface Row {
  last_finished_at: string | null;
  last_result: string | null;
  run_started_at: string | null;
  run_startdate: string | null;
  run_enddate: string | null;
  run_next_url: string | null;
  run_pages: number;
  run_fetched: number;
  run_inserted: number;
  run_updated: number;
  run_total: number | null;
}

export function readCheckpoint(db: Db, profileId: string): SyncCheckpoint {
  const row = db.prepare('SELECT * FROM sync_checkpoints WHERE profile_id = ?').get(profileId) as Row | undefined;
  if (!row) return { lastFinishedAt: null, lastResult: null, run: null };
  return {
    lastFinishedAt: row.last_finished_at,
    lastResult: row.last_result ? (JSON.parse(row.last_result) as SyncResult) : null,
    run: row.run_started_at
      ? {
          startedAt: row.run_started_at,
          startdate: row.run_startdate,
          enddate: row.run_enddate,
          nextUrl: row.run_next_url,
          pages: row.run_pages,
          fetched: row.run_fetched,
          inserted: row.run_inserted,
          updated: row.run_updated,
          total: row.run_total,
        }
      : null,
  };
}

export function beginRun(db: Db, profileId: string, startedAt: string, startdate: string | null, enddate: string | null): void {
  db.prepare(
    `INSERT INTO sync_checkpoints (profile_id, run_started_at, run_startdate, run_enddate, run_next_url, run_pages, run_fetched, run_inserted, run_updated, run_total)
     VALUES (?, ?, ?, ?, NULL, 0, 0, 0, 0, NULL)
     ON CONFLICT (profile_id) DO UPDATE SET run_started_at = excluded.run_started_at, run_startdate = excluded.run_startdate,
       run_enddate = excluded.run_enddate, run_next_url = NULL, run_pages = 0, run_fetched = 0, run_inserted = 0, run_updated = 0, run_total = NULL`,
  ).run(profileId, startedAt, startdate, enddate);
}

/** Called inside the page's transaction. `nextUrl` '' means the last page was committed. */
export function advanceRun(db: Db, profileId: string, nextUrl: string, counts: { pages: number; fetched: number; inserted: number; updated: number; total: number | null }): void {
  db.prepare(
    `UPDATE sync_checkpoints SET run_next_url = ?, run_pages = ?, run_fetched = ?, run_inserted = ?, run_updated = ?, run_total = ?
      WHERE profile_id = ?`,
  ).run(nextUrl, counts.pages, counts.fetched, counts.inserted, counts.updated, counts.total, profileId);
}

export function finishRun(db: Db, profileId: string, result: SyncResult): void {
  db.prepare(
    `UPDATE sync_checkpoints SET last_finished_at = ?, last_result = ?, run_started_at = NULL, run_startdate = NULL, run_enddate = NULL,
       run_next_url = NULL, run_pages = 0, run_fetched = 0, run_inserted = 0, run_updated = 0, run_total = NULL
      WHERE profile_id = ?`,
  ).run(result.finishedAt, JSON.stringify(result), profileId);
}
