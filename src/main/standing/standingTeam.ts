/**
 * What a standing order asks of the team workspace, declared here and answered by the team
 * (`team/teamStanding.ts`), plugged in by the composition root: standing never imports the team.
 *
 * On a LIVE connection of a desktop joined to a team, an order is the team's: it is shared in the
 * team database (its versions and rows, written only by the database's functions), every runner of
 * the same organisation — desktops and servers — reads it there, and each occurrence is claimed
 * there once (its key unique), in one transaction with its team job. The job is approved as any
 * bulk job, or by a standing approval the database checks.
 */
import type { BulkJobView } from '../../shared/contract/bulk';
import type { StandingApprovalView } from '../../shared/contract/standing';
import type { Connection, Session } from '../appContext';
import type { NewItem } from '../buying/jobRows';
import { serviceSlot } from '../serviceSlot';
import type { OrderMoveName, OrderRow, VersionRow } from './standingStore';

/** What claiming an occurrence in the team database gave. */
export interface TeamClaim {
  /** This desktop claimed it now (false: it was claimed or skipped before, by whoever). */
  claimedHere: boolean;
  state: 'started' | 'skipped';
  teamJobId: string | null;
  /** Who claimed or skipped it, and from which desktop. */
  by: string;
  /** How its job is approved: by a standing approval (it runs at once), or as any job (it waits). */
  approvedBy: 'standing_approval' | 'approval' | null;
  /** Why no standing approval let it through (used up, expired, another version, above its ceiling), or null. */
  note: string | null;
}

export interface StandingTeam {
  /** Whether an order made or run now on `connection` is the team's: LIVE, on a desktop joined to a team. */
  applies(connection: Connection): boolean;
  /** The signed-in member. */
  member(): string;
  /** Shares a confirmed version with the team (a new order, or its next version); answers the rows digest the database computed. */
  publish(order: OrderRow, version: VersionRow): Promise<{ rowsDigest: string }>;
  /** The team's orders of this connection's organisation, written into this desktop's store (orders, versions, claimed and skipped occurrences). */
  refresh(): Promise<void>;
  /**
   * Claims an occurrence with its team job, once: a second claim answers the first. `items` are the
   * version's rows that can be bought today (those that wait are left out); the job is named and
   * scoped as a local occurrence's job would be (`fileName`, `fileHash`).
   */
  claim(
    session: Session,
    order: OrderRow,
    occurrence: { scheduledDay: string; dueDay: string; version: number; fileName: string; fileHash: string },
    items: readonly NewItem[],
    walletKobo: number | null,
    byHand: boolean,
  ): Promise<TeamClaim>;
  /** Runs an occurrence's team job on this desktop through the run's pinned `session` (as `bulk adopt` does); throws `awaiting_approval` while it waits for its approval. */
  runTeamJob(session: Session, teamJobId: string, wait: boolean): Promise<BulkJobView>;
  /** Skips an occurrence in the team database (an audit row); answers how it stands there. */
  skip(order: OrderRow, occurrence: { scheduledDay: string; dueDay: string }, reason: string): Promise<TeamClaim>;
  /** Pauses, resumes or ends the team's order (an audit row). */
  move(order: OrderRow, move: OrderMoveName): Promise<void>;
  /** An approver's standing approval of the order's version in force. */
  approve(order: OrderRow, version: VersionRow, terms: { ceilingKobo: number; runs: number | null; until: string | null; note: string }): Promise<StandingApprovalView>;
  /** The standing approval of the order's version in force, if any. */
  approval(order: OrderRow, version: VersionRow | undefined): Promise<StandingApprovalView | null>;
}

export const standingTeam = serviceSlot<StandingTeam>("The team's side of standing orders");
