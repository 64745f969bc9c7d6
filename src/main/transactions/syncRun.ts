/**
 * One run of the sync of the vending log into the mirror, with several pages in flight (the
 * service that starts, resumes, cancels and reports runs is logSync.ts).
 *
 * A run reads one date range [startdate, enddate] of /logEntries, 100 entries a page. The old
 * design followed NextPage one request at a time, which never skips an entry: the log is newest
 * first and entries are added at its front, so an entry created during the run pushes older ones
 * one place later and the next page re-reads one already stored (upserted, not duplicated). With
 * page numbers requested at once that no longer holds: page 7 answered before an entry arrives
 * and page 6 after it leaves the entry that moved from page 6 to page 7 read by neither.
 *
 * What this design does about it (chosen over re-reading blindly or deduplicating by id, which
 * cannot tell a gap is there):
 *
 * 1. **A watermark splits the range.** A range of more than SPLIT_MIN_ENTRIES is read in two
 *    parts: the closed days [startdate, yesterday] and [today, enddate], where today is the
 *    service's own date (the `Date` header of its first answer). New purchases are created now,
 *    on the service's clock, so they never enter the closed part: its pages do not move while
 *    they are read, and the big first sync reads them all at once. Today's part is read last, so
 *    the purchases made while the closed days were read are in it.
 * 2. **Every pass checks that nothing moved.** A part is read in a pass: its first page gives
 *    TotalRecords and the page numbering (from its NextPage link: the service may count from 0
 *    or 1), then pages 2, 3, … are requested with up to `concurrency` in flight and written in
 *    page order. Every page answers its own TotalRecords; if one differs from the first page's
 *    (an entry arrived, or the service backdated one into the part), pages of this pass may have
 *    shifted, so the pass stops and the part is read again from its first page (what was
 *    written stays: it is real, and the upsert keys on the service's id). After MAX_PASSES such
 *    passes, the part is read by following NextPage one page at a time, which is safe under any
 *    insertion. A pass whose pages all agree read a log that did not change: no entry is missed.
 * 3. **The checkpoint is exact.** Pages are upserted by (profile, id) in batches of up to
 *    BATCH_ENTRIES entries, each batch in one transaction with the plan (part, pass, numbering,
 *    the first page's TotalRecords and the pages committed; syncCheckpoint.ts). A kill at any
 *    moment leaves the mirror at a page boundary the plan names; the next run continues from the
 *    next page if that part still answers the same TotalRecords, else reads the part again. A
 *    cancel writes the pages already fetched first.
 * 4. **What it read is recorded.** A part read completely holds every entry of its UTC dates made
 *    before its last pass began (`passAt`, the service's clock, kept in the plan): once its pages
 *    are written, its dates are recorded as read up to then (logCoverage.ts), so reports know
 *    which days the mirror holds and a plain run never starts after a day none read.
 *
 * Statuses change in place (PENDING → SUCCESS/FAILED) without moving entries, which is why a run
 * never filters by status, and why each incremental run re-reads a window of recent days: from
 * WINDOW_DAYS before the newest mirrored entry (the open app's own syncs after its first: one day),
 * or from the oldest entry still PENDING if earlier.
 *
 * Politeness: all requests of a run share one RequestPacer (api/requestPacer.ts): at most
 * `concurrency` in flight and `maxRequestsPerSecond` a second (Settings → Sync), and a shared
 * back-off on 429/5xx that honours Retry-After. Every request of a run goes to the session it
 * started with, and its rows are written to that connection's mirror.
 */
import { DAY_MS, shiftDay } from '../../shared/localDates';
import { setMaxListeners } from 'node:events';
import { AppError } from '../../shared/appError';
import type { SyncResult } from '../../shared/contract/logs';
import type { LogEntry, PageObject } from '../../shared/wire';
import { parseLogEntry } from '../api/parseLogEntry';
import { RequestPacer } from '../api/requestPacer';
import type { ServiceWindow } from '../api/serviceTime';
import type { AppPart, Session } from '../appContext';
import { recordPartRead } from './logCoverage';
import { forgetSearchIndex } from './logSearchIndex';
import { bulkLoadTransaction, upsertLogEntries } from './logStore';
import { advanceRun, type SyncCounts, type SyncPart, type SyncPlan } from './syncCheckpoint';
import { readSyncSettings } from './syncSettings';

export const SYNC_PAGE_SIZE = 100;
/** Entries written per transaction (several pages). */
export const BATCH_ENTRIES = 2000;
/** Days re-read before the newest mirrored entry on every incremental run (Sync now, the CLI). */
export const WINDOW_DAYS = 7;
/** A range with more entries than this is read as closed days and today (see above). */
export const SPLIT_MIN_ENTRIES = 5000;
/** Passes by page number of one part before it is read by following NextPage. */
export const MAX_PASSES = 3;

export interface SyncRange {
  from?: string;
  to?: string;
}

export interface SyncRunOptions extends SyncRange {
  signal?: AbortSignal;
  /** An incremental run re-reads this many days before the newest mirrored entry (default WINDOW_DAYS). */
  windowDays?: number;
  /** Stop after this many pages are written, as if cancelled (tests of an interrupted sync). */
  stopAfterPages?: number;
}

export interface Running {
  /** The connection the run reads (and writes the mirror of), fixed for the whole run. */
  session: Session;
  profileId: string;
  controller: AbortController;
  promise: Promise<SyncResult>;
  progress: { done: number; total: number | null; pages: number };
}

/** Day arithmetic is written once (src/shared/localDates.ts); the sync's days are the service's UTC days. */
export { shiftDay };

export function cancelledError(): AppError {
  return new AppError('sync_cancelled', 'The sync was stopped.', 'Press Sync to continue it; it carries on from the last page saved.');
}

/** The page number a NextPage link asks for, or null when it names none. */
function pageNumberIn(url: string): number | null {
  try {
    const raw = new URL(url).searchParams.get('page');
    return raw !== null && /^\d+$/.test(raw) ? Number(raw) : null;
  } catch {
    return null;
  }
}

/** The parts of a range of `total` entries, split at the service's date `today` (YYYY-MM-DD). */
export function planParts(startdate: string | null, enddate: string | null, total: number, today: string): SyncPart[] {
  const lastClosed = shiftDay(today, -1);
  if (total <= SPLIT_MIN_ENTRIES || (startdate !== null && startdate > lastClosed) || (enddate !== null && enddate <= lastClosed)) {
    return [{ startdate, enddate }];
  }
  return [
    { startdate, enddate: lastClosed },
    { startdate: today, enddate },
  ];
}

/**
 * Where an answer was made on the service's clock, at the earliest: every entry created before it
 * is in the answer. Without the service's `Date` header only this computer's clock is known, so a
 * day earlier (its dates are then recorded as read a day later than they could be; never sooner).
 */
function answeredFrom(window: ServiceWindow | null): number | null {
  if (!window) return null;
  return window.clock === 'service' ? window.fromMs : window.fromMs - DAY_MS;
}

/** What one run does; kept apart from the service so its state is per run. */
export class SyncRun {
  readonly counts: SyncCounts;
  private readonly pacer: RequestPacer;
  private readonly window: number;
  private batch: PageObject<LogEntry>[] = [];
  private batchEntries = 0;
  private pagesThisRun = 0;
  /** A first load into an empty mirror (`beginBulkLoad` said so): its batches commit as `bulkLoadTransaction` says. */
  bulk = false;

  constructor(
    /** Called after each batch is written (the service tells the windows, at most every 150 ms). */
    private readonly onWritten: () => void,
    private readonly app: AppPart<'db' | 'settings'>,
    private readonly running: Running,
    private readonly options: SyncRunOptions,
    private plan: SyncPlan | null,
    counts: SyncCounts,
  ) {
    this.counts = counts;
    const settings = readSyncSettings(app.settings);
    this.pacer = new RequestPacer({ concurrency: settings.concurrency, maxPerSecond: settings.maxRequestsPerSecond });
    // Pages asked for ahead of the one being written: enough to keep `concurrency` in flight.
    this.window = settings.concurrency * 2;
  }

  private get signal(): AbortSignal {
    return this.running.controller.signal;
  }

  private get client() {
    return this.running.session.client;
  }

  private readonly writeBatch = (pages: PageObject<LogEntry>[], plan: SyncPlan, syncedAt: string): void => {
    const db = this.app.db;
    bulkLoadTransaction(db, this.bulk, () => {
      const parsed: ReturnType<typeof parseLogEntry>[] = [];
      for (const page of pages) for (const item of page.Items) parsed.push(parseLogEntry(item));
      // The oldest entry of the part so far: a part read from the log's start says where it begins.
      let oldest = plan.oldestSeen ?? null;
      for (const e of parsed) if (oldest === null || e.createdAt < oldest) oldest = e.createdAt;
      plan.oldestSeen = oldest;
      if (this.plan) this.plan.oldestSeen = oldest;
      const c = upsertLogEntries(db, this.running.profileId, parsed, syncedAt);
      this.counts.pages += pages.length;
      this.counts.fetched += parsed.length;
      this.counts.inserted += c.inserted;
      this.counts.updated += c.updated;
      advanceRun(db, this.running.profileId, plan, this.counts);
    });
  };

  /** Writes the pages waiting, with the plan as it stands after them. */
  flush(): void {
    if (this.batch.length === 0 || !this.plan) return;
    const pages = this.batch;
    this.batch = [];
    this.batchEntries = 0;
    const before = { ...this.counts };
    try {
      this.writeBatch(pages, { ...this.plan }, new Date().toISOString());
    } catch (error) {
      Object.assign(this.counts, before);
      forgetSearchIndex(this.app.db, this.running.profileId);
      throw error;
    }
    this.running.progress = { done: this.counts.fetched, total: this.counts.total, pages: this.counts.pages };
    this.onWritten();
  }

  /** Queues a page to write (the plan already says what comes after it); throws when the run must stop here. */
  private take(page: PageObject<LogEntry>, last: boolean): void {
    this.batch.push(page);
    this.batchEntries += page.Items.length;
    this.pagesThisRun += 1;
    const stop = this.options.stopAfterPages !== undefined && this.pagesThisRun >= this.options.stopAfterPages && !last;
    if (this.batchEntries >= BATCH_ENTRIES || last || stop || this.signal.aborted) this.flush();
    if (stop) {
      this.running.controller.abort();
      throw cancelledError();
    }
    if (this.signal.aborted) throw cancelledError();
  }

  private savePlan(): void {
    if (!this.plan) return;
    advanceRun(this.app.db, this.running.profileId, this.plan, this.counts);
  }

  private request(part: SyncPart, perPage: number, page: number | undefined, signal: AbortSignal, onAnswered?: (w: ServiceWindow) => void): Promise<PageObject<LogEntry>> {
    return this.client.logEntries({ perPage, page, startdate: part.startdate ?? undefined, enddate: part.enddate ?? undefined }, { signal, pacer: this.pacer, onAnswered });
  }

  /** Runs the plan to its end (a fresh run makes it from a first look at the range). */
  async execute(startdate: string | null, enddate: string | null): Promise<void> {
    if (!this.plan) {
      let answeredAt: ServiceWindow | null = null;
      const range: SyncPart = { startdate, enddate };
      const first = await this.request(range, SYNC_PAGE_SIZE, undefined, this.signal, (w) => (answeredAt = w));
      this.counts.total = first.TotalRecords;
      const perPage = first.Items.length < Math.min(SYNC_PAGE_SIZE, first.TotalRecords) ? Math.max(1, first.Items.length) : SYNC_PAGE_SIZE;
      // The service's date; without its Date header, one day less than ours (the split only saves work).
      const at = answeredAt as ServiceWindow | null;
      const today = at && at.clock === 'service' ? new Date(at.fromMs).toISOString().slice(0, 10) : shiftDay(new Date().toISOString().slice(0, 10), -1);
      const parts = planParts(startdate, enddate, first.TotalRecords, today);
      this.plan = { parts, part: 0, perPage, pass: 1, firstPage: null, total: null, nextIndex: 0, nextUrl: null, passAt: null, oldestSeen: null };
      this.running.progress = { done: 0, total: this.counts.total, pages: 0 };
      if (parts.length === 1) {
        // The look was the part's first page.
        const numbered = this.startPass(first, at);
        this.take(first, numbered && this.plan.nextIndex >= this.pagesNeeded(first.TotalRecords));
      } else {
        this.savePlan();
      }
    }
    const plan = this.plan;
    while (plan.part < plan.parts.length) {
      const part = plan.parts[plan.part];
      const read = plan.pass > MAX_PASSES ? await this.followNextPage(part) : await this.pass(part);
      const done = read ? { passAt: plan.passAt ?? null, oldestSeen: plan.oldestSeen ?? null } : null;
      if (read) Object.assign(plan, { part: plan.part + 1, pass: 1, firstPage: null, total: null, nextIndex: 0, nextUrl: null, passAt: null, oldestSeen: null });
      this.flush();
      this.savePlan();
      // Its pages are in the mirror: its dates are read up to when the pass began (logCoverage.ts).
      // A part of a plan from before coverage (no passAt) records nothing: it is read again later.
      if (done && done.passAt !== null) recordPartRead(this.app.db, this.running.profileId, part, done.passAt, done.oldestSeen);
    }
  }

  private pagesNeeded(total: number): number {
    return Math.ceil(total / (this.plan as SyncPlan).perPage);
  }

  /** Takes the numbering and count of a pass from its first page (answered at `at`); false if the link names no page. */
  private startPass(first: PageObject<LogEntry>, at: ServiceWindow | null): boolean {
    const plan = this.plan as SyncPlan;
    plan.total = first.TotalRecords;
    plan.nextIndex = 1;
    plan.passAt = answeredFrom(at);
    if (!first.NextPage) {
      plan.firstPage = first.CurrentPage;
      return true;
    }
    const next = pageNumberIn(first.NextPage);
    if (next === null) {
      // A service whose links name no page number: this part is read by following them.
      plan.pass = MAX_PASSES + 1;
      plan.nextUrl = first.NextPage;
      return false;
    }
    plan.firstPage = next - 1;
    return true;
  }

  /** Whether page `index` of a pass is what a log that did not move would answer. */
  private steady(page: PageObject<LogEntry>, index: number, number: number): boolean {
    const plan = this.plan as SyncPlan;
    const expected = Math.max(0, Math.min(plan.perPage, (plan.total ?? 0) - index * plan.perPage));
    return page.TotalRecords === plan.total && page.Items.length === expected && (page.CurrentPage === undefined || page.CurrentPage === number);
  }

  /**
   * One pass over a part by page number; true when every page agreed (nothing moved), false when
   * one did not: the plan then says to read the part again (its next pass).
   */
  private async pass(part: SyncPart): Promise<boolean> {
    const plan = this.plan as SyncPlan;
    if (plan.total === null || plan.firstPage === null) {
      let at: ServiceWindow | null = null;
      const first = await this.request(part, plan.perPage, undefined, this.signal, (w) => (at = w));
      const numbered = this.startPass(first, at);
      this.take(first, false);
      if (!numbered) return this.followNextPage(part);
    }
    const inner = new AbortController();
    // Each page in flight listens to it (its wait for a turn, its request).
    setMaxListeners(this.window * 3 + 10, inner.signal);
    const stopInner = () => inner.abort();
    this.signal.addEventListener('abort', stopInner, { once: true });
    const inFlight = new Map<number, Promise<PageObject<LogEntry>>>();
    const needed = this.pagesNeeded(plan.total as number);
    let dispatched = plan.nextIndex;
    try {
      while (plan.nextIndex < needed) {
        while (dispatched < needed && dispatched - plan.nextIndex < this.window) {
          const index = dispatched++;
          const request = this.request(part, plan.perPage, (plan.firstPage as number) + index, inner.signal);
          request.catch(() => undefined);
          inFlight.set(index, request);
        }
        const index = plan.nextIndex;
        const page = await (inFlight.get(index) as Promise<PageObject<LogEntry>>);
        inFlight.delete(index);
        plan.nextIndex = index + 1;
        if (!this.steady(page, index, (plan.firstPage as number) + index)) {
          // The part moved under this pass: keep what was read, read the part again.
          Object.assign(plan, { pass: plan.pass + 1, firstPage: null, total: null, nextIndex: 0, nextUrl: null });
          this.take(page, false);
          return false;
        }
        this.take(page, plan.nextIndex >= needed);
      }
      return true;
    } finally {
      this.signal.removeEventListener('abort', stopInner);
      inner.abort();
    }
  }

  /** Reads a part one page at a time through NextPage (safe whatever moves); always completes it. */
  private async followNextPage(part: SyncPart): Promise<true> {
    const plan = this.plan as SyncPlan;
    let page: PageObject<LogEntry>;
    if (plan.nextUrl === '') return true;
    if (plan.nextUrl) {
      page = await this.client.logPage(plan.nextUrl, { signal: this.signal, pacer: this.pacer });
    } else {
      // Following NextPage is safe whatever arrives: it holds every entry made before its first page.
      let at: ServiceWindow | null = null;
      page = await this.request(part, plan.perPage, undefined, this.signal, (w) => (at = w));
      plan.passAt = answeredFrom(at);
    }
    let guard = this.pagesNeeded(page.TotalRecords) * 2 + 50;
    for (;;) {
      plan.nextUrl = page.NextPage;
      const pending = page.NextPage && !this.signal.aborted ? this.client.logPage(page.NextPage, { signal: this.signal, pacer: this.pacer }) : null;
      pending?.catch(() => undefined);
      this.take(page, pending === null);
      if (!pending) return true;
      if (--guard < 0) {
        throw new AppError(
          'sync_runaway',
          'The service kept sending further pages of the log beyond its own page count.',
          'Sync again later; if it happens again, report it to support.',
        );
      }
      page = await pending;
    }
  }
}
