/**
 * The approvals behind a month's spend, for the close pack's Approvals sheet on a team desktop
 * (monthEnd/approvalsSheet.ts): the team jobs this desktop bought the month's entries under, each
 * with who prepared it and who approved it, as the team database records them (never as a desktop
 * says), and the team's standing approvals once the team database keeps them.
 */
import type { App } from '../appContext';
import type pg from 'pg';
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
}

/** Where a team's standing approvals will be kept (the standing orders' team schema step); not there yet in every team database. */
export const STANDING_APPROVALS_TABLE = 'vendesk.standing_approvals';

/**
 * The seam for standing approvals: null while the team database has no table of them. Once the
 * standing orders' schema step is in, this reads the standing approvals behind the month's spend.
 */
async function standingApprovalLines(client: pg.ClientBase): Promise<ApprovalLine[] | null> {
  const r = await client.query<{ t: string | null }>('SELECT to_regclass($1)::text AS t', [STANDING_APPROVALS_TABLE]);
  return r.rows[0].t === null ? null : [];
}

/** Null when this desktop is not in a team (the pack then has no Approvals sheet). */
export async function monthApprovals(app: App, figures: MonthFigures): Promise<MonthApprovals | null> {
  const team = teamWorkspace(app);
  if (!team.link()) return null;
  const bought = teamJobsOfMonth(app.db, monthQuery(app.db, app.connection.profileId, figures.month), figures.closed !== null);
  return team.withClient(async (client) => {
    const r = await client.query<JobApprovalRecord>(
      `SELECT j.id::text, j.kind, j.prepared_by::text, j.prepared_at, j.total_kobo::text,
              (SELECT array_agg(a.decided_by::text ORDER BY a.decided_at) FROM vendesk.approvals a WHERE a.job_id = j.id AND a.decision = 'approved') AS approved_by,
              (SELECT max(a.decided_at) FROM vendesk.approvals a WHERE a.job_id = j.id AND a.decision = 'approved') AS approved_at
         FROM vendesk.jobs j WHERE j.id = ANY($1::uuid[]) ORDER BY j.prepared_at`,
      [bought.map((b) => b.teamJobId)],
    );
    const inMonth = new Map(bought.map((b) => [b.teamJobId, b]));
    const lines: ApprovalLine[] = r.rows.map((j) => ({
      kind: j.kind === 'single' ? 'Single purchase' : 'Bulk job',
      teamJobId: j.id,
      preparedBy: j.prepared_by,
      preparedAt: j.prepared_at.toISOString(),
      approvedBy: j.approved_by ?? [],
      approvedAt: j.approved_at?.toISOString() ?? null,
      totalKobo: Number(j.total_kobo),
      purchasesInMonth: inMonth.get(j.id)?.purchases ?? 0,
      spendInMonthKobo: inMonth.get(j.id)?.costKobo ?? 0,
    }));
    const standing = await standingApprovalLines(client);
    return {
      lines: [...lines, ...(standing ?? [])],
      standingNote: standing === null ? 'Standing approvals: this team database keeps none (its schema has no standing approvals), so none are listed.' : null,
    };
  }, 'read');
}
