/**
 * PostgreSQL's answers as errors a team member can act on. The schema's own refusals (approver is
 * the preparer, job not approved, not a member) are written for people already, and are passed on
 * with a hint; connection and login failures say what to check.
 */
import { AppError } from '../../shared/appError';

interface PgLikeError {
  code?: string;
  message?: string;
  constraint?: string;
}

export function teamError(e: unknown, what = 'The team database'): AppError {
  if (e instanceof AppError) return e;
  const err = (e ?? {}) as PgLikeError;
  const message = err.message ?? String(e);
  switch (err.code) {
    case 'ECONNREFUSED':
    case 'ENOTFOUND':
    case 'EHOSTUNREACH':
    case 'ETIMEDOUT':
    case 'ECONNRESET':
      return new AppError('team_unreachable', `${what} could not be reached (${err.code}).`, 'Check the address and port in Settings → Team, and that this computer can reach the database server; then try again.');
    case '28P01':
    case '28000':
      return new AppError('team_auth_failed', 'The team database refused the sign-in: the role or its password is wrong, or the server does not let this computer in.', 'Check your database role and its password (ask your database administrator), then join again.');
    case '3D000':
      return new AppError('team_no_database', `${what} does not exist on that server: ${message}.`, 'Check the database name at the end of the address (postgres://USER@HOST:PORT/DATABASE).');
    case '42501':
      return new AppError('team_refused', `The team database refused: ${message}.`, 'This needs a role you do not hold, or another member must do it. Ask your team admin.');
    case '55000':
      return new AppError('team_job_state', `${message}.`, 'Refresh the Approvals list: someone may have decided or started this job already.');
    case 'P0002':
      return new AppError('team_job_not_found', `${message}.`, 'Check the job id (run `vendesk approvals --state all`).');
    case '23514':
      return new AppError('team_invalid', `The team database refused the values: ${err.constraint ?? message}.`, 'Correct the input and try again.');
    default:
      return new AppError('team_database', `${what} answered with an error: ${message}`, 'Try again; if it repeats, show this message to your database administrator.');
  }
}
