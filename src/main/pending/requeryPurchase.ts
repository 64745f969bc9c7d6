/**
 * One requery of one pending purchase, and what each answer does to it:
 *
 * | Answer                         | Effect                                                              |
 * |--------------------------------|---------------------------------------------------------------------|
 * | 200 SUCCESS                    | `success`; token and units (prepaid electricity) into the receipt    |
 * | 200 FAILED                     | `failed`; refunded by the service, checked against the wallet        |
 * | 200 PENDING                    | attempts + 1, next check after the backoff                          |
 * | 425 too early                  | next check when the service says (Retry-After, else 30 s)            |
 * | 502 provider unreachable       | next check in a minute (the client already retried a few times)      |
 * | 429 attempts exhausted         | `needs_support`, with the details support asks for                   |
 * | 404 no such transaction        | `not_found`, with what that means and what to check                 |
 *
 * An `uncertain` purchase has no trustworthy reference yet: it is settled from the log instead.
 * What a requery changes (`REQUERY_CHANGES`) is declared by the operations that requery and said
 * by the requery loop; this function tells no window itself.
 */
import { ServiceError } from '../api/serviceErrors';
import type { App } from '../appContext';
import { checkRefund } from '../purchases/refundCheck';
import { getPurchaseRow, notOnThisConnection, onConnection, updatePurchase, type PurchaseRow } from '../purchases/purchaseStore';
import { settleFromLog } from '../purchases/settleFromLog';
import { refreshReferences } from '../transactions/mirrorRefresh';
import { requeryBackoffMs, RETRY_LATER_MS, TOO_EARLY_FALLBACK_MS, waitFromReason } from '../api/requeryBackoff';
import { createServiceClock } from '../api/serviceClock';

export async function requeryPurchase(app: App, id: string): Promise<PurchaseRow> {
  // One session for the whole check: a switch of connection meanwhile cannot send this
  // purchase's reference to another service.
  const session = app.session();
  const row = getPurchaseRow(app, id);
  if (!onConnection(session, row)) throw notOnThisConnection(row);
  if (row.state === 'uncertain' || row.state === 'sending') return settleFromLog(app, id, session);
  if (row.state !== 'pending') return row;
  if (!row.reference) {
    // A pending answer without a reference cannot be requeried: look for it in the log.
    updatePurchase(app, id, { state: 'uncertain', reason: 'The service answered "pending" without a reference.' });
    return settleFromLog(app, id, session);
  }

  const clock = app.service(createServiceClock);
  const at = new Date().toISOString();
  const tries = row.requery_tries + 1;
  let updated: PurchaseRow;
  try {
    const answer = await session.client.requery(row.reference);
    const attempts = row.requery_attempts + 1;
    if (answer.status === 'SUCCESS') {
      const units = answer.units ?? row.units;
      updated = updatePurchase(app, id, {
        state: 'success',
        token: answer.token || row.token,
        units: units ?? null,
        requery_attempts: attempts,
        requery_tries: tries,
        last_requery_at: at,
        last_requery_note: `Requery ${attempts}: SUCCESS${answer.token ? ' — token received' : ''}.`,
        next_requery_ms: null,
        settled_by: 'requery',
        final_at: at,
      });
    } else if (answer.status === 'FAILED') {
      updated = updatePurchase(app, id, {
        state: 'failed',
        reason: 'the provider reported the purchase as failed (requery)',
        hint: 'The wallet is refunded automatically for a failed purchase. You may buy again.',
        refund_state: 'checking',
        requery_attempts: attempts,
        requery_tries: tries,
        last_requery_at: at,
        last_requery_note: `Requery ${attempts}: FAILED.`,
        next_requery_ms: null,
        settled_by: 'requery',
        final_at: at,
      });
      updated = await checkRefund(app, id);
    } else {
      const wait = requeryBackoffMs(attempts);
      updated = updatePurchase(app, id, {
        requery_attempts: attempts,
        requery_tries: tries,
        last_requery_at: at,
        last_requery_note: `Requery ${attempts}: still PENDING; next check in ${Math.round(wait / 60_000)} min.`,
        next_requery_ms: clock.now() + wait,
      });
    }
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    const base = { requery_tries: tries, last_requery_at: at };
    switch (error.action) {
      case 'wait': {
        const wait = waitFromReason(error.reason) ?? TOO_EARLY_FALLBACK_MS;
        updated = updatePurchase(app, id, {
          ...base,
          last_requery_note: `Too early: the service answers from 2 min 1 s after the purchase; next check in ${Math.ceil(wait / 1000)} s.`,
          next_requery_ms: clock.now() + wait,
        });
        break;
      }
      case 'hand_to_support':
        updated = updatePurchase(app, id, {
          ...base,
          state: 'needs_support',
          reason: error.reason || 'maximum requery attempts reached',
          last_requery_note: `The service will not answer more status checks after ${row.requery_attempts} answers. Send the details to support ("Copy for support").`,
          next_requery_ms: null,
        });
        break;
      case 'not_found':
        updated = updatePurchase(app, id, {
          ...base,
          state: 'not_found',
          reason: error.reason || 'transaction not found',
          last_requery_note: `The service has no transaction with reference ${row.reference}. If the wallet was not debited, nothing was bought.`,
          next_requery_ms: null,
          final_at: at,
        });
        break;
      case 'retry_later':
        updated = updatePurchase(app, id, {
          ...base,
          last_requery_note: `The provider could not be reached${error.httpStatus ? ` (HTTP ${error.httpStatus})` : ''}; vendesk tries again in a minute.`,
          next_requery_ms: clock.now() + RETRY_LATER_MS,
        });
        break;
      default:
        updated = updatePurchase(app, id, {
          ...base,
          last_requery_note: `The status check failed: ${error.message} ${error.hint ?? ''}`.trim(),
          next_requery_ms: clock.now() + 5 * RETRY_LATER_MS,
        });
    }
  }
  if (updated.state !== row.state) await refreshReferences(app, session, row.kind, [row.reference]);
  return updated;
}
