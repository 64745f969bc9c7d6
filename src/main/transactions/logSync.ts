/**
 * The sync service of the log mirror: one run at a time per app (Sync now, `vendesk sync`, the
 * automatic sync), started fresh or resumed from the checkpoint a crash or a cancel left, its
 * progress (`sync.progress`), its status, and the wallet reading recorded when it is done. How a
 * run reads the log — pages in flight, the watermark, passes that check nothing moved, the exact
 * checkpoint — is syncRun.ts.
 *
 * A sync is background work however it was started: when it stops it tells the windows itself
 * (`app.invalidate`: `mirror`, and `balance` once done), not through an operation's declaration.
 */
import { AppError } from '../../shared/appError';
import { serviceDaysCovering } from '../../shared/localDates';
import type { SyncResult, SyncStatus } from '../../shared/contract/logs';
import type { App, AppPart } from '../appContext';
import { readWallet } from './balanceSnapshots';
import { beginBulkLoad, endBulkLoad } from './logStore';
import { mirrorEntryCount } from './logQuery';
import { firstUnreadDay } from './logCoverage';
import { beginRun, failureSinceLastSync, finishRun, readCheckpoint, recordSyncFailure, type SyncCounts, type SyncPlan } from './syncCheckpoint';
import { cancelledError, MAX_PASSES, shiftDay, SYNC_PAGE_SIZE, SyncRun, WINDOW_DAYS, type Running, type SyncRange, type SyncRunOptions } from './syncRun';

/**
 * Where a plain run starts reading (null: the whole log, as a first sync). Never after a day no
 * sync has read completely since the log's start (logCoverage.ts): a ranged first sync
 * (`vendesk sync --from D --to D`) does not make later syncs skip the older days, and a plain sync
 * after it reads the whole log, as a first sync would. Then it re-reads WINDOW_DAYS before the
 * newest entry mirrored by the last finished sync (statuses change at the service) — entries
 * vendesk mirrored itself right after buying (mirrorRefresh.ts) are newer and must not move the
 * start past what no sync has read yet — or from the oldest entry still pending, if earlier.
 */
export function incrementalStart(app: AppPart<'db'>, profileId: string, windowDays = WINDOW_DAYS): string | null {
  const finished = readCheckpoint(app.db, profileId).lastFinishedAt;
  if (!finished) return null;
  const unread = firstUnreadDay(app.db, profileId);
  if (unread === null) return null;
  const row = app.db
    .prepare(
      `SELECT (SELECT MAX(created_at) FROM log_entries WHERE profile_id = ? AND synced_at <= ?) AS newest,
              (SELECT MIN(created_at) FROM log_entries WHERE profile_id = ? AND status = 'PENDING') AS oldestPending`,
    )
    .get(profileId, finished, profileId) as { newest: string | null; oldestPending: string | null };
  let start = unread;
  if (row.newest && shiftDay(row.newest.slice(0, 10), -windowDays) < start) start = shiftDay(row.newest.slice(0, 10), -windowDays);
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

  /** The run in progress (any connection), to wait for. */
  current(): Promise<SyncResult> | null {
    return this.running?.promise ?? null;
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

  /**
   * Runs a sync of `options` after the one already running, if any (the automatic sync, a
   * report reading its missing days): Sync now, pressed while another sync reads, waits for it
   * and then reads what it was asked, rather than failing.
   */
  async runAfterCurrent(options: SyncRunOptions = {}): Promise<SyncResult> {
    for (let tries = 0; ; tries++) {
      const running = this.current();
      if (running) await running.catch(() => undefined);
      if (options.signal?.aborted) throw cancelledError();
      try {
        return await this.run(options);
      } catch (error) {
        if (error instanceof AppError && error.code === 'sync_running' && tries < 3) continue;
        throw error;
      }
    }
  }

  cancel(): boolean {
    if (!this.running) return false;
    this.running.controller.abort();
    return true;
  }

  /** The sync's own state; the handler adds the automatic sync's (`auto`), which drives this one. */
  status(): Omit<SyncStatus, 'auto'> {
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
      lastFailure: failureSinceLastSync(checkpoint),
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

  /** A batch was written: tell the windows (at most every 150 ms). */
  progressed(running: Running): void {
    this.emit(running, 'running');
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
    const signal = running.controller.signal;
    const explicit = options.from !== undefined || options.to !== undefined;
    // The days given are Lagos days; the service's are UTC days: ask for the UTC days that cover them.
    const asked = serviceDaysCovering(options.from, options.to);
    const checkpoint = readCheckpoint(db, profileId);

    let resumed = false;
    let startdate: string | null;
    let enddate: string | null;
    let counts: SyncCounts = { pages: 0, fetched: 0, inserted: 0, updated: 0, total: null };
    let plan: SyncPlan | null = null;

    const saved = checkpoint.run;
    const sameRange = saved && (!explicit || (saved.startdate === asked.startdate && saved.enddate === asked.enddate));
    if (saved && sameRange && (saved.plan || saved.legacyNextUrl)) {
      resumed = true;
      startdate = saved.startdate;
      enddate = saved.enddate;
      counts = { pages: saved.pages, fetched: saved.fetched, inserted: saved.inserted, updated: saved.updated, total: saved.total };
      // A run of an older vendesk continues by its NextPage link.
      plan = saved.plan ?? {
        parts: [{ startdate, enddate }],
        part: 0,
        perPage: SYNC_PAGE_SIZE,
        pass: MAX_PASSES + 1,
        firstPage: null,
        total: null,
        nextIndex: 0,
        nextUrl: saved.legacyNextUrl,
      };
    } else {
      startdate = explicit ? asked.startdate : incrementalStart(app, profileId, options.windowDays);
      enddate = explicit ? asked.enddate : null;
      beginRun(db, profileId, new Date().toISOString(), startdate, enddate);
    }
    running.progress = { done: counts.fetched, total: counts.total, pages: counts.pages };
    this.emit(running, 'running', resumed ? 'Continuing the sync that was stopped' : 'Reading the vending log', true);

    const run = new SyncRun(() => this.progressed(running), app, running, options, plan, counts);
    // Into an empty mirror, rows go in without the secondary indexes, built once at the end (logStore.ts).
    const bulk = beginBulkLoad(db);
    run.bulk = bulk;
    try {
      await run.execute(startdate, enddate);
    } catch (error) {
      // Pages already fetched are written before giving up, so a resume starts after them.
      try {
        run.flush();
      } catch {
        // the checkpoint still points after the last batch written
      }
      const aborted = signal.aborted;
      const appError = aborted
        ? cancelledError()
        : error instanceof AppError
          ? error
          : new AppError(
              'sync_failed',
              `The sync stopped: ${error instanceof Error ? error.message : String(error)}.`,
              'Press Sync to try again; it continues from the last page saved.',
            );
      if (!aborted) {
        this.lastError = { message: appError.message, hint: appError.hint };
        // Told by every window and the CLI until a sync finishes: the mirror is as the last one left it.
        try {
          recordSyncFailure(db, profileId, { at: new Date().toISOString(), message: appError.message, hint: appError.hint });
        } catch {
          // the database is closing: the failure is still thrown
        }
      }
      this.emit(running, aborted ? 'cancelled' : 'failed', appError.message, true);
      app.invalidate(['mirror'], aborted ? 'sync cancelled' : 'sync failed');
      throw appError;
    } finally {
      if (bulk) endBulkLoad(db);
    }

    let balanceKobo: number | null = null;
    try {
      balanceKobo = (await readWallet(app, 'sync', running.session, signal)).balanceKobo;
    } catch (error) {
      this.lastError = {
        message: `The log is synced but the wallet balance could not be read: ${error instanceof Error ? error.message : String(error)}`,
        hint: 'Sync again later to record the balance.',
      };
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
    app.invalidate(['mirror', 'balance'], 'sync done');
    return result;
  }
}

export function createLogSyncService(app: App): LogSyncService {
  return new LogSyncService(app);
}

/** The app's sync service. */
export function logSync(app: AppPart<'service'>): LogSyncService {
  return app.service(createLogSyncService);
}
