/**
 * The Pending page's data: purchases without a final answer, when each is due, what support
 * needs for the stuck ones, checking now, and resolving by hand with a note.
 */
import { formatDateTimeSeconds } from '../../shared/localDates';
import type { PendingCounts, PendingItemView, RequeryRunSummary, SupportDetails } from '../../shared/contract/pending';
import { AppError } from '../../shared/appError';
import { formatNaira } from '../../shared/money';
import type { AppPart, Connection, Session } from '../appContext';
import { describeAccount, findPurchaseRow, listPurchaseRows, toPurchaseView, updatePurchase, OPEN_STATES, type PurchaseRow } from '../purchases/purchaseStore';
import { createPendingScheduler } from './pendingScheduler';
import { requeryPurchase } from '../purchases/requeryPurchase';
import { createServiceClock } from '../api/serviceClock';
import { createBulkService } from '../buying/bulkService';
import type { RequeryOutcome } from '../buying/itemOutcomes';
import { serviceAnswersFromMs } from '../api/requeryBackoff';
import { learnServiceClock } from '../api/walletReading';

/** States counted as "waiting for a final answer" (the dashboard's number). */
const WAITING_STATES = ['sending', 'pending', 'uncertain', 'needs_support'] as const;

/** When the purchase was made, on the service clock where it is known. */
function purchasedMs(row: PurchaseRow): number {
  return row.purchased_ms ?? row.sent_ms ?? Date.parse(row.created_at);
}

/** From when the service answers a requery of this purchase (null: nothing to ask); an uncertain one is looked for in the log, at any time. */
function requeryAllowedMs(row: PurchaseRow, now: number): number | null {
  if (row.state === 'uncertain') return now;
  if (row.state !== 'pending') return null;
  return serviceAnswersFromMs(purchasedMs(row), row.requery_attempts, row.next_requery_ms);
}

function supportDetails(row: PurchaseRow): SupportDetails {
  const purchasedAt = new Date(purchasedMs(row)).toISOString();
  const account = describeAccount(row).replace(/^./, (c) => c.toUpperCase());
  const lines = [
    `Reference: ${row.reference ?? '(none: the answer was lost)'}`,
    `Purchase time (Lagos): ${formatDateTimeSeconds(purchasedAt)}`,
    `Amount: ${formatNaira(row.amount_kobo)}`,
    `${account}`,
    `Customer phone: ${row.phone}`,
    `Status checks answered: ${row.requery_attempts}`,
  ];
  return { reference: row.reference, purchasedAt, amountKobo: row.amount_kobo, account, phone: row.phone, attempts: row.requery_attempts, text: lines.join('\n') };
}

export function pendingItemView(app: AppPart<'service'>, row: PurchaseRow): PendingItemView {
  const clock = app.service(createServiceClock);
  const now = clock.now();
  const waiting = row.state === 'pending' || row.state === 'uncertain';
  const dueMs = waiting ? row.next_requery_ms : null;
  const secondsUntil = (ms: number | null) => (ms === null ? null : Math.max(0, Math.ceil((ms - now) / 1000)));
  // Times the window shows are on this computer's clock.
  const local = (ms: number | null) => (ms === null ? null : new Date(ms - clock.offsetMs()).toISOString());
  const dueIn = secondsUntil(dueMs);
  const allowedMs = requeryAllowedMs(row, now);
  return {
    purchase: toPurchaseView(row),
    dueAt: local(dueMs),
    dueInSeconds: dueIn,
    due: dueIn === 0,
    requeryAllowedAt: local(allowedMs),
    requeryAllowedInSeconds: secondsUntil(allowedMs),
    support: row.state === 'needs_support' || row.state === 'uncertain' || row.state === 'not_found' ? supportDetails(row) : null,
  };
}

/** The Pending page's purchases of `connection`: the open ones, and with `includeSettled` those settled by a check, the log or a person in the last 7 days. */
export function listPendingItems(app: AppPart<'db' | 'service'>, connection: Connection, includeSettled = false): PendingItemView[] {
  const open = listPurchaseRows(app, connection, { states: OPEN_STATES });
  const settled = includeSettled
    ? listPurchaseRows(app, connection, { since: new Date(Date.now() - 7 * 86_400_000).toISOString() }).filter(
        (r) => !OPEN_STATES.includes(r.state) && (r.requery_tries > 0 || r.settled_by === 'log' || r.settled_by === 'manual'),
      )
    : [];
  return [...open, ...settled].map((r) => pendingItemView(app, r));
}

/** How many purchases wait for a final answer: the dashboard shows this number. */
export function countPendingItems(app: AppPart<'db'>, connection: Pick<Connection, 'profileId'>): number {
  const row = app.db
    .prepare(`SELECT COUNT(*) AS n FROM purchases WHERE profile_id = ? AND state IN (${WAITING_STATES.map(() => '?').join(', ')})`)
    .get(connection.profileId, ...WAITING_STATES) as { n: number };
  return row.n;
}

export function pendingCounts(app: AppPart<'db' | 'service'>, connection: Connection): PendingCounts {
  const rows = listPurchaseRows(app, connection, { states: WAITING_STATES });
  const scheduler = app.service(createPendingScheduler);
  return {
    count: rows.length,
    due: scheduler.dueRows(connection).length,
    needsSupport: rows.filter((r) => r.state === 'needs_support').length,
    uncertain: rows.filter((r) => r.state === 'uncertain' || r.state === 'sending').length,
  };
}

function rowOrThrow(app: AppPart<'db'>, connection: Connection, id: string): PurchaseRow {
  const row = findPurchaseRow(app, connection, id);
  if (!row) throw new AppError('purchase_not_found', `There is no purchase ${id} on this computer.`, 'Reload the Pending page.');
  return row;
}

/**
 * Whether the service may be asked about this purchase now: a pending one from the moment it
 * answers (`serviceAnswersFromMs`), whatever vendesk's own schedule says; an uncertain one (looked
 * for in the log) at any time.
 */
function askableNow(app: AppPart<'service'>, row: PurchaseRow): boolean {
  const now = app.service(createServiceClock).now();
  const allowed = requeryAllowedMs(row, now);
  return allowed !== null && allowed <= now;
}

/**
 * "Requery now" (the Pending page), on `session`, asks at once when the service answers, as `vendesk requery`
 * does. Earlier, nothing is sent — the service would refuse it (425) — and the answer says from
 * when (`requeryAllowedAt`): the requery loop asks at that moment, the purchase's next check.
 */
export async function requeryNow(app: AppPart<'db' | 'service'>, session: Session, id: string): Promise<PendingItemView> {
  const scheduler = app.service(createPendingScheduler);
  const row = rowOrThrow(app, session.connection, id);
  if (row.state === 'sending') {
    throw new AppError('still_sending', 'This purchase is still being sent.', 'Wait for its answer; it shows here when it comes.');
  }
  await learnServiceClock(session.client);
  if (!askableNow(app, row)) return pendingItemView(app, row);
  const updated = await scheduler.run(() => requeryPurchase(app, session, id));
  return pendingItemView(app, updated);
}

/**
 * vendesk's own airtime or data item the service knows by `reference`, asked about now on
 * `session` through the one requery path, queued behind the requery loop's asks (one check of an
 * item at a time): its answer settles the item at once. Null when vendesk bought nothing with that
 * reference on this connection. Reconcile's "Requery all pending".
 */
export function requeryOwnTopUp(app: AppPart<'service'>, session: Session, reference: string): Promise<RequeryOutcome | null> {
  return app.service(createPendingScheduler).run(() => app.service(createBulkService).requeryTopUpNow(session, reference));
}

/** Checks the purchases of `session`'s connection that are due (or, with `all`, every one waiting), on it. */
export async function requeryDue(app: AppPart<'db' | 'service'>, session: Session, all: boolean): Promise<RequeryRunSummary> {
  const scheduler = app.service(createPendingScheduler);
  await learnServiceClock(session.client);
  const rows = all ? listPurchaseRows(app, session.connection, { states: ['pending', 'uncertain'] }) : scheduler.dueRows(session.connection);
  const summary: RequeryRunSummary = { checked: 0, success: 0, failed: 0, stillPending: 0, needsSupport: 0, notFound: 0, rescheduled: 0, items: [] };
  for (const row of rows) {
    let updated: PurchaseRow;
    if (!askableNow(app, row)) {
      // The service does not answer it yet: not asked; its next check is the moment it does.
      summary.checked++;
      summary.rescheduled++;
      summary.items.push(pendingItemView(app, row));
      continue;
    }
    try {
      updated = await scheduler.run(() => requeryPurchase(app, session, row.id));
    } catch (error) {
      if (error instanceof AppError && error.code === 'other_connection') continue;
      throw error;
    }
    summary.checked++;
    if (updated.state === 'success') summary.success++;
    else if (updated.state === 'failed') summary.failed++;
    else if (updated.state === 'needs_support') summary.needsSupport++;
    else if (updated.state === 'not_found') summary.notFound++;
    else if (updated.requery_attempts > row.requery_attempts) summary.stillPending++;
    else summary.rescheduled++;
    summary.items.push(pendingItemView(app, updated));
  }
  return summary;
}

/** A person settles it: support confirmed, or the log/wallet shows the outcome. Kept with the note. */
export function resolveByHand(
  app: AppPart<'db' | 'service'>,
  connection: Connection,
  input: { id: string; outcome: 'SUCCESS' | 'FAILED'; note: string; token?: string },
): PendingItemView {
  const row = rowOrThrow(app, connection, input.id);
  if (!OPEN_STATES.includes(row.state)) {
    throw new AppError('already_settled', `This purchase is already settled (${row.state}).`, 'Nothing to resolve.');
  }
  const at = new Date().toISOString();
  const updated = updatePurchase(app, input.id, {
    state: input.outcome === 'SUCCESS' ? 'success' : 'failed',
    token: input.outcome === 'SUCCESS' && input.token ? input.token : row.token,
    reason: input.outcome === 'FAILED' ? `resolved by hand as failed: ${input.note}` : row.reason,
    hint: input.outcome === 'FAILED' ? 'Resolved by hand. Buy again if the customer still needs it.' : row.hint,
    note: input.note,
    settled_by: 'manual',
    next_requery_ms: null,
    final_at: at,
  });
  return pendingItemView(app, updated);
}
