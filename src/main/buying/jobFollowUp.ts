/**
 * The follow-up of bulk jobs that are no longer sending (finished, cancelled, paused, needing
 * attention): the items the service accepted are followed to their final state like any pending
 * purchase, and the wallet cost of what was bought is learned, so a job never shows "Pending"
 * forever nor a cost it does not know.
 *
 * - Airtime and data: accepted and pending items are looked up in the service's log by
 *   reference (`itemOutcomes.ts`); a bought item whose cost is not known yet is looked up in the
 *   log too. Those still open once their requery is due are asked about by the requery loop
 *   (`pending/pendingScheduler.ts`), or here on "Check again". Uncertain items of a cancelled job
 *   are settled from the log and never sent again: found → bought, confirmed absent → not bought.
 * - Electricity and cable: each item follows its purchase, which the requery loop settles; its
 *   cost is its amount less the commission the service answered, else its log entry's cost.
 *
 * The loop in `followUpLoop.ts` runs it for the jobs of the connection in use every few seconds;
 * "Check again" and the CLI's `bulk status` and `bulk resume` run it for one job at once
 * (`BulkService.checkAgain`).
 */
import { readOutcomes, settleUncertainItem, type OutcomeClient } from './itemOutcomes';
import { isVendingKind, nothingLeftToSend, settledMessage } from './jobStates';
import { ItemMoves } from './itemMoves';
import { jobParts, type JobParts } from './jobLifecycle';
import type { JobRow } from './jobRows';
import type { AppPart } from '../appContext';
import type { PurchaseFollower } from '../purchases/purchaseFollower';
import { itemFromPurchase } from './vendingItems';

export interface FollowUpDeps extends JobParts {
  /** The client of the job's connection, taken once for the whole look (a switch meanwhile asks nothing of the other service). */
  client: OutcomeClient;
  /** How long after sending an uncertain item vendesk trusts the log's silence (the job's setting). */
  uncertainSafeDelayMs: number;
  /** The service's clock, on which items' `sent_ms` are stored. */
  now: () => number;
}

/**
 * One look at the service for a job that is not running (the caller makes sure: no runner here
 * or in another process). `costs`: also look up the wallet cost of final items that lack one.
 * `requery`: also ask about items whose requery is due ("Check again", `bulk status`); the loop's
 * passes leave that to the requery loop. Returns how many items changed.
 */
export async function followUpJob(deps: FollowUpDeps, job: JobRow, options: { costs: boolean; requery: boolean }): Promise<number> {
  const { reads, moves } = deps;
  let changed = 0;
  if (isVendingKind(job.kind)) {
    changed += moves.syncFromPurchases(job.id, itemFromPurchase);
  } else {
    const open = reads.items(job.id, { states: ['accepted', 'pending'] });
    const costless = options.costs ? reads.items(job.id, { states: ['success', 'failed'] }).filter((i) => i.cost_kobo === null && i.reference) : [];
    if (open.length + costless.length > 0) changed += await readOutcomes(deps.client, moves, job, [...open, ...costless], deps.now, { settle: true, requery: options.requery });
    if (job.state === 'cancelled') {
      const due = reads.items(job.id, { states: ['uncertain'] }).filter((i) => (i.sent_ms ?? 0) + deps.uncertainSafeDelayMs <= deps.now());
      for (const item of due) if ((await settleUncertainItem(deps.client, deps, job, item, 'not_bought', deps.now)) !== null) changed++;
    }
  }
  if (isVendingKind(job.kind) && options.costs) {
    // Their state follows their purchase; only the cost is read here.
    const costless = reads.items(job.id, { states: ['pending', 'success', 'failed'] }).filter((i) => i.cost_kobo === null && i.reference);
    if (costless.length > 0) changed += await readOutcomes(deps.client, moves, job, costless, deps.now, { settle: false });
  }
  if (changed > 0 || job.state === 'paused') changed += settleJobState(deps, job.id);
  return changed;
}

/**
 * After items changed outside a run: the message of a finished or cancelled job says what is
 * still open (its finish time is kept); a job left needing attention for items now settled, or
 * paused with nothing left to send, is finished. Returns 1 when the job's state changed.
 */
export function settleJobState({ reads, lifecycle }: Pick<JobParts, 'reads' | 'lifecycle'>, jobId: string): number {
  const current = reads.job(jobId);
  // A running job says where it stands itself; a draft has nothing to settle.
  if (!current || !['completed', 'cancelled', 'needs_attention', 'paused'].includes(current.state)) return 0;
  const c = reads.counts(jobId);
  if (current.state === 'cancelled' || current.state === 'completed') {
    const message = settledMessage(current.state, c);
    if (message !== current.message) lifecycle.setJobMessage(jobId, message);
  } else if ((current.state === 'needs_attention' && c.uncertain + c.sending === 0) || (current.state === 'paused' && nothingLeftToSend(c))) {
    return lifecycle.complete(jobId, settledMessage('completed', c)) ? 1 : 0;
  }
  return 0;
}

/**
 * The purchases module's follower (`purchases/purchaseFollower.ts`), plugged in by app.ts: the row
 * bought as a purchase takes its state in the purchase's own write, and its job's state and
 * message follow (a finished job no longer says an item is pending once it is not).
 */
export function bulkPurchaseFollower(app: AppPart<'db'>): PurchaseFollower {
  const parts = jobParts(app.db);
  return {
    followed(purchaseId, fields) {
      if (!fields.some((f) => ItemMoves.FOLLOWED_PURCHASE_FIELDS.has(f))) return;
      const jobId = parts.moves.followPurchase(purchaseId, itemFromPurchase);
      if (jobId) settleJobState(parts, jobId);
    },
  };
}
