/**
 * The approvals behind a month's spend, for the close pack's Approvals sheet on a team desktop
 * (monthEnd/approvalsSheet.ts): the team jobs this desktop bought the month's entries under, each
 * with who prepared it and who approved it, as the team database records them (never as a desktop
 * says). A job a standing approval let through (team schema step 8) is listed as "Standing
 * approval", with the approvers who signed it and when it was granted.
 */
import type { App } from '../appContext';
import { teamJobsOfMonth, type ApprovalLine, type MonthApprovals } from '../monthEnd/approvalsSheet';
import { monthQuery, type MonthFigures } from '../monthEnd/monthFigures';
import { teamWorkspace } from './teamWorkspace';

interface JobApprovalRecord {
  id: string;
  kind: 'bulk' | 'single';
  prepared_by: string;
  prepared_at: Date;
  total_kobo: string;
  approved_by: string[] | null;
  approved_at: Date | null;
  by_standing: boolean;
}

/** Null when this desktop is not in a team (the pack then has no Approvals sheet). */
export async function monthApprovals(app: App, figures: MonthFigures): Promise<MonthApprovals | null> {
  const team = teamWorkspace(app);
  if (!team.link()) return null;
  const bought = teamJobsOfMonth(app.db, monthQuery(app.db, app.connection.profileId, figures.month), figures.closed !== null);
  return team.withClient(async (client) => {
    const r = await client.query<JobApprovalRecord>(
      `SELECT j.id::text, j.kind, j.prepared_by::text, j.prepared_at, j.total_kobo::text, j.standing_approval_id IS NOT NULL AS by_standing,
              CASE WHEN j.standing_approval_id IS NULL
                THEN (SELECT array_agg(a.decided_by::text ORDER BY a.decided_at) FROM vendesk.approvals a WHERE a.job_id = j.id AND a.decision = 'approved')
                ELSE (SELECT array_agg(s.approver::text ORDER BY s.signed_at) FROM vendesk.standing_approval_signers s WHERE s.approval_id = j.standing_approval_id)
              END AS approved_by,
              CASE WHEN j.standing_approval_id IS NULL
                THEN (SELECT max(a.decided_at) FROM vendesk.approvals a WHERE a.job_id = j.id AND a.decision = 'approved')
                ELSE (SELECT sa.granted_at FROM vendesk.standing_approvals sa WHERE sa.id = j.standing_approval_id)
              END AS approved_at
         FROM vendesk.jobs j WHERE j.id = ANY($1::uuid[]) ORDER BY j.prepared_at`,
      [bought.map((b) => b.teamJobId)],
    );
    const inMonth = new Map(bought.map((b) => [b.teamJobId, b]));
    const lines: ApprovalLine[] = r.rows.map((j) => ({
      kind: j.by_standing ? 'Standing approval' : j.kind === 'single' ? 'Single purchase' : 'Bulk job',
      teamJobId: j.id,
      preparedBy: j.prepared_by,
      preparedAt: j.prepared_at.toISOString(),
      approvedBy: j.approved_by ?? [],
      approvedAt: j.approved_at?.toISOString() ?? null,
      totalKobo: Number(j.total_kobo),
      purchasesInMonth: inMonth.get(j.id)?.purchases ?? 0,
      spendInMonthKobo: inMonth.get(j.id)?.costKobo ?? 0,
    }));
    return {
      lines,
      standingNote: lines.some((l) => l.kind === 'Standing approval') ? null : "Standing approvals: none behind this month's spend (each job above was approved on its own).",
    };
  }, 'read');
}
