/**
 * Creates and migrates the team workspace's schema in PostgreSQL. The first `team join` (by a
 * role that may create roles: a superuser, or a role WITH CREATEROLE that owns the database)
 * creates the group roles, the `vendesk` schema owned by the role nobody logs in as
 * (`vendesk_owner`), and applies every step of `schema/` as that owner, in one transaction under
 * an advisory lock, so two desktops joining at once migrate once. A member without those rights
 * joining a database whose schema is current just checks the version; an older schema is an error
 * that says who can migrate it.
 */
import type pg from 'pg';
import { AppError } from '../../shared/appError';
import { TEAM_MIGRATIONS, TEAM_SCHEMA_VERSION } from './schema';
import { admitOnlyTeamMembers, MEMBERS_ONLY_STEP } from './teamSetup';

/** The group roles of a team (cluster-wide names): each member's login role is granted one or more. */
export const TEAM_ROLES = {
  owner: 'vendesk_owner',
  member: 'vendesk_member',
  preparer: 'vendesk_preparer',
  approver: 'vendesk_approver',
  admin: 'vendesk_admin',
} as const;

/** The advisory lock key of migrations (any constant; the same on every desktop). */
const MIGRATION_LOCK = 7_318_018;

export interface TeamMigrationResult {
  /** Versions applied by this call (empty when the schema was already current). */
  applied: number[];
  version: number;
}

const BOOTSTRAP_ROLES = String.raw`
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'vendesk_owner') THEN CREATE ROLE vendesk_owner NOLOGIN; END IF;
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'vendesk_member') THEN CREATE ROLE vendesk_member NOLOGIN; END IF;
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'vendesk_preparer') THEN CREATE ROLE vendesk_preparer NOLOGIN IN ROLE vendesk_member; END IF;
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'vendesk_approver') THEN CREATE ROLE vendesk_approver NOLOGIN IN ROLE vendesk_member; END IF;
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'vendesk_admin') THEN CREATE ROLE vendesk_admin NOLOGIN IN ROLE vendesk_preparer, vendesk_approver; END IF;
END $$;
`;

async function schemaVersion(client: pg.ClientBase): Promise<number | null> {
  const exists = await client.query<{ t: string | null }>("SELECT to_regclass('vendesk.schema_migrations')::text AS t");
  if (!exists.rows[0].t) return null;
  const r = await client.query<{ v: number | null }>('SELECT max(version) AS v FROM vendesk.schema_migrations');
  return r.rows[0].v ?? 0;
}

/** The schema version of the connected database (null when vendesk has never set it up there). */
export async function teamSchemaVersion(client: pg.ClientBase): Promise<number | null> {
  try {
    return await schemaVersion(client);
  } catch (e) {
    if ((e as { code?: string }).code === '42501') return null;
    throw e;
  }
}

async function canSetUp(client: pg.ClientBase): Promise<boolean> {
  const r = await client.query<{ ok: boolean }>(
    `SELECT (r.rolsuper OR (r.rolcreaterole AND has_database_privilege(current_database(), 'CREATE'))) AS ok
       FROM pg_roles r WHERE r.rolname = session_user`,
  );
  return r.rows[0]?.ok === true;
}

/** A role that holds none of the team's roles. */
export function notMemberError(user: string): AppError {
  return new AppError(
    'team_not_member',
    `The database role ${user} is not a member of the team.`,
    `Ask your database administrator to grant it a team role: GRANT vendesk_preparer TO "${user.replaceAll('"', '""')}"; (or vendesk_approver, vendesk_admin).`,
  );
}

/**
 * Brings the team schema up to this vendesk's version (see the file's comment); `through` stops at
 * an earlier step (a database as an older vendesk left it, for tests of an upgrade). From team
 * schema 7 the migrating role, when it owns the database or is a superuser, also admits only team
 * members to it (teamSetup.ts).
 */
export async function migrateTeamSchema(client: pg.ClientBase, options: { through?: number } = {}): Promise<TeamMigrationResult> {
  const target = options.through ?? TEAM_SCHEMA_VERSION;
  const current = await teamSchemaVersion(client);
  if (current !== null && current > TEAM_SCHEMA_VERSION) {
    throw new AppError(
      'team_schema_newer',
      `The team database's schema is version ${current}, newer than this vendesk understands (${TEAM_SCHEMA_VERSION}).`,
      'Update vendesk on this desktop to the version your team uses, then join again.',
    );
  }
  if (current !== null && current >= target) return { applied: [], version: current };
  const setUp = await canSetUp(client);
  if (current === null && !setUp) {
    // The schema is there but hidden from this role: it holds no team role (no USAGE on the schema).
    const r = await client.query<{ there: boolean; user: string }>("SELECT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = 'vendesk') AS there, session_user AS user");
    if (r.rows[0].there) throw notMemberError(r.rows[0].user);
  }
  if (!setUp) {
    throw new AppError(
      'team_schema_outdated',
      current === null
        ? 'vendesk has not been set up in this database yet, and your role may not create it.'
        : `The team database's schema is version ${current}; this vendesk needs ${TEAM_SCHEMA_VERSION}, and your role may not migrate it.`,
      'Ask your database administrator to run `vendesk team join` once as a superuser, or with the setup role that owns the database while it has CREATEROLE (given back for the upgrade, and taken away again after it: docs/team.md), then join again.',
    );
  }
  const applied: number[] = [];
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await client.query(BOOTSTRAP_ROLES);
    const member = await client.query<{ m: boolean; s: boolean }>(
      "SELECT pg_has_role(session_user, 'vendesk_owner', 'MEMBER') AS m, (SELECT rolsuper FROM pg_roles WHERE rolname = session_user) AS s",
    );
    const grantedOwner = !member.rows[0].m;
    if (grantedOwner) await client.query('GRANT vendesk_owner TO SESSION_USER');
    await client.query('CREATE SCHEMA IF NOT EXISTS vendesk');
    await client.query('ALTER SCHEMA vendesk OWNER TO vendesk_owner');
    await client.query('SET LOCAL ROLE vendesk_owner');
    await client.query(
      `CREATE TABLE IF NOT EXISTS vendesk.schema_migrations (
         version integer PRIMARY KEY,
         name text NOT NULL,
         applied_at timestamptz NOT NULL DEFAULT now(),
         applied_by name NOT NULL
       )`,
    );
    const from = (await schemaVersion(client)) ?? 0;
    for (const migration of TEAM_MIGRATIONS) {
      if (migration.version <= from || migration.version > target) continue;
      await client.query(migration.sql);
      await client.query('INSERT INTO vendesk.schema_migrations (version, name, applied_by) VALUES ($1, $2, session_user)', [migration.version, migration.name]);
      applied.push(migration.version);
    }
    await client.query('GRANT USAGE ON SCHEMA vendesk TO vendesk_member');
    await client.query('GRANT SELECT ON vendesk.schema_migrations TO vendesk_member');
    await client.query('RESET ROLE');
    if (grantedOwner) await client.query('REVOKE vendesk_owner FROM SESSION_USER');
    if (target >= MEMBERS_ONLY_STEP) await admitOnlyTeamMembers(client);
    await client.query('COMMIT');
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw e;
  }
  return { applied, version: target };
}
