/**
 * What a purchase asks of the team workspace, every purchase being a job (of one item for a single
 * purchase, `origin = 'single'`; of a spreadsheet's rows, `origin = 'file'`): one gate, with a
 * policy for each origin.
 * - A single purchase (`single`): may it go ahead, or must another member approve it first (a
 *   LIVE purchase above the team's threshold)? Asked before its job is written.
 * - A file's job: at confirm, may it run or does it wait for approval (`approvalFor`); while it
 *   runs, which items of a batch may leave (each is claimed first, so no other desktop buys it
 *   too); when it ends, its outcomes.
 * Declared here, answered by the team (`team/teamGates.ts` joins `purchaseApproval.ts` and
 * `bulkApproval.ts`), plugged in by the composition root (app.ts): bulk never imports the team.
 */
import type { SinglePurchaseSummary } from '../../shared/contract/team';
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

/** One single purchase, checked and about to be bought. */
export interface SinglePurchase extends SinglePurchaseSummary {
  /** The request as the contract parsed it: bought as it is once approved. */
  request: unknown;
}

export interface SingleGateOptions {
  /** Buy under this approval (the team job id of `purchases.resume`). */
  approvedTeamJob?: string;
}

/** The approval a single purchase is bought under: link the purchase as it is written. */
export interface ApprovedBuy {
  teamJobId: string;
  /** Call in the transaction that writes the purchase (before its request leaves); throws when the approval was used already. */
  written(purchaseId: string): void;
}

export interface TeamGate {
  /**
   * A single purchase: `null`, no approval applies, buy it; an `ApprovedBuy`, buy it under that
   * approval. Throws `awaiting_approval` while it waits (nothing is bought), and refuses it when
   * it was rejected.
   */
  single(p: SinglePurchase, options?: SingleGateOptions): Promise<ApprovedBuy | null>;
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

export const teamGate = serviceSlot<TeamGate>('The team gate of purchases');
