/**
 * Was the money of a failed electricity or cable purchase given back? The service refunds a
 * declined or failed purchase automatically (spec: "a debited wallet is refunded automatically").
 * vendesk concludes from evidence about THAT purchase, in the service's own records — never from
 * the wallet balance, which every other purchase, message and top-up moves as well:
 *
 * | Evidence                                                      | Refund state   |
 * |---------------------------------------------------------------|----------------|
 * | its requery answered FAILED, or the log found it FAILED       | `confirmed`    |
 * | its log entry (by reference) is FAILED                        | `confirmed`    |
 * | declined, and its reference is not in the log a while later   | `not_charged`  |
 * | its log entry shows SUCCESS or PENDING: the wallet was charged | `missing`      |
 * | the log cannot be read now                                    | `checking`     |
 *
 * Whether the wallet as a whole adds up (every purchase, message and refund between two balance
 * readings) is the wallet roll-forward's question (src/main/reconcile/walletRollForward.ts).
 */
import { formatNaira } from '../../shared/money';
import type { ParsedLogEntry } from '../api/parseLogEntry';
import type { AppPart, Session } from '../appContext';
import { logEntriesForReference } from '../api/logLookup';
import { getPurchaseRow, updatePurchase, type PurchaseRow } from './purchaseStore';

/** A declined purchase not in the log this long after it was answered was never charged. */
export const NOT_IN_LOG_AFTER_MS = 2 * 60_000;

function entryText(e: ParsedLogEntry): string {
  return `log entry ${e.id} (${e.transactionId}, ${formatNaira(e.amountKobo)}, wallet cost ${formatNaira(e.costKobo)}): ${e.status}`;
}

/** The log entry of a purchase, by its reference; null when there is none or the log cannot be read now. */
async function entryOf(session: Session, row: PurchaseRow): Promise<ParsedLogEntry | null | 'unreadable'> {
  if (!row.reference) return null;
  try {
    return (await logEntriesForReference(session.client, row.kind, row.reference))[0] ?? null;
  } catch {
    return 'unreadable';
  }
}

/**
 * Settles the refund question of a failed purchase from the service's records, when they answer.
 * Returns the row, changed or not. Reads nothing for a purchase of another connection.
 */
export async function checkRefund(app: AppPart<'db' | 'service'>, session: Session, id: string): Promise<PurchaseRow> {
  const row = getPurchaseRow(app, id);
  if (row.state !== 'failed' || (row.refund_state !== 'checking' && row.refund_state !== 'missing')) return row;
  if (row.profile_id !== session.connection.profileId) return row;

  // Settled as FAILED by the service's own answer about this purchase (its requery, or its log
  // entry found when it was uncertain): that is the evidence.
  if (row.refund_state === 'checking' && (row.settled_by === 'requery' || row.settled_by === 'log')) {
    const evidence = row.settled_by === 'requery' ? `requery of ${row.reference ?? 'the purchase'}: FAILED` : (row.last_requery_note ?? 'the service log: FAILED');
    // What came back is the log entry's wallet cost, not the face value: read it when the log answers.
    const entry = await entryOf(session, row);
    return conclude(app, row, 'confirmed', evidence, entry && entry !== 'unreadable' && entry.status === 'FAILED' ? entry.costKobo : null);
  }
  if (!row.reference) {
    // A decline without a reference cannot be looked up; it was answered before any charge
    // could be tied to it.
    return conclude(app, row, 'not_charged', 'declined without a reference: the service tied no transaction to it');
  }
  const entry = await entryOf(session, row);
  if (entry === 'unreadable') return row; // The log cannot be read now; the requery loop asks again.
  if (!entry) {
    const answeredMs = Date.parse(row.final_at ?? row.updated_at);
    if (Date.now() - answeredMs < NOT_IN_LOG_AFTER_MS) return row;
    return conclude(app, row, 'not_charged', `reference ${row.reference} is not in the service log`);
  }
  if (entry.status === 'FAILED') return conclude(app, row, 'confirmed', entryText(entry), entry.costKobo);
  return conclude(app, row, 'missing', entryText(entry));
}

function conclude(
  app: AppPart<'db' | 'service'>,
  row: PurchaseRow,
  state: 'confirmed' | 'not_charged' | 'missing',
  evidence: string,
  refundedKobo: number | null = null,
): PurchaseRow {
  if (row.refund_state === state && row.refund_evidence === evidence && (refundedKobo === null || row.refunded_kobo === refundedKobo)) return row;
  return updatePurchase(app, row.id, { refund_state: state, refund_evidence: evidence, ...(refundedKobo !== null ? { refunded_kobo: refundedKobo } : {}) });
}
