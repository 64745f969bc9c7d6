/**
 * What the team workspace (`src/main/team/`) may do to local jobs: the reads it needs and the
 * moves it makes, each named, and nothing else. The team is handed this, never the job store: a
 * move it makes is one of the tables' (`itemMoves.ts`, `jobLifecycle.ts`), guarded as any other.
 */
import type { Db } from '../store/database';
import { jobParts, type JobLifecycle, type JobParts } from './jobLifecycle';
import type { ItemRow, JobRow, NewItem, NewJob } from './jobRows';
import type { ItemState } from './jobStates';

export interface TeamJobs {
  job(jobId: string): JobRow | undefined;
  items(jobId: string, options?: { states?: readonly ItemState[]; offset?: number; limit?: number }): ItemRow[];
  item(jobId: string, seq: number): ItemRow | undefined;
  isReferenceClaimed(reference: string): boolean;

  /** A draft sent for approval: `awaiting_approval`, linked to its team job by `link` in the same transaction. False when it was no draft. */
  awaitApproval(jobId: string, message: string, link: () => void): boolean;
  /** A job made here from a team job's items (another member prepared it), waiting as the preparer's does, linked by `link`. */
  createWaiting(job: NewJob, items: Iterable<NewItem>, message: string | ((jobId: string) => string), link: (jobId: string) => void): string;
  /** A single purchase above the team's threshold, written waiting for approval before anything is bought, linked by `link`. */
  createWaitingSingle: JobLifecycle['createWaitingSingle'];
  /** An approved single purchase whose run stopped before its item left waits to be bought again. */
  backToApproval(jobId: string, message: string, ownRun: boolean): boolean;
  /** A waiting single purchase the team rejected or cancelled: its item and job cancelled, nothing bought. */
  closeWaiting(jobId: string, reason: string): boolean;

  /** A row another team job already sent: refused here, nothing charged. */
  refuse(jobId: string, seqs: readonly number[], reason: string): number;
  /** Rows another desktop claimed for this team job: uncertain, searched for in the log from when each was claimed. */
  sentElsewhere(jobId: string, rows: readonly { seq: number; reason: string; sentMs: number }[]): void;
  /** A row found in the log: bought as that entry says. */
  claimFromLog(jobId: string, seq: number, reference: string, to: 'success' | 'failed' | 'accepted', settledBy: string, costKobo?: number | null): boolean;
  /** A row not found in the log: still uncertain, saying why. */
  stillUncertain(jobId: string, seq: number, reason: string): number;
}

/** The team's view of the jobs kept in `parts` (one object of each, shared with the bulk service's). */
export function teamJobs(parts: JobParts): TeamJobs {
  const { reads, moves, lifecycle } = parts;
  // Bound, not wrapped: each call goes straight into the module that answers it.
  return {
    job: reads.job.bind(reads),
    items: reads.items.bind(reads),
    item: reads.item.bind(reads),
    isReferenceClaimed: reads.isReferenceClaimed.bind(reads),
    awaitApproval: lifecycle.awaitApproval.bind(lifecycle),
    createWaiting: lifecycle.createWaiting.bind(lifecycle),
    createWaitingSingle: lifecycle.createWaitingSingle.bind(lifecycle),
    backToApproval: lifecycle.backToApproval.bind(lifecycle),
    closeWaiting: lifecycle.closeWaiting.bind(lifecycle),
    refuse: moves.refuse.bind(moves),
    sentElsewhere: moves.sentElsewhere.bind(moves),
    claimFromLog: moves.claimFromLog.bind(moves),
    stillUncertain: moves.stillUncertain.bind(moves),
  };
}

/** The team's view of the jobs of `db`, for a caller without a bulk service (the team's retry of outcomes). */
export function teamJobsOf(db: Db): TeamJobs {
  return teamJobs(jobParts(db));
}
