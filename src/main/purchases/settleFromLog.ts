/**
 * Settling an `uncertain` purchase (sent, no usable answer) from the service's transaction log,
 * never by sending it again. The log is read as for bulk rows (`logEntriesAroundSend` in
 * `api/logLookup.ts`: the customer's phone number and the type, from the day before the send on),
 * and the entry is chosen by the one rule of bulk rows too (`api/logMatch.ts`): its reference, else the
 * earliest entry of the same amount whose description names the meter or smartcard, that no other
 * local purchase owns, made from 30 minutes before to 15 minutes after the send. One of the kind
 * made later than that is neither taken nor ruled out: the purchase stays uncertain and the
 * Pending page asks the user.
 *
 * What the log says decides the state: PENDING → `pending` (the requery loop takes over);
 * SUCCESS → `success`, except a prepaid electricity purchase, which becomes `pending` so the
 * requery fetches its token (the log has none); FAILED → `failed` (refunded, checked). Not in the
 * log: stays `uncertain`, the loop looks again, and a person can resolve it on the Pending page.
 */
import { matchSentPurchase } from '../api/logMatch';
import { logEntriesAroundSend } from '../api/logLookup';
import type { AppPart, Session } from '../appContext';
import { firstRequeryDueMs } from '../api/requeryBackoff';
import { createServiceClock } from '../api/serviceClock';
import { checkRefund } from './refundCheck';
import { mirrorEntries } from '../transactions/mirrorRefresh';
import { getPurchaseRow, notOnThisConnection, updatePurchase, type PurchaseRow } from './purchaseStore';

function claimedReferences(app: AppPart<'db'>, row: PurchaseRow): Set<string> {
  const rows = app.db.prepare('SELECT reference FROM purchases WHERE reference IS NOT NULL AND profile_id = ? AND id != ?').all(row.profile_id, row.id) as { reference: string }[];
  return new Set(rows.map((r) => r.reference));
}

/**
 * Looks for the purchase in the log of its own connection (`session`, the one in use unless
 * given); returns the row, settled or still uncertain.
 */
export async function settleFromLog(app: AppPart<'db' | 'service'>, session: Session, id: string): Promise<PurchaseRow> {
  const row = getPurchaseRow(app, id);
  if (row.state !== 'uncertain' && row.state !== 'sending') return row;
  if (row.profile_id !== session.connection.profileId) throw notOnThisConnection(row);
  const clock = app.service(createServiceClock);
  const sentMs = row.sent_ms ?? Date.parse(row.created_at);
  const claimed = claimedReferences(app, row);
  const entries = await logEntriesAroundSend(session.client, row.kind, row.phone, sentMs);
  const match = matchSentPurchase(
    { phone: row.phone, amount_kobo: row.amount_kobo, product_code: '', account: row.account, reference: row.reference, sent_ms: sentMs },
    row.kind,
    entries,
    (reference) => claimed.has(reference),
  );
  const closest = match.byReference ?? match.candidates[0] ?? null;
  const at = new Date().toISOString();
  if (!closest) {
    const later = match.beyondWindow;
    return updatePurchase(app, id, {
      state: 'uncertain',
      last_requery_at: at,
      last_requery_note: later
        ? `The transaction log has ${later.transactionId} for the same ${row.kind === 'electricity' ? 'meter' : 'smartcard'} and amount, made later than vendesk can tie to this purchase: check it, then settle the purchase here by hand.`
        : 'Not in the transaction log yet; vendesk looks again shortly.',
      next_requery_ms: clock.now() + 60_000,
    });
  }
  mirrorEntries(app, session, [closest]);
  const createdMs = Date.parse(closest.createdAt);
  const purchasedMs = Number.isNaN(createdMs) ? sentMs : createdMs;
  const note = `Found in the transaction log as ${closest.status} (${closest.transactionId}).`;
  let updated: PurchaseRow;
  if (closest.status === 'FAILED') {
    updated = updatePurchase(app, id, {
      state: 'failed',
      reference: closest.transactionId,
      purchased_ms: purchasedMs,
      reason: closest.description || 'the transaction log shows it as FAILED',
      hint: 'Buy it again if it is still wanted.',
      refund_state: 'checking',
      settled_by: 'log',
      last_requery_note: note,
      next_requery_ms: null,
      final_at: at,
    });
    updated = await checkRefund(app, session, id);
  } else if (closest.status === 'SUCCESS' && !(row.kind === 'electricity' && row.vend_type === 'PREPAID')) {
    updated = updatePurchase(app, id, {
      state: 'success',
      reference: closest.transactionId,
      purchased_ms: purchasedMs,
      receipt_no: closest.partnerReference || null,
      commission_kobo: closest.commissionKobo,
      settled_by: 'log',
      last_requery_note: note,
      next_requery_ms: null,
      final_at: at,
    });
  } else {
    updated = updatePurchase(app, id, {
      state: 'pending',
      reference: closest.transactionId,
      purchased_ms: purchasedMs,
      receipt_no: closest.partnerReference || null,
      settled_by: null,
      last_requery_note: closest.status === 'SUCCESS' ? `${note} vendesk requeries it to fetch the token.` : note,
      next_requery_ms: Math.max(firstRequeryDueMs(purchasedMs), clock.now()),
    });
  }
  return updated;
}
