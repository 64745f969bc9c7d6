/**
 * Uncertain items of a bulk job settled by hand: marked bought, marked not bought, or queued to
 * be sent again; the job's state follows once nothing is left uncertain.
 */
import { AppError } from '../../shared/appError';
import { isVendingKind, settledMessage } from './jobStates';
import type { JobParts } from './jobLifecycle';
import type { JobRow } from './jobRows';

export type HandResolution = 'bought' | 'not_bought' | 'resend';

/** `running`: the job's runner is in this process (it picks re-queued items up itself). */
export function settleByHand({ reads, moves, lifecycle }: JobParts, target: JobRow, seqs: number[], resolution: HandResolution, note: string | undefined, running: boolean): void {
  const jobId = target.id;
  if (isVendingKind(target.kind) && seqs.some((seq) => reads.item(jobId, seq)?.purchase_id)) {
    // Its purchase is the record of what was bought: settled in one place, never sent again from here.
    throw new AppError(
      'settle_on_pending_page',
      'This row was sent as a purchase that is still being settled; it cannot be marked or sent again from the job.',
      'Settle it on the Pending page (check with support first); the job shows the outcome.',
    );
  }
  if (resolution === 'resend' && target.state === 'cancelled') {
    throw new AppError(
      'job_cancelled',
      'This job was cancelled, so it sends nothing more.',
      'Mark the item bought or not bought here, and buy it in a new job if it is still wanted.',
    );
  }
  // While the job runs, re-queued items are simply picked up by its runner.
  const who = `user${note ? `: ${note}` : ''}`;
  let changed = 0;
  if (resolution === 'bought') {
    changed = moves.markBought(jobId, seqs, 'Marked bought by the user', who);
  } else if (resolution === 'not_bought') {
    changed = moves.notBought(jobId, seqs, 'Marked not bought by the user; it was not sent again', who);
  } else {
    changed = moves.sendAgain(jobId, seqs, `${who} (send again)`);
  }
  if (changed === 0) {
    throw new AppError('nothing_to_resolve', 'None of the chosen items is uncertain.', 'Only items marked "uncertain" can be settled by hand.');
  }
  const job = reads.job(jobId) ?? target;
  const c = reads.counts(jobId);
  if (job.state === 'needs_attention' && c.uncertain === 0 && !running) {
    if (c.queued > 0) lifecycle.resendByHand(jobId, 'Items to send again: resume the job.');
    else lifecycle.complete(jobId, settledMessage('completed', c));
  } else if (job.state === 'cancelled') {
    lifecycle.setJobMessage(jobId, settledMessage('cancelled', c));
  }
}
