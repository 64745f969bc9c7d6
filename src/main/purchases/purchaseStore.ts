/**
 * The `purchases` table (migration 006): one row per electricity or cable purchase, written in
 * state `sending` before its request leaves. Rows are read into `PurchaseRow` and shown as
 * `PurchaseView` (the receipt); every state change goes through `updatePurchase`.
 */
import { randomUUID } from 'node:crypto';
import type { PurchaseKind, PurchaseState, PurchaseView, RefundState, VendTypeInput } from '../../shared/contract/purchases';
import { formatNaira } from '../../shared/money';
import { AppError } from '../../shared/appError';
import type { ParsedLogEntry } from '../api/parseLogEntry';
import type { AppPart, Connection, Session } from '../appContext';
import { stateMeaning } from '../stateMeaning';
import { prepared } from '../store/prepared';
import { purchaseFollower } from './purchaseFollower';

export interface PurchaseRow {
  id: string;
  kind: PurchaseKind;
  source: string;
  state: PurchaseState;
  profile_id: string;
  connection_kind: 'sandbox' | 'live';
  base_url: string;
  provider_code: string;
  provider_name: string;
  account: string;
  vend_type: VendTypeInput | null;
  bouquet_code: string;
  bouquet_name: string;
  amount_kobo: number;
  phone: string;
  customer_name: string;
  customer_address: string;
  customer_type: string;
  reference: string | null;
  token: string | null;
  units: number | null;
  receipt_no: string | null;
  commission_kobo: number | null;
  reason: string | null;
  hint: string | null;
  refund_state: RefundState;
  refund_evidence: string | null;
  /** What the wallet got back (the FAILED log entry's wallet cost), once read; never the face value. */
  refunded_kobo: number | null;
  /** When the request left and its answer arrived, on this computer's clock (epoch ms). */
  local_sent_ms: number | null;
  local_answered_ms: number | null;
  balance_before_kobo: number | null;
  balance_after_kobo: number | null;
  sent_ms: number | null;
  purchased_ms: number | null;
  requery_attempts: number;
  requery_tries: number;
  next_requery_ms: number | null;
  last_requery_at: string | null;
  last_requery_note: string | null;
  settled_by: 'answer' | 'requery' | 'log' | 'manual' | null;
  note: string | null;
  created_at: string;
  updated_at: string;
  final_at: string | null;
}

/** What one purchase state means: one row of the purchase state table. */
export interface PurchaseStateRow {
  /** It may still be charged or completed: a duplicate of it is refused. */
  unsettled: boolean;
  /** The requery loop, the log or a person can still settle it. */
  open: boolean;
  /** Settled for good: its state never changes again (its refund check and figures may still be filled in). */
  final: boolean;
}

/**
 * The purchase state table (electricity and cable purchases, single or a bulk row's): the one place
 * these states' meanings are written. An open purchase may move to any state; a final one keeps
 * its state, which `updatePurchase` holds (a late writer — the log read after a requery settled
 * it — leaves it as it was) and migration 21 makes the database hold too.
 */
export const PURCHASE_STATE_TABLE: { readonly [S in PurchaseState]: PurchaseStateRow } = {
  sending: { unsettled: true, open: true, final: false },
  pending: { unsettled: true, open: true, final: false },
  uncertain: { unsettled: true, open: true, final: false },
  needs_support: { unsettled: true, open: true, final: false },
  not_found: { unsettled: false, open: true, final: false },
  success: { unsettled: false, open: false, final: true },
  failed: { unsettled: false, open: false, final: true },
  rejected: { unsettled: false, open: false, final: true },
};

const purchaseStatesWhere = (test: (row: PurchaseStateRow) => boolean): readonly PurchaseState[] =>
  (Object.keys(PURCHASE_STATE_TABLE) as PurchaseState[]).filter((s) => test(PURCHASE_STATE_TABLE[s]));

/** States in which the purchase may still be charged or completed: a duplicate is refused. */
export const UNSETTLED_STATES: readonly PurchaseState[] = purchaseStatesWhere((r) => r.unsettled);
/** States the requery loop or the log can still settle. */
export const OPEN_STATES: readonly PurchaseState[] = purchaseStatesWhere((r) => r.open);
/** States nothing moves a purchase out of. */
export const FINAL_PURCHASE_STATES: readonly PurchaseState[] = purchaseStatesWhere((r) => r.final);

export type NewPurchase = Pick<
  PurchaseRow,
  | 'kind'
  | 'provider_code'
  | 'provider_name'
  | 'account'
  | 'vend_type'
  | 'bouquet_code'
  | 'bouquet_name'
  | 'amount_kobo'
  | 'phone'
  | 'customer_name'
  | 'customer_address'
  | 'customer_type'
  | 'balance_before_kobo'
> & { source?: string };

const nowIso = (): string => new Date().toISOString();

/** Whether this purchase was made on the connection of `session`: only that service is asked about it. */
export function onConnection(session: Session, row: PurchaseRow): boolean {
  return row.profile_id === session.connection.profileId;
}

export function notOnThisConnection(row: PurchaseRow): AppError {
  return new AppError(
    'other_connection',
    `This purchase was made on another connection (${row.connection_kind === 'live' ? 'LIVE' : 'SANDBOX'} ${row.base_url}).`,
    'Switch to that connection profile in Settings to check it.',
  );
}

/** Writes the purchase in state `sending` and commits, before anything is sent. */
export function insertSendingPurchase(app: AppPart<'db'>, session: Session, purchase: NewPurchase, sentMs: number): PurchaseRow {
  const id = `P${Date.now().toString(36).toUpperCase()}${randomUUID().slice(0, 8).toUpperCase()}`;
  const at = nowIso();
  const c = session.connection;
  prepared(
    app.db,
    `INSERT INTO purchases (id, kind, source, state, profile_id, connection_kind, base_url, provider_code, provider_name, account, vend_type,
        bouquet_code, bouquet_name, amount_kobo, phone, customer_name, customer_address, customer_type, balance_before_kobo, sent_ms, local_sent_ms, created_at, updated_at)
       VALUES (@id, @kind, @source, 'sending', @profile_id, @connection_kind, @base_url, @provider_code, @provider_name, @account, @vend_type,
        @bouquet_code, @bouquet_name, @amount_kobo, @phone, @customer_name, @customer_address, @customer_type, @balance_before_kobo, @sent_ms, @local_sent_ms, @at, @at)`,
  ).run({
    ...purchase,
    source: purchase.source ?? 'single',
    id,
    profile_id: c.profileId,
    connection_kind: c.kind,
    base_url: c.baseUrl,
    sent_ms: sentMs,
    local_sent_ms: Date.now(),
    at,
  });
  return getPurchaseRow(app, id);
}

/** A purchase of `connection` (null for another connection's: it is not shown there). */
export function findPurchaseRow(app: AppPart<'db'>, connection: Pick<Connection, 'profileId'>, id: string): PurchaseRow | null {
  return (prepared(app.db, 'SELECT * FROM purchases WHERE id = ? AND profile_id = ?').get(id, connection.profileId) as PurchaseRow | undefined) ?? null;
}

/** A purchase the caller already holds (any connection): for updates of a row it is working on. */
export function getPurchaseRow(app: AppPart<'db'>, id: string): PurchaseRow {
  const row = prepared(app.db, 'SELECT * FROM purchases WHERE id = ?').get(id) as PurchaseRow | undefined;
  if (!row) throw new Error(`purchase ${id} vanished`);
  return row;
}

type Changes = Partial<Omit<PurchaseRow, 'id' | 'created_at'>>;

export function updatePurchase(app: AppPart<'db' | 'service'>, id: string, changes: Changes): PurchaseRow {
  const entries = Object.entries(changes).filter(([, v]) => v !== undefined);
  const sets = [...entries.map(([k]) => `${k} = @${k}`), 'updated_at = @updated_at'];
  // A final purchase keeps its state: a change of state applies only to an open one (or one
  // already in that state). Refused, nothing of `changes` is written and the row is returned as it is.
  const guard = changes.state === undefined ? '' : ` AND (state = @state OR state NOT IN (${FINAL_PURCHASE_STATES.map((f) => `'${f}'`).join(', ')}))`;
  app.db.transaction(() => {
    const written = prepared(app.db, `UPDATE purchases SET ${sets.join(', ')} WHERE id = @id${guard}`).run({ ...Object.fromEntries(entries), updated_at: nowIso(), id });
    // A bulk row bought as this purchase moves with it, in this transaction.
    if (written.changes > 0) app.service(purchaseFollower).followed(id, Object.keys(changes));
  })();
  return getPurchaseRow(app, id);
}

/**
 * The unsettled purchase a new one would duplicate (same meter/smartcard and amount, and bouquet
 * for cable) on the same connection: another service's purchase cannot be charged twice here.
 */
export function findBlockingPurchase(
  app: AppPart<'db'>,
  connection: Pick<Connection, 'profileId'>,
  key: { kind: PurchaseKind; account: string; amountKobo: number; bouquetCode?: string },
): PurchaseRow | null {
  const placeholders = UNSETTLED_STATES.map(() => '?').join(', ');
  // By the account's index (`purchases_key`), not by the connection's: a connection has thousands of purchases, an account a few.
  const row = prepared(
    app.db,
    `SELECT * FROM purchases WHERE +profile_id = ? AND kind = ? AND account = ? AND amount_kobo = ? AND bouquet_code = ? AND state IN (${placeholders})
       ORDER BY created_at DESC LIMIT 1`,
  ).get(connection.profileId, key.kind, key.account, key.amountKobo, key.bouquetCode ?? '', ...UNSETTLED_STATES) as PurchaseRow | undefined;
  return row ?? null;
}

/** Purchases of `connection`, newest first. */
export function listPurchaseRows(
  app: AppPart<'db'>,
  connection: Pick<Connection, 'profileId'>,
  options: { states?: readonly PurchaseState[]; kind?: PurchaseKind; limit?: number; since?: string } = {},
): PurchaseRow[] {
  const where: string[] = ['profile_id = ?'];
  const params: (string | number)[] = [connection.profileId];
  if (options.states) {
    where.push(`state IN (${options.states.map(() => '?').join(', ')})`);
    params.push(...options.states);
  }
  if (options.kind) {
    where.push('kind = ?');
    params.push(options.kind);
  }
  if (options.since) {
    where.push('updated_at >= ?');
    params.push(options.since);
  }
  // LIMIT -1: no limit (one statement whatever the page size).
  const sql = `SELECT * FROM purchases WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT ?`;
  return prepared(app.db, sql).all(...params, options.limit ? Math.floor(options.limit) : -1) as PurchaseRow[];
}

export function describeAccount(row: Pick<PurchaseRow, 'kind' | 'account' | 'provider_code' | 'vend_type' | 'bouquet_code' | 'bouquet_name'>): string {
  return row.kind === 'electricity'
    ? `meter ${row.account} (${row.provider_code}, ${row.vend_type ?? ''})`
    : `smartcard ${row.account} (${row.provider_code}, ${row.bouquet_name || row.bouquet_code})`;
}

/** A refund is stated at what the wallet got back: the log entry's wallet cost when read, else without a figure. */
function refundedAmountText(row: PurchaseRow): string {
  return row.refunded_kobo !== null && row.refunded_kobo !== undefined
    ? `${formatNaira(row.refunded_kobo)} back to the wallet automatically (what it charged: the ${formatNaira(row.amount_kobo)} face value less its commission)`
    : 'back to the wallet automatically what it charged for it (its wallet cost; vendesk shows the amount once it reads the log entry)';
}

function refundMessage(row: PurchaseRow): string | null {
  switch (row.refund_state) {
    case 'checking':
      return `The service refunds a failed purchase automatically; vendesk confirms it from the service's log of this purchase (${row.reference ?? 'no reference yet'}) and keeps checking.`;
    case 'confirmed':
      return `Refunded: the service records this purchase as FAILED (${row.refund_evidence ?? 'its own record'}), and it gives ${refundedAmountText(row)}.`;
    case 'not_charged':
      return `Nothing was charged: ${row.refund_evidence ?? 'the service has no transaction for it'}.`;
    case 'missing':
      return `Refund missing: the service's log shows this purchase as charged (${row.refund_evidence ?? ''}) although it was answered as failed. Contact support with the reference ${row.reference ?? ''}; do not buy it again until they answer.`;
    default:
      return null;
  }
}

/**
 * What the wallet was charged for a purchase, as the service's own records give it: for a failed
 * one, its FAILED log entry's wallet cost (which the service gives back: `refunded_kobo`); for one
 * charged and not failed, the amount less the commission its answer or its log entry gave; null
 * while neither is known, and for one that charged nothing (refused, not in the log).
 */
function walletCostOf(row: PurchaseRow): number | null {
  const lessCommission = row.commission_kobo === null ? null : row.amount_kobo - row.commission_kobo;
  switch (row.state) {
    case 'success':
    case 'pending':
    case 'needs_support':
      return lessCommission;
    case 'failed':
      return row.refund_state === 'not_charged' ? null : (row.refunded_kobo ?? lessCommission);
    default:
      return null;
  }
}

/**
 * A charged purchase whose answer gave no commission (a pending one, one settled by a requery)
 * learns it from its log entry, when vendesk has read it: its wallet cost is then the one the
 * Dashboard counts. Returns the row, changed or not.
 */
export function learnCommissionFromLog(app: AppPart<'db' | 'service'>, row: PurchaseRow, entries: readonly ParsedLogEntry[]): PurchaseRow {
  if (row.commission_kobo !== null || !row.reference || (row.state !== 'pending' && row.state !== 'success' && row.state !== 'needs_support')) return row;
  const entry = entries.find((e) => e.transactionId === row.reference && e.status !== 'FAILED');
  return entry ? updatePurchase(app, row.id, { commission_kobo: entry.commissionKobo }) : row;
}

export function toPurchaseView(row: PurchaseRow): PurchaseView {
  const status = stateMeaning({ of: 'purchase', purchase: row });
  return {
    id: row.id,
    kind: row.kind,
    state: row.state,
    statusText: status.text ?? '',
    whatToDo: status.whatToDo,
    connectionKind: row.connection_kind,
    providerCode: row.provider_code,
    providerName: row.provider_name,
    account: row.account,
    vendType: row.vend_type,
    bouquetCode: row.bouquet_code || null,
    bouquetName: row.bouquet_name || null,
    amountKobo: row.amount_kobo,
    phone: row.phone,
    customerName: row.customer_name,
    customerAddress: row.customer_address,
    customerType: row.customer_type,
    reference: row.reference,
    token: row.token,
    units: row.units,
    receiptNo: row.receipt_no,
    commissionKobo: row.commission_kobo,
    costKobo: walletCostOf(row),
    reason: row.reason,
    refund: {
      state: row.refund_state,
      evidence: row.refund_evidence,
      balanceBeforeKobo: row.balance_before_kobo,
      message: refundMessage(row),
      refundedKobo: row.state === 'failed' && row.refund_state === 'confirmed' ? (row.refunded_kobo ?? null) : null,
    },
    requery: {
      attempts: row.requery_attempts,
      nextAt: row.next_requery_ms === null ? null : new Date(row.next_requery_ms).toISOString(),
      lastAt: row.last_requery_at,
      lastNote: row.last_requery_note,
    },
    settledBy: row.settled_by,
    note: row.note,
    createdAt: row.created_at,
    finalAt: row.final_at,
  };
}
