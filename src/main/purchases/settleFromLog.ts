/**
 * Settling an `uncertain` purchase (sent, no usable answer) from the service's transaction log,
 * never by sending it again. The log is searched by the customer's phone number and the type, and
 * the entry is chosen by the one rule of bulk rows too (`api/logMatch.ts`): its reference, else the
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
import type { LogEntry } from '../../shared/wire';
import { matchSentPurchase } from '../api/logMatch';
import { parseLogEntry } from '../api/parseLogEntry';
import type { VendingClient } from '../api/vendingClient';
import type { App, Session, AppPart } from '../appContext';
import { firstRequeryDueMs } from '../api/requeryBackoff';
import { createServiceClock } from '../api/serviceClock';
import { checkRefund } from './refundCheck';
import { mirrorWireEntries } from '../transactions/mirrorRefresh';
import { getPurchaseRow, notOnThisConnection, updatePurchase, type PurchaseRow } from './purchaseStore';

const DAY_MS = 86_400_000;
const MAX_PAGES = 10;

const ymd = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

function claimedReferences(app: AppPart<'db'>, row: PurchaseRow): Set<string> {
  const rows = app.db.prepare('SELECT reference FROM purchases WHERE reference IS NOT NULL AND profile_id = ? AND id != ?').all(row.profile_id, row.id) as { reference: string }[];
  return new Set(rows.map((r) => r.reference));
}

async function candidates(client: VendingClient, row: PurchaseRow, sentMs: number): Promise<LogEntry[]> {
  const out: LogEntry[] = [];
  let page = await client.logEntries({
    type: row.kind === 'electricity' ? 'electricity' : 'cable',
    status: 'all',
    search: row.phone,
    startdate: ymd(sentMs - DAY_MS),
    enddate: ymd(sentMs + 2 * DAY_MS),
    perPage: 100,
  });
  for (let n = 0; ; n++) {
    out.push(...page.Items);
    if (!page.NextPage || n + 1 >= MAX_PAGES) break;
    page = await client.logPage(page.NextPage);
  }
  return out;
}

/**
 * Looks for the purchase in the log of its own connection (`session`, the one in use unless
 * given); returns the row, settled or still uncertain.
 */
export async function settleFromLog(app: App, id: string, session: Session = app.session()): Promise<PurchaseRow> {
  const row = getPurchaseRow(app, id);
  if (row.state !== 'uncertain' && row.state !== 'sending') return row;
  if (row.profile_id !== session.connection.profileId) throw notOnThisConnection(row);
  const clock = app.service(createServiceClock);
  const sentMs = row.sent_ms ?? Date.parse(row.created_at);
  const claimed = claimedReferences(app, row);
  const wire = await candidates(session.client, row, sentMs);
  const byReference = new Map(wire.map((e) => [e.transaction_id, e]));
  const match = matchSentPurchase(
    { phone: row.phone, amount_kobo: row.amount_kobo, product_code: '', account: row.account, reference: row.reference, sent_ms: sentMs },
    row.kind,
    wire.map(parseLogEntry),
    (reference) => claimed.has(reference),
  );
  const found = match.byReference ?? match.candidates[0] ?? null;
  const at = new Date().toISOString();
  if (!found) {
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
  const closest = byReference.get(found.transactionId)!;
  mirrorWireEntries(app, session, [closest]);
  const createdMs = Date.parse(closest.created_at);
  const purchasedMs = Number.isNaN(createdMs) ? sentMs : createdMs;
  const note = `Found in the transaction log as ${closest.status} (${closest.transaction_id}).`;
  let updated: PurchaseRow;
  if (closest.status === 'FAILED') {
    updated = updatePurchase(app, id, {
      state: 'failed',
      reference: closest.transaction_id,
      purchased_ms: purchasedMs,
      reason: closest.description || 'the transaction log shows it as FAILED',
      hint: 'The wallet is refunded automatically for a failed purchase. You may buy again.',
      refund_state: 'checking',
      settled_by: 'log',
      last_requery_note: note,
      next_requery_ms: null,
      final_at: at,
    });
    updated = await checkRefund(app, id);
  } else if (closest.status === 'SUCCESS' && !(row.kind === 'electricity' && row.vend_type === 'PREPAID')) {
    updated = updatePurchase(app, id, {
      state: 'success',
      reference: closest.transaction_id,
      purchased_ms: purchasedMs,
      receipt_no: closest.partner_reference || null,
      commission_kobo: Math.round(closest.commission * 100),
      settled_by: 'log',
      last_requery_note: note,
      next_requery_ms: null,
      final_at: at,
    });
  } else {
    updated = updatePurchase(app, id, {
      state: 'pending',
      reference: closest.transaction_id,
      purchased_ms: purchasedMs,
      receipt_no: closest.partner_reference || null,
      settled_by: null,
      last_requery_note: closest.status === 'SUCCESS' ? `${note} vendesk requeries it to fetch the token.` : note,
      next_requery_ms: Math.max(firstRequeryDueMs(purchasedMs), clock.now()),
    });
  }
  return updated;
}
