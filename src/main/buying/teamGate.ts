/**
 * What a purchase asks of the team workspace, every purchase being a job (of one item for a single
 * purchase, `origin = 'single'`; of a spreadsheet's rows, `origin = 'file'`): one gate, with a
 * policy for each origin.
 * - A single purchase (`single`): may it go ahead, or must another member approve it first (a
 *   LIVE purchase above the team's threshold)? One call, asked before its job is written, on the
 *   session it is bought on; one that needs approval is sent for it and its job written waiting in
 *   `awaiting_approval` by that same call, as a file's job is, and the answer says so.
 * - A file's job: at confirm, may it run or does it wait for approval (`approvalFor`); while it
 *   runs, which items of a batch may leave (each is claimed first, so no other desktop buys it
 *   too); when it ends, its outcomes.
 * Declared here, answered by the team (`team/teamGates.ts` joins `purchaseApproval.ts` and
 * `bulkApproval.ts`), plugged in by the composition root (app.ts): bulk never imports the team.
 */
import { AppError } from '../../shared/appError';
import type { WaitingPurchaseView } from '../../shared/contract/purchases';
import type { SinglePurchaseSummary } from '../../shared/contract/team';
import type { LogReader } from '../api/logLookup';
import type { Session } from '../appContext';
import { serviceSlot } from '../serviceSlot';
import type { ItemRow, JobRow, NewItem } from './jobRows';
import type { TeamJobs } from './teamJobs';

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
  /** Its job's one item, as checked (queued): what its job is written with, waiting, when it needs approval. */
  item: NewItem;
}

export interface SingleGateOptions {
  /** Buy under this approval (the team job id of `purchases.resume`). */
  approvedTeamJob?: string;
}

/**
 * What the team says of a single purchase about to be bought. `none`: no approval applies, buy it
 * as a new job. `waiting`: it waits for a member's approval — sent for it by this very call the
 * first time (its job written waiting, `JobLifecycle.createWaitingSingle`, linked to its team job), or
 * sent before and not decided yet: nothing is bought, and the purchase answers `waiting`.
 * `approved`: buy it as its waiting job `jobId`, begun from `awaiting_approval` once
 * (`JobLifecycle.beginApprovedSingle`); its item is claimed in the team database already, so no other
 * desktop buys it too.
 */
export type SingleApproval = { status: 'none' } | { status: 'waiting'; waiting: WaitingPurchaseView } | { status: 'approved'; jobId: string; teamJobId: string };

/** An approved single purchase another attempt (a retry, a second window or process) began buying first. */
export function approvalBegun(teamJobId: string): AppError {
  return new AppError(
    'approval_used',
    `Team job ${teamJobId} is being bought or was bought already. Nothing more was bought.`,
    `See \`vendesk purchases resume ${teamJobId}\` for its receipt.`,
  );
}

export interface TeamGate {
  /** A single purchase on `session` (see `SingleApproval`). Refuses it when it was rejected, cancelled or bought already. */
  single(p: SinglePurchase, session: Session, options?: SingleGateOptions): Promise<SingleApproval>;
  /** Where a job stands with the team (`jobs`: what the team may read and move of it), confirmed on `session`. Throws when it was rejected or changed since it was approved. */
  approvalFor(jobs: TeamJobs, job: JobRow, current: { totalKobo: number; items: number }, session: Session): Promise<TeamApproval>;
  /**
   * The runner's `beforeSend` (claims each item first), or undefined when no team applies. `log`
   * reads the log of the job's own connection, pinned for the run (rows another request claimed
   * are settled from it).
   */
  claimBeforeSend(jobs: TeamJobs, job: JobRow, log: LogReader): ((batch: ItemRow[]) => Promise<ItemRow[]>) | undefined;
  /** Writes the job's outcomes to the team database (when it is a team job). */
  reportOutcomes(jobs: TeamJobs, localJobId: string): Promise<void>;
  /** Withdraws a job that was sent for approval. */
  cancelSentForApproval(localJobId: string): Promise<void>;
  teamJobIdOf(localJobId: string): string | null;
}

export const teamGate = serviceSlot<TeamGate>('The team gate of purchases');
