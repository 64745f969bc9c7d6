/**
 * Single airtime and data purchases: one number, no spreadsheet (the window's "Airtime and data"
 * form and `vendesk buy airtime|data`).
 *
 * Each is bought through the bulk engine as a job of one item (`origin = 'single'`, migration 14)
 * rather than by a second purchase path, so it has every guarantee of a bulk row: validated by the
 * same rules against the same catalogs, written `sending` before its request leaves, its outcome
 * read from the service's log (and requery), an uncertain one settled from the log — never resent
 * blindly — and followed by the same loop after vendesk restarts. What a one-item job does
 * differently:
 * - the same phone and amount (airtime) or plan (data) bought in the last 24 hours refuses the
 *   purchase unless it is asked for again (`repeat`);
 * - the spending caps of bulk jobs neither apply to it nor count it (like an electricity token,
 *   it is one deliberate purchase, confirmed on its own);
 * - it is never left waiting to be resumed: a job that paused before sending (the connection
 *   changed, the token was refused, vending stayed unavailable) is cancelled, so nothing is sent
 *   later that the user thinks was refused.
 *
 * Its path, straight through, on the session it was asked on: checked as a row is
 * (`validateItem` with its typed fields, the catalog of that connection, its last 24 hours:
 * `checkedTopUp`), its wallet read; asked of the team's gate once (`teamGate.single`, which answers
 * and, above a threshold, writes it waiting); its job of one item written and begun in one commit;
 * bought by the run (`BulkService.runConfirmed`), whose item is its receipt.
 */
import { formatDateTime } from '../../shared/localDates';
import { AppError } from '../../shared/appError';
import type { TopUpCheckView, TopUpKind, TopUpRequest, TopUpView, WaitingPurchaseView } from '../../shared/contract/purchases';
import { formatNaira } from '../../shared/money';
import { NETWORK_LABEL, networkFromText, normalizePhone, type Network } from '../../shared/phone';
import { hiddenInText } from '../../shared/visibleText';
import type { SinglePurchaseSummary } from '../../shared/contract/team';
import { recentTopUpLog } from '../api/logLookup';
import { readNgnWallet, type WalletReading } from '../api/walletReading';
import type { App, AppPart, Session } from '../appContext';
import { freshCatalog } from '../catalog/catalogCache';
import type { FieldKey, RecentMatch, ValidRow } from '../imports';
import { FORM_WORDS, type ItemChecker } from '../imports/itemFields';
import { validateItem } from '../imports/validateItem';
import { hiddenFieldText } from '../imports/hiddenCells';
import { keepWalletReading } from '../transactions/balanceSnapshots';
import { commissionRates, expectedCost } from '../transactions/expectedCost';
import { refreshReferences } from '../transactions/mirrorRefresh';
import { createBulkService, itemView, type BulkService, type RunEnded, type RunGiven } from './bulkService';
import { itemOf } from './jobLifecycle';
import type { JobReads } from './jobReads';
import type { ItemRow, JobRow, NewItem } from './jobRows';
import { FINAL_ITEM_STATES, PENDING_AT_SERVICE, SPENDING_STATES } from './jobStates';
import { FAILED_REASON } from './itemOutcomes';
import { teamGate, type SingleGateOptions } from './teamGate';
import { stateMeaning } from '../stateMeaning';
import { commitUnflushed } from '../store/unflushedCommit';

/** A request as the contract parses it. */
export type TopUpInput = Extract<TopUpRequest, { kind: 'airtime' }> | Extract<TopUpRequest, { kind: 'data' }>;

/** A single top-up checked on one session: what it buys, and what the check found. */
interface CheckedTopUp {
  /** Its job's one item, queued. */
  item: NewItem;
  description: string;
  /** The same purchase bought in the last 24 hours, said in one sentence; null when it was not. */
  recent: string | null;
  warnings: string[];
  /** The wallet before it (null when it cannot be read), kept as a snapshot with the purchase. */
  wallet: WalletReading | null;
  /** Why buying it now would be refused; null when it may go ahead. */
  blocker: string | null;
}

/** The name of a single purchase's job, "<what> for <whom>": its own, and its team job's. */
export function singleJobName(p: Pick<SinglePurchaseSummary, 'description' | 'account'>): string {
  return `${p.description} for ${p.account}`;
}

/** `text` as a sentence: its first letter capitalized, a full stop at its end. */
function sentence(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}${/[.?!]$/.test(text) ? '' : '.'}`;
}

/**
 * What `validateItem` finds of a purchase asked for on its own (the form, a command), in its words
 * (`FORM_WORDS`): each issue one sentence, in the order found; its warnings are what the number's
 * network says (a row's other warnings, such as a file's amount ignored, are not asked of a form).
 */
class PurchaseChecker implements ItemChecker {
  readonly words = FORM_WORDS;
  readonly issues: string[] = [];
  readonly warnings: string[] = [];
  /** The networks of a ported number: the one used, the prefix's. */
  conflict: { given: Network; inferred: Network } | null = null;

  issue(_field: FieldKey, text: string): void {
    this.issues.push(sentence(text));
  }

  warn(): void {}

  networkConflict(_phone: string, given: Network, inferred: Network, text: string): void {
    this.conflict = { given, inferred };
    this.warnings.push(sentence(text));
  }
}

function networkName(network: string): string {
  return NETWORK_LABEL[network as Network] ?? network;
}

function describe(kind: TopUpKind, network: string, planDescription: string): string {
  return kind === 'airtime' ? `${networkName(network)} airtime` : planDescription || `${networkName(network)} data`;
}

function recentText(kind: TopUpKind, phone: string, matches: readonly RecentMatch[]): string | null {
  if (matches.length === 0) return null;
  const last = matches[matches.length - 1];
  const what = kind === 'airtime' ? `${formatNaira(last.amountKobo)} of airtime` : `This data plan (${formatNaira(last.amountKobo)})`;
  const times = matches.length === 1 ? '' : `${matches.length} times, last `;
  return `${what} was already bought for ${phone} in the last 24 hours (${times}${formatDateTime(last.at)}${last.reference ? `, reference ${last.reference}` : ''}, ${last.status.toLowerCase()}).`;
}

/**
 * An airtime or data purchase of `account` and `amountKobo` bought in the last 24 hours on `session`'s
 * connection (its items here and the service's log, as a file's row is checked), and why the log could not be read.
 */
async function recentMatches(session: Session, reads: JobReads, kind: TopUpKind, account: string, amountKobo: number): Promise<{ matches: RecentMatch[]; problem: string | null }> {
  const log = await recentTopUpLog(session.client, kind);
  return { matches: reads.recentPurchases(session.connection.profileId, null, log.entries)(account, amountKobo), problem: log.problem };
}

/**
 * A field typed as text, read as a spreadsheet's cell is (`hiddenInText`): what to read (a tab or a
 * line break as a space), or null when it holds a character a screen obeys or hides (refused to `check`).
 */
function typedText(field: 'network' | 'productCode', text: string, check: PurchaseChecker): string | null {
  const hidden = hiddenInText(text);
  if (hidden === null) return text;
  if (hidden.ok) return hidden.text.trim() || null;
  check.issue(field, hiddenFieldText(field, hidden.character));
  return null;
}

/** The purchase as the catalog of `session`'s connection sells it: its typed fields checked by the one rule a file's row is checked by. */
async function validTopUp(app: AppPart<'db'>, session: Session, request: TopUpInput, phone: string, check: PurchaseChecker): Promise<ValidRow | null> {
  const productCode = request.kind === 'data' ? typedText('productCode', request.productCode, check) : null;
  const networkText = request.network ? typedText('network', request.network, check) : null;
  if (check.issues.length > 0) return null;
  const network = networkText ? networkFromText(networkText) : null;
  if (request.kind === 'airtime') {
    const catalogs = { airtime: await freshCatalog(app, session, 'airtime'), data: [] };
    return validateItem('airtime', { phone, network, productCode: null, amount: { ok: true, kobo: request.amountKobo } }, catalogs, check);
  }
  return validateItem('data', { phone, productCode, network }, { airtime: [], data: await freshCatalog(app, session, 'data') }, check);
}

/** Checks the purchase on `session` as a row of a file is checked, and reads the wallet it would be paid from. Nothing is bought or kept. */
async function checkedTopUp(app: AppPart<'db' | 'service'>, session: Session, request: TopUpInput): Promise<CheckedTopUp> {
  const phone = normalizePhone(request.phone);
  if (!phone.ok) throw new AppError('invalid_phone', `${phone.reason}.`, 'Enter a Nigerian mobile number, like 08031234567.');
  const check = new PurchaseChecker();
  const valid = await validTopUp(app, session, request, phone.phone, check);
  if (!valid || check.issues.length > 0) {
    throw new AppError(
      'invalid_purchase',
      check.issues.join(' '),
      request.kind === 'airtime'
        ? 'Correct the number, the network or the amount, then try again. Nothing was bought.'
        : 'Correct the number or the plan, then try again. Nothing was bought.',
    );
  }
  const { matches, problem } = await recentMatches(session, app.service(createBulkService).reads, request.kind, valid.phone, valid.amountKobo);
  const recent = recentText(request.kind, valid.phone, matches);
  const wallet = await readNgnWallet(session.client).catch(() => null);
  return {
    item: { ...itemOf(valid, check.conflict, recent, 'queued'), costCentre: request.costCentre ?? null },
    description: describe(request.kind, valid.network ?? '', valid.description ?? ''),
    recent,
    warnings: problem ? [...check.warnings, problem] : check.warnings,
    wallet,
    blocker: wallet && wallet.balanceKobo < valid.amountKobo ? `The wallet holds ${formatNaira(wallet.balanceKobo)}, less than ${formatNaira(valid.amountKobo)}.` : null,
  };
}

/** What buying it on `session` would buy, and what it costs the wallet. Nothing is bought; the wallet read is kept. */
export async function checkTopUp(app: AppPart<'db' | 'service'>, session: Session, request: TopUpInput): Promise<TopUpCheckView> {
  const { item, description, recent, warnings, wallet, blocker } = await checkedTopUp(app, session, request);
  if (wallet) keepWalletReading(app, session, wallet, 'purchase');
  const expected = expectedCost(commissionRates(app.db, session.connection.profileId), request.kind, [{ network: item.network, faceKobo: item.amountKobo }]);
  return {
    kind: request.kind,
    phone: item.phone,
    network: item.network,
    productCode: item.productCode,
    description,
    amountKobo: item.amountKobo,
    warnings,
    recent,
    walletKobo: wallet?.balanceKobo ?? null,
    expectedCostKobo: expected.costKobo,
    expectedCostRateKnown: expected.rateKnown,
    blocker,
  };
}

/**
 * Buys the purchase on `session` as a one-item job and waits for the service's answer (the job's
 * outcome wait: a minute by default), then returns its receipt; above a team's approval threshold,
 * its job waiting for approval.
 */
export async function buyTopUp(app: App, session: Session, request: TopUpInput & { repeat: boolean }, options: SingleGateOptions = {}): Promise<TopUpView | WaitingPurchaseView> {
  // Checked, bought and answered on one connection: a switch before it is written refuses it; one
  // after leaves it to run to its answer on the connection it was bought on.
  const { item, description, recent, wallet, blocker } = await checkedTopUp(app, session, request);
  try {
    if (recent && !request.repeat) {
      throw new AppError('recent_duplicate', `${recent} Nothing was bought.`, 'Buy it again only if another purchase is wanted: confirm that you want to buy it again.');
    }
    if (blocker) throw new AppError('wallet_short', `${blocker} Nothing was bought.`, 'Top up the wallet, then buy again.');
    const summary = { kind: request.kind, account: item.phone, phone: item.phone, amountKobo: item.amountKobo, description, customerName: null };
    // Above the team's threshold it waits for approval (written so by the gate, the first time); nothing is bought.
    const approval = await app.service(teamGate).single({ ...summary, request, item }, session, options);
    if (approval.status === 'waiting') return approval.waiting;
    const service = app.service(createBulkService);
    const { jobId, begun } = writeSingle(app, session, () => {
      refuseSameSinglePurchase(service.reads, session.connection.profileId, request.kind, item, description, request.repeat);
      // Approved: bought as the job that waited for it, begun once.
      if (approval.status === 'approved') return { jobId: approval.jobId, begun: service.confirmApprovedSingle(approval.jobId, approval.teamJobId, item) };
      const id = service.lifecycle.createSingleJob(request.kind, session.connection, singleJobName(summary), item);
      return { jobId: id, begun: service.confirmSingle(id) };
    });
    const { job } = await runSingle(service, session, jobId, { begun });
    refuseIfBackToApproval(job);
    // The Dashboard and Transactions show it by the time the receipt is shown, without a sync
    // (settled by a requery, its log entry may not have been read yet); and the receipt shows the
    // wallet cost they count, the log's, even while the purchase is pending.
    const bought = service.reads.items(jobId, { limit: 1 })[0];
    const reference = bought?.reference;
    if (!reference) return toTopUpView(job, bought);
    const entry = (await refreshReferences(app, session, request.kind, [reference])).find((e) => e.transactionId === reference);
    if (entry) service.moves.setCost(jobId, bought.seq, entry.costKobo);
    return toTopUpView(job, service.reads.item(jobId, bought.seq) ?? bought);
  } finally {
    // The wallet it was checked against is kept once it has answered, bought or refused: a
    // snapshot says when the service read it, whenever it is written.
    if (wallet) keepWalletReading(app, session, wallet, 'purchase');
  }
}

/**
 * A single purchase's job written before anything of it is sent, and begun, in one commit, on
 * `session`'s connection or not at all (`write` checks and writes it). The write lock is held from
 * the connection's check to the job's row: another click, window or command buying the same thing
 * now finds this one (and this one finds it), whatever process it runs in. Its commit need not wait
 * for the disk: the one that marks it `sending` does, before its request leaves, and takes this one
 * with it (store/unflushedCommit.ts).
 */
export function writeSingle<T>(app: App, session: Session, write: () => T): T {
  return commitUnflushed(
    app.db,
    () => {
      session.refuseIfSwitched();
      return write();
    },
    { immediate: true },
  );
}

/**
 * Runs a single purchase's job, begun as it was written, on `session` and answers how it ended:
 * one that stopped before it was sent is not left to be resumed (`cancelPausedSingle`).
 */
export async function runSingle(service: BulkService, session: Session, jobId: string, given: Omit<RunGiven, 'session'>): Promise<RunEnded> {
  const run = await service.runConfirmed(jobId, { ...given, session }).catch(async (error: unknown) => {
    // It did not start: the item was never sent.
    await cancelPausedSingle(service, session, jobId, error instanceof Error ? error.message : String(error));
    throw error;
  });
  if (run.job.state !== 'paused') return run;
  await cancelPausedSingle(service, session, jobId, run.job.message);
  return { job: service.reads.job(jobId) ?? run.job, refusal: run.refusal };
}

/**
 * The same single purchase (phone, amount and product) made in the last 24 hours, in this process
 * or another on the same data folder: still under way, it is never bought again; bought, only when
 * asked again (`repeat`). Read in the transaction that writes the new one.
 */
function refuseSameSinglePurchase(reads: JobReads, profileId: string, kind: TopUpKind, item: NewItem, description: string, repeat: boolean): void {
  const since = new Date(Date.now() - 24 * 3600_000).toISOString();
  const states = reads.singlePurchasesLike(profileId, { kind, phone: item.phone, amount_kobo: item.amountKobo, product_code: item.productCode }, since);
  if (states.some((s) => !FINAL_ITEM_STATES.includes(s))) {
    throw new AppError(
      'purchase_in_progress',
      `The same purchase for ${item.phone} is being sent now. Nothing more was bought.`,
      'Wait for its receipt (Purchases → Airtime and data, or `vendesk purchases`).',
    );
  }
  if (!repeat && states.some((s) => SPENDING_STATES.includes(s))) {
    throw new AppError(
      'recent_duplicate',
      `${description} for ${item.phone} was just bought (by another vendesk window or command). Nothing more was bought.`,
      'Buy it again only if another purchase is wanted: confirm that you want to buy it again.',
    );
  }
}

/** A single purchase that was not sent: `purchase_not_sent`, saying why and what to do. Nothing was bought. */
export function notSent(why: string, hint: string): AppError {
  return new AppError('purchase_not_sent', `${why.replace(/\s*$/, '')}${/nothing was (bought|charged)/i.test(why) ? '' : ' Nothing was bought.'}`, hint);
}

/** An approved purchase whose run stopped before it was sent waits to be bought again (`cancelPausedSingle`): said so, as a refusal. */
export function refuseIfBackToApproval(job: JobRow): void {
  if (job.state === 'awaiting_approval') {
    throw notSent(job.message ?? 'It was not sent.', 'It stays approved: buy it again (Approvals → Approved tab, Buy now) once what the message says is fixed.');
  }
}

/**
 * A single purchase that paused before it was sent is not left to be resumed later: it is not bought
 * (one a team member approved waits to be bought again, as approved).
 */
async function cancelPausedSingle(service: BulkService, session: Session, jobId: string, pauseMessage: string | null): Promise<void> {
  const why = (pauseMessage ?? '')
    .replace(/^Paused: /, '')
    .split(/(?<=\.)\s+/)
    .filter((sentence) => sentence !== '' && !/resume/i.test(sentence))
    .join(' ');
  // An approved purchase that was not sent waits to be bought again, as approved (its team job's
  // claim stays this desktop's), whether this run puts it back or another attempt did first.
  if (service.teamJobIdOf(jobId)) {
    if (service.lifecycle.backToApproval(jobId, `Approved, but not sent${why ? `: ${why}` : '.'}`, true)) return;
    if (service.reads.job(jobId)?.state === 'awaiting_approval') return;
  }
  const unsent = service.reads.items(jobId, { states: ['queued', 'held'] }).map((i) => i.seq);
  service.moves.cancelUnsent(jobId, unsent, `Not sent, so nothing was charged${why ? `: ${why}` : '.'}`);
  const job = service.reads.job(jobId);
  if (job) await service.cancelJob(job, session);
}

/**
 * A single purchase whose vendesk stopped while it was being bought is not resumed (nobody asked
 * to buy it later): it is cancelled, so an item never sent is not bought and one that may have
 * been sent is settled from the log, never sent again.
 */
async function settleInterrupted(service: BulkService, session: Session, job: JobRow): Promise<JobRow> {
  if (job.state !== 'running' || !service.status(session.connection, job.id).interrupted) return job;
  await cancelPausedSingle(service, session, job.id, 'vendesk stopped before it was sent.');
  return service.reads.job(job.id) ?? job;
}

/** A single purchase of `session`'s connection, by its id. */
export async function topUpView(service: BulkService, session: Session, id: string): Promise<TopUpView> {
  const found = service.reads.job(id);
  // Another connection's purchases, bulk jobs and electricity or cable purchases are not single top-ups of this one.
  if (!found || found.origin !== 'single' || (found.kind !== 'airtime' && found.kind !== 'data') || found.profile_id !== session.connection.profileId) {
    throw new AppError('purchase_not_found', `There is no airtime or data purchase ${id} on this connection.`, 'Choose one from the recent purchases.');
  }
  const job = await settleInterrupted(service, session, found);
  return toTopUpView(job, service.reads.items(id, { limit: 1 })[0]);
}

/** The latest single purchases of `session`'s connection, newest first. */
export async function recentTopUps(service: BulkService, session: Session, kind: TopUpKind | undefined, limit: number): Promise<TopUpView[]> {
  const { reads } = service;
  const jobs = reads.listJobs(session.connection.profileId, limit, 'single', kind ? [kind] : ['airtime', 'data']);
  const views: TopUpView[] = [];
  for (const found of jobs) views.push(toTopUpView(await settleInterrupted(service, session, found), reads.items(found.id, { limit: 1 })[0]));
  return views;
}

/** The notes a job's row carries that a receipt says in its own words: shown once, not twice. */
const RECEIPT_SAYS_IT: ReadonlySet<string> = new Set([PENDING_AT_SERVICE, FAILED_REASON]);

function toTopUpView(job: JobRow, row: ItemRow): TopUpView {
  const item = itemView(row);
  const kind = job.kind === 'data' ? 'data' : 'airtime';
  const description = describe(kind, item.network, item.description);
  const state = job.state === 'awaiting_approval' ? job.state : item.state;
  const { text: statusText, whatToDo } = stateMeaning({ of: 'top-up', state, kind, phone: item.phone, amountKobo: item.amountKobo, costKobo: row.cost_kobo, description });
  return {
    id: job.id,
    kind,
    state: item.state,
    statusText: statusText ?? '',
    whatToDo,
    connectionKind: job.connection_kind,
    phone: item.phone,
    network: item.network,
    productCode: item.productCode,
    description,
    amountKobo: item.amountKobo,
    costKobo: row.cost_kobo,
    refundedKobo: item.state === 'failed' ? row.cost_kobo : null,
    reference: item.reference,
    // vendesk's own note on a job's row (pending; failed and refunded) says what the receipt's status and what-to-do already do.
    reason: item.reason !== null && RECEIPT_SAYS_IT.has(item.reason) ? null : item.reason,
    settledBy: item.settledBy,
    createdAt: job.confirmed_at ?? job.created_at,
    finalAt: row.final_at,
  };
}
