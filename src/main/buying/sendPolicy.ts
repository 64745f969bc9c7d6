/**
 * The one retry, hold and pause policy of a running bulk job, whichever strategy sends its items:
 * nothing was charged for the items it is given back, and it decides when they go again.
 *
 * - Unavailable (503 after the client's retries, or a purchase that could not be checked yet):
 *   queued again with backoff (doubling, at most a minute); the job pauses after 6 in a row.
 * - Held (429: another purchase of the same phone or meter and amount is in progress): sent again
 *   later, at most 20 times, then rejected with nothing charged.
 * - Credentials refused (401) or the wallet short: queued again and the job pauses, saying what
 *   to do.
 *
 * Functions of the run they act on (the runner's `RunContext`), whose `sending` state they keep:
 * the strategies call them as `policy.hold(ctx, …)`.
 */
import type { ServiceError } from '../api/serviceErrors';
import type { ItemMoves } from './itemMoves';
import type { ItemRow, JobRow } from './jobRows';
import type { SendingState } from './runContext';
import type { RunnerTiming } from './runTiming';

export const MAX_UNAVAILABLE_ROUNDS = 6;
export const MAX_HOLDS = 20;

/** Whether the service's reason says the wallet is short. */
export function isInsufficientBalance(reason: string): boolean {
  return /insufficient balance|insufficient fund/i.test(reason);
}

/** What the policy acts on: the run's item moves, job, clock and timing, and the state of its sending it keeps. */
export interface PolicyContext {
  moves: ItemMoves;
  job: JobRow;
  now: () => number;
  timing: RunnerTiming;
  sending: SendingState;
}

/** The job stops sending, saying why (and what to do). */
export function pause(ctx: PolicyContext, reason: string): void {
  ctx.sending.pauseReason = reason;
}

/** The service answered: the run of unavailable answers is over. */
export function answered(ctx: PolicyContext): void {
  ctx.sending.unavailableRounds = 0;
}

/** The service could not take the items now; `reason` goes on them, `cause` into the pause message. */
export function retryLater(ctx: PolicyContext, seqs: readonly number[], reason: string, cause: string): void {
  const rounds = ++ctx.sending.unavailableRounds;
  const delay = Math.min(60_000, ctx.timing.backoffBaseMs * 2 ** (rounds - 1));
  ctx.moves.unsent(ctx.job.id, seqs, { reason, notBeforeMs: ctx.now() + delay });
  if (rounds >= MAX_UNAVAILABLE_ROUNDS) {
    pause(
      ctx,
      `Paused: ${ctx.job.kind} vending stayed unavailable after ${MAX_UNAVAILABLE_ROUNDS} tries (${cause}). Nothing was charged for the waiting items. Resume in a few minutes.`,
    );
  }
}

/** Another purchase of the same account and amount is in progress: hold the item, or give up after `MAX_HOLDS`. */
export function hold(ctx: PolicyContext, item: ItemRow, heldReason: string, givenUpReason: string): void {
  if (item.holds + 1 >= MAX_HOLDS) {
    ctx.moves.refuse(ctx.job.id, [item.seq], givenUpReason);
    return;
  }
  const delay = Math.min(60_000, ctx.timing.holdBaseMs * (item.holds + 1));
  ctx.moves.hold(ctx.job.id, item.seq, heldReason, ctx.now() + delay);
}

/** Items marked `sending` that did not leave (nothing charged) wait in the queue, and the job pauses with `message`. */
export function unsentAndPause(ctx: PolicyContext, seqs: readonly number[], message: string): void {
  if (seqs.length > 0) ctx.moves.unsent(ctx.job.id, seqs, { reason: null });
  pause(ctx, message);
}

/** The token was refused: the items wait and the job pauses until the user fixes it. */
export function credentials(ctx: PolicyContext, seqs: readonly number[], error: ServiceError): void {
  unsentAndPause(ctx, seqs, `Paused: ${error.message} ${error.hint ?? ''}`.trim());
}

/** The wallet is short: `seqs` (nothing charged) wait, and the job pauses. */
export function insufficientBalance(ctx: PolicyContext, seqs: readonly number[], reason: string): void {
  unsentAndPause(ctx, seqs, `Paused: the wallet does not hold enough for the next items (${reason}). Top up the wallet, then resume the job.`);
}
