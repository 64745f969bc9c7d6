/**
 * Sync of the vending log into the mirror.
 *
 * A run reads one date range [startdate, enddate] of /logEntries, 100 entries a page, following
 * NextPage until it is empty (page numbers are never computed). Pages are upserted by
 * (profile, id) in batches of up to BATCH_ENTRIES entries, each batch in one transaction together
 * with the checkpoint (the NextPage URL after its last page), so a crash loses at most the batch
 * in flight and the next run continues from there; a cancel writes the pages already fetched
 * first. (One transaction per 100-entry page spent more time in commits than in writing.)
 *
 * Why no gaps: the log is newest first and entries are only ever added at its front. Entries
 * created during a run (or between a cancel and its resume) push older entries towards later
 * pages, so continuing from a saved page number re-reads a few entries already stored (upserted,
 * not duplicated) and never skips one. Statuses change in place (PENDING → SUCCESS/FAILED), which
 * is why a run never filters by status, and why each incremental run re-reads a window of recent
 * days: from WINDOW_DAYS before the newest mirrored entry, or from the oldest entry still PENDING
 * if that is earlier.
 *
 * While a page is being written the next one is already being fetched.
 */
import { AppError } from '../../shared/appError';
import type { SyncResult, SyncStatus } from '../../shared/contract/logs';
import type { LogEntry, PageObject } from '../../shared/wire';
import { parseLogEntry } from '../api/parseLogEntry';
import type { App, Session } from '../app';
import { readWallet } from './balanceSnapshots';
import { forgetSearchIndex } from './logSearchIndex';
import { upsertLogEntries } from './logStore';
import { mirrorEntryCount } from './logQuery';
import { advanceRun, beginRun, finishRun, readCheckpoint } from './syncCheckpoint';

export const SYNC_PAGE_SIZE = 100;
/** Entries written per transaction (several pages). */
export const BATCH_ENTRIES = 2000;
/** Days re-read before the newest mirrored entry on every incremental run. */
export const WINDOW_DAYS = 7;

export interface SyncRange {
  from?: string;
  to?: string;
}

export interface SyncRunOptions extends SyncRange {
  signal?: AbortSignal;
  /** Stop after this many pages as if cancelled (tests of an interrupted sync). */
  stopAfterPages?: number;
}

interface Running {
  /** The connection the run reads (and writes the mirror of), fixed for the whole run. */
  session: Session;
  profileId: string;
  controller: AbortController;
  promise: Promise<SyncResult>;
  progress: { done: number; total: number | null; pages: number };
}

function shiftDay(day: string, days: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

function cancelledError(): AppError {
  return new AppError('sync_cancelled', 'The sync was stopped.', 'Press Sync to continue it; it carries on from the last page saved.');
}

/**
 * The range an incremental run re-reads (null: the whole log): from WINDOW_DAYS before the newest
 * entry mirrored by the last finished sync — entries vendesk mirrored itself right after buying
 * (mirrorRefresh.ts) are newer and must not move the start past what no sync has read yet.
 */
export function incrementalStart(app: App, profileId: string): string | null {
  const finished = readCheckpoint(app.db, profileId).lastFinishedAt;
  if (!finished) return null;
  const row = app.db
    .prepare(
      `SELECT (SELECT MAX(created_at) FROM log_entries WHERE profile_id = ? AND synced_at <= ?) AS newest,
              (SELECT MIN(created_at) FROM log_entries WHERE profile_id = ? AND status = 'PENDING') AS oldestPending`,
    )
    .get(profileId, finished, profileId) as { newest: string | null; oldestPending: string | null };
  if (!row.newest) return null;
  let start = shiftDay(row.newest.slice(0, 10), -WINDOW_DAYS);
  if (row.oldestPending && row.oldestPending.slice(0, 10) < start) start = row.oldestPending.slice(0, 10);
  return start;
}

export class LogSyncService {
  private running: Running | null = null;
  private lastError: { message: string; hint?: string } | null = null;
  private lastProgressAt = 0;

  constructor(private readonly app: App) {
    app.onClose(async () => {
      const r = this.running;
      if (r) {
        r.controller.abort();
        await r.promise.catch(() => undefined);
      }
    });
  }

  isRunning(): boolean {
    return this.running !== null && this.running.profileId === this.app.connection.profileId;
  }

  /** Starts a run in the background unless one runs; failures are reported by events and status. */
  start(range: SyncRange = {}): { started: boolean; running: boolean } {
    if (this.running) return { started: false, running: true };
    this.begin(range).catch(() => undefined);
    return { started: true, running: true };
  }

  /** Runs a sync and resolves with its result (CLI, tests). */
  run(options: SyncRunOptions = {}): Promise<SyncResult> {
    if (this.running) {
      throw new AppError('sync_running', 'A sync is already running.', 'Wait for it to finish, or cancel it and sync again.');
    }
    return this.begin(options);
  }

  cancel(): boolean {
    if (!this.running) return false;
    this.running.controller.abort();
    return true;
  }

  status(): SyncStatus {
    const profileId = this.app.connection.profileId;
    const checkpoint = readCheckpoint(this.app.db, profileId);
    const mine = this.running && this.running.profileId === profileId ? this.running : null;
    return {
      running: mine !== null,
      progress: mine ? { ...mine.progress } : null,
      lastFinishedAt: checkpoint.lastFinishedAt,
      lastResult: checkpoint.lastResult,
      interrupted: !mine && checkpoint.run !== null,
      lastError: this.lastError,
      entries: mirrorEntryCount(this.app.db, profileId),
    };
  }

  private begin(options: SyncRunOptions): Promise<SyncResult> {
    const controller = new AbortController();
    const outer = options.signal;
    if (outer) {
      if (outer.aborted) controller.abort();
      else outer.addEventListener('abort', () => controller.abort(), { once: true });
    }
    const session = this.app.session();
    const running: Running = {
      session,
      profileId: session.connection.profileId,
      controller,
      progress: { done: 0, total: null, pages: 0 },
      promise: Promise.resolve(null as unknown as SyncResult),
    };
    this.running = running;
    this.lastError = null;
    running.promise = this.execute(running, options).finally(() => {
      if (this.running === running) this.running = null;
    });
    return running.promise;
  }

  private emit(running: Running, state: 'running' | 'done' | 'failed' | 'cancelled', message?: string, force = false): void {
    const now = Date.now();
    if (!force && now - this.lastProgressAt < 150) return;
    this.lastProgressAt = now;
    this.app.events.emit('sync.progress', { ...running.progress, state, message });
  }

  private async execute(running: Running, options: SyncRunOptions): Promise<SyncResult> {
    const { app } = this;
    const db = app.db;
    const profileId = running.profileId;
    const client = running.session.client;
    const signal = running.controller.signal;
    const explicit = options.from !== undefined || options.to !== undefined;
    const checkpoint = readCheckpoint(db, profileId);

    let resumed = false;
    let startdate: string | null;
    let enddate: string | null;
    let counts = { pages: 0, fetched: 0, inserted: 0, updated: 0, total: null as number | null };
    let first: Promise<PageObject<LogEntry>>;

    const sameRange = checkpoint.run && (!explicit || (checkpoint.run.startdate === (options.from ?? null) && checkpoint.run.enddate === (options.to ?? null)));
    if (checkpoint.run && checkpoint.run.nextUrl && sameRange) {
      resumed = true;
      startdate = checkpoint.run.startdate;
      enddate = checkpoint.run.enddate;
      counts = { pages: checkpoint.run.pages, fetched: checkpoint.run.fetched, inserted: checkpoint.run.inserted, updated: checkpoint.run.updated, total: checkpoint.run.total };
      first = client.logPage(checkpoint.run.nextUrl, { signal });
    } else {
      startdate = explicit ? (options.from ?? null) : incrementalStart(app, profileId);
      enddate = explicit ? (options.to ?? null) : null;
      beginRun(db, profileId, new Date().toISOString(), startdate, enddate);
      first = client.logEntries({ perPage: SYNC_PAGE_SIZE, startdate: startdate ?? undefined, enddate: enddate ?? undefined }, { signal });
    }
    running.progress = { done: counts.fetched, total: counts.total, pages: counts.pages };
    this.emit(running, 'running', resumed ? 'Continuing the sync that was stopped' : 'Reading the vending log', true);

    const writeBatch = db.transaction((pages: PageObject<LogEntry>[], syncedAt: string) => {
      const parsed: ReturnType<typeof parseLogEntry>[] = [];
      for (const page of pages) for (const item of page.Items) parsed.push(parseLogEntry(item));
      const c = upsertLogEntries(db, profileId, parsed, syncedAt);
      counts.pages += pages.length;
      counts.fetched += parsed.length;
      counts.inserted += c.inserted;
      counts.updated += c.updated;
      advanceRun(db, profileId, pages[pages.length - 1].NextPage, counts);
    });
    let batch: PageObject<LogEntry>[] = [];
    let batchEntries = 0;
    const flush = () => {
      if (batch.length === 0) return;
      const pages = batch;
      batch = [];
      batchEntries = 0;
      const before = { ...counts };
      try {
        writeBatch(pages, new Date().toISOString());
      } catch (error) {
        Object.assign(counts, before);
        forgetSearchIndex(db, profileId);
        throw error;
      }
      running.progress = { done: counts.fetched, total: counts.total, pages: counts.pages };
      this.emit(running, 'running');
    };

    try {
      let pending: Promise<PageObject<LogEntry>> | null = first;
      let pagesThisRun = 0;
      let maxPages = Number.POSITIVE_INFINITY;
      while (pending) {
        const page: PageObject<LogEntry> = await pending;
        if (pagesThisRun === 0) {
          if (!resumed) counts.total = page.TotalRecords;
          // Entries added during the run can add pages; a loop past this bound is a service fault.
          maxPages = page.TotalPages * 2 + 50;
        }
        pending = page.NextPage && !signal.aborted ? client.logPage(page.NextPage, { signal }) : null;
        pending?.catch(() => undefined);
        batch.push(page);
        batchEntries += page.Items.length;
        pagesThisRun += 1;
        const stop = options.stopAfterPages !== undefined && pagesThisRun >= options.stopAfterPages && pending !== null;
        if (batchEntries >= BATCH_ENTRIES || !pending || stop || signal.aborted) flush();
        if (stop) {
          running.controller.abort();
          throw cancelledError();
        }
        if (pagesThisRun > maxPages) {
          throw new AppError('sync_runaway', 'The service kept sending further pages of the log beyond its own page count.', 'Sync again later; if it happens again, report it to support.');
        }
        if (signal.aborted) throw cancelledError();
      }
    } catch (error) {
      // Pages already fetched are written before giving up, so a resume starts after them.
      try {
        flush();
      } catch {
        // the checkpoint still points after the last batch written
      }
      const aborted = signal.aborted;
      const appError = aborted
        ? cancelledError()
        : error instanceof AppError
          ? error
          : new AppError('sync_failed', `The sync stopped: ${error instanceof Error ? error.message : String(error)}.`, 'Press Sync to try again; it continues from the last page saved.');
      if (!aborted) this.lastError = { message: appError.message, hint: appError.hint };
      this.emit(running, aborted ? 'cancelled' : 'failed', appError.message, true);
      app.events.emit('data.changed', { topics: ['mirror'] });
      throw appError;
    }

    let balanceKobo: number | null = null;
    try {
      balanceKobo = (await readWallet(app, 'sync', running.session, signal)).balanceKobo;
    } catch (error) {
      this.lastError = { message: `The log is synced but the wallet balance could not be read: ${error instanceof Error ? error.message : String(error)}`, hint: 'Sync again later to record the balance.' };
    }

    const result: SyncResult = {
      fetched: counts.fetched,
      inserted: counts.inserted,
      updated: counts.updated,
      pages: counts.pages,
      totalRecords: counts.total,
      startdate,
      enddate,
      resumed,
      balanceKobo,
      finishedAt: new Date().toISOString(),
    };
    finishRun(db, profileId, result);
    running.progress = { done: counts.fetched, total: counts.fetched, pages: counts.pages };
    this.emit(running, 'done', `${counts.fetched} entries read, ${counts.inserted} new, ${counts.updated} changed`, true);
    app.events.emit('data.changed', { topics: ['mirror', 'balance'] });
    return result;
  }
}

export function createLogSyncService(app: App): LogSyncService {
  return new LogSyncService(app);
}

/** The app's sync service. */
export function logSync(app: App): LogSyncService {
  return app.service(createLogSyncService);
}
