/** Words and colours of the team workspace (issue 18), as a finance officer reads them. */
import type { TeamJobState, TeamJobView, TeamRole, TeamStatusView } from '../../../../shared/contract/team';
import type { ErrorCode } from '../../../../shared/errorCodes';
import { freeText } from '../FreeText';

export const TEAM_STATE_LABEL: Record<TeamJobState, string> = {
  awaiting_approval: 'Waiting for approval',
  approved: 'Approved',
  rejected: 'Rejected',
  running: 'Approved · buying',
  finished: 'Approved · finished',
  cancelled: 'Cancelled',
};

export const TEAM_STATE_COLOR: Record<TeamJobState, string> = {
  awaiting_approval: 'violet',
  approved: 'teal',
  rejected: 'red',
  running: 'blue',
  finished: 'green',
  cancelled: 'gray',
};

export const ROLE_LABEL: Record<TeamRole, string> = { preparer: 'Preparer', approver: 'Approver', admin: 'Admin' };

export const ROLE_MEANING: Record<TeamRole, string> = {
  preparer: 'prepares jobs and sends them for approval',
  approver: 'approves or rejects jobs prepared by someone else',
  admin: 'prepares, approves others’ jobs and changes team settings',
};

const BUYS_LABEL: Record<NonNullable<TeamJobView['buys']>, string> = { airtime: 'airtime', data: 'data', electricity: 'electricity', cable: 'cable TV' };

/**
 * What a team job buys, from its typed fields only (the kind the team database records, never the
 * preparer's preview): "Bulk airtime", "Single purchase (electricity)", or a kind added later.
 */
export function teamJobKindLabel(job: Pick<TeamJobView, 'kind' | 'buys'>): string {
  const what = job.buys ? BUYS_LABEL[job.buys] : null;
  if (job.kind === 'bulk') return `Bulk ${what ?? 'purchase'}`;
  if (job.kind === 'single') return `Single purchase${what ? ` (${what})` : ''}`;
  return `Team job of kind ${freeText(String(job.kind))}`;
}

/** Whether the signed-in member may approve or reject jobs at all (the database still checks each one). */
export function mayDecide(status: TeamStatusView | undefined): boolean {
  return !!status?.roles.some((r) => r === 'approver' || r === 'admin');
}

/** The titles of team errors: what went wrong in a few words (the message and hint say the rest). */
export const TEAM_ERROR_TITLE: Partial<Record<ErrorCode, string>> = {
  team_auth_failed: 'Wrong role or password',
  team_unreachable: 'The database server could not be reached',
  team_no_database: 'No such database on that server',
  team_bad_url: 'The server address is not complete',
  team_password_in_url: 'Leave the password out of the address',
  team_schema_outdated: 'vendesk is not set up in that database',
  team_schema_newer: 'The database needs a newer vendesk',
  team_not_member: 'Your role holds no team role',
  team_password_missing: 'The team password is no longer on this desktop',
  team_not_joined: 'This desktop has not joined a team',
  team_refused: 'The team database refused',
  team_busy: 'The team database is busy',
  team_tls_unavailable: 'The database server does not encrypt connections',
  team_tls_certificate: 'The database server’s certificate could not be trusted',
  team_job_state: 'This job was already decided',
  team_job_not_found: 'No such team job',
  team_other_organisation: 'This desktop is connected to another service or organisation',
  team_job_not_runnable_here: 'This job can only run on its preparer’s desktop',
  team_control_characters: 'The text holds a hidden or control character',
  team_desktop_name_taken: 'Another member’s desktop has that name',
  approval_used: 'This approval was used already',
  approval_mismatch: 'The purchase changed after it was approved',
  approval_rejected: 'This job was rejected',
  approval_cancelled: 'This job was cancelled',
  awaiting_approval: 'This job still waits for approval',
};

export function teamErrorTitle(code: string | undefined, fallback: string): string {
  return (code && TEAM_ERROR_TITLE[code as ErrorCode]) || fallback;
}
