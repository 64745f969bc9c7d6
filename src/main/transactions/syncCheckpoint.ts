/**
 * The sync checkpoint of a profile (table `sync_checkpoints`): the last finished sync, and the
 * run in progress — its date range, its counts and its plan (how far it got, below) — written in
 * the same transaction as the pages' rows, so after a crash, a kill or a cancel the next sync
 * continues exactly after the last page that reached the mirror.
 */
import type { SyncFailure, SyncResult } from '../../shared/contract/logs';
import type { Db } from '../store/database';

/** One date range the run reads as a whole (null: open). */
export interface SyncPart {
  startdate: string | null;
  enddate: string | null;
}

/**
 * How a run reads the log (see logSync.ts): its parts one after another; within the current part,
 * pass `pass` reads pages by number, several in flight, and commits them in order; pages
 * [0, nextIndex) of the pass are in the mirror. `total` is the TotalRecords of the pass's first
 * page: a page that answers another count ends the pass, and the part is read again (next pass).
 * A pass above MAX_PASSES follows NextPage one page at a time from `nextUrl`.
 */
export interface SyncPlan {
  parts: SyncPart[];
  part: number;
  /** Entries per page the service gives. */
  perPage: number;
  pass: number;
  /** The page number of the part's first page (the service may count from 0 or from 1). */
  firstPage: number | null;
  total: number | null;
  nextIndex: number;
  /** Following NextPage: the next page's address ('' when the part is read; null: from its start). */
  nextUrl: string | null;
  /**
   * When the service began answering the pass (its clock, epoch ms; absent in a plan of an older
   * vendesk): a pass whose pages all agree holds every entry of its part created before then, so
   * the part's dates are recorded as read up to it (logCoverage.ts).
   */
  passAt?: number | null;
  /** The oldest `created_at` this part has written (a part read from the log's very start says where the log begins). */
  oldestSeen?: string | null;
}

export interface SyncCounts {
  pages: number;
  fetched: number;
  inserted: number;
  updated: number;
  total: number | null;
}

export interface SyncCheckpoint {
  lastFinishedAt: string | null;
  lastResult: SyncResult | null;
  /** The last sync that failed (kept until the next one fails: compare its time with `lastFinishedAt`). */
  lastFailure: SyncFailure | null;
  run:
    | (SyncCounts & {
        startedAt: string;
        startdate: string | null;
        enddate: string | null;
        plan: SyncPlan | null;
        /** A run left by a vendesk from before plans: the NextPage URL after its last committed page. */
        legacyNextUrl: string | null;
      })
    | null;
}

interface Row {
  last_finished_at: string | null;
  last_result: string | null;
  run_started_at: string | null;
  run_startdate: string | null;
  run_enddate: string | null;
  run_next_url: string | null;
  run_plan: string | null;
  run_pages: number;
  run_fetched: number;
  run_inserted: number;
  run_updated: number;
  run_total: number | null;
  last_failed_at: string | null;
  last_failure: string | null;
}

function parseFailure(at: string | null, text: string | null): SyncFailure | null {
  if (!at) return null;
  try {
    const f = JSON.parse(text ?? '{}') as { message?: string; hint?: string };
    return { at, message: f.message ?? 'The sync stopped.', ...(f.hint ? { hint: f.hint } : {}) };
  } catch {
    return { at, message: 'The sync stopped.' };
  }
}

function parsePlan(text: string | null): SyncPlan | null {
  if (!text) return null;
  try {
    const plan = JSON.parse(text) as SyncPlan;
    return Array.isArray(plan.parts) && typeof plan.part === 'number' && typeof plan.perPage === 'number' ? plan : null;
  } catch {
    return null;
  }
}

export function readCheckpoint(db: Db, profileId: string): SyncCheckpoint {
  const row = db.prepare('SELECT * FROM sync_checkpoints WHERE profile_id = ?').get(profileId) as Row | undefined;
  if (!row) return { lastFinishedAt: null, lastResult: null, lastFailure: null, run: null };
  return {
    lastFinishedAt: row.last_finished_at,
    lastResult: row.last_result ? (JSON.parse(row.last_result) as SyncResult) : null,
    lastFailure: parseFailure(row.last_failed_at, row.last_failure),
    run: row.run_started_at
      ? {
          startedAt: row.run_started_at,
          startdate: row.run_startdate,
          enddate: row.run_enddate,
          plan: parsePlan(row.run_plan),
          legacyNextUrl: row.run_plan ? null : row.run_next_url,
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
    `INSERT INTO sync_checkpoints (profile_id, run_started_at, run_startdate, run_enddate, run_next_url, run_plan, run_pages, run_fetched, run_inserted, run_updated, run_total)
     VALUES (?, ?, ?, ?, NULL, NULL, 0, 0, 0, 0, NULL)
     ON CONFLICT (profile_id) DO UPDATE SET run_started_at = excluded.run_started_at, run_startdate = excluded.run_startdate,
       run_enddate = excluded.run_enddate, run_next_url = NULL, run_plan = NULL, run_pages = 0, run_fetched = 0, run_inserted = 0, run_updated = 0, run_total = NULL`,
  ).run(profileId, startedAt, startdate, enddate);
}

/** Saves the plan and counts; called inside the transaction that writes the pages they count. */
export function advanceRun(db: Db, profileId: string, plan: SyncPlan, counts: SyncCounts): void {
  db.prepare(
    `UPDATE sync_checkpoints SET run_plan = ?, run_next_url = NULL, run_pages = ?, run_fetched = ?, run_inserted = ?, run_updated = ?, run_total = ?
      WHERE profile_id = ?`,
  ).run(JSON.stringify(plan), counts.pages, counts.fetched, counts.inserted, counts.updated, counts.total, profileId);
}

export function finishRun(db: Db, profileId: string, result: SyncResult): void {
  db.prepare(
    `UPDATE sync_checkpoints SET last_finished_at = ?, last_result = ?, run_started_at = NULL, run_startdate = NULL, run_enddate = NULL,
       run_next_url = NULL, run_plan = NULL, run_pages = 0, run_fetched = 0, run_inserted = 0, run_updated = 0, run_total = NULL
      WHERE profile_id = ?`,
  ).run(result.finishedAt, JSON.stringify(result), profileId);
}

/** A sync failed (not cancelled): kept for every window and the CLI to tell, whoever ran it. */
export function recordSyncFailure(db: Db, profileId: string, failure: SyncFailure): void {
  db.prepare('UPDATE sync_checkpoints SET last_failed_at = ?, last_failure = ? WHERE profile_id = ?').run(
    failure.at,
    JSON.stringify({ message: failure.message, ...(failure.hint ? { hint: failure.hint } : {}) }),
    profileId,
  );
}

/** The last failure when it is newer than the last finished sync (else the mirror is as that sync left it). */
export function failureSinceLastSync(checkpoint: Pick<SyncCheckpoint, 'lastFinishedAt' | 'lastFailure'>): SyncFailure | null {
  const f = checkpoint.lastFailure;
  if (!f) return null;
  return checkpoint.lastFinishedAt === null || f.at > checkpoint.lastFinishedAt ? f : null;
}
