/**
 * PostgreSQL's answers as sentences a team member can act on, mapped from the SQLSTATE and the call
 * that was made — never PostgreSQL's own words when they name the schema's insides (a function,
 * table or constraint): "permission denied for function decide_job" becomes "You cannot approve:
 * your role holds no approver role.". Connection, TLS and sign-in failures say what to check; a
 * lock another session holds says the database is busy (the statement was aborted by the server,
 * so nothing of it commits later).
 */
import { AppError } from '../../shared/appError';

interface PgLikeError {
  code?: string;
  message?: string;
  constraint?: string;
}

/** What a team call was doing, for the sentence of a refusal. */
export type TeamCall = 'approve' | 'reject' | 'prepare' | 'cancel' | 'claim' | 'settle' | 'finish' | 'adopt' | 'setting' | 'record' | 'read' | 'month';

const NEEDS: Partial<Record<TeamCall, { doing: string; role: string }>> = {
  approve: { doing: 'approve', role: 'approver' },
  reject: { doing: 'reject', role: 'approver' },
  prepare: { doing: 'prepare a job', role: 'preparer' },
  cancel: { doing: 'cancel this job', role: 'preparer' },
  setting: { doing: 'change team settings', role: 'admin' },
  claim: { doing: 'send for the team', role: 'team' },
  settle: { doing: 'settle for the team', role: 'team' },
  finish: { doing: 'finish this job', role: 'team' },
  adopt: { doing: 'run this job here', role: 'team' },
  record: { doing: 'write to the audit trail', role: 'team' },
  month: { doing: 'close or reopen a month', role: 'approver' },
};

/** The team role a schema refusal names ("Only a member of vendesk_approver may …"). */
const ROLE_WORD: Record<string, string> = { vendesk_preparer: 'preparer', vendesk_approver: 'approver', vendesk_admin: 'admin', vendesk_member: 'team' };

/** Words of PostgreSQL that name the schema's insides: a message holding one is not shown as is. */
const INTERNAL = /\b(function|procedure|relation|table|column|schema|constraint|trigger|operator|permission denied)\b|vendesk\.|\b[a-z]+_[a-z_]+\(/i;

/** The schema's refusal of a claim that is not an approved row at its approved recipient, product and amount. */
const NOT_APPROVED = /only (an approved row|the approved amount|what was approved) is sent$/;

const TLS_CERTIFICATE = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_UNTRUSTED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

const ASK_ADMIN = 'This needs a role you do not hold, or another member must do it. Ask your team admin.';

/** What to do about text the team database refused for a character not shown as what it is (team schema 7), by what was being done. */
const REWRITE: Partial<Record<TeamCall, string>> = {
  prepare:
    'Nothing was sent for approval. Correct that cell of the spreadsheet (or rename the file) so that it holds no line break, tab or invisible character, import it again and send it for approval.',
  approve: 'Nothing was decided. Write the note again without it (line breaks are fine).',
  reject: 'Nothing was decided. Write the note again without it (line breaks are fine).',
  record: 'Choose a name for this desktop without it (vendesk team join … --desktop-name NAME, or the desktop field in Settings → Team) and join again.',
  claim: 'Nothing was sent for it: only the item as approved is sent.',
};

/** A refusal for lack of privilege (SQLSTATE 42501), in words. */
function refusal(message: string, call: TeamCall | undefined): AppError {
  if (/approver cannot be the preparer/i.test(message)) {
    return new AppError('team_refused', 'The approver cannot be the preparer.', 'Another member with the approver (or admin) role approves this job.');
  }
  if (/may finish it/.test(message)) {
    return new AppError(
      'team_refused',
      `${message.replace(/\.$/, '')}.`,
      'The desktop that runs the job finishes it when its run ends, or the preparer (or an admin) does; nothing is lost meanwhile.',
    );
  }
  if (/only the member who claimed it, or an admin, settles it/.test(message)) {
    return new AppError('team_refused', `${message.replace(/\.$/, '')}.`, 'The desktop that claimed the row settles it once it knows how it ended (or an admin does).');
  }
  if (/only the preparer of job/i.test(message)) {
    return new AppError('team_refused', 'Only the member who prepared this job may cancel it.', ASK_ADMIN);
  }
  if (/permission denied for database/i.test(message)) {
    // The database admits only team members (team schema 7): this role holds no team role.
    return new AppError(
      'team_not_member',
      'Your database role may not connect to the team database: it admits only team members, and your role holds no team role.',
      'Ask your database administrator to grant your role one: GRANT vendesk_preparer TO your_role; (or vendesk_approver, vendesk_admin).',
    );
  }
  if (/append-only/i.test(message)) {
    return new AppError(
      'team_refused',
      'The team database keeps this record as it was written: it cannot be changed or deleted.',
      'Nothing to do: every change is a new row in the audit trail.',
    );
  }
  const named = /Only a member of (vendesk_\w+) may ([^.]+)/.exec(message);
  const needs = call ? NEEDS[call] : undefined;
  // The schema's own refusal in people's words (not a role rule, nothing internal): passed on as is.
  if (!named && !INTERNAL.test(message)) return new AppError('team_refused', `${message.replace(/\.$/, '')}.`, ASK_ADMIN);
  const role = named ? ROLE_WORD[named[1]] : needs?.role;
  const doing = needs?.doing ?? named?.[2] ?? 'do this';
  if (role === 'team' || (!role && /permission denied for (schema|table)/i.test(message))) {
    return new AppError(
      'team_refused',
      `You cannot ${doing}: your role holds no team role.`,
      'Ask your database administrator to grant it one (vendesk_preparer, vendesk_approver or vendesk_admin).',
    );
  }
  if (role) return new AppError('team_refused', `You cannot ${doing}: your role holds no ${role} role.`, ASK_ADMIN);
  return new AppError('team_refused', 'The team database refused: your role may not do this.', ASK_ADMIN);
}

/** PostgreSQL's own message when it says nothing of the schema's insides, else nothing. */
function plain(message: string): string | null {
  return INTERNAL.test(message) ? null : message.replace(/\.$/, '');
}

export function teamError(e: unknown, call?: TeamCall): AppError {
  if (e instanceof AppError) return e;
  const err = (e ?? {}) as PgLikeError;
  const message = err.message ?? String(e);
  if (err.code && TLS_CERTIFICATE.has(err.code)) {
    return new AppError(
      'team_tls_certificate',
      'The team database server’s certificate could not be trusted (it is not signed by an authority this computer trusts, has expired, or names another server). Nothing was sent to it.',
      'Ask your database administrator for a certificate that names this server; for your own authority, start vendesk with NODE_EXTRA_CA_CERTS=/path/to/ca.pem. Only on a network you trust: add ?sslmode=require to the address.',
    );
  }
  if (/does not support SSL connections/i.test(message)) {
    return new AppError(
      'team_tls_unavailable',
      'The team database server does not accept encrypted connections, so vendesk did not sign in: across a network, your password and the team’s data would travel in the clear.',
      'Ask your database administrator to turn TLS on (ssl = on in postgresql.conf, with a certificate). Only on a network you trust: add ?sslmode=disable to the address.',
    );
  }
  switch (err.code) {
    case 'ECONNREFUSED':
    case 'ENOTFOUND':
    case 'EHOSTUNREACH':
    case 'ETIMEDOUT':
    case 'ECONNRESET':
      return new AppError(
        'team_unreachable',
        `The team database could not be reached (${err.code}).`,
        'Check the address and port in Settings → Team, and that this computer can reach the database server; then try again.',
      );
    case '28P01':
    case '28000':
      return new AppError(
        'team_auth_failed',
        'The team database refused the sign-in: the role or its password is wrong, or the server does not let this computer in.',
        'Check your database role and its password (ask your database administrator), then join again.',
      );
    case '3D000':
      return new AppError(
        'team_no_database',
        'That database does not exist on the server.',
        'Check the database name at the end of the address (postgres://USER@HOST:PORT/DATABASE).',
      );
    case '42501':
      return refusal(message, call);
    case '42883':
      // A schema function this vendesk calls is not there in this form: the team's schema is newer
      // (team schema 005, for one, removed the claim that names no item).
      return new AppError(
        'team_schema_newer',
        'The team database’s schema is newer than this vendesk understands, so nothing was sent or written.',
        'Update vendesk on this desktop to the version your team uses, then try again.',
      );
    case '55P03':
    case '40P01':
      return new AppError(
        'team_busy',
        'The team database is busy; try again in a moment.',
        'Another session holds what this needs (for example a transaction left open). Nothing was written. If it stays busy, ask your database administrator to end that session.',
      );
    case '57014':
      if (/statement timeout/i.test(message)) {
        return new AppError(
          'team_busy',
          'The team database is busy; try again in a moment.',
          'It did not answer in time, and nothing was written. If it stays busy, ask your database administrator.',
        );
      }
      break;
    case '55000':
      if (call === 'month') {
        // The team database's own check of the order of closes (another desktop closed or reopened meanwhile).
        const code = /already closed/.test(message) ? 'month_already_closed' : /later month is closed/.test(message) ? 'month_later_closed' : 'month_not_closed';
        return new AppError(
          code,
          `${plain(message) ?? 'The month is not in a state that allows this'}.`,
          'Another desktop of the team may have just closed or reopened it: see `vendesk month list`.',
        );
      }
      return new AppError(
        'team_job_state',
        `${plain(message) ?? 'This job is not in a state that allows this'}.`,
        'Refresh the Approvals list: someone may have decided or started this job already.',
      );
    case 'P0002':
      return new AppError('team_job_not_found', `${plain(message) ?? 'There is no such team job'}.`, 'Check the job id (run `vendesk approvals --state all`).');
    case '23505':
      if (err.constraint === 'desktop_name_taken') {
        return new AppError(
          'team_desktop_name_taken',
          `${plain(message) ?? 'That desktop name is taken in this team'}.`,
          'Choose another name for this desktop (vendesk team join … --desktop-name NAME, or the desktop field in Settings → Team) and join again.',
        );
      }
      break;
    case '23514':
      if (err.constraint === 'text_reads_as_written') {
        return new AppError(
          'team_control_characters',
          `${plain(message) ?? 'The text holds a character that is not shown as what it is (a control character, line break, tab, escape or invisible formatting mark)'}.`,
          (call && REWRITE[call]) ?? 'Remove it (retype the text) and try again.',
        );
      }
      if (err.constraint === 'approver_is_not_preparer') return refusal('approver cannot be the preparer', call);
      if (err.constraint === 'rejection_has_note') return new AppError('team_invalid', 'A rejection needs a note saying why.', 'Give the note (--note).');
      if (err.constraint === 'claim_is_the_approved_item' || NOT_APPROVED.test(message)) {
        // A claim of something other than an approved row, at its recipient, product and amount.
        return new AppError(
          'approval_mismatch',
          `${plain(message) ?? 'What this desktop was about to send is not what was approved'}.`,
          'Nothing was sent for it. Prepare the job again from the spreadsheet and send it for approval.',
        );
      }
      return new AppError(
        'team_invalid',
        `The team database refused the values${plain(message) && !err.constraint ? `: ${plain(message)}` : ''}.`,
        'Correct the input and try again.',
      );
  }
  const said = plain(message);
  return new AppError(
    'team_database',
    `The team database answered with an error${said ? `: ${said}` : ''}${err.code ? ` (PostgreSQL code ${err.code})` : ''}.`,
    'Try again; if it repeats, show this message to your database administrator.',
  );
}
