/**
 * Executes one bulk job: the loop that sends its queued items with bounded concurrency, reads
 * what became of them beside the sending, and settles items whose outcome is unknown before
 * anything is sent again. How items are sent and their outcomes learned is the job kind's
 * strategy — airtime and data in batches (`airtimeDataSending.ts`), electricity and cable through
 * the purchases module (`vendingSending.ts`) — and when items go again is one policy
 * (`sendPolicy.ts`).
 *
 * Rules that keep money safe ("never buy twice, never lose a row"):
 * - An item is written `sending` (committed) before its request leaves; the answer is recorded
 *   right after. A crash leaves `sending` items, which become `uncertain` on the next run.
 * - Two items with the same phone (or meter) and amount are never in one batch nor in flight
 *   together, nor sent while another item of the job with that phone and amount is accepted but
 *   not final (the service answers 429 to that; see "held").
 * - An `uncertain` item is settled before it could be sent again: from the log
 *   (`api/logMatch.ts`) or by its purchase. It is sent again only when, at least
 *   `uncertainSafeDelaySeconds` after it was sent, the log was read completely and shows no
 *   unowned entry of that phone and amount from 30 minutes before it was sent on; after 5
 *   attempts, or when an unowned entry lies beyond the window, it is left for the user.
 * - Times are on the service's clock (`RunnerDeps.now`), as the 2 min 1 s requery rule is.
 *
 * Longer than 400 lines on purpose: the loop of one run — launching batches, reading outcomes,
 * settling uncertain items, finishing — shares the run's state (what is in flight, the stop asked
 * for, the settings as last read), and its order keeps money safe (mark, check the caps, claim,
 * send; settle the uncertain before sending again); how each kind sends and when items go again
 * are apart already (the strategies, `sendPolicy.ts`).
 */
import { AppError } from '../../shared/appError';
import type { Connection } from '../appContext';
import type { EventBus } from '../eventBus';
import type { Settings } from '../store/settings';
import { commitUnflushed } from '../store/unflushedCommit';
import { AirtimeDataSending } from './airtimeDataSending';
import { type Invalidate, jobFinished, jobsChanged } from './jobEvents';
import { batchBlocker, readBulkSettings, type BulkSettings } from './bulkSettings';
import type { ItemMoves } from './itemMoves';
import { sendingProblem, type JobLifecycle, type RunStart } from './jobLifecycle';
import type { JobReads } from './jobReads';
import type { ItemRow, JobRow } from './jobRows';
import { CANCELLED_UNSENT_REASON, nothingLeftToSend, PENDING_AT_SERVICE, settledMessage, type BulkJobKind, type ItemCounts, type JobState } from './jobStates';
import type { PurchaseClient, RunContext, SendStrategy } from './runContext';
import { DEFAULT_TIMING, type RunnerTiming } from './runTiming';
import * as policy from './sendPolicy';
import type { VendingBuyer } from './vendingItems';
import { VendingSending } from './vendingSending';

export { DEFAULT_TIMING, type PurchaseClient, type RunnerTiming, type RunStart };

export interface RunnerDeps {
  /** What the run reads of its job's items. */
  reads: JobReads;
  /** Its items' moves. */
  moves: ItemMoves;
  /** Its job's lease and end. */
  lifecycle: JobLifecycle;
  /**
   * The bulk settings of the job's connection as the caller just read them (confirming, or
   * resuming, a file's job). Not given (a single purchase, whose batch is its one item), the run
   * reads them when it first needs them: once its request has left, for how long it waits.
   */
  settings?: BulkSettings;
  /** Where the bulk settings are kept: they are read again before every batch. */
  settingsTable: Settings;
  events: EventBus;
  /** Tells the windows what background sending changed (App.invalidate). */
  invalidate: Invalidate;
  /** The client of the job's connection, pinned for the run: a switch of connection never sends the job elsewhere. */
  client: PurchaseClient;
  /** The service's clock (epoch ms); tests move it. */
  now: () => number;
  /** The session in use now: the job pauses, sending nothing, when its connection is not the job's. */
  inUse: () => { readonly connection: Connection };
  /** Electricity and cable jobs: buys each item through the purchases module. */
  vending?: () => VendingBuyer;
  /**
   * Asked before a batch (already `sending`) leaves; returns the items that may go and has moved
   * the others itself (the team workspace claims each item first: src/main/team/bulkApproval.ts).
   */
  beforeSend?: (batch: ItemRow[]) => Promise<ItemRow[]>;
}

export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The refusal when another live vendesk process holds the job's lease. */
export function runningElsewhere(holder: number): AppError {
  return new AppError(
    'job_running_elsewhere',
    `This job is being run by another vendesk process (pid ${holder}).`,
    'Wait for it to finish, or close that vendesk window or command, then resume the job.',
  );
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export type StopRequest = 'pause' | 'cancel' | null;

/** How a job of each kind sends its items. */
const STRATEGIES: Record<BulkJobKind, (ctx: RunContext, deps: RunnerDeps) => SendStrategy> = {
  airtime: (ctx) => new AirtimeDataSending(ctx),
  data: (ctx) => new AirtimeDataSending(ctx),
  electricity: (ctx, deps) => new VendingSending(ctx, 'electricity', vendingBuyer(deps)),
  cable: (ctx, deps) => new VendingSending(ctx, 'cable', vendingBuyer(deps)),
};

function vendingBuyer(deps: RunnerDeps): VendingBuyer {
  if (!deps.vending) throw new Error('an electricity or cable job needs the purchases module');
  return deps.vending();
}

/**
 * How a run ended: the job's state, and why a single purchase's item was refused before anything
 * of it was written (its buyer's error, which the purchase answers with; null otherwise).
 */
export interface RunEnd {
  state: JobState;
  refusal: unknown;
}

export class JobRunner {
  private stop: StopRequest = null;
  private readonly inFlight = new Map<number, Promise<void>>();
  private readonly inFlightKeys = new Set<string>();
  private lastPoll = 0;
  private polling: Promise<void> | null = null;
  private lastEmit = 0;
  private lastAcceptedAt = 0;
  private batchCounter = 0;
  /** The settings as last read (see `RunnerDeps.settings`); null until then. */
  private lastSettings: BulkSettings | null;
  private ctx!: RunContext;
  readonly jobId: string;
  private strategy!: SendStrategy;

  /** `job` as its caller read it; the caller began its run (`JobLifecycle.confirm` or `beginRun`: it holds the job's lease) when it calls run. */
  constructor(
    private readonly deps: RunnerDeps,
    private readonly job: JobRow,
    private readonly timing: RunnerTiming = DEFAULT_TIMING,
  ) {
    this.jobId = job.id;
    this.lastSettings = deps.settings ?? null;
  }

  requestStop(kind: 'pause' | 'cancel'): void {
    if (this.stop !== 'cancel') this.stop = kind;
  }

  /** Runs until every item has an answer (or the job is paused or cancelled); renews the lease meanwhile and releases it at the end. */
  async run(begun: RunStart): Promise<RunEnd> {
    const { lifecycle } = this.deps;
    const lease = { pid: process.pid, leaseMs: this.timing.leaseMs };
    const heartbeat = setInterval(() => lifecycle.renewLease(this.jobId, lease), Math.max(500, this.timing.leaseMs / 3));
    try {
      return { state: await this.execute(begun), refusal: this.ctx.sending.refused };
    } finally {
      clearInterval(heartbeat);
      // Released with the job's last state when the run ended (`finish`); here when it was stopped by an error.
      lifecycle.releaseLease(this.jobId, process.pid);
    }
  }

  /** The bulk settings of the job's connection, as last read (read now the first time they are needed). */
  private get settings(): BulkSettings {
    return (this.lastSettings ??= readBulkSettings(this.deps.settingsTable, this.job.profile_id));
  }

  /** How many items go in a request and how many requests at once: the settings', or until they are read the job's own (a single purchase's: one). */
  private get tuning(): { batchSize: number; concurrency: number } {
    return this.lastSettings ?? { batchSize: this.job.batch_size, concurrency: this.job.concurrency };
  }

  private get pauseReason(): string | null {
    return this.ctx.sending.pauseReason;
  }

  /** What this run shares with the strategy of the job's kind and the send policy: its reads and moves, clock, sending state and stop request. */
  private contextFor(job: JobRow): RunContext {
    return {
      reads: this.deps.reads,
      moves: this.deps.moves,
      job,
      client: this.deps.client,
      now: this.deps.now,
      timing: this.timing,
      sending: { pauseReason: null, unavailableRounds: 0, refused: null },
      settings: () => this.settings,
      cancelled: () => this.stop === 'cancel',
      accepted: () => {
        this.lastAcceptedAt = this.deps.now();
      },
    };
  }

  private async execute(begun: RunStart): Promise<JobState> {
    const { reads, moves } = this.deps;
    this.ctx = this.contextFor(this.job);
    this.strategy = STRATEGIES[this.job.kind](this.ctx, this.deps);
    this.lastAcceptedAt = this.deps.now();
    // The windows hear of the run from its first progress, as soon as its first batches are out.
    if (begun.recovered > 0) this.emit(true, `Checking ${begun.recovered} item(s) that were being sent when vendesk stopped`);
    // Settle what a crash left behind before anything is sent again.
    await this.settleUncertain(true, begun.uncertain);

    for (;;) {
      if (this.stop === 'cancel') {
        moves.cancelUnsent(
          this.jobId,
          reads.items(this.jobId, { states: ['queued', 'held'] }).map((i) => i.seq),
          CANCELLED_UNSENT_REASON,
        );
      }
      // Before the first batch every row may go; after it, a look for more only when some wait.
      const before = this.batchCounter > 0 ? reads.counts(this.jobId) : null;
      const launched = !this.stop && !this.pauseReason && this.launchBatches(before ? before.queued + before.held : Number.POSITIVE_INFINITY);
      const counts = before && !launched ? before : reads.counts(this.jobId);
      const t = this.deps.now();
      if (!this.polling && t - this.lastPoll >= this.timing.pollMs) {
        if (counts.accepted + counts.uncertain === 0) {
          // Nothing is waiting for its outcome: this look has nothing to read, and the next is a poll later.
          this.lastPoll = t;
        } else {
          // Reading the log runs beside the sending, never holding it up.
          this.polling = (async () => {
            await this.strategy.pollOutcomes();
            await this.settleUncertain(false);
          })().finally(() => {
            this.lastPoll = this.deps.now();
            this.polling = null;
          });
        }
      }
      this.emit(false);
      const toSend = counts.queued + counts.held;
      if (this.inFlight.size === 0 && !this.polling) {
        if (this.stop || this.pauseReason) {
          if (toSend === 0 && counts.accepted === 0 && counts.uncertain === 0) break;
          // A pause (or closing vendesk) stops at once: accepted items are checked on resume.
          if (this.stop === 'pause' || this.pauseReason) break;
          // A cancel still reads the outcomes of what was already accepted.
          if (counts.accepted === 0 || this.outcomeWaitOver()) break;
        } else if (toSend === 0) {
          const waitingUncertain = counts.uncertain > 0 && this.strategy.waitsForUncertain && this.uncertainStillSettling();
          if ((counts.accepted === 0 || this.outcomeWaitOver()) && !waitingUncertain) break;
        }
      }
      await this.wait();
    }
    if (this.polling) await this.polling;
    await this.strategy.pollOutcomes();
    return this.finish();
  }

  private finish(): JobState {
    const { reads, moves, lifecycle } = this.deps;
    // A pause with nothing left to send (every row was sent, none is being checked) has nothing
    // to resume: the job completes and its accepted items are followed like any finished job's.
    const counts = reads.counts(this.jobId);
    const paused = (this.stop === 'pause' || Boolean(this.pauseReason)) && !nothingLeftToSend(counts);
    // Accepted items the log has not settled yet: they are pending at the service (a paused
    // job keeps them accepted; resuming reads their outcome).
    const accepted = paused || counts.accepted === 0 ? [] : reads.items(this.jobId, { states: ['accepted'] });
    // The job's last state and the release of its lease are one write, which need not wait for the
    // disk: every answer was committed as it came, and this write only names what follows from
    // them (store/unflushedCommit.ts).
    const { state, message } = commitUnflushed(lifecycle.db, () => {
      if (accepted.length > 0) {
        moves.pendingAfterRun(
          this.jobId,
          accepted.map((i) => i.seq),
          PENDING_AT_SERVICE,
        );
      }
      return this.endState(paused);
    });
    this.emit(true, message ?? 'Finished', state);
    jobFinished(this.deps.invalidate);
    return state;
  }

  /**
   * Writes the state the run ends in, with its message, and releases the job's lease (in
   * `finish`'s transaction). A job another process cancelled meanwhile stays cancelled.
   */
  private endState(paused: boolean): { state: JobState; message: string | null } {
    const counts = this.deps.reads.counts(this.jobId);
    let state: 'completed' | 'paused' | 'needs_attention' | 'cancelled';
    let message: string | null = null;
    if (this.stop === 'cancel') {
      state = 'cancelled';
      message = settledMessage('cancelled', counts);
    } else if (paused) {
      state = 'paused';
      message = this.pauseReason ?? 'Paused: resume to send the remaining items.';
    } else if (counts.uncertain > 0) {
      state = 'needs_attention';
      message = `${counts.uncertain} item(s) may or may not have been bought and the log could not settle them. Check each one and mark it bought or not bought.`;
    } else {
      state = 'completed';
      message = settledMessage('completed', counts);
    }
    if (state === 'paused' && counts.uncertain > 0) {
      message = `${message} ${counts.uncertain} item(s) are still being checked against the log.`;
    }
    const now = this.deps.lifecycle.finishRun(this.jobId, process.pid, state, message);
    return now === state ? { state, message } : { state: now, message: null };
  }

  private outcomeWaitOver(): boolean {
    return this.deps.now() - this.lastAcceptedAt >= this.settings.outcomeWaitSeconds * 1000;
  }

  private uncertainStillSettling(): boolean {
    const items = this.deps.reads.items(this.jobId, { states: ['uncertain'] });
    const t = this.deps.now();
    // An uncertain item is worth waiting for until its safe delay has passed and it was checked.
    return items.some((i) => (i.sent_ms ?? 0) + this.settings.uncertainSafeDelaySeconds * 1000 + this.timing.pollMs * 2 > t);
  }

  private async wait(): Promise<void> {
    const timer = sleep(this.timing.tickMs);
    const waits: Promise<void>[] = [timer, ...this.inFlight.values()];
    if (this.polling) waits.push(this.polling);
    await Promise.race(waits);
  }

  // ------------------------------------------------------------------ sending

  /** Sends what may go now of the `waiting` items (queued or held); returns whether anything went. */
  private launchBatches(waiting: number): boolean {
    const connection = sendingProblem(this.job, this.deps.inUse().connection);
    if (connection) {
      policy.pause(this.ctx, `Paused: ${connection}`);
      return false;
    }
    let launched = false;
    while (waiting > 0 && this.inFlight.size < this.tuning.concurrency) {
      const { items: batch, keys } = this.pickBatch();
      if (batch.length === 0) return launched;
      const capProblem = this.capProblem(batch);
      if (capProblem) {
        policy.pause(this.ctx, capProblem);
        return launched;
      }
      launched = true;
      // Committed `sending` before the request leaves: here, or in the strategy's own write of it.
      if (!this.strategy.marksItsOwnSending || this.deps.beforeSend) {
        this.deps.moves.markSending(
          this.jobId,
          batch.map((i) => i.seq),
          this.deps.now(),
        );
      }
      const id = ++this.batchCounter;
      for (const k of keys) this.inFlightKeys.add(k);
      const p = this.sendBatch(batch).finally(() => {
        this.emit(false);
        for (const k of keys) this.inFlightKeys.delete(k);
        this.inFlight.delete(id);
      });
      this.inFlight.set(id, p);
      // The windows hear that the job sends once its first request has left.
      if (id === 1) jobsChanged(this.deps.invalidate);
    }
    return launched;
  }

  private pickBatch(): { items: ItemRow[]; keys: string[] } {
    return this.deps.moves.nextBatch(this.jobId, {
      at: this.deps.now(),
      limit: this.strategy.oneItemPerRequest ? 1 : this.tuning.batchSize,
      scan: Math.max(500, this.tuning.batchSize * 10),
      inFlight: this.inFlightKeys,
    });
  }

  private capProblem(batch: ItemRow[]): string | null {
    // The caps limit bulk jobs; a single purchase is confirmed on its own.
    if (this.job.origin === 'single') return null;
    // Settings may have changed since the job was confirmed.
    const { settings, blocker } = batchBlocker(this.deps.reads, this.deps.settingsTable, this.job, batch, () => this.deps.now());
    this.lastSettings = settings;
    return blocker;
  }

  /** The items of a batch `beforeSend` lets go; when it cannot answer, none go and the job pauses. */
  private async allowedToSend(batch: ItemRow[], beforeSend: NonNullable<RunnerDeps['beforeSend']>): Promise<ItemRow[]> {
    try {
      const allowed = await beforeSend(batch);
      if (allowed.length < batch.length) this.emit(false);
      return allowed;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      policy.unsentAndPause(
        this.ctx,
        batch.map((i) => i.seq),
        `Paused: ${message} Nothing was sent; resume the job once that is fixed.`,
      );
      return [];
    }
  }

  /**
   * Sends a batch (checked against the connection in use just before) through the job's
   * strategy, at once; with a team, what `beforeSend` lets go of it (`sendClaimed`).
   */
  private sendBatch(batch: ItemRow[]): Promise<void> {
    const { beforeSend } = this.deps;
    return beforeSend ? this.sendClaimed(batch, beforeSend) : this.strategy.send(batch);
  }

  /**
   * The team's claim takes a while: when vendesk was switched to another connection meanwhile,
   * the batch goes back to the queue unsent (electricity and cable are bought through the
   * connection in use) and the job pauses.
   */
  private async sendClaimed(batch: ItemRow[], beforeSend: NonNullable<RunnerDeps['beforeSend']>): Promise<void> {
    const allowed = await this.allowedToSend(batch, beforeSend);
    if (allowed.length === 0) return;
    const connection = sendingProblem(this.job, this.deps.inUse().connection);
    if (connection) {
      policy.unsentAndPause(
        this.ctx,
        allowed.map((i) => i.seq),
        `Paused: ${connection}`,
      );
      return;
    }
    await this.strategy.send(allowed);
  }

  // ------------------------------------------------------------------ uncertain items

  /**
   * Settles uncertain items. `waitForSafeDelay`: at the start of a run, wait until every
   * uncertain airtime or data item is past its safe delay, so nothing is sent before they are settled.
   */
  private async settleUncertain(waitForSafeDelay: boolean, uncertain = this.deps.reads.countItems(this.jobId, ['uncertain'])): Promise<void> {
    const { reads } = this.deps;
    for (let first = true; ; first = false) {
      if ((first ? uncertain : reads.countItems(this.jobId, ['uncertain'])) === 0) return;
      await this.strategy.settleUncertain();
      if (!waitForSafeDelay || !this.strategy.waitsSafeDelay) return;
      const safeMs = this.settings.uncertainSafeDelaySeconds * 1000;
      const waiting = reads.items(this.jobId, { states: ['uncertain'] }).filter((i) => (i.sent_ms ?? 0) + safeMs > this.deps.now());
      if (waiting.length === 0) return;
      if (this.stop) return;
      const next = Math.min(...waiting.map((i) => (i.sent_ms ?? 0) + safeMs)) - this.deps.now();
      this.emit(true, `Waiting ${Math.ceil(Math.max(0, next) / 1000)} s before checking ${waiting.length} uncertain item(s) against the log`);
      await sleep(Math.max(50, Math.min(next, 1000)));
    }
  }

  // ------------------------------------------------------------------ progress

  private emit(force: boolean, message?: string, state?: JobState): void {
    const t = Date.now();
    if (!force && t - this.lastEmit < 200) return;
    this.lastEmit = t;
    const counts = this.deps.reads.counts(this.jobId);
    this.deps.events.emit('job.progress', {
      jobId: this.jobId,
      state: state ?? (this.stop === 'cancel' ? 'cancelling' : this.stop === 'pause' || this.pauseReason ? 'pausing' : 'running'),
      counts: { ...counts },
      done: doneCount(counts),
      total: totalCount(counts),
      ...(message ? { message } : this.pauseReason ? { message: this.pauseReason } : {}),
    });
  }
}

/**
 * Items the service has answered (whatever the answer). Items never sent — cancelled before
 * sending, or marked not bought — are not answered: they are "not bought".
 */
export function doneCount(c: ItemCounts): number {
  return c.accepted + c.rejected + c.success + c.failed + c.pending;
}

/** Items the job is to buy (excluded rows left out). */
export function totalCount(c: ItemCounts): number {
  return c.queued + c.held + c.sending + c.accepted + c.rejected + c.uncertain + c.success + c.failed + c.pending + c.cancelled;
}

export type { JobRow };
