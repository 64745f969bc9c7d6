/**
 * Which team database this desktop is joined to, and as whom. The address (without password) and
 * this desktop's id and name are settings; the password is kept like an API token — never in
 * settings, logs or errors: `VENDESK_TEAM_PASSWORD` for scripted runs, else a file only its owner
 * can read (`<data folder>/team/password.token`).
 */
import crypto from 'node:crypto';
import net from 'node:net';
import os from 'node:os';
import type pg from 'pg';
import { AppError } from '../../shared/appError';
import type { AppPart } from '../appContext';
import { registerSecret } from '../redact';
import type { TokenStore } from '../store/tokenStore';

export interface TeamLink {
  /** postgres://user@host:port/database (never a password). */
  url: string;
  user: string;
  database: string;
  desktopName: string;
  joinedAt: string;
}

const LINK_KEY = 'team.link';
const DESKTOP_ID_KEY = 'team.desktopId';
const PASSWORD_ID = 'password';

export interface ParsedTeamUrl {
  url: string;
  user: string;
  database: string;
}

/**
 * How long a team call waits for a lock another session holds (a member's transaction left open
 * in psql, say) before it fails with `team_busy` — the server aborts the statement, so nothing it
 * would have written commits later.
 */
export const TEAM_LOCK_TIMEOUT_MS = 5_000;
/** The longest any one team statement may run (the server cancels it; nothing of it commits). */
export const TEAM_STATEMENT_TIMEOUT_MS = 60_000;
/** A team connection left inside a transaction this long is ended by the server. */
export const TEAM_IDLE_IN_TRANSACTION_MS = 60_000;

/** Host names that never leave this computer: a connection to them may stay unencrypted. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h) || h.startsWith('/');
}

/**
 * The TLS settings of a team address. Encrypted by default: a server on another host is reached
 * over TLS with its certificate checked against the system's trusted authorities and its name
 * (libpq's `verify-full`) unless the address says otherwise (`?sslmode=disable|require|verify-ca|
 * verify-full`); a loopback address without `sslmode` stays plain.
 */
export function teamTlsConfig(host: string, sslmode: string | null): pg.ClientConfig['ssl'] {
  const mode = sslmode ?? (isLoopbackHost(host) ? 'disable' : 'verify-full');
  const servername = net.isIP(host) === 0 && !host.startsWith('/') ? { servername: host } : {};
  switch (mode) {
    case 'disable':
      return false;
    case 'require':
      return { rejectUnauthorized: false };
    case 'verify-ca':
      return { rejectUnauthorized: true, checkServerIdentity: () => undefined };
    default:
      return { rejectUnauthorized: true, ...servername };
  }
}

/** How pg connects to a team address (the password is added by the caller). */
export function teamClientConfig(url: string, password: string): pg.ClientConfig {
  const parsed = parseTeamUrl(url);
  const u = new URL(parsed.url);
  const host = u.hostname.replace(/^\[|\]$/g, '');
  return {
    host,
    port: u.port ? Number(u.port) : 5432,
    user: parsed.user,
    database: parsed.database,
    password,
    ssl: teamTlsConfig(host, u.searchParams.get('sslmode')),
    connectionTimeoutMillis: 10_000,
    // Sent at sign-in, so they hold whatever the database's or role's defaults say: no team call
    // waits without end behind another member's lock; a call whose vendesk went away (Ctrl-C, a
    // crash) is aborted by the server within a second instead of committing later, when the lock
    // frees; and no search path set by the database's owner can put other functions or operators
    // in front of PostgreSQL's own.
    lock_timeout: TEAM_LOCK_TIMEOUT_MS,
    statement_timeout: TEAM_STATEMENT_TIMEOUT_MS,
    idle_in_transaction_session_timeout: TEAM_IDLE_IN_TRANSACTION_MS,
    options: '-c search_path=pg_catalog,vendesk,pg_temp -c client_connection_check_interval=1000',
  };
}

/** How a team address is written, for the hints of its refusals. */
const TEAM_URL_FORM = 'Write it as postgres://USER@HOST:PORT/DATABASE.';

/** The sslmode values of libpq: one vendesk does not take is named back; any other text is not (it is part of the address). */
const LIBPQ_SSLMODES = new Set(['disable', 'allow', 'prefer', 'require', 'verify-ca', 'verify-full']);

/**
 * Reads `postgres://USER@HOST[:PORT]/DATABASE[?sslmode=…]`; an address carrying a password is
 * refused. No refusal quotes the address (issue 37, item 6): a mistyped one may hold a password
 * (`postgres://ada:secret@db:54x2/team` is not a URL at all, so its password cannot be told apart).
 */
export function parseTeamUrl(text: string): ParsedTeamUrl {
  let u: URL;
  try {
    u = new URL(text.trim());
  } catch {
    throw new AppError(
      'team_bad_url',
      'The team database address could not be read: check the server, its port (a number) and the database. (vendesk does not repeat it: a mistyped address may hold a password.)',
      'Write it as postgres://USER@HOST:PORT/DATABASE with no password in it: the password is given on its own (its field in Settings → Team, --password-file or VENDESK_TEAM_PASSWORD).',
    );
  }
  if (u.protocol !== 'postgres:' && u.protocol !== 'postgresql:') {
    throw new AppError('team_bad_url', 'A team database address starts with postgres:// (this one does not).', TEAM_URL_FORM);
  }
  if (u.password) {
    throw new AppError(
      'team_password_in_url',
      'The database address holds a password; vendesk does not take one there (addresses are shown and logged).',
      'Remove the password from the address and give it in a file (--password-file) or VENDESK_TEAM_PASSWORD, or in Settings → Team.',
    );
  }
  const user = decodeURIComponent(u.username);
  const database = decodeURIComponent(u.pathname.replace(/^\//, ''));
  if (!user || !u.hostname || !database) {
    throw new AppError('team_bad_url', 'The database address needs your role, the server and the database.', TEAM_URL_FORM);
  }
  const sslmode = u.searchParams.get('sslmode');
  if (sslmode !== null && !['disable', 'require', 'verify-ca', 'verify-full'].includes(sslmode)) {
    throw new AppError(
      'team_bad_url',
      LIBPQ_SSLMODES.has(sslmode) ? `sslmode=${sslmode} is not one vendesk knows.` : 'The sslmode in the address is not one vendesk knows.',
      'Use sslmode=verify-full (recommended across a network), require, or disable.',
    );
  }
  const query = sslmode === null ? '' : `?sslmode=${sslmode}`;
  return { url: `postgres://${encodeURIComponent(user)}@${u.host}/${encodeURIComponent(database)}${query}`, user, database };
}

/** The shell's store: safeStorage in the Electron shell, else `<data folder>/team/password.token` (0600). */
function passwords(app: AppPart<'teamPasswords'>): TokenStore {
  return app.teamPasswords;
}

/**
 * Refuses a join whose password this desktop could not keep (the Electron shell without a keyring),
 * before anything is written — unless it is given in VENDESK_TEAM_PASSWORD, which is then used as is.
 */
export function checkTeamPasswordCanBeKept(app: AppPart<'teamPasswords'>, password: string, env: NodeJS.ProcessEnv = process.env): void {
  if (keptInEnv(password, env)) return;
  const refusal = passwords(app).refusal?.() ?? null;
  if (refusal) throw AppError.fromShape(refusal);
}

function keptInEnv(password: string, env: NodeJS.ProcessEnv): boolean {
  return (env.VENDESK_TEAM_PASSWORD ?? '').trim() === password;
}

export function teamLink(app: AppPart<'settings'>): TeamLink | null {
  return app.settings.get<TeamLink | null>(LINK_KEY, null);
}

/** This desktop's id in the team (made once, kept across leave and join). */
export function desktopId(app: AppPart<'settings'>): string {
  let id = app.settings.get<string | null>(DESKTOP_ID_KEY, null);
  if (!id) {
    id = crypto.randomUUID();
    app.settings.set(DESKTOP_ID_KEY, id);
  }
  return id;
}

/** A new id for this desktop (the old one is registered to another team member). */
export function newDesktopId(app: AppPart<'settings'>): string {
  const id = crypto.randomUUID();
  app.settings.set(DESKTOP_ID_KEY, id);
  return id;
}

export function defaultDesktopName(): string {
  return os.hostname() || 'This desktop';
}

export function teamPassword(app: AppPart<'teamPasswords'>, env: NodeJS.ProcessEnv = process.env): string | null {
  const fromEnv = (env.VENDESK_TEAM_PASSWORD ?? '').trim();
  const password = fromEnv !== '' ? fromEnv : passwords(app).get(PASSWORD_ID);
  if (password) registerSecret(password);
  return password;
}

export function saveTeamLink(app: AppPart<'settings' | 'teamPasswords'>, link: TeamLink, password: string): void {
  registerSecret(password);
  const store = passwords(app);
  if (!(store.refusal?.() && keptInEnv(password, process.env))) store.set(PASSWORD_ID, password);
  app.settings.set(LINK_KEY, link);
}

export function forgetTeamLink(app: AppPart<'settings' | 'teamPasswords'>): void {
  passwords(app).delete(PASSWORD_ID);
  app.settings.delete(LINK_KEY);
}
