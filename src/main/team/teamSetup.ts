/**
 * The end of a team's setup, checked. In PostgreSQL 15 a role WITH CREATEROLE can GRANT itself any
 * non-superuser role — `vendesk_owner` included, which may switch the schema's triggers off and
 * write an approval in anyone's name — and can change any member's password and sign in as them.
 * So the setup is finished only when no login role but a superuser can become the owner, create
 * roles, or become a superuser (directly, or through a role it may SET ROLE to). `team status`
 * reports what stands in the way, naming each role and what removes the power; `vendesk team
 * doctor` prints it. Every member may read what this needs (`pg_roles`, `pg_auth_members`).
 *
 * The setup join also gives the database a limit on transactions left open
 * (`idle_in_transaction_session_timeout`), so a forgotten psql session does not hold the team's
 * locks for ever, and the migration to team schema 7 admits only team members to the database
 * (CONNECT taken from PUBLIC, given to `vendesk_member`): a login outside the team can neither
 * read the change channel nor send on it. `team doctor` reports a database that admits anyone.
 */
import type pg from 'pg';
import type { TeamSetupProblem } from '../../shared/contract/team';
import { TEAM_IDLE_IN_TRANSACTION_MS } from './teamLink';

interface ReachRecord {
  login: string;
  /** The role with the power (the login itself, or a role it is a member of). */
  via: string;
  /** The role granted to the login through which it reaches `via` (the login itself when via is). */
  first: string;
  super: boolean;
  createrole: boolean;
  owner: boolean;
  login_owner: boolean;
}

function ident(name: string): string {
  return /^[a-z_][a-z0-9_]*$/.test(name) ? name : `"${name.replaceAll('"', '""')}"`;
}

/** Every non-superuser login role that can forge, and how, and a database any login may connect to; empty when the setup is finished. */
export async function teamSetupProblems(client: pg.ClientBase): Promise<TeamSetupProblem[]> {
  const r = await client.query<ReachRecord>(
    `WITH RECURSIVE reach(login, role, first) AS (
       SELECT oid, oid, oid FROM pg_catalog.pg_roles WHERE rolcanlogin AND NOT rolsuper
       UNION
       SELECT reach.login, m.roleid, CASE WHEN reach.role = reach.login THEN m.roleid ELSE reach.first END
         FROM reach JOIN pg_catalog.pg_auth_members m ON m.member = reach.role
     )
     SELECT DISTINCT ON (l.rolname, g.rolname) l.rolname AS login, g.rolname AS via, f.rolname AS first, g.rolsuper AS super,
            g.rolcreaterole AS createrole, g.rolname = 'vendesk_owner' AS owner, false AS login_owner
       FROM reach JOIN pg_catalog.pg_roles l ON l.oid = reach.login JOIN pg_catalog.pg_roles g ON g.oid = reach.role
         JOIN pg_catalog.pg_roles f ON f.oid = reach.first
      WHERE g.rolsuper OR g.rolcreaterole OR g.rolname = 'vendesk_owner'
     UNION ALL
     SELECT rolname, rolname, rolname, false, false, true, true FROM pg_catalog.pg_roles WHERE rolname = 'vendesk_owner' AND rolcanlogin
     ORDER BY 1, 2`,
  );
  const open = await publicConnectProblem(client);
  const roles = r.rows.map((row): TeamSetupProblem => {
    const who = row.login;
    if (row.login_owner) {
      return {
        role: who,
        kind: 'owner_login',
        message: 'vendesk_owner, the owner of the schema, may sign in: whoever knows its password can change any row.',
        fix: 'ALTER ROLE vendesk_owner NOLOGIN;',
      };
    }
    const self = row.first === who;
    const through = self || row.first === row.via ? '' : ` (through ${row.first}, a role it holds)`;
    const revoke = `REVOKE ${ident(row.first)} FROM ${ident(who)};`;
    if (row.super) {
      return { role: who, kind: 'superuser', message: `${who} can become the superuser ${row.via}${through}.`, fix: revoke };
    }
    if (row.owner) {
      return {
        role: who,
        kind: 'owner',
        message: `${who} can become vendesk_owner${through}: it can switch the team database's rules off and write an approval in another member's name.`,
        fix: revoke,
      };
    }
    return {
      role: who,
      kind: 'createrole',
      message: self
        ? `${who} may create roles (CREATEROLE): in PostgreSQL 15 that lets it make itself vendesk_owner and change any member's password.`
        : `${who} can become ${row.via}, which may create roles (CREATEROLE): in PostgreSQL 15 that lets it make itself vendesk_owner and change any member's password.`,
      fix: self ? `ALTER ROLE ${ident(who)} NOCREATEROLE;  -- as ${who} itself, or a superuser drops the role` : revoke,
    };
  });
  return open ? [...roles, open] : roles;
}

/** Whether the signed-in role may change the database's own settings and grants: a superuser, or the database's owner. */
async function ownsDatabase(client: pg.ClientBase): Promise<boolean> {
  const r = await client.query<{ may: boolean }>(
    `SELECT (SELECT rolsuper FROM pg_catalog.pg_roles WHERE rolname = session_user)
         OR (SELECT datdba FROM pg_catalog.pg_database WHERE datname = current_database()) = (SELECT oid FROM pg_catalog.pg_roles WHERE rolname = session_user) AS may`,
  );
  return r.rows[0]?.may === true;
}

/**
 * As the setup role (the database's owner, or a superuser): transactions left open end after
 * TEAM_IDLE_IN_TRANSACTION_MS in every session of this database that does not choose otherwise
 * (vendesk's own connections also ask for it at sign-in). Returns false when this role may not.
 */
export async function applyDatabaseLimits(client: pg.ClientBase): Promise<boolean> {
  if (!(await ownsDatabase(client))) return false;
  await client.query(
    `DO $$ BEGIN EXECUTE format('ALTER DATABASE %I SET idle_in_transaction_session_timeout = %L', current_database(), '${TEAM_IDLE_IN_TRANSACTION_MS / 1000}s'); END $$`,
  );
  return true;
}

/** The team schema step from which the database admits only team members (issue 37). */
export const MEMBERS_ONLY_STEP = 7;

/** The SQL that admits only team members to a database: what the migration runs, and what `team doctor` says to run. */
function membersOnlySql(database: string): string {
  return `REVOKE CONNECT ON DATABASE ${ident(database)} FROM PUBLIC; GRANT CONNECT ON DATABASE ${ident(database)} TO vendesk_member;`;
}

/**
 * As the database's owner or a superuser (the role that migrates): only team members (and the
 * owner and superusers, who always may) connect to this database. Returns false when this role
 * may not grant on the database (`team doctor` then says what to run).
 */
export async function admitOnlyTeamMembers(client: pg.ClientBase): Promise<boolean> {
  if (!(await ownsDatabase(client))) return false;
  const r = await client.query<{ db: string }>('SELECT current_database() AS db');
  await client.query(membersOnlySql(r.rows[0].db));
  return true;
}

/** The problem of a database any login on the server may connect to (PUBLIC holds CONNECT), or null. */
async function publicConnectProblem(client: pg.ClientBase): Promise<TeamSetupProblem | null> {
  const r = await client.query<{ db: string; open: boolean }>(
    `SELECT d.datname AS db, EXISTS (SELECT 1 FROM aclexplode(coalesce(d.datacl, acldefault('d', d.datdba))) a
       WHERE a.grantee = 0 AND a.privilege_type = 'CONNECT') AS open
       FROM pg_catalog.pg_database d WHERE d.datname = current_database()`,
  );
  const row = r.rows[0];
  if (!row?.open) return null;
  return {
    role: 'PUBLIC',
    kind: 'public_connect',
    message: `Any login on this server may connect to the database ${row.db} (CONNECT is granted to PUBLIC): a login outside the team can listen to the team's change channel and send on it.`,
    fix: `${membersOnlySql(row.db)}  -- as the database's owner or a superuser`,
  };
}
