/**
 * The bulk purchase service of one app: prepares jobs from spreadsheets, confirms them against
 * the spending caps (and the typed total on a LIVE connection), runs them, and settles items by
 * hand when the log cannot. Built once per app with `app.service(createBulkService)`.
 *
 * It holds what runs and follows jobs, and the upload each draft was read from (web shell: kept
 * while the draft may be read again with another column mapping, deleted once it is confirmed or
 * discarded); the rest is in files named for it: draftFromFile, draftPreview, bulkSettings (the
 * limits), settleByHand, jobViews; what it reads of jobs in jobReads, their moves in jobLifecycle (which
 * also says which jobs a connection may read and send) and itemMoves.
 *
 * Longer than 400 lines on purpose: it is the bulk service's one door — every operation of the
 * bulk contract, and the runs and follow-ups it keeps, start here — and what each does beyond
 * choosing and ordering its steps is in the files named above.
 *
 * It never asks which connection is in use: every method is given the connection it works on (a
 * read: `Connection`) or the session it buys, settles or asks on (`Session`), taken by the handler
 * of its operation or the pass of its loop (docs/architecture.md, *What costs money takes its
 * connection*).
 */
import { mirrorLogPage } from '../transactions/mirrorRefresh';
import { observingLogReads } from '../api/logLookup';
import { approvalBegun, teamGate } from './teamGate';
import { AppError } from '../../shared/appError';
import type { BulkItemView, BulkJobView, BulkPreview, BulkSettingsView, BulkValidation } from '../../shared/contract/bulk';
import { formatNaira, parseNairaText } from '../../shared/money';
import type { FileRef } from '../../shared/contract/files';
import type { App, Connection, Session } from '../appContext';
import { releaseUpload } from '../files';
import { confirmLimits, readBulkSettings, writeBulkSettings, type BulkSettings } from './bulkSettings';
import { walletKoboOrProblem } from '../api/walletReading';
import { draftPreview, type CatalogPercentage } from './draftPreview';
import { prepareDraft, validateFile, type FileCheckInput, type PrepareInput } from './draftFromFile';
import { settleByHand, type HandResolution } from './settleByHand';
import { type Invalidate, jobsChanged } from './jobEvents';
import { followUpJob, settleJobState } from './jobFollowUp';
import { requeryDueAt, requeryItem, type RequeryOutcome } from './itemOutcomes';
import { JobRunner, pidAlive, runningElsewhere, type RunEnd, type RunnerTiming, DEFAULT_TIMING } from './jobRunner';
import { connectionProblem, jobParts, ownDraft, ownJob, ownUnconfirmed, type JobLifecycle, type JobParts, type Lease, type RunStart } from './jobLifecycle';
import type { JobReads } from './jobReads';
import type { ItemMoves } from './itemMoves';
import { teamJobs, type TeamJobs } from './teamJobs';
import type { DueRequery, InvalidRowRecord, JobRow, NewItem, NewJob } from './jobRows';
import { itemView, jobView } from './jobViews';
import type { ItemState } from './jobStates';
import { CANCELLED_UNSENT_REASON, ITEM_STATES, isUnconfirmed, isVendingKind, settledMessage } from './jobStates';
import { createVendingBuyer, itemFromPurchase, type VendingBuyer } from './vendingItems';
import { createServiceClock } from '../api/serviceClock';
import { exportJobResults } from './exportResults';
import { freshCatalog } from '../catalog/catalogCache';
import { airtimeKoboRange } from '../imports';

/** Between two looks at a finished job's items whose wallet cost the log did not show. */
const COST_LOOKUP_EVERY_MS = 10 * 60_000;
/** The loop looks up unknown costs of jobs finished in the last this many days. */
const COST_LOOKUP_DAYS = 7;

export class BulkService {
  /** What is read of jobs and items (on the read-only handle). */
  readonly reads: JobReads;
  /** Every move of an item's state. */
  readonly moves: ItemMoves;
  /** Every move of a job's state, its lease, and which connection it belongs to. */
  readonly lifecycle: JobLifecycle;
  /** What the team workspace may read and move (handed to the team's gate). */
  readonly teamJobs: TeamJobs;
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
    ({ reads: this.reads, moves: this.moves, lifecycle: this.lifecycle } = jobParts(app.db));
    this.teamJobs = teamJobs(this);
    this.now = app.service(createServiceClock).now;
    // Files checked but never confirmed (nothing was bought) are forgotten after a week.
    this.lifecycle.deleteStaleDrafts(new Date(Date.now() - 7 * 24 * 3600_000).toISOString());
    app.onClose(async () => {
      for (const { runner } of this.runners.values()) runner.requestStop('pause');
      await Promise.allSettled([...this.runners.values()].map((r) => r.done));
    });
  }

  // ------------------------------------------------------------------ preparing

  validateOnly(session: Session, input: FileCheckInput): Promise<BulkValidation> {
    return validateFile(this.app, session, this.reads, input);
  }

  /** `signal` stops reading a large file; nothing is written when it is aborted before the draft. */
  async prepare(session: Session, input: PrepareInput, options: { signal?: AbortSignal } = {}): Promise<BulkPreview> {
    const { jobId, sheetNames, remembered } = await prepareDraft(this.app, session, this.parts(), input, this.settingsView(session.connection), options.signal);
    this.keepUpload(jobId, input.file, input.replaceJobId);
    return this.preview(session, jobId, { sheetNames, remembered });
  }

  async preview(session: Session, jobId: string, extra: { sheetNames?: string[]; remembered?: boolean } = {}): Promise<BulkPreview> {
    const job = this.own(session.connection, jobId);
    const catalogPercentage = await this.catalogPercentages(session, job.kind);
    const wallet = await walletKoboOrProblem(session.client);
    // The service's clock once the wallet answered: today's spending is of its Lagos day.
    return draftPreview(this.reads, job, this.view(job), this.settingsView(session.connection), wallet, { ...extra, catalogPercentage, serviceNowMs: this.now() });
  }

  /** Electricity and cable: the catalog's commission rates, for the expected wallet cost where the log has none. */
  private async catalogPercentages(session: Session, kind: JobRow['kind']): Promise<CatalogPercentage | undefined> {
    try {
      if (kind === 'electricity') {
        const discos = await freshCatalog(this.app, session, 'electricity');
        return (network) => discos.find((d) => d.productCode === network)?.percentage;
      }
      if (kind === 'cable') {
        const bouquets = await freshCatalog(this.app, session, 'cable');
        return (network, code) => bouquets.find((b) => b.network.toUpperCase() === network.toUpperCase() && b.productCode === code)?.percentage;
      }
    } catch {
      // The catalog cannot be read now: the log's rates alone make the estimate.
    }
    return undefined;
  }

  setIncluded(session: Session, jobId: string, seqs: number[], include: boolean): Promise<BulkPreview> {
    this.ownDraft(session.connection, jobId);
    this.moves.setIncluded(jobId, seqs, include);
    return this.preview(session, jobId);
  }

  async setNetwork(session: Session, jobId: string, seqs: number[], use: 'file' | 'prefix'): Promise<BulkPreview> {
    const job = this.ownDraft(session.connection, jobId);
    if (job.kind !== 'airtime') {
      throw new AppError(
        'network_fixed_by_plan',
        'A data plan belongs to one network, so the network cannot be switched here.',
        'Put a plan of the right network in the file, or leave the row out.',
      );
    }
    const catalog = await freshCatalog(this.app, session, 'airtime');
    for (const seq of seqs) {
      const item = this.reads.item(jobId, seq);
      if (!item || !item.given_network || !item.prefix_network) continue;
      const network = use === 'file' ? item.given_network : item.prefix_network;
      const product = catalog.find((p) => p.network === network);
      if (!product) throw new AppError('no_airtime_product', `The airtime catalog has no product for ${network}.`, 'Refresh the catalog, or leave the row out.');
      // The one airtime range a row is checked against (validateItem.ts): the catalog's, never under ₦100.
      const [min, max] = airtimeKoboRange(product);
      if (item.amount_kobo < min || (max > 0 && item.amount_kobo > max)) {
        throw new AppError(
          'amount_out_of_range',
          `Row ${item.row_number}: ${formatNaira(item.amount_kobo)} is outside the ${network} airtime range (${formatNaira(min)} to ${formatNaira(max)}).`,
          'Keep the other network or leave the row out.',
        );
      }
      this.moves.setNetwork(jobId, seq, { network, productCode: product.productCode, voucherCode: product.voucherCode, operator: product.operator, region: product.region });
    }
    return this.preview(session, jobId);
  }

  async discard(connection: Connection, jobId: string): Promise<{ deleted: true }> {
    ownUnconfirmed(this.reads.job(jobId), jobId, connection);
    await this.app.service(teamGate).cancelSentForApproval(jobId);
    this.lifecycle.deleteJob(jobId);
    this.releaseUpload(jobId);
    return { deleted: true };
  }

  // ------------------------------------------------------------------ running

  /**
   * Confirms a draft and starts it. The job is read once, and its row, totals and settings go
   * along: the gate, the caps, the confirming write (which begins its run too) and the runner take
   * them, none reads the job again. A LIVE job needs the typed total (or a team member's approval); nothing is bought while
   * anything refuses it. In a team, a LIVE job is sent for approval first: it answers in the state
   * `awaiting_approval`, and is confirmed from there once another member approved it.
   */
  async confirm(session: Session, input: { jobId: string; typedTotal?: string; maxTotalKobo?: number; wait: boolean }): Promise<BulkJobView> {
    const { job, totals } = this.lifecycle.draftToConfirm(input.jobId, session.connection);
    // Team workspace: a LIVE job waits for another member's approval.
    const team = await this.app.service(teamGate).approvalFor(this.teamJobs, job, totals, session);
    if (team.status === 'waiting') {
      this.lifecycle.setJobMessage(job.id, team.message);
      return this.status(session.connection, job.id);
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
    const { settings, walletKobo, blocker } = await confirmLimits(this.app.settings, this.reads, session.client, job, { ...totals, maxTotalKobo: input.maxTotalKobo }, this.now);
    if (blocker) throw new AppError('job_refused', `${blocker} Nothing was bought.`, 'Change the job or the settings, then confirm again.');
    if (team.status === 'unsent') {
      await team.submit({ ...totals, walletKobo });
      return this.status(session.connection, job.id);
    }
    // Checked on the connection in use now (the team and the wallet answered meanwhile): it runs there or not at all.
    // Confirmed and begun in one statement: this process holds its lease from the confirming write on.
    // eslint-disable-next-line vendesk/pinned-connection -- the one look at the connection in use: has vendesk been switched away from the session since the team and the wallet were asked?
    const begun = this.lifecycle.confirm(job, this.app.connection, settings, this.lease());
    if (!begun) throw new AppError('job_not_draft', 'This job was already confirmed.', 'Open it from the job list to follow its progress.');
    this.releaseUpload(job.id);
    const done = this.start({ ...job, state: 'running', batch_size: settings.batchSize, concurrency: settings.concurrency }, { session, settings, begun });
    return this.answerRun(session.connection, job.id, done, input.wait);
  }

  async resume(session: Session, jobId: string, wait: boolean): Promise<BulkJobView> {
    const job = this.own(session.connection, jobId);
    // A single purchase stopped before it was sent is never sent later: nobody asked to buy it later.
    if (job.origin === 'single') throw new AppError('job_not_found', `${jobId} is a single purchase, not a bulk job; it is not resumed.`, 'Buy it again if it is still wanted.');
    if (job.state === 'awaiting_approval') return this.confirm(session, { jobId, wait });
    if (job.state === 'draft') throw new AppError('job_not_confirmed', 'This job has not been confirmed yet.', 'Check the preview and confirm it.');
    if (this.runners.has(jobId)) {
      if (wait) await this.runners.get(jobId)?.done;
      return this.status(session.connection, jobId);
    }
    checkConnection(job, session.connection);
    // A finished or cancelled job sends nothing more: its open items are asked about (log, then
    // requery). A cancelled job keeps its unsent items cancelled.
    if (job.state === 'completed' || job.state === 'cancelled') return this.checkAgain(session, jobId);
    const c = this.reads.counts(jobId);
    if (job.state !== 'running' && job.state !== 'paused' && c.queued + c.held + c.pending + c.uncertain + c.sending + c.accepted === 0) {
      return this.status(session.connection, jobId);
    }
    if (c.pending > 0 && !isVendingKind(job.kind))
      this.moves.reaccept(
        jobId,
        this.reads.items(jobId, { states: ['pending'] }).map((i) => i.seq),
      );
    return this.answerRun(session.connection, jobId, this.start(job, { session, settings: this.settingsFor(job) }), wait);
  }

  /**
   * Asks the service now about a job that is not sending: its accepted and pending items (log,
   * then requery when due), the uncertain items of a cancelled job (log; never sent again), and
   * the wallet cost of what was bought. A job running here or in another vendesk is left to its
   * runner, which reads the same.
   */
  async checkAgain(session: Session, jobId: string): Promise<BulkJobView> {
    const job = this.own(session.connection, jobId);
    if (isUnconfirmed(job.state)) return this.status(session.connection, jobId); // nothing was sent: nothing to ask about
    checkConnection(job, session.connection);
    if (!this.runningAnywhere(job)) {
      this.lastCostLookup.set(jobId, Date.now());
      await this.followUp(session, job, true, true);
    }
    return this.status(session.connection, jobId);
  }

  /**
   * One pass of the follow-up loop, on `session`: every job of its connection that is not running
   * and still has something to learn from the service. Wallet costs the log did not show are
   * looked up again at most every 10 minutes per job, for jobs of the last 7 days (older ones on
   * Check again).
   */
  async followUpAll(session: Session): Promise<void> {
    const recent = new Date(Date.now() - COST_LOOKUP_DAYS * 86_400_000).toISOString();
    for (const job of this.reads.jobsToFollow(session.connection.profileId)) {
      if (this.runningAnywhere(job) || connectionProblem(job, session.connection)) continue;
      const last = this.lastCostLookup.get(job.id) ?? 0;
      const costs = (job.finished_at ?? job.created_at) >= recent && Date.now() - last >= COST_LOOKUP_EVERY_MS;
      if (costs) this.lastCostLookup.set(job.id, Date.now());
      await this.followUp(session, job, costs);
    }
  }

  /**
   * One follow-up of a job at a time; tells the windows when items changed. The loop joins one
   * already under way; `fresh` (Check again) waits for it, then looks again.
   */
  private async followUp(session: Session, job: JobRow, costs: boolean, fresh = false): Promise<number> {
    const current = this.following.get(job.id);
    if (current) {
      const changed = await current.catch(() => 0);
      if (!fresh) return changed;
    }
    const settings = this.settingsFor(job);
    const run = followUpJob(
      { ...this.parts(), client: this.logReadingClient(session), uncertainSafeDelayMs: settings.uncertainSafeDelaySeconds * 1000, now: this.now },
      this.own(session.connection, job.id),
      // "Check again" also asks about what is due for a requery; the loop's passes leave it to the requery loop.
      { costs, requery: fresh },
    ).finally(() => {
      if (this.following.get(job.id) === run) this.following.delete(job.id);
    });
    this.following.set(job.id, run);
    const changed = await run;
    if (changed > 0) jobsChanged(this.invalidate);
    if (changed > 0) await this.app.service(teamGate).reportOutcomes(this.teamJobs, job.id);
    return changed;
  }

  /**
   * What the requery loop asks about now, on `connection`, whatever it buys
   * (`JobReads.dueForRequery`), one at a time (`requeryDue`).
   */
  dueForRequery(connection: Connection): DueRequery[] {
    const now = this.now();
    return this.reads.dueForRequery(connection.profileId, now, Date.now()).filter((due) => {
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
  async requeryDue(session: Session, due: DueRequery): Promise<RequeryOutcome> {
    // One connection for the whole ask: a switch meanwhile never sends this item's reference to
    // another service (a purchase's own writer checks the same).
    const problem = due.purchase === null ? connectionProblem(due.job, session.connection) : null;
    if (problem) return { changed: false, said: null, note: problem.message };
    const outcome = await requeryItem({ app: this.app, session, moves: this.moves, client: () => this.logReadingClient(session) }, due, this.now());
    if (outcome.changed && due.purchase === null) {
      settleJobState(this.parts(), due.job.id);
      jobsChanged(this.invalidate);
      await this.app.service(teamGate).reportOutcomes(this.teamJobs, due.job.id);
    }
    return outcome;
  }

  /**
   * vendesk's own airtime or data item the service knows by `reference`, on `session`'s connection,
   * asked about now through the one requery path (`requeryDue`), whatever its schedule: Reconcile's
   * "Requery all pending" (through the requery loop's queue, `pending/requeryOwnTopUp`). Null when
   * vendesk bought nothing with that reference. A settled item is not asked about (vendesk's record
   * says it), nor one whose job runs (the run asks about its own) or that is being settled from the
   * log (uncertain).
   */
  async requeryTopUpNow(session: Session, reference: string): Promise<RequeryOutcome | null> {
    const found = this.reads.topUpByReference(session.connection.profileId, reference);
    if (!found) return null;
    const { job, item } = found;
    if (item.state === 'success' || item.state === 'failed') return { changed: false, said: item.state === 'success' ? 'SUCCESS' : 'FAILED', note: null };
    if (item.state !== 'accepted' && item.state !== 'pending')
      return { changed: false, said: null, note: `vendesk's record of it is ${item.state}; it is settled from the service's log` };
    if (this.runningAnywhere(job)) return { changed: false, said: null, note: 'its bulk job is running and asks the service about it itself' };
    return this.requeryDue(session, { purchase: null, job, item });
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
  private logReadingClient(session: Session) {
    return observingLogReads(session.client, (page) => mirrorLogPage(this.app, session, page, 'a bulk job read its purchases in the log'));
  }

  /**
   * Runs `job` (as its caller just read it) in this process, once it holds the job's lease. The
   * runner is handed what it uses, none of it a way back into this service: the job's reads and
   * moves, the settings of the job's connection, the client of that connection pinned for the run, the
   * service's clock and the team's claim before each batch. Resolves when the run has ended.
   */
  private start(job: JobRow, given: RunGiven & { settings?: BulkSettings }): Promise<RunEnd | null> {
    const jobId = job.id;
    const { session } = given;
    // The team claims a file's rows as they go and hears their outcomes; a single purchase passed its gate before its job was written.
    const fileJob = job.origin === 'file';
    const beforeSend = fileJob ? this.app.service(teamGate).claimBeforeSend(this.teamJobs, job, session.client) : undefined;
    const begun = given.begun ?? this.beginRun(jobId);
    const runner = new JobRunner(
      {
        ...this.parts(),
        settings: given.settings,
        settingsTable: this.app.settings,
        events: this.app.events,
        // A run nobody sees as a job tells the windows nothing: the operation that bought it says what changed.
        invalidate: given.quiet ? () => undefined : this.invalidate,
        client: this.logReadingClient(session),
        now: this.now,
        // eslint-disable-next-line vendesk/pinned-connection -- the run's one look at the connection in use: it pauses, sending nothing more, once vendesk was switched away from its job's.
        inUse: this.app.session.bind(this.app),
        vending: () => given.vending ?? createVendingBuyer(this.app, session),
        beforeSend,
      },
      job,
      this.timing,
    );
    const ended = runner
      .run(begun)
      .catch((error: unknown): null => {
        const message = error instanceof Error ? error.message : String(error);
        this.lifecycle.pause(jobId, `Stopped by an error: ${message} Resume the job to continue; nothing is sent twice.`);
        jobsChanged(this.invalidate);
        return null;
      })
      .then(async (end) => {
        if (fileJob) await this.app.service(teamGate).reportOutcomes(this.teamJobs, jobId);
        return end;
      })
      .finally(() => this.runners.delete(jobId));
    // The windows learn that it runs from the operation that started it (bulk.confirm and
    // bulk.resume invalidate `jobs`), from its first request (`JobRunner`), and from its progress.
    this.runners.set(jobId, { runner, done: ended.then(() => undefined) });
    return ended;
  }

  /** What `bulk.confirm` and `bulk.resume` answer with a run they started: the job now, or once the run ended (`wait`). */
  private answerRun(connection: Connection, jobId: string, done: Promise<unknown>, wait: boolean): Promise<BulkJobView> | BulkJobView {
    return wait ? done.then(() => this.status(connection, jobId)) : this.status(connection, jobId);
  }

  /** The lease a run of this process takes on its job. */
  private lease(): Lease {
    return { pid: process.pid, leaseMs: this.timing.leaseMs };
  }

  /** The job's reads and moves, as the runner and the follow-up take them. */
  private parts(): JobParts {
    return { reads: this.reads, moves: this.moves, lifecycle: this.lifecycle };
  }

  /**
   * This process takes the job's lease and the job is `running` (`JobLifecycle.beginRun`); refused
   * while another live process runs it, or when the job was cancelled or finished meanwhile.
   */
  private beginRun(jobId: string): RunStart {
    const begun = this.lifecycle.beginRun(jobId, { ...this.lease(), isAlive: pidAlive });
    if (begun.ok) return begun;
    if ('holder' in begun) throw runningElsewhere(begun.holder);
    throw new AppError(
      'job_state_changed',
      `This job is ${begun.state.replace('_', ' ')} now (another window or command moved it), so it sends nothing more.`,
      'Open it from the job list to see where it stands.',
    );
  }

  /**
   * A single purchase's job, just written in its caller's transaction, is confirmed and its run
   * begun in that same transaction: one commit before it is sent. Its caller runs it with
   * `runConfirmed(jobId, { begun })`.
   */
  confirmSingle(jobId: string): RunStart {
    return this.lifecycle.beginSingleRun(jobId, this.lease());
  }

  /**
   * A job whose rows its caller gives (a standing order's occurrence, `standing/`): made, confirmed
   * and begun by this process in one write (`JobLifecycle.createAndBegin`) — its caller's transaction, in which the occurrence is
   * claimed too. No typed total: the order's confirmation stands for it; its caller checked the
   * limits first. Its rows that wait are kept as the job's rows not bought (`invalid`). Run it with
   * `runConfirmed(jobId, { begun })`.
   */
  beginGivenJob(job: Omit<NewJob, 'batchSize' | 'concurrency'>, items: Iterable<NewItem>, invalid: InvalidRowRecord[]): { jobId: string; begun: RunStart } {
    const settings = readBulkSettings(this.app.settings, job.profileId);
    return this.lifecycle.createAndBegin({ ...job, batchSize: settings.batchSize, concurrency: settings.concurrency }, items, invalid, this.lease());
  }

  /**
   * An approved single purchase's waiting job, begun from `awaiting_approval` with its item as
   * checked just now (`JobLifecycle.beginApprovedSingle`); refused when another attempt began it first.
   */
  confirmApprovedSingle(jobId: string, teamJobId: string, item: NewItem): RunStart {
    if (!this.lifecycle.beginApprovedSingle(jobId, item, this.lease())) throw approvalBegun(teamJobId);
    return { recovered: 0, uncertain: 0 };
  }

  /**
   * Runs a job already confirmed in the store (a single purchase) on `given.session` and resolves
   * with its row when it has finished, whichever connection vendesk is on by then (it ran on its
   * own), and with why its item was refused before anything of it was written, if it was.
   */
  async runConfirmed(jobId: string, given: RunGiven): Promise<RunEnded> {
    const end = await this.start(this.own(given.session.connection, jobId), given);
    const job = this.reads.job(jobId);
    if (!job) throw new Error(`bulk job ${jobId} vanished while it ran`);
    return { job, refusal: end?.refusal ?? null };
  }

  pause(connection: Connection, jobId: string): BulkJobView {
    const job = this.own(connection, jobId);
    const running = this.runners.get(jobId);
    if (running) running.runner.requestStop('pause');
    else if (job.state === 'running') this.lifecycle.pause(jobId, 'Paused: resume to send the remaining items.');
    return this.status(connection, jobId);
  }

  async cancel(session: Session, jobId: string): Promise<BulkJobView> {
    await this.cancelJob(this.own(session.connection, jobId), session);
    return this.status(session.connection, jobId);
  }

  /**
   * Cancels `job` (its caller read it, on any connection): unsent items are cancelled, and what
   * the service accepted before is followed to its outcome, on `session`, when that is the job's connection.
   */
  async cancelJob(job: JobRow, session: Session): Promise<void> {
    const jobId = job.id;
    if (isUnconfirmed(job.state)) throw new AppError('job_not_confirmed', 'This job was never confirmed, so nothing was bought.', 'Discard it instead.');
    const running = this.runners.get(jobId);
    if (running) {
      running.runner.requestStop('cancel');
      await running.done;
    } else if (job.state === 'running' || job.state === 'paused') {
      const toCancel = this.reads.items(jobId, { states: ['queued', 'held'] }).map((i) => i.seq);
      this.moves.cancelUnsent(jobId, toCancel, CANCELLED_UNSENT_REASON);
      // Items caught sending by a vendesk that stopped may have been bought: the log settles them.
      if (!this.heldElsewhere(job)) this.moves.recoverSending(jobId);
      this.lifecycle.cancel(jobId, settledMessage('cancelled', this.reads.counts(jobId)));
    }
    // What the service accepted before the cancel is followed to its outcome (and the loop keeps at it).
    const cancelled = this.reads.job(jobId) ?? job;
    if (!this.runningAnywhere(cancelled) && !connectionProblem(cancelled, session.connection)) void this.followUp(session, cancelled, true).catch(() => undefined);
  }

  /** Resolves when the job is no longer running in this process. */
  async waitFor(connection: Connection, jobId: string): Promise<BulkJobView> {
    await this.runners.get(jobId)?.done;
    return this.status(connection, jobId);
  }

  resolveItems(connection: Connection, jobId: string, seqs: number[], resolution: HandResolution, note: string | undefined): BulkJobView {
    settleByHand(this.parts(), this.own(connection, jobId), seqs, resolution, note, this.runners.has(jobId));
    return this.status(connection, jobId);
  }

  // ------------------------------------------------------------------ reading

  /** A job of `connection`, as it stands. */
  status(connection: Connection, jobId: string): BulkJobView {
    this.syncVending(jobId);
    return this.view(this.own(connection, jobId));
  }

  /** The recent jobs of `connection`. */
  list(connection: Connection, limit: number): BulkJobView[] {
    return this.reads.listJobs(connection.profileId, limit).map((j) => {
      if (!isVendingKind(j.kind) || isUnconfirmed(j.state)) return this.view(j);
      this.syncVending(j.id);
      return this.view(this.own(connection, j.id));
    });
  }

  /**
   * Electricity and cable items follow their purchases, which the requery loop, the log and the
   * Pending page keep settling after the job has finished. A job left needing attention only for
   * items that are now settled is finished.
   */
  private syncVending(jobId: string): void {
    const job = this.reads.job(jobId);
    if (!job || !isVendingKind(job.kind) || isUnconfirmed(job.state)) return;
    const changed = this.moves.syncFromPurchases(jobId, itemFromPurchase);
    if (changed === 0 || this.runners.has(jobId)) return;
    settleJobState(this.parts(), jobId);
    jobsChanged(this.invalidate);
  }

  items(connection: Connection, jobId: string, offset: number, limit: number, states?: string[]): { total: number; items: BulkItemView[] } {
    this.own(connection, jobId);
    this.syncVending(jobId);
    const wanted = states?.filter((s): s is ItemState => (ITEM_STATES as readonly string[]).includes(s));
    return {
      total: this.reads.countItems(jobId, wanted),
      items: this.reads.items(jobId, { states: wanted, offset, limit }).map(itemView),
    };
  }

  invalidRows(connection: Connection, jobId: string, offset: number, limit: number) {
    this.own(connection, jobId);
    return { total: this.reads.invalidRowCount(jobId), rows: this.reads.invalidRows(jobId, offset, limit).map(({ row, field, message }) => ({ row, field, message })) };
  }

  exportResults(connection: Connection, jobId: string, format: 'xlsx' | 'csv') {
    this.syncVending(jobId);
    const job = this.own(connection, jobId);
    return exportJobResults(this.app, this.reads, job, this.view(job), format);
  }

  /** A job of `connection`. */
  private own(connection: Connection, jobId: string): JobRow {
    return ownJob(this.reads.job(jobId), jobId, connection);
  }

  /** A draft of `connection`, whose rows may still change. */
  private ownDraft(connection: Connection, jobId: string): JobRow {
    return ownDraft(this.reads.job(jobId), jobId, connection);
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

  /** The bulk settings of `connection`. */
  settingsView(connection: Connection): BulkSettingsView {
    return readBulkSettings(this.app.settings, connection.profileId);
  }

  /** The bulk settings of the connection a job was made on. */
  private settingsFor(job: JobRow): BulkSettings {
    return readBulkSettings(this.app.settings, job.profile_id);
  }

  /** Changes the bulk settings of `connection` only. */
  updateSettings(connection: Connection, patch: Partial<BulkSettingsView>): BulkSettingsView {
    return writeBulkSettings(this.app.settings, connection.profileId, patch);
  }

  /** The team job `jobId` runs, when it was sent to or adopted from a team (`teamGate.teamJobIdOf`). */
  teamJobIdOf(jobId: string): string | null {
    return this.app.service(teamGate).teamJobIdOf(jobId);
  }

  view(job: JobRow): BulkJobView {
    return jobView(this.reads, job, { active: this.runners.has(job.id), heldElsewhere: this.heldElsewhere(job), teamJobId: this.teamJobIdOf(job.id) });
  }
}

export { itemView } from './jobViews';
export type { PrepareInput } from './draftFromFile';

/** A job is sent to, and asked about at, only the service it was prepared for. */
function checkConnection(job: JobRow, connection: Connection): void {
  const problem = connectionProblem(job, connection);
  if (problem) throw problem;
}

/** What a run is given by who starts it, beside the job. */
export interface RunGiven {
  /** The session it runs on: the one it was checked on, or resumed on. */
  session: Session;
  /** Electricity and cable: the buyer of the purchase its caller checked (a single purchase). */
  vending?: VendingBuyer;
  /** A single electricity or cable purchase: no window shows it as a job, so the run tells them nothing. */
  quiet?: boolean;
  /** A run already begun: confirmed and begun in one statement (`confirm`), or a single purchase's, as its job was written (`confirmSingle`). */
  begun?: RunStart;
}

/** How a single purchase's run ended: its job, and why its item was refused before anything of it was written (null when it was not). */
export interface RunEnded {
  job: JobRow;
  refusal: unknown;
}

export function createBulkService(app: App): BulkService {
  return new BulkService(app);
}
