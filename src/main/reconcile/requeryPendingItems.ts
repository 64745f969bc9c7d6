/**
 * "Requery all pending": every unresolved pending item of a run is asked about now. A purchase
 * vendesk made itself (electricity, cable) goes through the pending loop (`requeryNow`, which
 * also updates the purchase, its receipt and the Pending page); any other entry (bulk airtime
 * and data, purchases made elsewhere) is requeried directly by its transaction_id. The answer
 * is written on the item, so the run shows what came back.
 */
import type { RequeryPendingSummary } from '../../shared/contract/reconcile';
import { AppError } from '../../shared/appError';
import type { App, AppPart } from '../appContext';
import { requeryNow } from '../pending';
import { pendingItems, setRequeryStatus } from './reconcileRunStore';

function purchaseIdFor(app: AppPart<'db'>, profileId: string, reference: string, localRef: string | null): string | null {
  if (localRef?.startsWith('purchase:')) return localRef.slice('purchase:'.length);
  if (!reference) return null;
  try {
    const row = app.db.prepare('SELECT id FROM purchases WHERE reference = ? AND profile_id = ?').get(reference, profileId) as { id: string } | undefined;
    return row?.id ?? null;
  } catch {
    return null; // no purchases table in this build
  }
}

/** Requeries the run's pending items; the run must be one of the connection in use (its handler checks). */
export async function requeryPendingItems(app: App, runId: string): Promise<RequeryPendingSummary> {
  const session = app.session();
  const items = pendingItems(app.db, runId);
  const summary: RequeryPendingSummary = { queued: items.length, success: 0, failed: 0, stillPending: 0, notChecked: 0, notes: [] };
  let viaLoop = 0;
  let direct = 0;
  for (const item of items) {
    let status: string;
    try {
      const purchaseId = purchaseIdFor(app, session.connection.profileId, item.transactionId, item.localRef);
      if (purchaseId) {
        viaLoop++;
        const view = await requeryNow(app, session, purchaseId, true);
        const s = view.purchase.state;
        status = s === 'success' ? 'SUCCESS' : s === 'failed' ? 'FAILED' : s === 'pending' ? 'PENDING' : s.toUpperCase();
      } else if (item.transactionId) {
        direct++;
        const answer = await session.client.requery(item.transactionId);
        status = answer.status;
      } else {
        status = 'NOT CHECKED: no reference to requery';
      }
    } catch (error) {
      const message = error instanceof AppError ? error.message : error instanceof Error ? error.message : String(error);
      status = `NOT CHECKED: ${message}`;
    }
    if (status === 'SUCCESS') summary.success++;
    else if (status === 'FAILED') summary.failed++;
    else if (status === 'PENDING') summary.stillPending++;
    else summary.notChecked++;
    setRequeryStatus(app.db, runId, item.seq, status);
  }
  if (viaLoop > 0) summary.notes.push(`${viaLoop} of vendesk's own purchase(s) checked through the Pending loop (their receipts are updated).`);
  if (direct > 0) summary.notes.push(`${direct} other entr${direct === 1 ? 'y' : 'ies'} requeried directly by transaction id.`);
  if (summary.success + summary.failed > 0) summary.notes.push('Sync the mirror and reconcile again to see the final outcomes in the categories.');
  return summary;
}
