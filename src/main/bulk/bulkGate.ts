/**
 * What a bulk job asks of the team workspace: at confirm, whether it may run or waits for
 * approval; while it runs, which items of a batch may leave (each is claimed first, so no other
 * desktop buys it too); when it ends, its outcomes. Declared here, answered by
 * `team/bulkApproval.ts`, plugged in by the composition root (app.ts): bulk never imports the team.
 */
import type { LogReader } from '../api/logLookup';
import { serviceSlot } from '../serviceSlot';
import type { ItemRow, JobRow, JobStore } from './jobStore';

/**
 * Where a job stands with the team at confirm. `none`: no team applies. `unsent`: it is sent for
 * approval first (`submit` moves the job to `awaiting_approval`; nothing is bought). `waiting`:
 * sent, not decided yet (the job stays `awaiting_approval`). `approved`: go ahead (no typed total
 * needed again).
 */
export type TeamApproval =
  | { status: 'none' | 'approved' }
  | { status: 'unsent'; submit(figures: { totalKobo: number; items: number; walletKobo: number | null }): Promise<void> }
  | { status: 'waiting'; message: string };

export interface BulkGate {
  /** Where a job stands with the team. Throws when it was rejected or changed since it was approved. */
  approvalFor(store: JobStore, job: JobRow, current: { totalKobo: number; items: number }): Promise<TeamApproval>;
  /**
   * The runner's `beforeSend` (claims each item first), or undefined when no team applies. `log`
   * reads the log of the job's own connection, pinned for the run (rows another request claimed
   * are settled from it).
   */
  claimBeforeSend(store: JobStore, job: JobRow, log: LogReader): ((batch: ItemRow[]) => Promise<ItemRow[]>) | undefined;
  /** Writes the job's outcomes to the team database (when it is a team job). */
  reportOutcomes(store: JobStore, localJobId: string): Promise<void>;
  /** Withdraws a job that was sent for approval. */
  cancelSentForApproval(localJobId: string): Promise<void>;
  teamJobIdOf(localJobId: string): string | null;
}

export const bulkGate = serviceSlot<BulkGate>('The team gate of bulk jobs');
