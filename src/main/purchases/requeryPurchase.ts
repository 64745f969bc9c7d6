/**
 * One requery of one pending electricity or cable purchase, the vending detail of its item: the
 * answer is read by the one requery rule (`api/requeryAnswer.ts`, shared with airtime and data
 * items) and written into the purchase, with a note that says what it means and when vendesk asks
 * again (the item follows it in the same write); a failed one has its refund checked. The purchases
 * module writes it; whoever asks about an item asks through `requeryItem` (`buying/itemOutcomes.ts`),
 * and the Pending page's "Requery now" through the requery loop's queue.
 *
 * An `uncertain` purchase has no trustworthy reference yet: it is settled from the log instead.
 * What a requery changes (`REQUERY_CHANGES`) is declared by the operations that requery and said
 * by the requery loop; this function tells no window itself.
 */
import type { AppPart, Session } from '../appContext';
import { checkRefund } from './refundCheck';
import { getPurchaseRow, learnCommissionFromLog, notOnThisConnection, onConnection, updatePurchase, type PurchaseRow } from './purchaseStore';
import { settleFromLog } from './settleFromLog';
import { refreshReferences } from '../transactions/mirrorRefresh';
import { askRequery } from '../api/requeryAnswer';
import { createServiceClock } from '../api/serviceClock';

export async function requeryPurchase(app: AppPart<'db' | 'service'>, session: Session, id: string): Promise<PurchaseRow> {
  // One session for the whole check: a switch of connection meanwhile cannot send this
  // purchase's reference to another service.
  const row = getPurchaseRow(app, id);
  if (!onConnection(session, row)) throw notOnThisConnection(row);
  if (row.state === 'uncertain' || row.state === 'sending') return settleFromLog(app, session, id);
  if (row.state !== 'pending') return row;
  if (!row.reference) {
    // A pending answer without a reference cannot be requeried: look for it in the log.
    updatePurchase(app, id, { state: 'uncertain', reason: 'The service answered "pending" without a reference.' });
    return settleFromLog(app, session, id);
  }

  const clock = app.service(createServiceClock);
  const at = new Date().toISOString();
  const tries = row.requery_tries + 1;
  const attempts = row.requery_attempts + 1;
  const verdict = await askRequery(session.client, row.reference, attempts);
  const asked = { requery_tries: tries, last_requery_at: at };
  const answered = { ...asked, requery_attempts: attempts };
  let updated: PurchaseRow;
  switch (verdict.kind) {
    case 'success': {
      const units = verdict.units ?? row.units;
      updated = updatePurchase(app, id, {
        ...answered,
        state: 'success',
        token: verdict.token || row.token,
        units: units ?? null,
        last_requery_note: `Requery ${attempts}: SUCCESS${verdict.token ? ' — token received' : ''}.`,
        next_requery_ms: null,
        settled_by: 'requery',
        final_at: at,
      });
      break;
    }
    case 'failed':
      updated = updatePurchase(app, id, {
        ...answered,
        state: 'failed',
        reason: 'the provider reported the purchase as failed (requery)',
        hint: 'Buy it again if it is still wanted.',
        refund_state: 'checking',
        last_requery_note: `Requery ${attempts}: FAILED.`,
        next_requery_ms: null,
        settled_by: 'requery',
        final_at: at,
      });
      updated = await checkRefund(app, session, id);
      break;
    case 'pending':
      updated = updatePurchase(app, id, {
        ...answered,
        last_requery_note: `Requery ${attempts}: still PENDING; next check in ${Math.round(verdict.nextInMs / 60_000)} min.`,
        next_requery_ms: clock.now() + verdict.nextInMs,
      });
      break;
    case 'later': {
      const { error } = verdict;
      const note =
        verdict.why === 'too_early'
          ? `Too early: the service answers from 2 min 1 s after the purchase; next check in ${Math.ceil(verdict.nextInMs / 1000)} s.`
          : verdict.why === 'provider_unreachable'
            ? `The provider could not be reached${error.httpStatus ? ` (HTTP ${error.httpStatus})` : ''}; vendesk tries again in a minute.`
            : `The status check failed: ${error.message} ${error.hint ?? ''}`.trim();
      updated = updatePurchase(app, id, { ...asked, last_requery_note: note, next_requery_ms: clock.now() + verdict.nextInMs });
      break;
    }
    case 'support':
      updated = updatePurchase(app, id, {
        ...asked,
        state: 'needs_support',
        reason: verdict.error.reason || 'maximum requery attempts reached',
        last_requery_note: `The service will not answer more status checks after ${row.requery_attempts} answers. Send the details to support ("Copy for support").`,
        next_requery_ms: null,
      });
      break;
    case 'not_found':
      updated = updatePurchase(app, id, {
        ...asked,
        state: 'not_found',
        reason: verdict.error.reason || 'transaction not found',
        last_requery_note: `The service has no transaction with reference ${row.reference}. If the wallet was not debited, nothing was bought.`,
        next_requery_ms: null,
        final_at: at,
      });
      break;
  }
  if (updated.state !== row.state) return learnCommissionFromLog(app, updated, await refreshReferences(app, session, row.kind, [row.reference]));
  return updated;
}
