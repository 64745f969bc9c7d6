/**
 * The team schema in a real PostgreSQL, attacked through raw SQL as each app role: what the
 * database itself refuses, whatever a (modified) vendesk client sends.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateTeamSchema, teamSchemaVersion } from '../../../src/main/team/teamMigrations';
import { TEAM_MIGRATIONS, TEAM_SCHEMA_VERSION } from '../../../src/main/team/schema';
import { startPostgresCluster, type PostgresCluster } from '../../support/postgresCluster';
import { claimRaw, joinDesk, prepareRaw, type Desk, type RawClaim } from '../../support/teamJobs';
import { until } from '../../support/until';

let cluster: PostgresCluster;
const clients: pg.Client[] = [];
let ada: pg.Client; // preparer
let bola: pg.Client; // approver
let dayo: pg.Client; // preparer and approver
let chidi: pg.Client; // admin

async function connect(config: pg.ClientConfig): Promise<pg.Client> {
  const client = new pg.Client(config);
  await client.connect();
  clients.push(client);
  return client;
}

async function login(name: string, roles: string[]): Promise<pg.Client> {
  const password = await cluster.createLogin(name, roles);
  return connect(cluster.config(name, password));
}

const SHA = 'a'.repeat(64);

const desks = new Map<pg.Client, Desk>();

/** A job of three rows (1 to 3, ₦500 each) prepared by `client` on its own desktop. */
async function prepare(client: pg.Client, sha: string | null = SHA, repeat = false): Promise<{ id: string; state: string; prepared_by: string; claim_scope: string }> {
  const items = [1, 2, 3].map((row) => ({ row, phone: `0803100000${row}`, amountKobo: 50_000 }));
  return prepareRaw(client, desks.get(client)!, { items, sha, repeat });
}

beforeAll(async () => {
  cluster = await startPostgresCluster();
  const setup = await connect(cluster.config());
  expect(await migrateTeamSchema(setup)).toEqual({ applied: TEAM_MIGRATIONS.map((m) => m.version), version: TEAM_SCHEMA_VERSION });
  ada = await login('ada', ['vendesk_preparer']);
  bola = await login('bola', ['vendesk_approver']);
  dayo = await login('dayo', ['vendesk_preparer', 'vendesk_approver']);
  chidi = await login('chidi', ['vendesk_admin']);
  // Each login registers its desktop before it writes anything (team schema 004).
  for (const [client, desk] of [
    [ada, { id: 'desk-1', name: 'Desk 1' }],
    [bola, { id: 'desk-2', name: 'Desk 2' }],
    [dayo, { id: 'desk-3', name: 'Desk 3' }],
    [chidi, { id: 'desk-9', name: 'Desk 9' }],
  ] as const) {
    desks.set(client, desk);
    await joinDesk(client, desk);
  }
});

afterAll(async () => {
  for (const c of clients) await c.end().catch(() => undefined);
  await cluster?.stop();
});

describe('setting up the team schema', () => {
  it('is applied once: a second join finds it current', async () => {
    const again = await connect(cluster.config());
    expect(await migrateTeamSchema(again)).toEqual({ applied: [], version: TEAM_SCHEMA_VERSION });
    expect(await teamSchemaVersion(ada)).toBe(TEAM_SCHEMA_VERSION);
  });

  it('can be set up by a non-superuser that may create roles and owns the database, who does not keep the owner role', async () => {
    await cluster.superQuery("CREATE ROLE dba LOGIN CREATEROLE PASSWORD 'dba-secret-1'");
    await cluster.superQuery('CREATE DATABASE teamtwo OWNER dba');
    const dba = await connect(cluster.config('dba', 'dba-secret-1', 'teamtwo'));
    expect((await migrateTeamSchema(dba)).applied).toEqual(TEAM_MIGRATIONS.map((m) => m.version));
    const r = await dba.query("SELECT pg_has_role('dba', 'vendesk_owner', 'MEMBER') AS m");
    expect(r.rows[0].m).toBe(false);
    await expect(dba.query('DELETE FROM vendesk.audit_trail')).rejects.toThrow(/permission denied/);
  });

  it('refuses a member who may not create it, saying who can', async () => {
    await cluster.superQuery('CREATE DATABASE teamthree');
    const password = await cluster.createLogin('eve', ['vendesk_preparer']);
    const eve = await connect(cluster.config('eve', password, 'teamthree'));
    await expect(migrateTeamSchema(eve)).rejects.toMatchObject({ code: 'team_schema_outdated', hint: expect.stringMatching(/CREATEROLE/) });
  });
});

describe('the approver is never the preparer', () => {
  it('refuses self-approval through the function, even for a member who holds both roles', async () => {
    const job = await prepare(dayo);
    expect(job).toMatchObject({ state: 'awaiting_approval', prepared_by: 'dayo' });
    await expect(dayo.query(`SELECT vendesk.decide_job($1, 'approved', '', 'desk-1', 'Desk 1')`, [job.id])).rejects.toThrow(/approver cannot be the preparer/);
    const adminJob = await prepare(chidi);
    await expect(chidi.query(`SELECT vendesk.decide_job($1, 'approved', '', 'desk-1', 'Desk 1')`, [adminJob.id])).rejects.toThrow(/approver cannot be the preparer/);
    const state = await cluster.superQuery('SELECT state FROM vendesk.jobs WHERE id = $1', [job.id]);
    expect(state.rows[0].state).toBe('awaiting_approval');
  });

  it('refuses a preparer who writes the approval or the state directly', async () => {
    const job = await prepare(ada);
    await expect(ada.query(`SELECT vendesk.decide_job($1, 'approved', '', 'd', 'd')`, [job.id])).rejects.toThrow(/permission denied/);
    await expect(
      ada.query(`INSERT INTO vendesk.approvals (job_id, prepared_by, decision, decided_by, desktop_id, desktop_name) VALUES ($1, 'ada', 'approved', 'bola', 'd', 'd')`, [job.id]),
    ).rejects.toThrow(/permission denied/);
    await expect(ada.query(`UPDATE vendesk.jobs SET state = 'approved' WHERE id = $1`, [job.id])).rejects.toThrow(/permission denied/);
    await expect(ada.query(`UPDATE vendesk.jobs SET prepared_by = 'bola' WHERE id = $1`, [job.id])).rejects.toThrow(/permission denied/);
    await expect(ada.query('SET ROLE vendesk_owner')).rejects.toThrow(/permission denied/);
    await expect(ada.query('SET ROLE vendesk_approver')).rejects.toThrow(/permission denied/);
  });

  it('holds as a constraint even for the superuser', async () => {
    const job = await prepare(ada);
    await expect(
      cluster.superQuery(`INSERT INTO vendesk.approvals (job_id, prepared_by, decision, decided_by, desktop_id, desktop_name) VALUES ($1, 'ada', 'approved', 'ada', 'd', 'd')`, [
        job.id,
      ]),
    ).rejects.toThrow(/approver_is_not_preparer/);
    await expect(
      cluster.superQuery(
        `INSERT INTO vendesk.approvals (job_id, prepared_by, decision, decided_by, desktop_id, desktop_name) VALUES ($1, 'mallory', 'approved', 'ada', 'd', 'd')`,
        [job.id],
      ),
    ).rejects.toThrow(/foreign key/);
  });

  it('records who prepared from the login, not from anything the client sends', async () => {
    const job = await prepare(ada);
    expect(job.prepared_by).toBe('ada');
  });

  it('lets another approver decide once, a rejection needing a note', async () => {
    const job = await prepare(ada);
    await expect(bola.query(`SELECT vendesk.decide_job($1, 'rejected', '  ', 'desk-2', 'Desk 2')`, [job.id])).rejects.toThrow(/rejection_has_note/);
    const approved = await bola.query(`SELECT * FROM vendesk.decide_job($1, 'approved', 'ok', 'desk-2', 'Desk 2')`, [job.id]);
    expect(approved.rows[0].state).toBe('approved');
    await expect(dayo.query(`SELECT vendesk.decide_job($1, 'rejected', 'late', 'd', 'd')`, [job.id])).rejects.toThrow(/no longer waits/);
    const decision = await ada.query('SELECT decision, decided_by, note FROM vendesk.approvals WHERE job_id = $1', [job.id]);
    expect(decision.rows).toEqual([{ decision: 'approved', decided_by: 'bola', note: 'ok' }]);
    await expect(cluster.superQuery(`UPDATE vendesk.approvals SET decided_by = 'ada' WHERE job_id = $1`, [job.id])).rejects.toThrow(/append-only/);
  });
});

describe('item claims', () => {
  it('sends nothing for a job that is not approved', async () => {
    const job = await prepare(ada, 'b'.repeat(64));
    await expect(claimRaw(ada, desks.get(ada)!, job.id, 2, 50000, 'ref-0')).rejects.toThrow(/nothing is sent before it is approved/);
    await bola.query(`SELECT vendesk.decide_job($1, 'rejected', 'wrong month', 'desk-2', 'Desk 2')`, [job.id]);
    await expect(claimRaw(ada, desks.get(ada)!, job.id, 2, 50000, 'ref-0')).rejects.toThrow(/is rejected/);
    const claims = await cluster.superQuery('SELECT count(*)::int AS n FROM vendesk.item_claims WHERE job_id = $1', [job.id]);
    expect(claims.rows[0].n).toBe(0);
  });

  it('gives an item to one desktop only, and a second job from the same spreadsheet finds it claimed', async () => {
    const sha = 'c'.repeat(64);
    const first = await prepare(ada, sha);
    const second = await prepare(dayo, sha);
    const repeat = await prepare(ada, sha, true);
    for (const job of [first, second, repeat]) await bola.query(`SELECT vendesk.decide_job($1, 'approved', '', 'desk-2', 'Desk 2')`, [job.id]);
    const mine = await claimRaw(ada, desks.get(ada)!, first.id, 2, 50000, 'ref-a0');
    expect(mine).toMatchObject({ job_id: first.id, request_ref: 'ref-a0', claimed_by: 'ada' });
    const again = await claimRaw(bola, desks.get(bola)!, first.id, 2, 50000, 'ref-b0');
    expect(again).toMatchObject({ job_id: first.id, request_ref: 'ref-a0' });
    const other = await claimRaw(dayo, desks.get(dayo)!, second.id, 2, 50000, 'ref-d0');
    expect(other).toMatchObject({ job_id: first.id, request_ref: 'ref-a0' });
    const deliberate = await claimRaw(ada, desks.get(ada)!, repeat.id, 2, 50000, 'ref-r0');
    expect(deliberate).toMatchObject({ job_id: repeat.id, request_ref: 'ref-r0' });
    await expect(claimRaw(ada, desks.get(ada)!, first.id, 1048577, 50000, 'ref-a3')).rejects.toThrow(/has no row 1048577|Row 1048577 is not one of the rows/);
    await expect(ada.query(`DELETE FROM vendesk.item_claims`)).rejects.toThrow(/permission denied/);
    const settled = await ada.query(`SELECT * FROM vendesk.settle_item($1, 2, 'succeeded', 'desk-1', 'Desk 1')`, [first.id]);
    expect(settled.rows[0].outcome).toBe('succeeded');
    await expect(ada.query(`SELECT vendesk.settle_item($1, 2, 'failed', 'desk-1', 'Desk 1')`, [first.id])).rejects.toThrow(/already settled/);
  });

  it('gives the first item of a just-approved job to one of two desktops claiming it at the same moment, and answers both', async () => {
    // Two desktops (a retry beside the first try, or two team desktops) claim row 1 of a job
    // that has just been approved. The superuser holds the claims table so that both calls are
    // inside claim_item, past their read of the job, when they go on together.
    const job = await prepare(ada, 'e'.repeat(64));
    await bola.query(`SELECT vendesk.decide_job($1, 'approved', '', 'desk-2', 'Desk 2')`, [job.id]);
    const gate = await connect(cluster.config());
    await gate.query('BEGIN');
    await gate.query('LOCK TABLE vendesk.item_claims IN SHARE MODE');
    const claims = [claimRaw(ada, desks.get(ada)!, job.id, 1, 50000, 'ref-race-a'), claimRaw(dayo, desks.get(dayo)!, job.id, 1, 50000, 'ref-race-d')];
    const settled = Promise.allSettled(claims);
    // Both claims reach the lock in milliseconds on a quiet machine, seconds on a busy one: polled for.
    await until(async () => {
      // The gate's transaction would otherwise read pg_stat_activity once and keep that picture:
      // a first look before both claims waited never saw them wait (it failed on a busy machine).
      await gate.query('SELECT pg_stat_clear_snapshot()');
      const r = await gate.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE usename IN ('ada', 'dayo') AND wait_event_type = 'Lock' AND query LIKE '%claim_item%'",
      );
      return r.rows[0].n === 2;
    }, 'the two claims to both reach the claims table');
    await gate.query('COMMIT');
    const answers = await settled;
    const refused = answers.filter((a) => a.status === 'rejected').map((a) => String((a as PromiseRejectedResult).reason));
    expect(refused, refused.join('\n')).toEqual([]);
    const refs = answers.map((a) => (a as PromiseFulfilledResult<RawClaim>).value.request_ref);
    expect(refs[0]).toBe(refs[1]);
    const rows = await cluster.superQuery('SELECT request_ref FROM vendesk.item_claims WHERE job_id = $1', [job.id]);
    expect(rows.rows.map((r) => r.request_ref)).toEqual([refs[0]]);
    expect((await cluster.superQuery('SELECT state FROM vendesk.jobs WHERE id = $1', [job.id])).rows[0].state).toBe('running');
    const sends = await cluster.superQuery("SELECT count(*)::int AS n FROM vendesk.audit_trail WHERE action = 'send' AND job_id = $1", [job.id]);
    expect(sends.rows[0].n).toBe(1);
    // The rules in front of the claim cannot be gone around by calling what they guard.
    await expect(ada.query(`SELECT vendesk.claim_item_of_open_job($1, 2, 50000, 'ref-race-x', 'desk-1', 'Desk 1')`, [job.id])).rejects.toThrow(/permission denied/);
  });
});

describe('the audit trail and settings', () => {
  it('is append-only for app roles and refuses changes even from its owner', async () => {
    await expect(ada.query('UPDATE vendesk.audit_trail SET amount_kobo = 1')).rejects.toThrow(/permission denied/);
    await expect(chidi.query('DELETE FROM vendesk.audit_trail')).rejects.toThrow(/permission denied/);
    await expect(ada.query(`SELECT vendesk.audit_append('d', 'd', 'send', NULL, 1, '{}'::jsonb)`)).rejects.toThrow(/permission denied/);
    await expect(cluster.superQuery('DELETE FROM vendesk.audit_trail WHERE seq = 1')).rejects.toThrow(/append-only/);
    await expect(cluster.superQuery('TRUNCATE vendesk.audit_trail')).rejects.toThrow(/append-only/);
  });

  it('lets only an admin change the approval threshold, and records it', async () => {
    await expect(ada.query(`SELECT vendesk.set_team_setting('single_purchase_approval_kobo', '500000', 'd', 'd')`)).rejects.toThrow(/permission denied/);
    await chidi.query(`SELECT vendesk.set_team_setting('single_purchase_approval_kobo', '500000', 'desk-9', 'Desk 9')`);
    const r = await ada.query(`SELECT value FROM vendesk.team_settings WHERE key = 'single_purchase_approval_kobo'`);
    expect(r.rows[0].value).toBe(500000);
    const audit = await ada.query(`SELECT actor, action, amount_kobo FROM vendesk.audit_trail ORDER BY seq DESC LIMIT 1`);
    expect(audit.rows[0]).toEqual({ actor: 'chidi', action: 'cap_change', amount_kobo: '500000' });
  });
});
