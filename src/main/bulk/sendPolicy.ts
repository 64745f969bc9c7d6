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
 */
import type { ServiceError } from '../api/serviceErrors';
import type { ItemRow, JobRow, JobStore } from './jobStore';
import type { RunnerTiming } from './runTiming';

export const MAX_UNAVAILABLE_ROUNDS = 6;
export const MAX_HOLDS = 20;

/** Whether the service's reason says the wallet is short. */
export function isInsufficientBalance(reason: string): boolean {
  return /insufficient balance|insufficient fund/i.test(reason);
}

export class SendPolicy {
  private unavailableRounds = 0;
  /** Why the job stops sending now, or null. */
  pauseReason: string | null = null;

  constructor(
    private readonly store: JobStore,
    private readonly job: JobRow,
    private readonly timing: RunnerTiming,
    private readonly now: () => number,
  ) {}

  pause(reason: string): void {
    this.pauseReason = reason;
  }

  /** The service answered: the run of unavailable answers is over. */
  answered(): void {
    this.unavailableRounds = 0;
  }

  /** The service could not take the items now; `reason` goes on them, `cause` into the pause message. */
  retryLater(seqs: readonly number[], reason: string, cause: string): void {
    this.unavailableRounds++;
    const delay = Math.min(60_000, this.timing.backoffBaseMs * 2 ** (this.unavailableRounds - 1));
    this.store.transition(this.job.id, seqs, 'queued', { reason, notBeforeMs: this.now() + delay }, ['sending']);
    if (this.unavailableRounds >= MAX_UNAVAILABLE_ROUNDS) {
      this.pause(
        `Paused: ${this.job.kind} vending stayed unavailable after ${MAX_UNAVAILABLE_ROUNDS} tries (${cause}). Nothing was charged for the waiting items. Resume in a few minutes.`,
      );
    }
  }

  /** Another purchase of the same account and amount is in progress: hold the item, or give up after `MAX_HOLDS`. */
  hold(item: ItemRow, heldReason: string, givenUpReason: string): void {
    if (item.holds + 1 >= MAX_HOLDS) {
      this.store.transition(this.job.id, [item.seq], 'rejected', { reason: givenUpReason, final: true }, ['sending']);
      return;
    }
    const delay = Math.min(60_000, this.timing.holdBaseMs * (item.holds + 1));
    this.store.transition(this.job.id, [item.seq], 'held', { hold: true, notBeforeMs: this.now() + delay, reason: heldReason }, ['sending']);
  }

  /** Items marked `sending` that did not leave (nothing charged) wait in the queue, and the job pauses with `message`. */
  unsentAndPause(seqs: readonly number[], message: string): void {
    if (seqs.length > 0) this.store.transition(this.job.id, seqs, 'queued', { reason: null }, ['sending']);
    this.pause(message);
  }

  /** The token was refused: the items wait and the job pauses until the user fixes it. */
  credentials(seqs: readonly number[], error: ServiceError): void {
    this.unsentAndPause(seqs, `Paused: ${error.message} ${error.hint ?? ''}`.trim());
  }

  /** The wallet is short: `seqs` (nothing charged) wait, and the job pauses. */
  insufficientBalance(seqs: readonly number[], reason: string): void {
    this.unsentAndPause(seqs, `Paused: the wallet does not hold enough for the next items (${reason}). Top up the wallet, then resume the job.`);
  }
}
