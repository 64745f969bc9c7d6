/**
 * The bulk purchase service of one app: prepares jobs from spreadsheets, confirms them against
 * the spending caps (and the typed total on a LIVE connection), runs them, and settles items by
 * hand when the log cannot. Built once per app with `app.service(createBulkService)`.
 *
 * It holds what runs and follows jobs, and the upload each draft was read from (web shell: kept
 * while the draft may be read again with another column mapping, deleted once it is confirmed or
 * discarded); the rest is in files named for it: draftFromFile, draftPreview, bulkSettings (the
 * limits), settleByHand, jobViews, and jobStore (which also says which jobs a connection may read).
 */
import { mirrorLogPage } from '../transactions/mirrorRefresh';
import { observingLogReads } from '../api/logLookup';
import { approvalBegun, teamGate } from './teamGate';
import { AppError } from '../../shared/appError';
import type { BulkItemView, BulkJobView, BulkPreview, BulkSettingsView, BulkValidation } from '../../shared/contract/bulk';
import { formatNaira, nairaToKobo, parseNairaText } from '../../shared/money';
import type { FileRef } from '../../shared/contract/files';
import type { App, Session } from '../appContext';
import { releaseUpload } from '../files';
import { confirmLimits, readBulkSettings, readWalletKobo, writeBulkSettings, type BulkSettings } from './bulkSettings';
import { draftPreview, type CatalogPercentage } from './draftPreview';
import { createVendingCatalogs } from '../purchases';
import { prepareDraft, validateFile, type FileCheckInput, type PrepareInput } from './draftFromFile';
import { settleByHand, type HandResolution } from './settleByHand';
import { type Invalidate, jobsChanged } from './jobEvents';
import { followUpJob, settleJobState } from './jobFollowUp';
import { requeryDueAt, requeryItem, type RequeryOutcome } from './itemOutcomes';
import { JobRunner, pidAlive, runningElsewhere, type RunnerTiming, type RunStart, DEFAULT_TIMING } from './jobRunner';
import { connectionProblem, JobStore, type InvalidRowRecord, type JobRow, type NewJob } from './jobStore';
import type { DueRequery, NewItem } from './jobRows';
import { itemView, jobView } from './jobViews';
import type { ItemState } from './jobStates';
import { ITEM_STATES, isUnconfirmed, isVendingKind, settledMessage } from './jobStates';
import { createVendingBuyer, itemFromPurchase, type VendingBuyer } from './vendingItems';
import { createServiceClock } from '../api/serviceClock';
import { exportJobResults } from './exportResults';
import { freshCatalog } from '../catalog/catalogCache';

/** Between two looks at a finished job's items whose wallet cost the log did not show. */
const COST_LOOKUP_EVERY_MS = 10 * 60_000;
/** The loop looks up unknown costs of jobs finished in the last this many days. */
const COST_LOOKUP_DAYS = 7;

export class BulkService {
  readonly store: JobStore;
  /** The upload each draft was read from (web shell), by job. */
  private readonly uploads = new Map<string, FileRef>();
  private readonly runners = new Map<string, { runner: JobRunner; done: Promise<void> }>();
  /** Follow-ups in progress, one per job. */
  private readonly following = new Map<string, Promise<number>>();
  private readonly lastCostLookup = new Map<string, number>();
  /** Tests may shorten the runner's timing. */
  timing: RunnerTiming = DEFAULT_TIMING;
  /** The service's clock, on which jobs store when items were sent; tests may move it. */
  now: () => number;
  /** Background changes to jobs reach the windows through App.invalidate. */
  private readonly invalidate: Invalidate = (topics, reason) => this.app.invalidate(topics, reason);

  constructor(private readonly app: App) {
    this.store = new JobStore(app.db);
    this.now = app.service(createServiceClock).now;
    // Files checked but never confirmed (nothing was bought) are forgotten after a week.
    this.store.deleteStaleDrafts(new Date(Date.now() - 7 * 24 * 3600_000).toISOString());
    app.onClose(async () => {
      for (const { runner } of this.runners.values()) runner.requestStop('pause');
      await Promise.allSettled([...this.runners.values()].map((r) => r.done));
    });
  }

  // ------------------------------------------------------------------ preparing

  validateOnly(input: FileCheckInput): Promise<BulkValidation> {
    return validateFile(this.app, this.store, input);
  }

  /** `signal` stops reading a large file; nothing is written when it is aborted before the draft. */
  async prepare(input: PrepareInput, options: { signal?: AbortSignal } = {}): Promise<BulkPreview> {
    const { jobId, sheetNames, remembered } = await prepareDraft(this.app, this.store, input, this.settingsView(), options.signal);
    this.keepUpload(jobId, input.file, input.replaceJobId);
    return this.preview(jobId, { sheetNames, remembered });
  }

  async preview(jobId: string, extra: { sheetNames?: string[]; remembered?: boolean } = {}): Promise<BulkPreview> {
    const job = this.own(jobId);
    const catalogPercentage = await this.catalogPercentages(job.kind);
    const wallet = await readWalletKobo(this.app.client());
    // The service's clock once the wallet answered: today's spending is of its Lagos day.
    return draftPreview(this.store, job, this.view(job), this.settingsView(), wallet, { ...extra, catalogPercentage, serviceNowMs: this.now() });
  }

  /** Electricity and cable: the catalog's commission rates, for the expected wallet cost where the log has none. */
  private async catalogPercentages(kind: JobRow['kind']): Promise<CatalogPercentage | undefined> {
    try {
      if (kind === 'electricity') {
        const discos = await this.app.service(createVendingCatalogs).electricity();
        return (network) => discos.find((d) => d.productCode === network)?.percentage;
      }
      if (kind === 'cable') {
        const bouquets = await this.app.service(createVendingCatalogs).cable();
        return (network, code) => bouquets.find((b) => b.network.toUpperCase() === network.toUpperCase() && b.productCode === code)?.percentage;
      }
    } catch {
      // The catalog cannot be read now: the log's rates alone make the estimate.
    }
    return undefined;
  }

  setIncluded(jobId: string, seqs: number[], include: boolean): Promise<BulkPreview> {
    this.store.ownDraft(jobId, this.app.connection);
    this.store.setIncluded(jobId, seqs, include);
    return this.preview(jobId);
  }

  async setNetwork(jobId: string, seqs: number[], use: 'file' | 'prefix'): Promise<BulkPreview> {
    const job = this.store.ownDraft(jobId, this.app.connection);
    if (job.kind !== 'airtime') {
      throw new AppError(
        'network_fixed_by_plan',
        'A data plan belongs to one network, so the network cannot be switched here.',
        'Put a plan of the right network in the file, or leave the row out.',
      );
    }
    const catalog = await freshCatalog(this.app, 'airtime');
    for (const seq of seqs) {
      const item = this.store.item(jobId, seq);
      if (!item || !item.given_network || !item.prefix_network) continue;
      const network = use === 'file' ? item.given_network : item.prefix_network;
      const product = catalog.find((p) => p.network === network);
      if (!product) throw new AppError('no_airtime_product', `The airtime catalog has no product for ${network}.`, 'Refresh the catalog, or leave the row out.');
      if (item.amount_kobo < Math.max(10_000, nairaToKobo(product.minAmount)) || (product.maxAmount > 0 && item.amount_kobo > nairaToKobo(product.maxAmount))) {
        throw new AppError(
          'amount_out_of_range',
          `Row ${item.row_number}: ${formatNaira(item.amount_kobo)} is outside the ${network} airtime range (${formatNaira(nairaToKobo(product.minAmount))} to ${formatNaira(nairaToKobo(product.maxAmount))}).`,
          'Keep the other network or leave the row out.',
        );
      }
      this.store.setNetwork(jobId, seq, { network, productCode: product.productCode, voucherCode: product.voucherCode, operator: product.operator, region: product.region });
    }
    return this.preview(jobId);
  }

  async discard(jobId: string): Promise<{ deleted: true }> {
    this.store.ownUnconfirmed(jobId, this.app.connection);
    await this.app.service(teamGate).cancelSentForApproval(jobId);
    this.store.deleteJob(jobId);
    this.releaseUpload(jobId);
    return { deleted: true };
  }

  // ------------------------------------------------------------------ running

  /**
   * Confirms a draft and starts it. The job is read once, and its row, totals and settings go
   * along: the gate, the caps, the confirming write and the runner take them, none reads the job
   * again. A LIVE job needs the typed total (or a team member's approval); nothing is bought while
   * anything refuses it. In a team, a LIVE job is sent for approval first: it answers in the state
   * `awaiting_approval`, and is confirmed from there once another member approved it.
   */
  async confirm(input: { jobId: string; typedTotal?: string; maxTotalKobo?: number; wait: boolean }): Promise<BulkJobView> {
    const session = this.app.session();
    const { job, totals } = this.store.draftToConfirm(input.jobId, session.connection);
    // Team workspace: a LIVE job waits for another member's approval.
    const team = await this.app.service(teamGate).approvalFor(this.store, job, totals);
    if (team.status === 'waiting') {
      this.store.setJobMessage(job.id, team.message);
      return this.status(job.id);
    }
    if (team.status !== 'approved' && (job.connection_kind === 'live' || session.connection.kind === 'live')) {
      const typed = input.typedTotal === undefined ? null : parseNairaText(input.typedTotal);
      if (!typed?.ok || typed.kobo !== totals.totalKobo) {
        throw new AppError(
          'confirmation_mismatch',
          input.typedTotal === undefined
            ? `This is a LIVE connection: real money is spent. Type the job total (${formatNaira(totals.totalKobo)}) to confirm.`
            : `The total you typed (${input.typedTotal}) is not the job total (${formatNaira(totals.totalKobo)}). Nothing was bought.`,
          'Type the total exactly as shown, then confirm again.',
        );
      }
    }
    const { settings, walletKobo, blocker } = await confirmLimits(this.app.settings, this.store, session.client, job, { ...totals, maxTotalKobo: input.maxTotalKobo }, this.now);
    if (blocker) throw new AppError('job_refused', `${blocker} Nothing was bought.`, 'Change the job or the settings, then confirm again.');
    if (team.status === 'unsent') {
      await team.submit({ ...totals, walletKobo });
      return this.status(job.id);
    }
    // Checked on the connection in use now (the team and the wallet answered meanwhile): it runs there or not at all.
    if (!this.store.confirmJob(job.id, { tuning: settings, onlyOn: { job, connection: this.app.connection } })) {
      throw new AppError('job_not_draft', 'This job was already confirmed.', 'Open it from the job list to follow its progress.');
    }
    this.releaseUpload(job.id);
    const done = this.start({ ...job, state: 'running', batch_size: settings.batchSize, concurrency: settings.concurrency }, { session, settings });
    return this.answerRun(job.id, done, input.wait);
  }

  async resume(jobId: string, wait: boolean): Promise<BulkJobView> {
    const job = this.own(jobId);
    // A single purchase stopped before it was sent is never sent later: nobody asked to buy it later.
    if (job.origin === 'single') throw new AppError('job_not_found', `${jobId} is a single purchase, not a bulk job; it is not resumed.`, 'Buy it again if it is still wanted.');
    if (job.state === 'awaiting_approval') return this.confirm({ jobId, wait });
    if (job.state === 'draft') throw new AppError('job_not_confirmed', 'This job has not been confirmed yet.', 'Check the preview and confirm it.');
    if (this.runners.has(jobId)) {
      if (wait) await this.runners.get(jobId)?.done;
      return this.status(jobId);
    }
    this.checkConnection(job);
    // A finished or cancelled job sends nothing more: its open items are asked about (log, then
    // requery). A cancelled job keeps its unsent items cancelled.
    if (job.state === 'completed' || job.state === 'cancelled') return this.checkAgain(jobId);
    const c = this.store.counts(jobId);
    if (job.state !== 'running' && job.state !== 'paused' && c.queued + c.held + c.pending + c.uncertain + c.sending + c.accepted === 0) {
      return this.status(jobId);
    }
    if (c.pending > 0 && !isVendingKind(job.kind))
      this.store.transition(
        jobId,
        this.store.items(jobId, { states: ['pending'] }).map((i) => i.seq),
        'accepted',
        {},
        ['pending'],
      );
    return this.answerRun(jobId, this.start(job), wait);
  }

  /**
   * Asks the service now about a job that is not sending: its accepted and pending items (log,
   * then requery when due), the uncertain items of a cancelled job (log; never sent again), and
   * the wallet cost of what was bought. A job running here or in another vendesk is left to its
   * runner, which reads the same.
   */
  async checkAgain(jobId: string): Promise<BulkJobView> {
    const job = this.own(jobId);
    if (isUnconfirmed(job.state)) return this.status(jobId); // nothing was sent: nothing to ask about
    this.checkConnection(job);
    if (!this.runningAnywhere(job)) {
      this.lastCostLookup.set(jobId, Date.now());
      await this.followUp(job, true, true);
    }
    return this.status(jobId);
  }

  /**
   * One pass of the follow-up loop: every job of the connection in use that is not running and
   * still has something to learn from the service. Wallet costs the log did not show are looked
   * up again at most every 10 minutes per job, for jobs of the last 7 days (older ones on
   * Check again).
   */
  async followUpAll(): Promise<void> {
    const recent = new Date(Date.now() - COST_LOOKUP_DAYS * 86_400_000).toISOString();
    for (const job of this.store.jobsToFollow(this.app.connection.profileId)) {
      if (this.runningAnywhere(job) || connectionProblem(job, this.app.connection)) continue;
      const last = this.lastCostLookup.get(job.id) ?? 0;
      const costs = (job.finished_at ?? job.created_at) >= recent && Date.now() - last >= COST_LOOKUP_EVERY_MS;
      if (costs) this.lastCostLookup.set(job.id, Date.now());
      await this.followUp(job, costs);
    }
  }

  /**
   * One follow-up of a job at a time; tells the windows when items changed. The loop joins one
   * already under way; `fresh` (Check again) waits for it, then looks again.
   */
  private async followUp(job: JobRow, costs: boolean, fresh = false): Promise<number> {
    const current = this.following.get(job.id);
    if (current) {
      const changed = await current.catch(() => 0);
      if (!fresh) return changed;
    }
    const settings = this.settingsFor(job);
    const run = followUpJob(
      { store: this.store, client: this.logReadingClient(), uncertainSafeDelayMs: settings.uncertainSafeDelaySeconds * 1000, now: this.now },
      this.own(job.id),
      // "Check again" also asks about what is due for a requery; the loop's passes leave it to the requery loop.
      { costs, requery: fresh },
    ).finally(() => {
      if (this.following.get(job.id) === run) this.following.delete(job.id);
    });
    this.following.set(job.id, run);
    const changed = await run;
    if (changed > 0) jobsChanged(this.invalidate);
    if (changed > 0) await this.app.service(teamGate).reportOutcomes(this.store, job.id);
    return changed;
  }

  /**
   * What the requery loop asks about now, on the connection in use, whatever it buys
   * (`JobStore.dueForRequery`), one at a time (`requeryDue`).
   */
  dueForRequery(): DueRequery[] {
    const now = this.now();
    return this.store.dueForRequery(this.app.connection.profileId, now, Date.now()).filter((due) => {
      if (due.purchase) return true; // due by its purchase
      const at = requeryDueAt(due.item);
      return at !== null && at <= now && !this.runningAnywhere(due.job);
    });
  }

  /**
   * The requery loop asks about one thing (`requeryItem`, the one requery path). An airtime or
   * data item's job then says where it stands, and the windows and the team hear of a change; an
   * electricity or cable item follows its purchase in the purchase's own write. Returns whether it
   * changed.
   */
  async requeryDue(due: DueRequery): Promise<RequeryOutcome> {
    // One connection for the whole ask: a switch meanwhile never sends this item's reference to
    // another service (a purchase's own writer checks the same).
    const session = this.app.session();
    const problem = due.purchase === null ? connectionProblem(due.job, session.connection) : null;
    if (problem) return { changed: false, said: null, note: problem.message };
    const outcome = await requeryItem({ app: this.app, store: this.store, client: () => this.logReadingClient(session) }, due, this.now());
    if (outcome.changed && due.purchase === null) {
      settleJobState(this.store, due.job.id);
      jobsChanged(this.invalidate);
      await this.app.service(teamGate).reportOutcomes(this.store, due.job.id);
    }
    return outcome;
  }

  /**
   * vendesk's own airtime or data item the service knows by `reference`, on the connection in use,
   * asked about now through the one requery path (`requeryDue`), whatever its schedule: Reconcile's
   * "Requery all pending" (through the requery loop's queue, `pending/requeryOwnTopUp`). Null when
   * vendesk bought nothing with that reference. A settled item is not asked about (vendesk's record
   * says it), nor one whose job runs (the run asks about its own) or that is being settled from the
   * log (uncertain).
   */
  async requeryTopUpNow(reference: string): Promise<RequeryOutcome | null> {
    const found = this.store.topUpByReference(this.app.connection.profileId, reference);
    if (!found) return null;
    const { job, item } = found;
    if (item.state === 'success' || item.state === 'failed') return { changed: false, said: item.state === 'success' ? 'SUCCESS' : 'FAILED', note: null };
    if (item.state !== 'accepted' && item.state !== 'pending')
      return { changed: false, said: null, note: `vendesk's record of it is ${item.state}; it is settled from the service's log` };
    if (this.runningAnywhere(job)) return { changed: false, said: null, note: 'its bulk job is running and asks the service about it itself' };
    return this.requeryDue({ purchase: null, job, item });
  }

  /** Runs in this process, or in another live vendesk that holds its lease. */
  private runningAnywhere(job: JobRow): boolean {
    return this.runners.has(job.id) || this.heldElsewhere(job);
  }

  private heldElsewhere(job: JobRow): boolean {
    return job.runner_pid !== null && job.runner_pid !== process.pid && (job.lease_until_ms ?? 0) > Date.now() && pidAlive(job.runner_pid);
  }

  /**
   * The connection's client, whose reads of the log (each batch's outcomes, by reference) are
   * written into the mirror at once: Spent today follows every batch, not the next sync.
   */
  private logReadingClient(session = this.app.session()) {
    return observingLogReads(session.client, (page) => mirrorLogPage(this.app, session, page, 'a bulk job read its purchases in the log'));
  }

  /**
   * Runs `job` (as its caller just read it) in this process, once it holds the job's lease. The
   * runner is handed what it uses, none of it a way back into this service: the store, the
   * settings of the job's connection, the client of that connection pinned for the run, the
   * service's clock and the team's claim before each batch. Resolves when the run has ended.
   */
  private start(job: JobRow, given: RunGiven & { settings?: BulkSettings } = {}): Promise<void> {
    const jobId = job.id;
    const session = given.session ?? this.app.session();
    // The team claims a file's rows as they go and hears their outcomes; a single purchase passed its gate before its job was written.
    const fileJob = job.origin === 'file';
    const beforeSend = fileJob ? this.app.service(teamGate).claimBeforeSend(this.store, job, session.client) : undefined;
    const begun = given.begun ?? this.beginRun(jobId);
    const runner = new JobRunner(
      {
        store: this.store,
        settings: given.settings ?? this.settingsFor(job),
        settingsTable: this.app.settings,
        events: this.app.events,
        // A run nobody sees as a job tells the windows nothing: the operation that bought it says what changed.
        invalidate: given.quiet ? () => undefined : this.invalidate,
        client: this.logReadingClient(session),
        now: this.now,
        app: this.app,
        vending: () => given.vending ?? createVendingBuyer(this.app),
        beforeSend,
      },
      job,
      this.timing,
    );
    const done = runner
      .run(begun)
      .then(() => undefined)
      .catch((error: unknown) => {
        const message = error instanceof Error ? error.message : String(error);
        this.store.setJobState(jobId, 'paused', `Stopped by an error: ${message} Resume the job to continue; nothing is sent twice.`);
        jobsChanged(this.invalidate);
      })
      .then(() => (fileJob ? this.app.service(teamGate).reportOutcomes(this.store, jobId) : undefined))
      .finally(() => this.runners.delete(jobId));
    // The windows learn that it runs from the operation that started it (bulk.confirm and
    // bulk.resume invalidate `jobs`; a single purchase says so itself), and from its progress.
    this.runners.set(jobId, { runner, done });
    return done;
  }

  /** What `bulk.confirm` and `bulk.resume` answer with a run they started: the job now, or once the run ended (`wait`). */
  private answerRun(jobId: string, done: Promise<void>, wait: boolean): Promise<BulkJobView> | BulkJobView {
    return wait ? done.then(() => this.status(jobId)) : this.status(jobId);
  }

  /** This process takes the job's lease and the job is `running` (`JobStore.beginRun`); refused while another live process runs it. */
  private beginRun(jobId: string): RunStart {
    const begun = this.store.beginRun(jobId, { pid: process.pid, leaseMs: this.timing.leaseMs, isAlive: pidAlive });
    if (!begun.ok) throw runningElsewhere(begun.holder);
    return begun;
  }

  /**
   * A single purchase's job, just written in its caller's transaction, is confirmed and its run
   * begun in that same transaction: one commit before it is sent. Its caller runs it with
   * `runConfirmed(jobId, { begun })`.
   */
  confirmSingle(jobId: string): RunStart {
    return this.store.beginSingleRun(jobId, process.pid, this.timing.leaseMs);
  }

  /**
   * A job whose rows its caller gives (a standing order's occurrence, `standing/`): made, confirmed
   * and begun by this process in one write — its caller's transaction, in which the occurrence is
   * claimed too. No typed total: the order's confirmation stands for it; its caller checked the
   * limits first. Its rows that wait are kept as the job's rows not bought (`invalid`). Run it with
   * `runConfirmed(jobId, { begun })`.
   */
  beginGivenJob(job: Omit<NewJob, 'batchSize' | 'concurrency'>, items: Iterable<NewItem>, invalid: InvalidRowRecord[]): { jobId: string; begun: RunStart } {
    const settings = readBulkSettings(this.app.settings, job.profileId);
    const jobId = this.store.createJob({ ...job, batchSize: settings.batchSize, concurrency: settings.concurrency }, items, invalid);
    if (!this.store.confirmJob(jobId, { tuning: settings })) throw new Error(`bulk job ${jobId} was not a new draft`);
    return { jobId, begun: this.beginRun(jobId) };
  }

  /**
   * An approved single purchase's waiting job, begun from `awaiting_approval` with its item as
   * checked just now (`JobStore.beginApprovedSingle`); refused when another attempt began it first.
   */
  confirmApprovedSingle(jobId: string, teamJobId: string, item: NewItem): RunStart {
    if (!this.store.beginApprovedSingle(jobId, item, process.pid, this.timing.leaseMs)) throw approvalBegun(teamJobId);
    return { recovered: 0, uncertain: 0 };
  }

  /**
   * Runs a job already confirmed in the store (a single purchase) and resolves with its row when
   * it has finished, whichever connection vendesk is on by then (it ran on its own).
   */
  async runConfirmed(jobId: string, given: RunGiven = {}): Promise<JobRow> {
    await this.start(this.own(jobId), given);
    const job = this.store.job(jobId);
    if (!job) throw new Error(`bulk job ${jobId} vanished while it ran`);
    return job;
  }

  pause(jobId: string): BulkJobView {
    const job = this.own(jobId);
    const running = this.runners.get(jobId);
    if (running) running.runner.requestStop('pause');
    else if (job.state === 'running') this.store.setJobState(jobId, 'paused', 'Paused: resume to send the remaining items.');
    return this.status(jobId);
  }

  async cancel(jobId: string): Promise<BulkJobView> {
    await this.cancelJob(this.own(jobId));
    return this.status(jobId);
  }

  /**
   * Cancels `job` (its caller read it, on any connection): unsent items are cancelled, and what
   * the service accepted before is followed to its outcome while vendesk is on the job's connection.
   */
  async cancelJob(job: JobRow): Promise<void> {
    const jobId = job.id;
    if (isUnconfirmed(job.state)) throw new AppError('job_not_confirmed', 'This job was never confirmed, so nothing was bought.', 'Discard it instead.');
    const running = this.runners.get(jobId);
    if (running) {
      running.runner.requestStop('cancel');
      await running.done;
    } else if (job.state === 'running' || job.state === 'paused') {
      const toCancel = this.store.items(jobId, { states: ['queued', 'held'] }).map((i) => i.seq);
      this.store.transition(jobId, toCancel, 'cancelled', { reason: 'The job was cancelled before this item was sent; nothing was charged for it' }, ['queued', 'held']);
      // Items caught sending by a vendesk that stopped may have been bought: the log settles them.
      if (!this.heldElsewhere(job)) this.store.sendingToUncertain(jobId);
      this.store.setJobState(jobId, 'cancelled', settledMessage('cancelled', this.store.counts(jobId)));
    }
    // What the service accepted before the cancel is followed to its outcome (and the loop keeps at it).
    const cancelled = this.store.job(jobId) ?? job;
    if (!this.runningAnywhere(cancelled) && !connectionProblem(cancelled, this.app.connection)) void this.followUp(cancelled, true).catch(() => undefined);
  }

  /** Resolves when the job is no longer running in this process. */
  async waitFor(jobId: string): Promise<BulkJobView> {
    await this.runners.get(jobId)?.done;
    return this.status(jobId);
  }

  resolveItems(jobId: string, seqs: number[], resolution: HandResolution, note: string | undefined): BulkJobView {
    settleByHand(this.store, this.own(jobId), seqs, resolution, note, this.runners.has(jobId));
    return this.status(jobId);
  }

  // ------------------------------------------------------------------ reading

  status(jobId: string): BulkJobView {
    this.syncVending(jobId);
    return this.view(this.own(jobId));
  }

  /** The recent jobs of the connection in use. */
  list(limit: number): BulkJobView[] {
    return this.store.listJobs(this.app.connection.profileId, limit).map((j) => {
      if (!isVendingKind(j.kind) || isUnconfirmed(j.state)) return this.view(j);
      this.syncVending(j.id);
      return this.view(this.own(j.id));
    });
  }

  /**
   * Electricity and cable items follow their purchases, which the requery loop, the log and the
   * Pending page keep settling after the job has finished. A job left needing attention only for
   * items that are now settled is finished.
   */
  private syncVending(jobId: string): void {
    const job = this.store.job(jobId);
    if (!job || !isVendingKind(job.kind) || isUnconfirmed(job.state)) return;
    const changed = this.store.syncFromPurchases(jobId, itemFromPurchase);
    if (changed === 0 || this.runners.has(jobId)) return;
    settleJobState(this.store, jobId);
    jobsChanged(this.invalidate);
  }

  items(jobId: string, offset: number, limit: number, states?: string[]): { total: number; items: BulkItemView[] } {
    this.own(jobId);
    this.syncVending(jobId);
    const wanted = states?.filter((s): s is ItemState => (ITEM_STATES as readonly string[]).includes(s));
    return {
      total: this.store.countItems(jobId, wanted),
      items: this.store.items(jobId, { states: wanted, offset, limit }).map(itemView),
    };
  }

  invalidRows(jobId: string, offset: number, limit: number) {
    this.own(jobId);
    return { total: this.store.invalidRowCount(jobId), rows: this.store.invalidRows(jobId, offset, limit).map(({ row, field, message }) => ({ row, field, message })) };
  }

  exportResults(jobId: string, format: 'xlsx' | 'csv') {
    this.syncVending(jobId);
    const job = this.own(jobId);
    return exportJobResults(this.app, this.store, job, this.view(job), format);
  }

  /** A job of the connection in use. */
  private own(jobId: string): JobRow {
    return this.store.ownJob(jobId, this.app.connection);
  }

  /** A job is sent to, and asked about at, only the service it was prepared for. */
  private checkConnection(job: JobRow): void {
    const problem = connectionProblem(job, this.app.connection);
    if (problem) throw problem;
  }

  /** Keeps the upload `jobId` was read from (web shell); the one of the draft it replaces is deleted, unless it is the same upload. */
  private keepUpload(jobId: string, file: FileRef, replaced: string | undefined): void {
    const previous = replaced === undefined ? undefined : this.uploads.get(replaced);
    if (replaced !== undefined) this.uploads.delete(replaced);
    const sameFile = previous !== undefined && 'uploadId' in previous && 'uploadId' in file && file.uploadId === previous.uploadId;
    if (previous && !sameFile) releaseUpload(this.app, previous);
    if ('uploadId' in file) this.uploads.set(jobId, file);
  }

  /** The job was confirmed or discarded: its upload is deleted. */
  private releaseUpload(jobId: string): void {
    const upload = this.uploads.get(jobId);
    this.uploads.delete(jobId);
    if (upload) releaseUpload(this.app, upload);
  }

  /** The bulk settings of the connection in use. */
  settingsView(): BulkSettingsView {
    return readBulkSettings(this.app.settings, this.app.connection.profileId);
  }

  /** The bulk settings of the connection a job was made on. */
  private settingsFor(job: JobRow): BulkSettings {
    return readBulkSettings(this.app.settings, job.profile_id);
  }

  /** Changes the bulk settings of the connection in use only. */
  updateSettings(patch: Partial<BulkSettingsView>): BulkSettingsView {
    return writeBulkSettings(this.app.settings, this.app.connection.profileId, patch);
  }

  view(job: JobRow): BulkJobView {
    return jobView(this.store, job, { active: this.runners.has(job.id), heldElsewhere: this.heldElsewhere(job), teamJobId: this.app.service(teamGate).teamJobIdOf(job.id) });
  }
}

export { itemView } from './jobViews';
export type { PrepareInput } from './draftFromFile';

/** What a run is given by who starts it, beside the job. */
interface RunGiven {
  /** The session it was checked on (else the one in use now). */
  session?: Session;
  /** Electricity and cable: the buyer of the purchase its caller checked (a single purchase). */
  vending?: VendingBuyer;
  /** A single electricity or cable purchase: no window shows it as a job, so the run tells them nothing. */
  quiet?: boolean;
  /** A single purchase's run, begun as its job was written (`confirmSingle`). */
  begun?: RunStart;
}

export function createBulkService(app: App): BulkService {
  return new BulkService(app);
}
