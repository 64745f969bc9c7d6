/**
 * The bulk purchase service of one app: prepares jobs from spreadsheets, confirms them against
 * the spending caps (and the typed total on a LIVE connection), runs them, and settles items by
 * hand when the log cannot. Built once per app with `app.service(createBulkService)`.
 */
import { cancelSentForApproval, claimBeforeSend, isSentForApproval, reportTeamOutcomes, teamApprovalFor } from '../team/bulkApproval';
import { AppError } from '../../shared/appError';
import type {
  BulkItemView,
  BulkJobView,
  BulkMoney,
  BulkPreview,
  BulkSettingsView,
  BulkValidation,
} from '../../shared/contract/bulk';
import type { FileRef } from '../../shared/contract/files';
import { addMoney } from '../../shared/bulkMoney';
import { formatNaira, nairaToKobo, parseNairaText } from '../../shared/money';
import type { App } from '../app';
import { fileRefName, releaseUpload, resolveFileRef } from '../files';
import { readBulkSettings, startOfLocalDay, writeBulkSettings, type BulkSettings } from './bulkSettings';
import { followUpJob, settleJobState } from './jobFollowUp';
import { JobRunner, doneCount, pidAlive, runningElsewhere, totalCount, type RunnerTiming, DEFAULT_TIMING } from './jobRunner';
import { JobStore, type ItemRow, type JobRow } from './jobStore';
import type { BulkJobKind, ItemState } from './jobStates';
import { ITEM_STATES, isVendingKind, settledMessage } from './jobStates';
import { checkAccountsWithService, createVendingBuyer, itemFromPurchase } from './vendingItems';
import { chooseMapping, itemsFromValidation, mappingFields, readSheet, recentLog, recentLookupFor, rowWarningsNote, validate, type Catalogs } from './prepareJob';
import { createVendingCatalogs } from '../purchases';
import { createServiceClock } from '../api/serviceClock';
import { exportJobResults } from './exportResults';
import { fieldLabel, missingFields, type ColumnMapping } from '../imports';
import { ngnWallet } from '../../shared/ngnWallet';

export interface PrepareInput {
  file: FileRef;
  kind: BulkJobKind;
  sheet?: string;
  mapping?: Record<string, number | null>;
  replaceJobId?: string;
  keepDuplicates: boolean;
}

/** Between two looks at a finished job's items whose wallet cost the log did not show. */
const COST_LOOKUP_EVERY_MS = 10 * 60_000;
/** The loop looks up unknown costs of jobs finished in the last this many days. */
const COST_LOOKUP_DAYS = 7;
/** Flagged duplicates and network conflicts a preview lists at most. */
const PREVIEW_LIST_LIMIT = 5000;

export class BulkService {
  readonly store: JobStore;
  private readonly runners = new Map<string, { runner: JobRunner; done: Promise<void> }>();
  /** Follow-ups in progress, one per job. */
  private readonly following = new Map<string, Promise<number>>();
  private readonly lastCostLookup = new Map<string, number>();
  /**
   * The upload each draft was read from (web shell): kept while the draft may be read again with
   * another column mapping, deleted once it is confirmed or discarded.
   */
  private readonly uploadsByJob = new Map<string, FileRef>();
  /** Tests may shorten the runner's timing. */
  timing: RunnerTiming = DEFAULT_TIMING;
  /** The service's clock, on which jobs store when items were sent; tests may move it. */
  now: () => number;

  constructor(private readonly app: App) {
    this.store = new JobStore(app.db);
    const serviceClock = app.service(createServiceClock);
    this.now = () => serviceClock.now();
    // Files checked but never confirmed (nothing was bought) are forgotten after a week.
    this.store.deleteStaleDrafts(new Date(Date.now() - 7 * 24 * 3600_000).toISOString());
    app.onClose(async () => {
      for (const { runner } of this.runners.values()) runner.requestStop('pause');
      await Promise.allSettled([...this.runners.values()].map((r) => r.done));
    });
  }

  // ------------------------------------------------------------------ preparing

  /** The catalogs a job of this kind is validated against. */
  async catalogs(kind: BulkJobKind): Promise<Catalogs> {
    const client = this.app.client();
    if (kind === 'airtime') return { airtime: await client.airtimeCatalog(), data: [] };
    if (kind === 'electricity') return { airtime: [], data: [], electricity: await this.app.service(createVendingCatalogs).electricity() };
    if (kind === 'cable') return { airtime: [], data: [], cable: await this.app.service(createVendingCatalogs).cable() };
    return { airtime: [], data: await client.dataCatalog() };
  }

  async validateOnly(input: { file: FileRef; kind: BulkJobKind; sheet?: string; mapping?: Record<string, number | null> }): Promise<BulkValidation> {
    const path = resolveFileRef(this.app, input.file);
    const { table } = await readSheet(path, input.sheet);
    const { mapping } = chooseMapping(this.app.settings, input.kind, table.headers, input.mapping);
    const log = await recentLog(this.app.client(), input.kind);
    const result = validate(table, mapping, input.kind, await this.catalogs(input.kind), recentLookupFor(this.store, this.profileId, input.kind, null, log.entries));
    if (isVendingKind(input.kind)) await checkAccountsWithService(this.app, input.kind, result);
    return {
      rows: result.counts.rows,
      valid: result.counts.valid,
      invalid: result.counts.invalid,
      duplicates: result.counts.duplicateRows,
      totalKobo: result.totalKobo,
      errors: result.errors.map((e) => ({ row: e.row, field: e.field, message: e.message })),
    };
  }

  /** `signal` stops reading a large file; nothing is written when it is aborted before the draft. */
  async prepare(input: PrepareInput, options: { signal?: AbortSignal } = {}): Promise<BulkPreview> {
    const path = resolveFileRef(this.app, input.file);
    const fileName = fileRefName(input.file);
    const { table, sheetNames } = await readSheet(
      path,
      input.sheet,
      (rows) => this.app.events.emit('import.progress', { importId: fileName, done: rows, total: null, message: `Reading ${fileName}` }),
      options.signal,
    );
    const choice = chooseMapping(this.app.settings, input.kind, table.headers, input.mapping);
    const catalogs = await this.catalogs(input.kind);
    // A required column the headings did not reveal: the draft is kept (with no rows) so the
    // user can choose the column, rather than an error that leaves nothing to correct.
    const unmapped = missingFields(choice.mapping, input.kind).length > 0;
    const log = unmapped ? { entries: [], problem: null } : await recentLog(this.app.client(), input.kind);
    const result = unmapped ? null : validate(table, choice.mapping, input.kind, catalogs, recentLookupFor(this.store, this.profileId, input.kind, input.replaceJobId ?? null, log.entries));
    const accounts = result && isVendingKind(input.kind) ? await checkAccountsWithService(this.app, input.kind, result) : null;
    const accountsNote = accounts?.note ?? null;
    // The raw rows are not needed once validated: let them go before the items are written, so
    // the 200,000-row file is not in memory three times over.
    const rowsTotal = result ? result.counts.rows : table.rows.length;
    table.rows = [];
    // Cancelled while the file was checked: nothing is written (the draft it replaces is kept).
    options.signal?.throwIfAborted();
    if (input.replaceJobId) {
      const old = this.store.job(input.replaceJobId);
      if (old && old.state === 'draft' && old.profile_id === this.profileId) this.store.deleteJob(old.id);
    }
    const settings = this.settingsView();
    const connection = this.app.connection;
    const jobId = this.store.createJob(
      {
        kind: input.kind,
        profileId: connection.profileId,
        connectionKind: connection.kind,
        baseUrl: connection.baseUrl,
        fileName,
        fileHash: table.fileHash,
        sheetName: table.sheetName,
        headers: table.headers,
        mapping: choice.mapping,
        rowsTotal,
        batchSize: settings.batchSize,
        concurrency: settings.concurrency,
      },
      result ? itemsFromValidation(result, input.keepDuplicates, accounts?.names) : [],
      result ? result.errors.map((e) => ({ row: e.row, field: e.field, message: e.message })) : [],
    );
    const problem = [log.problem, accountsNote, result ? rowWarningsNote(result) : null].filter(Boolean).join(' ');
    if (problem) this.store.setJobState(jobId, 'draft', problem);
    this.keepUploadWithDraft(jobId, input.file, input.replaceJobId);
    return this.preview(jobId, { sheetNames, remembered: choice.remembered });
  }

  async preview(jobId: string, extra: { sheetNames?: string[]; remembered?: boolean } = {}): Promise<BulkPreview> {
    const job = this.requireJob(jobId);
    const view = this.view(job);
    const settings = this.settingsView();
    let walletKobo: number | null = null;
    let walletProblem: string | null = null;
    try {
      const balance = await this.app.client().accountBalance();
      const ngn = ngnWallet(balance);
      walletKobo = ngn ? nairaToKobo(ngn.Balance) : null;
      if (!ngn) walletProblem = 'The service reported no NGN wallet.';
    } catch (error) {
      walletProblem = `The wallet balance could not be read (${error instanceof Error ? error.message : String(error)}).`;
    }
    const flagged = this.store.duplicateItems(jobId, PREVIEW_LIST_LIMIT);
    const conflicts = this.store.networkConflictItems(jobId, PREVIEW_LIST_LIMIT);
    const headers = JSON.parse(job.headers_json) as string[];
    const mapping = JSON.parse(job.mapping_json) as ColumnMapping;
    const includedKobo = view.totalKobo;
    const spentToday = this.store.spentSince(this.profileId, startOfLocalDay());
    return {
      job: view,
      headers,
      sheetNames: extra.sheetNames ?? (job.sheet_name ? [job.sheet_name] : []),
      mapping: mappingFields(job.kind, mapping),
      mappingRemembered: extra.remembered ?? false,
      includedItems: view.items,
      includedKobo,
      walletKobo,
      remainingKobo: walletKobo === null ? null : walletKobo - includedKobo,
      walletProblem,
      duplicates: flagged.map(itemView),
      networkConflicts: conflicts.map(itemView),
      capPerJobKobo: settings.capPerJobKobo,
      capPerDayKobo: settings.capPerDayKobo,
      spentTodayKobo: spentToday,
      blocker: job.state === 'draft' ? (unmappedBlocker(job.kind, mapping) ?? this.blocker(includedKobo, view.items, walletKobo)) : null,
      live: job.connection_kind === 'live',
    };
  }

  /** Why confirming now would be refused; null when it may go ahead. */
  private blocker(totalKobo: number, items: number, walletKobo: number | null, maxTotalKobo?: number): string | null {
    const settings = this.settingsView();
    if (items === 0) return 'There is nothing to buy: every row is invalid or left out.';
    if (settings.capPerJobKobo !== null && totalKobo > settings.capPerJobKobo) {
      return `The job total ${formatNaira(totalKobo)} is above the spending cap per job of ${formatNaira(settings.capPerJobKobo)}. Split the file, or raise the cap per job (Purchases → Limits for bulk jobs).`;
    }
    if (settings.capPerDayKobo !== null) {
      const today = this.store.spentSince(this.profileId, startOfLocalDay());
      if (today + totalKobo > settings.capPerDayKobo) {
        return `This job (${formatNaira(totalKobo)}) would take today's bulk spending to ${formatNaira(today + totalKobo)}, above the daily cap of ${formatNaira(settings.capPerDayKobo)}. Buy fewer rows today, or raise the daily cap (Purchases → Limits for bulk jobs).`;
      }
    }
    if (maxTotalKobo !== undefined && totalKobo > maxTotalKobo) {
      return `The job total ${formatNaira(totalKobo)} is above the maximum you allowed (${formatNaira(maxTotalKobo)}).`;
    }
    if (walletKobo !== null && walletKobo < totalKobo) {
      return `The wallet holds ${formatNaira(walletKobo)}, less than the job total of ${formatNaira(totalKobo)}. Top up the wallet or leave rows out.`;
    }
    return null;
  }

  setIncluded(jobId: string, seqs: number[], include: boolean): Promise<BulkPreview> {
    this.requireDraft(jobId);
    this.store.setIncluded(jobId, seqs, include);
    return this.preview(jobId);
  }

  async setNetwork(jobId: string, seqs: number[], use: 'file' | 'prefix'): Promise<BulkPreview> {
    const job = this.requireDraft(jobId);
    if (job.kind !== 'airtime') {
      throw new AppError('network_fixed_by_plan', 'A data plan belongs to one network, so the network cannot be switched here.', 'Put a plan of the right network in the file, or leave the row out.');
    }
    const catalog = await this.app.client().airtimeCatalog();
    for (const seq of seqs) {
      const item = this.store.item(jobId, seq);
      if (!item || !item.given_network || !item.prefix_network) continue;
      const network = use === 'file' ? item.given_network : item.prefix_network;
      const product = catalog.find((p) => p.network === network);
      if (!product) throw new AppError('no_airtime_product', `The airtime catalog has no product for ${network}.`, 'Refresh the catalog, or leave the row out.');
      if (item.amount_kobo < Math.max(10_000, nairaToKobo(product.minAmount)) || (product.maxAmount > 0 && item.amount_kobo > nairaToKobo(product.maxAmount))) {
        throw new AppError('amount_out_of_range', `Row ${item.row_number}: ${formatNaira(item.amount_kobo)} is outside the ${network} airtime range (${formatNaira(nairaToKobo(product.minAmount))} to ${formatNaira(nairaToKobo(product.maxAmount))}).`, 'Keep the other network or leave the row out.');
      }
      this.store.setNetwork(jobId, seq, { network, productCode: product.productCode, voucherCode: product.voucherCode, operator: product.operator, region: product.region });
    }
    return this.preview(jobId);
  }

  private keepUploadWithDraft(jobId: string, file: FileRef, replaced: string | undefined): void {
    const previous = replaced === undefined ? undefined : this.uploadsByJob.get(replaced);
    if (replaced !== undefined) this.uploadsByJob.delete(replaced);
    const sameFile = previous !== undefined && 'uploadId' in previous && 'uploadId' in file && file.uploadId === previous.uploadId;
    if (previous && !sameFile) releaseUpload(this.app, previous);
    if ('uploadId' in file) this.uploadsByJob.set(jobId, file);
  }

  private releaseDraftUpload(jobId: string): void {
    const upload = this.uploadsByJob.get(jobId);
    this.uploadsByJob.delete(jobId);
    if (upload) releaseUpload(this.app, upload);
  }

  async discard(jobId: string): Promise<{ deleted: true }> {
    this.requireDraft(jobId);
    await cancelSentForApproval(this.app, jobId);
    this.store.deleteJob(jobId);
    this.releaseDraftUpload(jobId);
    return { deleted: true };
  }

  // ------------------------------------------------------------------ running

  async confirm(input: { jobId: string; typedTotal?: string; maxTotalKobo?: number; wait: boolean }): Promise<BulkJobView> {
    const job = this.requireDraft(input.jobId);
    this.checkConnection(job);
    const view = this.view(job);
    // Team workspace: a LIVE job waits for another member's approval (throws until approved).
    const team = await teamApprovalFor(this.app, this.store, job, { totalKobo: view.totalKobo, items: view.items });
    if (team.status !== 'approved' && (job.connection_kind === 'live' || this.app.connection.kind === 'live')) {
      const typed = input.typedTotal === undefined ? null : parseNairaText(input.typedTotal);
      if (!typed?.ok || typed.kobo !== view.totalKobo) {
        throw new AppError(
          'confirmation_mismatch',
          input.typedTotal === undefined
            ? `This is a LIVE connection: real money is spent. Type the job total (${formatNaira(view.totalKobo)}) to confirm.`
            : `The total you typed (${input.typedTotal}) is not the job total (${formatNaira(view.totalKobo)}). Nothing was bought.`,
          'Type the total exactly as shown, then confirm again.',
        );
      }
    }
    let walletKobo: number | null = null;
    try {
      const balance = await this.app.client().accountBalance();
      const ngn = ngnWallet(balance);
      walletKobo = ngn ? nairaToKobo(ngn.Balance) : null;
    } catch {
      walletKobo = null; // The job pauses with a clear message if the wallet runs short.
    }
    const blocker = this.blocker(view.totalKobo, view.items, walletKobo, input.maxTotalKobo);
    if (blocker) throw new AppError('job_refused', `${blocker} Nothing was bought.`, 'Change the job or the settings, then confirm again.');
    if (team.status === 'unsent') await team.submit({ totalKobo: view.totalKobo, items: view.items, walletKobo });
    const settings = this.settingsView();
    this.store.setJobTuning(job.id, settings.batchSize, settings.concurrency);
    this.store.confirmJob(job.id);
    if (this.store.job(job.id)?.state !== 'running') {
      throw new AppError('job_not_draft', 'This job was already confirmed.', 'Open it from the job list to follow its progress.');
    }
    this.releaseDraftUpload(job.id);
    return this.start(job.id, input.wait);
  }

  async resume(jobId: string, wait: boolean): Promise<BulkJobView> {
    const job = this.requireJob(jobId);
    if (job.state === 'draft' && isSentForApproval(this.app, jobId)) return this.confirm({ jobId, wait });
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
    if (c.pending > 0 && !isVendingKind(job.kind)) this.store.transition(jobId, this.store.items(jobId, { states: ['pending'] }).map((i) => i.seq), 'accepted', {}, ['pending']);
    return this.start(jobId, wait);
  }

  /**
   * Asks the service now about a job that is not sending: its accepted and pending items (log,
   * then requery when due), the uncertain items of a cancelled job (log; never sent again), and
   * the wallet cost of what was bought. A job running here or in another vendesk is left to its
   * runner, which reads the same.
   */
  async checkAgain(jobId: string): Promise<BulkJobView> {
    const job = this.requireJob(jobId);
    if (job.state === 'draft') return this.status(jobId); // nothing was sent: nothing to ask about
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
    for (const job of this.store.jobsToFollow(this.profileId)) {
      if (this.runningAnywhere(job) || this.connectionProblem(job)) continue;
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
    const run = followUpJob({ store: this.store, client: () => this.app.client(), uncertainSafeDelayMs: settings.uncertainSafeDelaySeconds * 1000, now: this.now }, this.requireJob(job.id), { costs }).finally(() => {
      if (this.following.get(job.id) === run) this.following.delete(job.id);
    });
    this.following.set(job.id, run);
    const changed = await run;
    if (changed > 0) this.app.events.emit('data.changed', { topics: ['jobs'] });
    if (changed > 0) await reportTeamOutcomes(this.app, this.store, job.id);
    return changed;
  }

  /** Runs in this process, or in another live vendesk that holds its lease. */
  private runningAnywhere(job: JobRow): boolean {
    return this.runners.has(job.id) || this.heldElsewhere(job);
  }

  private heldElsewhere(job: JobRow): boolean {
    return job.runner_pid !== null && job.runner_pid !== process.pid && (job.lease_until_ms ?? 0) > Date.now() && pidAlive(job.runner_pid);
  }

  private start(jobId: string, wait: boolean): Promise<BulkJobView> | BulkJobView {
    const job = this.requireJob(jobId);
    const runner = new JobRunner(
      {
        store: this.store,
        settings: () => this.settingsFor(job),
        events: this.app.events,
        client: () => this.app.client(),
        now: this.now,
        ...(isVendingKind(job.kind) ? { vending: createVendingBuyer(this.app) } : {}),
        beforeSend: claimBeforeSend(this.app, this.store, job),
        connectionProblem: () => {
          try {
            this.checkConnection(job);
            return null;
          } catch (error) {
            return error instanceof AppError ? `${error.message} ${error.hint ?? ''}`.trim() : String(error);
          }
        },
      },
      jobId,
      this.timing,
    );
    const lease = this.store.acquireLease(jobId, process.pid, this.timing.leaseMs, pidAlive);
    if (!lease.ok) throw runningElsewhere(lease.holder);
    const done = runner
      .run()
      .then(() => undefined)
      .catch((error: unknown) => {
        const message = error instanceof Error ? error.message : String(error);
        this.store.setJobState(jobId, 'paused', `Stopped by an error: ${message} Resume the job to continue; nothing is sent twice.`);
        this.app.events.emit('data.changed', { topics: ['jobs'] });
      })
      .then(() => reportTeamOutcomes(this.app, this.store, jobId))
      .finally(() => this.runners.delete(jobId));
    this.runners.set(jobId, { runner, done });
    this.app.events.emit('data.changed', { topics: ['jobs'] });
    if (!wait) return this.status(jobId);
    return done.then(() => this.status(jobId));
  }

  /** Runs a job already confirmed in the store (a single purchase) and resolves when it has finished. */
  runConfirmed(jobId: string): Promise<BulkJobView> {
    return Promise.resolve(this.start(jobId, true));
  }

  pause(jobId: string): BulkJobView {
    const job = this.requireJob(jobId);
    const running = this.runners.get(jobId);
    if (running) running.runner.requestStop('pause');
    else if (job.state === 'running') this.store.setJobState(jobId, 'paused', 'Paused: resume to send the remaining items.');
    return this.status(jobId);
  }

  async cancel(jobId: string): Promise<BulkJobView> {
    const job = this.requireJob(jobId);
    if (job.state === 'draft') throw new AppError('job_not_confirmed', 'This job was never confirmed, so nothing was bought.', 'Discard it instead.');
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
    const cancelled = this.requireJob(jobId);
    if (!this.runningAnywhere(cancelled) && !this.connectionProblem(cancelled)) void this.followUp(cancelled, true).catch(() => undefined);
    return this.status(jobId);
  }

  /** Resolves when the job is no longer running in this process. */
  async waitFor(jobId: string): Promise<BulkJobView> {
    await this.runners.get(jobId)?.done;
    return this.status(jobId);
  }

  resolveItems(jobId: string, seqs: number[], resolution: 'bought' | 'not_bought' | 'resend', note: string | undefined): BulkJobView {
    const target = this.requireJob(jobId);
    if (isVendingKind(target.kind) && seqs.some((seq) => this.store.item(jobId, seq)?.purchase_id)) {
      // Its purchase is the record of what was bought: settled in one place, never sent again from here.
      throw new AppError(
        'settle_on_pending_page',
        'This row was sent as a purchase that is still being settled; it cannot be marked or sent again from the job.',
        'Settle it on the Pending page (check with support first); the job shows the outcome.',
      );
    }
    if (resolution === 'resend' && target.state === 'cancelled') {
      throw new AppError('job_cancelled', 'This job was cancelled, so it sends nothing more.', 'Mark the item bought or not bought here, and buy it in a new job if it is still wanted.');
    }
    // While the job runs, re-queued items are simply picked up by its runner.
    const who = `user${note ? `: ${note}` : ''}`;
    const from: ItemState[] = ['uncertain'];
    let changed = 0;
    if (resolution === 'bought') {
      changed = this.store.transition(jobId, seqs, 'success', { reason: 'Marked bought by the user', settledBy: who, final: true }, from);
    } else if (resolution === 'not_bought') {
      changed = this.store.transition(jobId, seqs, 'cancelled', { reason: 'Marked not bought by the user; it was not sent again', settledBy: who, final: true }, from);
    } else {
      changed = this.store.transition(jobId, seqs, 'queued', { reason: null, settledBy: `${who} (send again)` }, from);
    }
    if (changed === 0) {
      throw new AppError('nothing_to_resolve', 'None of the chosen items is uncertain.', 'Only items marked "uncertain" can be settled by hand.');
    }
    const job = this.requireJob(jobId);
    const c = this.store.counts(jobId);
    if (job.state === 'needs_attention' && c.uncertain === 0 && !this.runners.has(jobId)) {
      this.store.setJobState(jobId, c.queued > 0 ? 'paused' : 'completed', c.queued > 0 ? 'Items to send again: resume the job.' : settledMessage('completed', c));
    } else if (job.state === 'cancelled') {
      this.store.setJobMessage(jobId, settledMessage('cancelled', c));
    }
    return this.status(jobId);
  }

  // ------------------------------------------------------------------ reading

  status(jobId: string): BulkJobView {
    this.syncVending(jobId);
    return this.view(this.requireJob(jobId));
  }

  /** The recent jobs of the connection in use. */
  list(limit: number): BulkJobView[] {
    return this.store.listJobs(this.profileId, limit).map((j) => {
      if (!isVendingKind(j.kind) || j.state === 'draft') return this.view(j);
      this.syncVending(j.id);
      return this.view(this.requireJob(j.id));
    });
  }

  /**
   * Electricity and cable items follow their purchases, which the requery loop, the log and the
   * Pending page keep settling after the job has finished. A job left needing attention only for
   * items that are now settled is finished.
   */
  private syncVending(jobId: string): void {
    const job = this.store.job(jobId);
    if (!job || !isVendingKind(job.kind) || job.state === 'draft') return;
    const changed = this.store.syncFromPurchases(jobId, itemFromPurchase);
    if (changed === 0 || this.runners.has(jobId)) return;
    settleJobState(this.store, jobId);
    this.app.events.emit('data.changed', { topics: ['jobs'] });
  }

  items(jobId: string, offset: number, limit: number, states?: string[]): { total: number; items: BulkItemView[] } {
    this.requireJob(jobId);
    this.syncVending(jobId);
    const wanted = states?.filter((s): s is ItemState => (ITEM_STATES as readonly string[]).includes(s));
    return {
      total: this.store.countItems(jobId, wanted),
      items: this.store.items(jobId, { states: wanted, offset, limit }).map(itemView),
    };
  }

  invalidRows(jobId: string, offset: number, limit: number) {
    this.requireJob(jobId);
    return { total: this.store.invalidRowCount(jobId), rows: this.store.invalidRows(jobId, offset, limit) };
  }

  exportResults(jobId: string, format: 'xlsx' | 'csv') {
    this.syncVending(jobId);
    const job = this.requireJob(jobId);
    return exportJobResults(this.app, this.store, job, this.view(job), format);
  }

  /** The bulk settings of the connection in use. */
  settingsView(): BulkSettingsView {
    return readBulkSettings(this.app.settings, this.profileId);
  }

  /** The bulk settings of the connection a job was made on. */
  private settingsFor(job: JobRow): BulkSettings {
    return readBulkSettings(this.app.settings, job.profile_id);
  }

  /** Changes the bulk settings of the connection in use only. */
  updateSettings(patch: Partial<BulkSettingsView>): BulkSettingsView {
    const next = writeBulkSettings(this.app.settings, this.profileId, patch);
    return next;
  }

  // ------------------------------------------------------------------ helpers

  view(job: JobRow): BulkJobView {
    const figures = this.store.figures(job.id);
    const counts = {} as Record<ItemState, number>;
    for (const s of ITEM_STATES) counts[s] = figures[s].count;
    const money = (...states: ItemState[]): BulkMoney => addMoney(...states.map((s) => figures[s]));
    const active = this.runners.has(job.id);
    const heldElsewhere = this.heldElsewhere(job);
    const total = totalCount(counts);
    let totalKobo = 0;
    for (const s of ITEM_STATES) if (s !== 'excluded') totalKobo += figures[s].faceKobo;
    return {
      id: job.id,
      kind: job.kind,
      state: job.state,
      active: active || heldElsewhere,
      interrupted: job.state === 'running' && !active && !heldElsewhere,
      fileName: job.file_name,
      sheetName: job.sheet_name,
      connectionKind: job.connection_kind,
      profileId: job.profile_id,
      createdAt: job.created_at,
      confirmedAt: job.confirmed_at,
      finishedAt: job.finished_at,
      message: job.state === 'running' && !active && !heldElsewhere ? 'vendesk stopped while this job was running. Resume it: items that may have been sent are checked against the service log first, so nothing is bought twice.' : job.message,
      rowsInFile: job.rows_total,
      invalidRows: job.invalid_count,
      counts,
      items: total,
      done: doneCount(counts),
      totalKobo,
      bought: money('accepted', 'pending', 'success'),
      refunded: money('failed'),
      notBought: money('cancelled'),
      uncertain: money('sending', 'uncertain'),
      toSend: money('queued', 'held'),
    };
  }

  /** The key of the connection in use: every view, export and command reads only its jobs. */
  private get profileId(): string {
    return this.app.connection.profileId;
  }

  /** A job of the connection in use; a job of another connection is not on this one. */
  private requireJob(jobId: string): JobRow {
    const job = this.store.job(jobId);
    if (!job) throw new AppError('job_not_found', `There is no bulk job ${jobId}.`, 'Check the job id (vendesk bulk list lists the jobs of this connection) or open the Purchases page.');
    if (job.profile_id !== this.profileId) {
      const c = this.app.connection;
      throw new AppError(
        'job_other_connection',
        `Bulk job ${jobId} is not on this connection: it was made on another one (${job.connection_kind.toUpperCase()} ${job.base_url}); vendesk is now connected to ${c.kind.toUpperCase()} ${c.profileName}.`,
        'Switch back to the connection the job was prepared for (Settings → Connection profiles, or the same --base-url) to see or resume it.',
      );
    }
    return job;
  }

  private requireDraft(jobId: string): JobRow {
    const job = this.requireJob(jobId);
    if (job.state !== 'draft') throw new AppError('job_not_draft', 'This job is already confirmed; its rows cannot be changed.', 'Prepare a new job from the file for other changes.');
    return job;
  }

  /** A job is sent to, and asked about at, only the service it was prepared for. */
  private checkConnection(job: JobRow): void {
    const problem = this.connectionProblem(job);
    if (problem) throw problem;
  }

  private connectionProblem(job: JobRow): AppError | null {
    const c = this.app.connection;
    const same = c.profileId === job.profile_id && (c.kind === 'sandbox' && c.profileId === 'sandbox' ? true : c.baseUrl === job.base_url);
    if (!same) {
      return new AppError(
        'job_other_connection',
        `This job was prepared for another connection (${job.connection_kind.toUpperCase()} ${job.base_url}); vendesk is now connected to ${c.kind.toUpperCase()} ${c.profileName}.`,
        'Switch back to the connection the job was prepared for, or prepare the file again on this connection.',
      );
    }
    return null;
  }
}

function unmappedBlocker(kind: BulkJobKind, mapping: ColumnMapping): string | null {
  const missing = missingFields(mapping, kind).map((f) => fieldLabel(f));
  if (missing.length === 0) return null;
  return `vendesk could not tell which column holds ${missing.join(' and ')}. Choose it under "Columns used" and apply; the rows are then checked.`;
}

export function itemView(i: ItemRow): BulkItemView {
  return {
    seq: i.seq,
    row: i.row_number,
    phone: i.phone,
    network: i.network,
    productCode: i.product_code,
    description: i.description,
    amountKobo: i.amount_kobo,
    name: i.name,
    note: i.note,
    state: i.state,
    reference: i.reference,
    reason: i.reason,
    settledBy: i.settled_by,
    attempts: i.attempts,
    duplicateOf: i.duplicate_of,
    givenNetwork: i.given_network,
    prefixNetwork: i.prefix_network,
    updatedAt: i.updated_at,
    account: i.account ?? null,
    vendType: i.vend_type ?? null,
    accountName: i.account_name ?? null,
    purchaseId: i.purchase_id ?? null,
    token: i.token ?? null,
    units: i.units ?? null,
  };
}

export function createBulkService(app: App): BulkService {
  return new BulkService(app);
}
