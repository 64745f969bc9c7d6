/**
 * The close pack's Approvals sheet, in a team workspace: each approved team job and single purchase
 * behind the month's spend — which job, who prepared it, who approved it and when, its total, and
 * what of it is spend of this month — then the team's standing approvals when the team database
 * has them. The month's entries are tied to team jobs here, on this desktop (`teamJobsOfMonth`:
 * an entry of the service's log is a purchase of a local job linked to a team job); who prepared
 * and approved each is read from the team database (team/teamMonthApprovals.ts).
 */
import type { ExportColumn, ExportSheet } from '../exports';
import type { ReadableDB } from '../store/readableDb';
import { ownEntriesSql, type MonthFigures, type MonthQuery } from './monthFigures';

/** One approval behind the month's spend, as the team database records it. */
export interface ApprovalLine {
  kind: 'Bulk job' | 'Single purchase' | 'Standing approval';
  teamJobId: string;
  preparedBy: string;
  /** ISO instant. */
  preparedAt: string;
  /** Every approver, in the order they approved (two above the team's dual-approval amount). */
  approvedBy: string[];
  /** The last approval's instant (ISO); null for a standing approval without one. */
  approvedAt: string | null;
  totalKobo: number;
  /** The month's purchases (successful and pending) of this job, and their wallet cost. */
  purchasesInMonth: number;
  spendInMonthKobo: number;
}

/** What the sheet holds: the approvals, and a sentence about standing approvals (none, or not recorded by this team database). */
export interface MonthApprovals {
  lines: ApprovalLine[];
  standingNote: string | null;
}

const COLUMNS: ExportColumn[] = [
  { header: 'Kind', kind: 'text' },
  { header: 'Team job', kind: 'text', width: 38 },
  { header: 'Prepared by', kind: 'text' },
  { header: 'Prepared (Lagos)', kind: 'datetime' },
  { header: 'Approved by', kind: 'text', width: 24 },
  { header: 'Approved (Lagos)', kind: 'datetime' },
  { header: 'Total approved (₦)', kind: 'naira' },
  { header: 'Purchases this month', kind: 'integer' },
  { header: 'Spend this month (₦)', kind: 'naira' },
];

export function approvalsSheet(f: MonthFigures, approvals: MonthApprovals, caption: (f: MonthFigures, what: string) => string): ExportSheet {
  const rows: unknown[][] = approvals.lines.map((a) => [
    a.kind,
    a.teamJobId,
    a.preparedBy,
    a.preparedAt,
    a.approvedBy.join(', '),
    a.approvedAt,
    a.totalKobo,
    a.purchasesInMonth,
    a.spendInMonthKobo,
  ]);
  if (approvals.standingNote) rows.push([approvals.standingNote]);
  return { name: 'Approvals', caption: caption(f, 'Approvals behind the month’s spend (team)'), columns: COLUMNS, rows };
}

/** The team jobs this desktop bought the month's spend under (successful and pending entries), with what each bought in the month. */
export function teamJobsOfMonth(db: ReadableDB, q: MonthQuery, closed: boolean): { teamJobId: string; purchases: number; costKobo: number }[] {
  return db
    .prepare(
      `SELECT l.team_job_id AS teamJobId, count(*) AS purchases, COALESCE(sum(e.costKobo), 0) AS costKobo
         FROM (${ownEntriesSql(closed)}) e
         JOIN bulk_items b ON b.reference = e.transactionId
         JOIN bulk_jobs j ON j.id = b.job_id AND j.profile_id = @profile
         JOIN team_job_links l ON l.local_job_id = b.job_id
        WHERE e.status IN ('SUCCESS', 'PENDING')
        GROUP BY l.team_job_id ORDER BY l.team_job_id`,
    )
    .all(q) as { teamJobId: string; purchases: number; costKobo: number }[];
}
