/**
 * "Requery all pending": every unresolved pending item of a run is asked about now. What vendesk
 * bought itself is asked about through the one requery path, queued behind the requery loop, and
 * its answer settles vendesk's own record at once: an electricity or cable purchase through its
 * purchase (`requeryNow`: the receipt and the Pending page follow), airtime or data (single or a
 * bulk row) through its item (`requeryOwnTopUp`: the receipt and the job follow). Only an entry
 * vendesk did not buy (another tool, the vendor's portal) is requeried directly by its
 * transaction_id, its answer read by the same rule (`askRequery`). The answer is written on the reconcile item, so the run shows what came back.
 */
import type { RequeryPendingSummary } from '../../shared/contract/reconcile';
import { AppError } from '../../shared/appError';
import type { App, AppPart } from '../appContext';
import { askRequery } from '../api/requeryAnswer';
import { requeryNow, requeryOwnTopUp } from '../pending';
import { pendingItems, setRequeryStatus } from './reconcileRunStore';

function purchaseIdFor(app: AppPart<'connection' | 'db'>, reference: string, localRef: string | null): string | null {
  if (localRef?.startsWith('purchase:')) return localRef.slice('purchase:'.length);
  if (!reference) return null;
  try {
    const row = app.db.prepare('SELECT id FROM purchases WHERE reference = ? AND profile_id = ?').get(reference, app.connection.profileId) as { id: string } | undefined;
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
      const purchaseId = purchaseIdFor(app, item.transactionId, item.localRef);
      const topUp = purchaseId || !item.transactionId ? null : await requeryOwnTopUp(app, item.transactionId);
      if (purchaseId) {
        viaLoop++;
        const view = await requeryNow(app, purchaseId);
        const s = view.purchase.state;
        status =
          (view.requeryAllowedInSeconds ?? 0) > 0
            ? 'NOT CHECKED: the service answers from 2 min 1 s after the purchase; vendesk asks it then'
            : s === 'success'
              ? 'SUCCESS'
              : s === 'failed'
                ? 'FAILED'
                : s === 'pending'
                  ? 'PENDING'
                  : s.toUpperCase();
      } else if (topUp) {
        viaLoop++;
        status = topUp.said ?? `NOT CHECKED: ${topUp.note ?? 'no answer about it this time'}`;
      } else if (item.transactionId) {
        direct++;
        // Read by the one requery rule (what 425, 502, 429 and 404 mean); nothing of vendesk's to settle.
        const verdict = await askRequery(session.client, item.transactionId, 1);
        status = verdict.kind === 'success' ? 'SUCCESS' : verdict.kind === 'failed' ? 'FAILED' : verdict.kind === 'pending' ? 'PENDING' : `NOT CHECKED: ${verdict.error.message}`;
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
  if (viaLoop > 0) summary.notes.push(`${viaLoop} of vendesk's own purchase(s) checked through the requery loop (their receipts and jobs are updated).`);
  if (direct > 0) summary.notes.push(`${direct} other entr${direct === 1 ? 'y' : 'ies'} requeried directly by transaction id.`);
  if (summary.success + summary.failed > 0) summary.notes.push('Sync the mirror and reconcile again to see the final outcomes in the categories.');
  return summary;
}
