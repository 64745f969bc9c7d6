/**
 * Executes one bulk job: sends its queued items in batches with bounded concurrency, records
 * every answer, learns each accepted item's outcome from the service's log, and settles items
 * whose outcome is unknown before anything is sent again.
 *
 * Rules that keep money safe ("never buy twice, never lose a row"):
 * - An item is written `sending` (committed) before its request leaves; the answer is recorded
 *   right after. A crash leaves `sending` items, which become `uncertain` on the next run.
 * - Two items with the same phone and amount are never in one batch nor in flight together, nor
 *   sent while another item of the job with that phone and amount is accepted but not final
 *   (the service answers 429 to that; see "held").
 * - An `uncertain` item is matched against the log: by reference when known, else by phone,
 *   amount and time (an entry created from 30 minutes before to 15 minutes after the item was
 *   sent, of the job's type, not already owned by another item). A match settles it. It is
 *   sent again only when, at least `uncertainSafeDelaySeconds` after it was sent, the log was
 *   read completely and shows no unowned entry of that phone and amount from 30 minutes before
 *   it was sent on; after 5 attempts, or when an unowned entry lies beyond the window, it is
 *   left for the user.
 * - 400/422/2xx-refusals of a batch: the batch is all or nothing, so nothing was charged; its
 *   items are sent again one by one so each gets its own reason. "insufficient balance" pauses
 *   the job instead. 401 pauses the job. 503 (after the client's retries and voucher rule):
 *   the items wait and go again with backoff; the job pauses after repeated 503s.
 * - 429 on a single item: it is held and sent again later, at most 20 times.
 *
 * Electricity and cable jobs send one item at a time per slot through the purchases module
 * (`deps.vending`), which validates the meter or smartcard and writes the purchase before its
 * request leaves. An item caught `sending` by a crash is settled by its purchase: none written
 * means it was never sent (it goes again); a purchase in `sending` or `uncertain` is settled by
 * the purchases module from the log, and the item is never sent again.
 */
import { AppError } from '../../shared/appError';
import type { AirtimeItem, DataItem } from '../../shared/wire';
import { ServiceError, UncertainOutcomeError, RequestCancelledError } from '../api/serviceErrors';
import type { VendingClient } from '../api/vendingClient';
import type { EventBus } from '../eventBus';
import { startOfLocalDay, type BulkSettings } from './bulkSettings';
import { itemKey, type ItemRow, type JobRow, type JobStore } from './jobStore';
import { isVendingKind, settledMessage, type ItemCounts, type JobState, type VendingJobKind } from './jobStates';
import type { VendingBuyer } from './vendingItems';
import { readOutcomes, settleUncertainItem } from './itemOutcomes';

export type PurchaseClient = Pick<VendingClient, 'purchaseAirtime' | 'purchaseData' | 'logEntries' | 'logPage' | 'requery'>;

export interface RunnerDeps {
  store: JobStore;
  /** The bulk settings of the job's connection, read again before every batch. */
  settings: () => BulkSettings;
  events: EventBus;
  client: () => PurchaseClient;
  /** Why sending must stop now (the app was switched to another connection), or null. */
  connectionProblem?: () => string | null;
  /** Electricity and cable jobs: buys each item through the purchases module. */
  vending?: VendingBuyer;
  /**
   * Asked before a batch (already `sending`) leaves; returns the items that may go and has moved
   * the others itself (the team workspace claims each item first: src/main/team/bulkApproval.ts).
   */
  beforeSend?: (batch: ItemRow[]) => Promise<ItemRow[]>;
}

/** Tuning that tests may shorten; production uses the defaults. */
export interface RunnerTiming {
  tickMs: number;
  pollMs: number;
  leaseMs: number;
  /** Before the first retry of a 503'd batch; doubles each time. */
  backoffBaseMs: number;
  holdBaseMs: number;
}

export const DEFAULT_TIMING: RunnerTiming = { tickMs: 250, pollMs: 2000, leaseMs: 15_000, backoffBaseMs: 2000, holdBaseMs: 3000 };

const MAX_UNAVAILABLE_ROUNDS = 6;
const MAX_HOLDS = 20;

export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export type StopRequest = 'pause' | 'cancel' | null;

export class JobRunner {
  private stop: StopRequest = null;
  private readonly inFlight = new Map<number, Promise<void>>();
  private readonly inFlightKeys = new Set<string>();
  private unavailableRounds = 0;
  private pauseReason: string | null = null;
  private lastPoll = 0;
  private polling: Promise<void> | null = null;
  private lastEmit = 0;
  private lastAcceptedAt = 0;
  private batchCounter = 0;
  private settings!: BulkSettings;
  private job!: JobRow;

  constructor(
    private readonly deps: RunnerDeps,
    readonly jobId: string,
    private readonly timing: RunnerTiming = DEFAULT_TIMING,
  ) {}

  requestStop(kind: 'pause' | 'cancel'): void {
    if (this.stop !== 'cancel') this.stop = kind;
  }

  /** Runs until every item has an answer (or the job is paused or cancelled). */
  async run(): Promise<JobState> {
    const { store } = this.deps;
    const job = store.job(this.jobId);
    if (!job) throw new AppError('job_not_found', 'There is no bulk job with this id.', 'Check the job id with `vendesk bulk status` or on the Purchases page.');
    this.job = job;
    const lease = store.acquireLease(this.jobId, process.pid, this.timing.leaseMs, pidAlive);
    if (!lease.ok) {
      throw new AppError(
        'job_running_elsewhere',
        `This job is being run by another vendesk process (pid ${lease.holder}).`,
        'Wait for it to finish, or close that vendesk window or command, then resume the job.',
      );
    }
    const heartbeat = setInterval(() => store.renewLease(this.jobId, process.pid, this.timing.leaseMs), Math.max(500, this.timing.leaseMs / 3));
    try {
      return await this.execute();
    } finally {
      clearInterval(heartbeat);
      store.releaseLease(this.jobId, process.pid);
    }
  }

  private async execute(): Promise<JobState> {
    const { store } = this.deps;
    this.settings = this.deps.settings();
    this.lastAcceptedAt = Date.now();
    store.setJobState(this.jobId, 'running');
    const recovered = store.sendingToUncertain(this.jobId);
    this.emit(true, recovered > 0 ? `Checking ${recovered} item(s) that were being sent when vendesk stopped` : 'Starting');
    // Settle what a crash left behind before anything is sent again.
    await this.settleUncertain(true);

    for (;;) {
      if (this.stop === 'cancel') {
        store.transition(this.jobId, store.items(this.jobId, { states: ['queued', 'held'] }).map((i) => i.seq), 'cancelled', { reason: 'The job was cancelled before this item was sent; nothing was charged for it' }, ['queued', 'held']);
      }
      if (!this.stop && !this.pauseReason) this.launchBatches();
      const t = Date.now();
      if (!this.polling && t - this.lastPoll >= this.timing.pollMs) {
        // Reading the log runs beside the sending, never holding it up.
        this.polling = (async () => {
          await this.pollOutcomes();
          await this.settleUncertain(false);
        })().finally(() => {
          this.lastPoll = Date.now();
          this.polling = null;
        });
      }
      const counts = store.counts(this.jobId);
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
          const waitingUncertain = counts.uncertain > 0 && this.uncertainStillSettling();
          if ((counts.accepted === 0 || this.outcomeWaitOver()) && !waitingUncertain) break;
        }
      }
      await this.wait();
    }
    if (this.polling) await this.polling;
    await this.pollOutcomes();
    return this.finish();
  }

  private finish(): JobState {
    const { store } = this.deps;
    // Accepted items the log has not settled yet: they are pending at the service (a paused
    // job keeps them accepted; resuming reads their outcome).
    const accepted = this.stop === 'pause' || this.pauseReason ? [] : store.items(this.jobId, { states: ['accepted'] });
    if (accepted.length > 0) {
      store.transition(this.jobId, accepted.map((i) => i.seq), 'pending', { reason: 'Accepted by the service; its outcome is not in the log yet. vendesk keeps checking its log (and requeries it from 2 minutes after sending).' }, ['accepted']);
    }
    const counts = store.counts(this.jobId);
    let state: JobState;
    let message: string | null = null;
    if (this.stop === 'cancel') {
      state = 'cancelled';
      message = settledMessage('cancelled', counts);
    } else if (this.stop === 'pause' || this.pauseReason) {
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
    store.setJobState(this.jobId, state, message);
    this.emit(true, message ?? 'Finished', state);
    this.deps.events.emit('data.changed', { topics: ['jobs', 'balance', 'mirror'] });
    return state;
  }

  private outcomeWaitOver(): boolean {
    return Date.now() - this.lastAcceptedAt >= this.settings.outcomeWaitSeconds * 1000;
  }

  private uncertainStillSettling(): boolean {
    const items = this.deps.store.items(this.jobId, { states: ['uncertain'] });
    const t = Date.now();
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

  private launchBatches(): void {
    const { store } = this.deps;
    const connection = this.deps.connectionProblem?.() ?? null;
    if (connection) {
      this.pauseReason = `Paused: ${connection}`;
      return;
    }
    while (this.inFlight.size < this.settings.concurrency) {
      const batch = this.pickBatch();
      if (batch.length === 0) return;
      const capProblem = this.capProblem(batch);
      if (capProblem) {
        this.pauseReason = capProblem;
        return;
      }
      store.markSending(this.jobId, batch.map((i) => i.seq));
      const id = ++this.batchCounter;
      const keys = batch.map(itemKey);
      for (const k of keys) this.inFlightKeys.add(k);
      const p = this.send(batch).finally(() => {
        for (const k of keys) this.inFlightKeys.delete(k);
        this.inFlight.delete(id);
      });
      this.inFlight.set(id, p);
    }
  }

  private pickBatch(): ItemRow[] {
    const { store } = this.deps;
    const candidates = store.sendable(this.jobId, Date.now(), Math.max(500, this.settings.batchSize * 10));
    if (candidates.length === 0) return [];
    const busy = store.busyKeys(this.jobId);
    for (const k of this.inFlightKeys) busy.add(k);
    const batch: ItemRow[] = [];
    for (const item of candidates) {
      const key = itemKey(item);
      if (busy.has(key)) continue;
      if (item.solo) {
        if (batch.length === 0) return [item];
        continue;
      }
      batch.push(item);
      busy.add(key);
      if (batch.length >= (this.vendingKind ? 1 : this.settings.batchSize)) break;
    }
    return batch;
  }

  private capProblem(batch: ItemRow[]): string | null {
    const { store } = this.deps;
    // The caps limit bulk jobs; a single purchase is confirmed on its own.
    if (this.job.origin === 'single') return null;
    const batchKobo = batch.reduce((s, i) => s + i.amount_kobo, 0);
    const fmt = (k: number) => `₦${(k / 100).toLocaleString('en-NG', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
    // Settings may have changed since the job was confirmed.
    this.settings = this.deps.settings();
    const { capPerJobKobo, capPerDayKobo } = this.settings;
    if (capPerJobKobo !== null) {
      const a = store.amounts(this.jobId);
      const committed = a.sending + a.accepted + a.uncertain + a.success + a.pending;
      if (committed + batchKobo > capPerJobKobo) {
        return `Paused: sending more would take this job past its spending cap of ${fmt(capPerJobKobo)} (${fmt(committed)} committed so far). Raise the cap per job (Purchases → Limits for bulk jobs), then resume.`;
      }
    }
    if (capPerDayKobo !== null) {
      const today = store.spentSince(this.job.profile_id, startOfLocalDay());
      if (today + batchKobo > capPerDayKobo) {
        return `Paused: the daily spending cap of ${fmt(capPerDayKobo)} is reached (${fmt(today)} spent on bulk jobs today). Resume tomorrow, or raise the daily cap (Purchases → Limits for bulk jobs) and resume.`;
      }
    }
    return null;
  }

  /** The items of a batch `beforeSend` lets go; when it cannot answer, none go and the job pauses. */
  private async allowedToSend(batch: ItemRow[]): Promise<ItemRow[]> {
    if (!this.deps.beforeSend) return batch;
    try {
      const allowed = await this.deps.beforeSend(batch);
      if (allowed.length < batch.length) this.emit(false);
      return allowed;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.deps.store.transition(this.jobId, batch.map((i) => i.seq), 'queued', { reason: null }, ['sending']);
      this.pauseReason = `Paused: ${message} Nothing was sent; resume the job once that is fixed.`;
      return [];
    }
  }

  /** The kind when the job buys electricity or cable through the purchases module, else null. */
  private get vendingKind(): VendingJobKind | null {
    return isVendingKind(this.job.kind) ? this.job.kind : null;
  }

  private async send(all: ItemRow[]): Promise<void> {
    const { store } = this.deps;
    const batch = await this.allowedToSend(all);
    if (batch.length === 0) return;
    const seqs = batch.map((i) => i.seq);
    if (this.vendingKind) {
      try {
        await this.sendVending(this.vendingKind, batch[0]);
      } finally {
        this.emit(false);
      }
      return;
    }
    try {
      const client = this.deps.client();
      const result =
        this.job.kind === 'airtime'
          ? await client.purchaseAirtime(batch.map(toAirtimeItem))
          : await client.purchaseData(batch.map(toDataItem));
      if (result.kind === 'success') {
        const refs = result.data.references;
        if (refs.length !== batch.length || refs.some((r) => typeof r !== 'string' || r === '')) {
          store.transition(this.jobId, seqs, 'uncertain', { reason: `The service accepted the batch but gave ${refs.length} reference(s) for ${batch.length} item(s); each item is checked against the log` }, ['sending']);
          return;
        }
        store.markAccepted(
          this.jobId,
          batch.map((item, i) => ({ seq: item.seq, reference: refs[i] })),
          result.voucherDropped ? 'Sent without its voucher code after the voucher server was unavailable' : null,
        );
        this.unavailableRounds = 0;
        this.lastAcceptedAt = Date.now();
      } else if (result.kind === 'pending') {
        store.transition(this.jobId, seqs, 'uncertain', { reason: 'The service answered "pending" without item references; each item is checked against the log' }, ['sending']);
      } else {
        this.refused(batch, result.reason || 'refused by the service', 'refused');
      }
    } catch (error) {
      this.handleError(batch, error);
    } finally {
      this.emit(false);
    }
  }

  private handleError(batch: ItemRow[], error: unknown): void {
    const { store } = this.deps;
    const seqs = batch.map((i) => i.seq);
    if (error instanceof RequestCancelledError) {
      store.transition(this.jobId, seqs, 'queued', {}, ['sending']);
      return;
    }
    if (error instanceof UncertainOutcomeError) {
      store.transition(this.jobId, seqs, 'uncertain', { reason: `${error.message} vendesk checks the service log before sending it again.` }, ['sending']);
      return;
    }
    if (error instanceof ServiceError) {
      const reason = error.reason || error.message;
      switch (error.action) {
        case 'retry_later': {
          this.unavailableRounds++;
          const delay = Math.min(60_000, this.timing.backoffBaseMs * 2 ** (this.unavailableRounds - 1));
          store.transition(this.jobId, seqs, 'queued', { reason: `Vending was temporarily unavailable (${reason}); sent again automatically`, notBeforeMs: Date.now() + delay }, ['sending']);
          if (this.unavailableRounds >= MAX_UNAVAILABLE_ROUNDS) {
            this.pauseReason = `Paused: ${this.job.kind} vending stayed unavailable after ${MAX_UNAVAILABLE_ROUNDS} tries (${reason}). Nothing was charged for the waiting items. Resume in a few minutes.`;
          }
          return;
        }
        case 'fix_input':
        case 'configuration':
          this.refused(batch, reason, error.action);
          return;
        case 'do_not_resend':
          if (batch.length > 1) {
            store.transition(this.jobId, seqs, 'queued', { solo: true, reason: null }, ['sending']);
          } else {
            const item = batch[0];
            if (item.holds + 1 >= MAX_HOLDS) {
              store.transition(this.jobId, seqs, 'rejected', { reason: `Another purchase of the same amount for ${item.phone} stayed in progress at the service, so this one was not sent (nothing was charged for it). Buy it again later if it is still wanted.`, final: true }, ['sending']);
            } else {
              const delay = Math.min(60_000, this.timing.holdBaseMs * (item.holds + 1));
              store.transition(this.jobId, seqs, 'held', { hold: true, notBeforeMs: Date.now() + delay, reason: `Held: another purchase of the same amount for ${item.phone} is in progress at the service (${reason}); sent after it completes` }, ['sending']);
            }
          }
          return;
        case 'credentials':
          store.transition(this.jobId, seqs, 'queued', { reason: null }, ['sending']);
          this.pauseReason = `Paused: ${error.message} ${error.hint ?? ''}`.trim();
          return;
        default:
          break;
      }
    }
    // Anything else: the request may have left and been carried out.
    const message = error instanceof Error ? error.message : String(error);
    store.transition(this.jobId, seqs, 'uncertain', { reason: `The purchase request ended with an unexpected error (${message}); vendesk checks the service log before sending it again.` }, ['sending']);
  }

  /** The service refused the whole batch: nothing was charged. */
  private refused(batch: ItemRow[], reason: string, what: string): void {
    const { store } = this.deps;
    const seqs = batch.map((i) => i.seq);
    if (/insufficient balance|insufficient fund/i.test(reason)) {
      store.transition(this.jobId, seqs, 'queued', { reason: null }, ['sending']);
      this.pauseReason = `Paused: the wallet does not hold enough for the next items (${reason}). Top up the wallet, then resume the job.`;
      return;
    }
    if (batch.length > 1) {
      // All or nothing: send them one by one so each item gets its own answer.
      store.transition(this.jobId, seqs, 'queued', { solo: true, reason: null }, ['sending']);
      return;
    }
    const prefix = what === 'configuration' ? 'Not possible for this organisation' : 'Refused by the service';
    store.transition(this.jobId, seqs, 'rejected', { reason: `${prefix}: ${reason}. Nothing was charged.`, final: true }, ['sending']);
  }

  // ------------------------------------------------------------------ outcomes

  /** Reads the log for accepted items and records SUCCESS / FAILED and their cost; requeries overdue ones. */
  async pollOutcomes(): Promise<void> {
    const { store } = this.deps;
    if (this.vendingKind) {
      // Pending purchases are chased by the requery loop; the items follow their purchases.
      store.syncFromPurchases(this.jobId);
      return;
    }
    const accepted = store.items(this.jobId, { states: ['accepted'] });
    if (accepted.length === 0) return;
    await readOutcomes(this.deps.client(), store, this.job, accepted);
  }

  // ------------------------------------------------------------------ uncertain items

  /**
   * Settles uncertain items from the log. `waitForSafeDelay`: at the start of a run, wait until
   * every uncertain item is past its safe delay, so nothing is sent before they are settled.
   */
  async settleUncertain(waitForSafeDelay: boolean): Promise<void> {
    const { store } = this.deps;
    if (this.vendingKind) {
      await this.settleVendingUncertain(this.vendingKind);
      return;
    }
    const safeMs = this.settings.uncertainSafeDelaySeconds * 1000;
    for (;;) {
      const items = store.items(this.jobId, { states: ['uncertain'] });
      if (items.length === 0) return;
      const t = Date.now();
      const due = items.filter((i) => (i.sent_ms ?? 0) + safeMs <= t);
      for (const item of due) {
        if (this.stop === 'cancel') return;
        await this.settleOne(item);
      }
      if (!waitForSafeDelay) return;
      const waiting = store.items(this.jobId, { states: ['uncertain'] }).filter((i) => (i.sent_ms ?? 0) + safeMs > Date.now());
      if (waiting.length === 0) return;
      if (this.stop) return;
      const next = Math.min(...waiting.map((i) => (i.sent_ms ?? 0) + safeMs)) - Date.now();
      this.emit(true, `Waiting ${Math.ceil(Math.max(0, next) / 1000)} s before checking ${waiting.length} uncertain item(s) against the log`);
      await sleep(Math.max(50, Math.min(next, 1000)));
    }
  }

  private async settleOne(item: ItemRow): Promise<void> {
    const settled = await settleUncertainItem(this.deps.client(), this.deps.store, this.job, item, 'send_again');
    if (settled === 'accepted') this.lastAcceptedAt = Date.now();
  }

  // ------------------------------------------------------------------ electricity and cable

  /** Buys one electricity or cable item through the purchases module and mirrors the outcome. */
  private async sendVending(kind: VendingJobKind, item: ItemRow): Promise<void> {
    const { store } = this.deps;
    const vending = this.deps.vending;
    if (!vending) throw new Error('an electricity or cable job needs the purchases module');
    try {
      const purchaseId = await vending.buy(kind, item);
      store.linkPurchase(this.jobId, item.seq, purchaseId);
      this.afterPurchase(item);
      this.unavailableRounds = 0;
      return;
    } catch (error) {
      // The purchases module writes the purchase before sending and then never throws; be sure anyway.
      const current = store.item(this.jobId, item.seq) ?? item;
      const written = current.purchase_id ? { id: current.purchase_id } : store.findUnlinkedPurchase(kind, current);
      if (written) {
        store.linkPurchase(this.jobId, item.seq, written.id);
        await vending.settle(written.id);
        this.afterPurchase(item);
        return;
      }
      this.refusedBeforeCharge(item, error);
    }
  }

  /** The item follows its purchase; a purchase still without an answer makes the item uncertain. */
  private afterPurchase(item: ItemRow): void {
    const { store } = this.deps;
    store.syncFromPurchases(this.jobId);
    const now = store.item(this.jobId, item.seq);
    if (now?.state === 'sending') {
      store.transition(this.jobId, [item.seq], 'uncertain', { reason: 'Sent, but no answer came back; it may have been charged. vendesk settles it from the transaction log; it is never sent again.' }, ['sending']);
    }
    if (now?.state === 'rejected' && /insufficient balance|insufficient fund/i.test(now.reason ?? '')) {
      this.pauseReason = `Paused: the wallet does not hold enough for the next items (${now.reason}). Top up the wallet, then resume the job.`;
    }
  }

  /** No purchase was written for the item: nothing was sent or charged. */
  private refusedBeforeCharge(item: ItemRow, error: unknown): void {
    const { store } = this.deps;
    const seqs = [item.seq];
    if (error instanceof AppError && error.code === 'duplicate_pending') {
      if (item.holds + 1 >= MAX_HOLDS) {
        store.transition(this.jobId, seqs, 'rejected', { reason: `${error.message} This row was not bought (nothing was charged); buy it again once that purchase is settled.`, final: true }, ['sending']);
      } else {
        const delay = Math.min(60_000, this.timing.holdBaseMs * (item.holds + 1));
        store.transition(this.jobId, seqs, 'held', { hold: true, notBeforeMs: Date.now() + delay, reason: `Held: ${error.message} Sent after it is settled.` }, ['sending']);
      }
      return;
    }
    const transient =
      error instanceof RequestCancelledError ||
      error instanceof UncertainOutcomeError ||
      (error instanceof ServiceError && error.action === 'retry_later') ||
      !(error instanceof AppError || (error instanceof Error && error.name === 'ZodError'));
    if (transient) {
      const message = error instanceof Error ? error.message : String(error);
      this.unavailableRounds++;
      const delay = Math.min(60_000, this.timing.backoffBaseMs * 2 ** (this.unavailableRounds - 1));
      store.transition(this.jobId, seqs, 'queued', { reason: `Could not be checked with the service yet (${message}); nothing was charged, tried again automatically`, notBeforeMs: Date.now() + delay }, ['sending']);
      if (this.unavailableRounds >= MAX_UNAVAILABLE_ROUNDS) {
        this.pauseReason = `Paused: ${this.job.kind} vending stayed unavailable after ${MAX_UNAVAILABLE_ROUNDS} tries (${message}). Nothing was charged for the waiting items. Resume in a few minutes.`;
      }
      return;
    }
    if (error instanceof ServiceError && error.action === 'credentials') {
      store.transition(this.jobId, seqs, 'queued', { reason: null }, ['sending']);
      this.pauseReason = `Paused: ${error.message} ${error.hint ?? ''}`.trim();
      return;
    }
    const reason = error instanceof AppError ? `${error.message}${error.hint ? ` ${error.hint}` : ''}` : error instanceof Error ? error.message : String(error);
    store.transition(this.jobId, seqs, 'rejected', { reason: /nothing was charged/i.test(reason) ? reason : `${reason} Nothing was charged.`, final: true }, ['sending']);
  }

  /**
   * Items left `sending` or `uncertain`: no purchase written means never sent (queued again);
   * otherwise the purchase is settled by the purchases module and the item follows it.
   */
  private async settleVendingUncertain(kind: VendingJobKind): Promise<void> {
    const { store } = this.deps;
    const vending = this.deps.vending;
    if (!vending) return;
    for (const item of store.items(this.jobId, { states: ['uncertain'] })) {
      if (this.stop === 'cancel') return;
      const purchase = item.purchase_id ? { id: item.purchase_id } : store.findUnlinkedPurchase(kind, item);
      if (!purchase) {
        store.transition(this.jobId, [item.seq], 'queued', { reason: null, settledBy: 'no purchase was written for it, so it was never sent; sent again' }, ['uncertain']);
        continue;
      }
      store.linkPurchase(this.jobId, item.seq, purchase.id);
      await vending.settle(purchase.id);
      store.syncFromPurchases(this.jobId);
    }
  }

  // ------------------------------------------------------------------ progress

  private emit(force: boolean, message?: string, state?: JobState): void {
    const t = Date.now();
    if (!force && t - this.lastEmit < 200) return;
    this.lastEmit = t;
    const counts = this.deps.store.counts(this.jobId);
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

function toAirtimeItem(item: ItemRow): AirtimeItem {
  return {
    amount: item.amount_kobo / 100,
    phoneNumber: item.phone,
    network: item.network,
    productCode: item.product_code,
    ...(item.voucher_code ? { voucherCode: item.voucher_code } : {}),
    operator: item.operator,
    region: item.region,
  };
}

function toDataItem(item: ItemRow): DataItem {
  return {
    phoneNumber: item.phone,
    productCode: item.product_code,
    network: item.network,
    ...(item.voucher_code ? { voucherCode: item.voucher_code } : {}),
    amount: item.amount_kobo / 100,
    ...(item.data_value !== null ? { dataValue: item.data_value } : {}),
  };
}

export type { JobRow };
