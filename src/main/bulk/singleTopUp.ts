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
 */
import { formatDateTime } from '../../shared/localDates';
import { AppError } from '../../shared/appError';
import type { TopUpCheckView, TopUpKind, TopUpRequest, TopUpView, WaitingPurchaseView } from '../../shared/contract/purchases';
import { awaitingApprovalHint } from '../../shared/contract/team';
import { formatNaira } from '../../shared/money';
import { NETWORK_LABEL, normalizePhone, type Network } from '../../shared/phone';
import type { App, AppPart } from '../appContext';
import { emptyMapping, singlePurchaseText, type RecentDuplicate, type SheetTable } from '../imports';
import { walletKoboOrNull } from '../transactions/balanceSnapshots';
import { commissionRates, expectedCost } from '../transactions/expectedCost';
import { refreshReferences } from '../transactions/mirrorRefresh';
import { createBulkService, itemView } from './bulkService';
import { catalogsFor } from './draftFromFile';
import { jobsChanged } from './jobEvents';
import type { ItemRow, JobRow, JobStore, NewItem } from './jobStore';
import { FINAL_ITEM_STATES, PENDING_AT_SERVICE, SPENDING_STATES } from './jobStates';
import { FAILED_REASON } from './itemOutcomes';
import { itemsFromValidation, recentLog, recentLookupFor, validate } from './prepareJob';
import { teamGate, type SingleGateOptions } from './teamGate';
import { refuseIfConnectionChanged } from '../sessionGuard';
import { commitUnflushed } from '../store/unflushedCommit';

/** A request as the contract parses it. */
export type TopUpInput = Extract<TopUpRequest, { kind: 'airtime' }> | Extract<TopUpRequest, { kind: 'data' }>;

interface Checked {
  view: TopUpCheckView;
  item: NewItem;
}

function networkName(network: string): string {
  return NETWORK_LABEL[network as Network] ?? network;
}

function describe(kind: TopUpKind, network: string, planDescription: string): string {
  return kind === 'airtime' ? `${networkName(network)} airtime` : planDescription || `${networkName(network)} data`;
}

/** The purchase as a one-row sheet: the same validation, catalogs and duplicate checks as a bulk row. */
function oneRowTable(request: TopUpInput): SheetTable {
  const amount = request.kind === 'airtime' ? request.amountKobo / 100 : null;
  const productCode = request.kind === 'data' ? request.productCode : null;
  return {
    format: 'csv',
    sheetName: null,
    fileHash: '',
    headerRow: 1,
    headers: ['Phone', 'Amount', 'Network', 'Product code'],
    rows: [{ row: 2, cells: [request.phone, amount, request.network ?? null, productCode] }],
  };
}

function recentText(kind: TopUpKind, phone: string, d: RecentDuplicate | undefined): string | null {
  if (!d) return null;
  const last = d.matches[d.matches.length - 1];
  const what = kind === 'airtime' ? `${formatNaira(d.amountKobo)} of airtime` : `This data plan (${formatNaira(d.amountKobo)})`;
  const times = d.matches.length === 1 ? '' : `${d.matches.length} times, last `;
  return `${what} was already bought for ${phone} in the last 24 hours (${times}${formatDateTime(last.at)}${last.reference ? `, reference ${last.reference}` : ''}, ${last.status.toLowerCase()}).`;
}

/** Validates the purchase as the bulk engine would, and says what it would buy. Nothing is bought. */
export async function checkTopUp(app: App, request: TopUpInput): Promise<Checked> {
  const phone = normalizePhone(request.phone);
  if (!phone.ok) throw new AppError('invalid_phone', `${phone.reason}.`, 'Enter a Nigerian mobile number, like 08031234567.');
  const service = app.service(createBulkService);
  const table = oneRowTable(request);
  const mapping = emptyMapping();
  Object.assign(mapping, { phone: 0, amount: request.kind === 'airtime' ? 1 : null, network: request.network ? 2 : null, productCode: request.kind === 'data' ? 3 : null });
  const log = await recentLog(app.client(), request.kind);
  const result = validate(
    table,
    mapping,
    request.kind,
    await catalogsFor(app, request.kind),
    recentLookupFor(service.store, app.connection.profileId, request.kind, null, log.entries),
  );
  if (result.errors.length > 0) {
    throw new AppError(
      'invalid_purchase',
      result.errors.map((e) => singlePurchaseText(e.message)).join(' '),
      request.kind === 'airtime'
        ? 'Correct the number, the network or the amount, then try again. Nothing was bought.'
        : 'Correct the number or the plan, then try again. Nothing was bought.',
    );
  }
  const [item] = [...itemsFromValidation(result, true)];
  const valid = result.valid[0];
  const recent = recentText(
    request.kind,
    item.phone,
    result.duplicates.find((d): d is RecentDuplicate => d.kind === 'recent'),
  );
  const warnings = [...result.networkConflicts.map((c) => singlePurchaseText(c.message)), ...(log.problem ? [log.problem] : [])];
  const walletKobo = await walletKoboOrNull(app, 'purchase');
  const expected = expectedCost(commissionRates(app.db, app.connection.profileId), request.kind, [{ network: item.network, faceKobo: item.amountKobo }]);
  const blocker = walletKobo !== null && walletKobo < item.amountKobo ? `The wallet holds ${formatNaira(walletKobo)}, less than ${formatNaira(item.amountKobo)}.` : null;
  return {
    item: { ...item, duplicateOf: recent, costCentre: request.costCentre ?? null },
    view: {
      kind: request.kind,
      phone: item.phone,
      network: item.network,
      productCode: item.productCode,
      description: describe(request.kind, item.network, valid.description ?? ''),
      amountKobo: item.amountKobo,
      warnings,
      recent,
      walletKobo,
      expectedCostKobo: expected.costKobo,
      expectedCostRateKnown: expected.rateKnown,
      blocker,
    },
  };
}

/**
 * Buys the purchase as a one-item job and waits for the service's answer (the job's outcome wait:
 * a minute by default), then returns its receipt; above a team's approval threshold, its job
 * waiting for approval.
 */
export async function buyTopUp(app: App, request: TopUpInput & { repeat: boolean }, options: SingleGateOptions = {}): Promise<TopUpView | WaitingPurchaseView> {
  // Checked, bought and answered on one connection: a switch before it is written refuses it; one
  // after leaves it to run to its answer on the connection it was bought on.
  const session = app.session();
  const { view: check, item } = await checkTopUp(app, request);
  if (check.recent && !request.repeat) {
    throw new AppError('recent_duplicate', `${check.recent} Nothing was bought.`, 'Buy it again only if another purchase is wanted: confirm that you want to buy it again.');
  }
  if (check.blocker) throw new AppError('wallet_short', `${check.blocker} Nothing was bought.`, 'Top up the wallet, then buy again.');
  const approval = await app
    .service(teamGate)
    .single({ kind: request.kind, account: item.phone, phone: item.phone, amountKobo: item.amountKobo, description: check.description, customerName: null, request }, options);
  const service = app.service(createBulkService);
  const connection = session.connection;
  const fileName = `${check.description} for ${item.phone}`;
  // Above the team's threshold: it waits for approval (written so, the first time); nothing is bought.
  if (approval.status === 'unsent')
    return approval.submit((message, link) => service.store.createWaitingSingle(request.kind, connection, fileName, { ...item, state: 'queued' }, message, link));
  if (approval.status === 'waiting') return approval.waiting;
  // The write lock is held from here to the job's row: another click, window or command buying
  // the same thing now finds this one (and this one finds it), whatever process it runs in.
  // Written before anything of it is sent, its commit need not wait for the disk: the one that marks
  // it sending does, before its request leaves, and takes this one with it (store/unflushedCommit.ts).
  const { jobId, begun } = commitUnflushed(
    app.db,
    () => {
      refuseIfConnectionChanged(app, session);
      refuseSameSinglePurchase(service.store, connection.profileId, request.kind, item, check.description, request.repeat);
      // Approved: bought as the job that waited for it, begun once.
      if (approval.status === 'approved') return { jobId: approval.jobId, begun: service.confirmApprovedSingle(approval.jobId, approval.teamJobId, { ...item, state: 'queued' }) };
      const id = service.store.createSingleJob(request.kind, connection, fileName, { ...item, state: 'queued' });
      return { jobId: id, begun: service.confirmSingle(id) };
    },
    { immediate: true },
  );
  jobsChanged((topics, reason) => app.invalidate(topics, reason));
  let finished: JobRow;
  try {
    finished = await service.runConfirmed(jobId, { begun });
  } catch (error) {
    // It did not start: the item was never sent.
    await cancelPausedSingle(app, jobId, error instanceof Error ? error.message : String(error));
    throw error;
  }
  if (finished.state === 'paused') {
    await cancelPausedSingle(app, jobId, finished.message);
    finished = service.store.job(jobId) ?? finished;
  }
  refuseIfBackToApproval(finished);
  // The Dashboard and Transactions show it by the time the receipt is shown, without a sync
  // (settled by a requery, its log entry may not have been read yet); and the receipt shows the
  // wallet cost they count, the log's, even while the purchase is pending.
  const bought = service.store.items(jobId, { limit: 1 })[0];
  const reference = bought?.reference;
  if (!reference) return toTopUpView(finished, bought);
  const entry = (await refreshReferences(app, session, request.kind, [reference])).find((e) => e.transactionId === reference);
  if (entry) service.store.setCost(jobId, bought.seq, entry.costKobo);
  return toTopUpView(finished, service.store.item(jobId, bought.seq) ?? bought);
}

/**
 * The same single purchase (phone, amount and product) made in the last 24 hours, in this process
 * or another on the same data folder: still under way, it is never bought again; bought, only when
 * asked again (`repeat`). Read in the transaction that writes the new one.
 */
function refuseSameSinglePurchase(store: JobStore, profileId: string, kind: TopUpKind, item: NewItem, description: string, repeat: boolean): void {
  const since = new Date(Date.now() - 24 * 3600_000).toISOString();
  const states = store.singlePurchasesLike(profileId, { kind, phone: item.phone, amount_kobo: item.amountKobo, product_code: item.productCode }, since);
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
export async function cancelPausedSingle(app: AppPart<'service'>, jobId: string, pauseMessage: string | null): Promise<void> {
  const service = app.service(createBulkService);
  const why = (pauseMessage ?? '')
    .replace(/^Paused: /, '')
    .split(/(?<=\.)\s+/)
    .filter((sentence) => sentence !== '' && !/resume/i.test(sentence))
    .join(' ');
  // An approved purchase that was not sent waits to be bought again, as approved (its team job's
  // claim stays this desktop's), whether this run puts it back or another attempt did first.
  if (app.service(teamGate).teamJobIdOf(jobId)) {
    if (service.store.backToApproval(jobId, `Approved, but not sent${why ? `: ${why}` : '.'}`, true)) return;
    if (service.store.job(jobId)?.state === 'awaiting_approval') return;
  }
  const unsent = service.store.items(jobId, { states: ['queued', 'held'] }).map((i) => i.seq);
  service.store.transition(jobId, unsent, 'cancelled', { reason: `Not sent, so nothing was charged${why ? `: ${why}` : '.'}` }, ['queued', 'held']);
  const job = service.store.job(jobId);
  if (job) await service.cancelJob(job);
}

/**
 * A single purchase whose vendesk stopped while it was being bought is not resumed (nobody asked
 * to buy it later): it is cancelled, so an item never sent is not bought and one that may have
 * been sent is settled from the log, never sent again.
 */
async function settleInterrupted(app: AppPart<'service'>, job: JobRow): Promise<JobRow> {
  const service = app.service(createBulkService);
  if (job.state !== 'running' || !service.status(job.id).interrupted) return job;
  await cancelPausedSingle(app, job.id, 'vendesk stopped before it was sent.');
  return service.store.job(job.id) ?? job;
}

/** A single purchase of the connection in use, by its id. */
export async function topUpView(app: AppPart<'connection' | 'service'>, id: string): Promise<TopUpView> {
  const service = app.service(createBulkService);
  const found = service.store.job(id);
  // Another connection's purchases, bulk jobs and electricity or cable purchases are not single top-ups of this one.
  if (!found || found.origin !== 'single' || (found.kind !== 'airtime' && found.kind !== 'data') || found.profile_id !== app.connection.profileId) {
    throw new AppError('purchase_not_found', `There is no airtime or data purchase ${id} on this connection.`, 'Choose one from the recent purchases.');
  }
  const job = await settleInterrupted(app, found);
  return toTopUpView(job, service.store.items(id, { limit: 1 })[0]);
}

/** The latest single purchases of the connection in use, newest first. */
export async function recentTopUps(app: AppPart<'connection' | 'service'>, kind: TopUpKind | undefined, limit: number): Promise<TopUpView[]> {
  const store = app.service(createBulkService).store;
  const jobs = store.listJobs(app.connection.profileId, limit, 'single', kind ? [kind] : ['airtime', 'data']);
  const views: TopUpView[] = [];
  for (const found of jobs) views.push(toTopUpView(await settleInterrupted(app, found), store.items(found.id, { limit: 1 })[0]));
  return views;
}

/** The notes a job's row carries that a receipt says in its own words: shown once, not twice. */
const RECEIPT_SAYS_IT: ReadonlySet<string> = new Set([PENDING_AT_SERVICE, FAILED_REASON]);

/**
 * What came back to the wallet for a failed purchase, stated once and never assumed: the wallet
 * cost of its FAILED entry in the service's log (what it charged, which the service refunds);
 * until vendesk has read that entry, without a figure.
 */
function refundText(costKobo: number | null): string {
  return costKobo === null
    ? "The service refunds what it charged to the wallet automatically; vendesk shows the amount once it has read the purchase in the service's log."
    : `The service refunds what it charged for it, ${formatNaira(costKobo)} as its log records, to the wallet automatically.`;
}

function toTopUpView(job: JobRow, row: ItemRow): TopUpView {
  const item = itemView(row);
  const kind = job.kind === 'data' ? 'data' : 'airtime';
  const description = describe(kind, item.network, item.description);
  const amount = formatNaira(item.amountKobo);
  const { statusText, whatToDo } = ((): { statusText: string; whatToDo: string | null } => {
    if (job.state === 'awaiting_approval') {
      return { statusText: 'Waiting for approval by another team member. Nothing was bought yet.', whatToDo: awaitingApprovalHint('purchase') };
    }
    switch (item.state) {
      case 'success':
        return { statusText: `Delivered: ${kind === 'airtime' ? `${amount} of ${description}` : description} to ${item.phone}.`, whatToDo: null };
      case 'failed':
        return {
          statusText: `Failed at the network: ${item.phone} did not receive it. ${refundText(row.cost_kobo)}`,
          whatToDo: 'Buy it again if it is still wanted.',
        };
      case 'accepted':
      case 'pending':
        return {
          statusText: 'Accepted by the service, not confirmed yet.',
          whatToDo: "Do not buy it again. vendesk keeps reading the service's log (and requeries it from 2 minutes after sending); check again in a few minutes.",
        };
      case 'rejected':
        return { statusText: 'Not bought: the service refused it. Nothing was charged.', whatToDo: 'Correct what the reason says, then buy again.' };
      case 'uncertain':
      case 'sending':
        return {
          statusText: 'Sent, but no answer came back: it may have been bought.',
          whatToDo: "Do not buy it again. vendesk settles it from the service's log and never sends it again; check again in a few minutes.",
        };
      case 'cancelled':
        return { statusText: 'Not bought. Nothing was charged.', whatToDo: 'Buy it again when what the reason says is fixed.' };
      default:
        return { statusText: 'Not sent yet. Nothing was charged so far.', whatToDo: null };
    }
  })();
  return {
    id: job.id,
    kind,
    state: item.state,
    statusText,
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
