/**
 * A team database set up by the vendesk before issue 37 (team schema 6), used, then upgraded to
 * schema 7 by a superuser's join, against a real PostgreSQL 15:
 * - under 6, a member's claim inside a transaction opened before the approval expired is
 *   accepted (issue 37, item 2, reproduced); after the upgrade `audit verify` reports that send,
 *   and the same attack is refused;
 * - a desktop registered under 6 with another member's name (in another case, with a curly
 *   apostrophe) is renamed by the upgrade; one whose name carries an escape code is left as it was;
 * - claims made under 6 keep answering (their content key is filled in from the approved rows);
 * - a login outside the team could connect under 6, and cannot after the upgrade.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyTrailAndState } from '../../../src/main/team/auditTrail';
import { migrateTeamSchema } from '../../../src/main/team/teamMigrations';
import { teamSetupProblems } from '../../../src/main/team/teamSetup';
import { startPostgresCluster, type PostgresCluster } from '../../support/postgresCluster';
import { approveRaw, claimRaw, joinDesk, prepareRaw, rowsOf, type Desk } from '../../support/teamJobs';
import { until } from '../../support/until';

const ESC = '\x1b';
let cluster: PostgresCluster;
const clients: pg.Client[] = [];
const pw: Record<string, string> = {};
const desk: Record<string, Desk> = {
  ada: { id: 'desk-ada', name: "Ada's PC" },
  mallory: { id: 'desk-mal', name: 'ada’s pc' },
  bola: { id: 'desk-bola', name: 'Bola PC' },
  chidi: { id: 'desk-chidi', name: 'Chidi PC' },
};

async function connect(name: string): Promise<pg.Client> {
  const client = new pg.Client(cluster.config(name, pw[name]));
  await client.connect();
  clients.push(client);
  return client;
}

const approve = (client: pg.Client, who: string, jobId: string) => approveRaw(client, desk[who], jobId);

/** Claims row `row` inside a transaction whose start is before the approval's expiry, once the clock has passed it. */
async function claimInOldTransaction(member: pg.Client, who: string, jobId: string, row: number, ref: string): Promise<unknown> {
  await member.query('BEGIN');
  try {
    const start = (await member.query<{ t: string }>('SELECT now()::text AS t')).rows[0].t;
    // The superuser dates the approval so that it expires half a second after this transaction began (triggers off).
    await cluster.forge(`UPDATE vendesk.approvals SET decided_at = $1::timestamptz - interval '1 minute' + interval '500 milliseconds' WHERE job_id = $2`, [start, jobId]);
    const past = "SELECT clock_timestamp() > max(decided_at) + interval '1 minute' AS past FROM vendesk.approvals WHERE job_id = $1";
    await until(async () => (await cluster.superQuery<{ past: boolean }>(past, [jobId])).rows[0].past, 'the approval to expire');
    const claim = await claimRaw(member, desk[who], jobId, row, 10_000, ref);
    await member.query('COMMIT');
    return claim;
  } catch (e) {
    await member.query('ROLLBACK');
    throw e;
  }
}

let jobId = '';
let oluCouldConnect = false;

beforeAll(async () => {
  cluster = await startPostgresCluster();
  const setup = new pg.Client(cluster.config());
  await setup.connect();
  clients.push(setup);
  expect(await migrateTeamSchema(setup, { through: 6 })).toEqual({ applied: [1, 2, 3, 4, 5, 6], version: 6 });
  for (const [name, roles] of [
    ['ada', ['vendesk_preparer']],
    ['mallory', ['vendesk_preparer']],
    ['bola', ['vendesk_approver']],
    ['chidi', ['vendesk_admin']],
    ['olu', []],
  ] as const) {
    pw[name] = await cluster.createLogin(name, [...roles]);
  }
  const olu = new pg.Client(cluster.config('olu', pw.olu));
  await olu.connect().then(() => (oluCouldConnect = true));
  await olu.end();
  // Used under schema 6: desktops registered (mallory's named like ada's, and one with an escape code), a job approved and claimed.
  const ada = await connect('ada');
  const mallory = await connect('mallory');
  const bola = await connect('bola');
  const chidi = await connect('chidi');
  await joinDesk(ada, desk.ada);
  await joinDesk(mallory, desk.mallory);
  await joinDesk(mallory, { id: 'desk-mal-2', name: `Mallory${ESC}[31m PC` });
  await joinDesk(bola, desk.bola);
  await joinDesk(chidi, desk.chidi);
  await chidi.query(`SELECT vendesk.set_team_setting('approval_valid_minutes', '1', $1, $2)`, [desk.chidi.id, desk.chidi.name]);
  const job = await prepareRaw(ada, desk.ada, { items: rowsOf(3, 10_000, 8047000001), sha: 'e'.repeat(64) });
  jobId = job.id;
  await approve(bola, 'bola', jobId);
  // Schema 6 compared the transaction's start: the late claim is accepted.
  expect(await claimInOldTransaction(ada, 'ada', jobId, 2, 'ref-late-2')).toMatchObject({ job_id: jobId, request_ref: 'ref-late-2' });
  for (const c of clients.splice(0)) await c.end();
  // The upgrade: a superuser joins.
  const superuser = new pg.Client(cluster.config());
  await superuser.connect();
  clients.push(superuser);
  // (to the latest step: 7, since issue 40 8, and since issue 41 9)
  expect(await migrateTeamSchema(superuser)).toEqual({ applied: [7, 8, 9], version: 9 });
}, 180_000);

afterAll(async () => {
  for (const c of clients) await c.end().catch(() => undefined);
  await cluster?.stop();
});

describe('upgrading a team database to schema 7', () => {
  it('has audit verify report the send schema 6 let through after its approval expired, and refuses the same claim now', async () => {
    const bola = await connect('bola');
    const v = await verifyTrailAndState(bola);
    expect(v.chainIntact).toBe(true);
    expect(v.unrecorded).toEqual([expect.objectContaining({ code: 'send_after_expiry', jobId, item: 2 })]);
    const ada = await connect('ada');
    await expect(claimInOldTransaction(ada, 'ada', jobId, 3, 'ref-late-3')).rejects.toThrow(/The approval of job .* expired at/);
    expect((await cluster.superQuery('SELECT item_index FROM vendesk.item_claims WHERE job_id = $1 ORDER BY item_index', [jobId])).rows).toEqual([{ item_index: 2 }]);
  });

  it('keeps answering claims made before, by their content', async () => {
    const keys = await cluster.superQuery<{ item_key: string }>('SELECT item_key FROM vendesk.item_claims WHERE job_id = $1', [jobId]);
    expect(keys.rows[0].item_key).toMatch(/^[0-9a-f]{64}$/);
    const ada = await connect('ada');
    // The expiry does not stop the answer to a claim made before it: the same request finds its own claim.
    expect(await claimRaw(ada, desk.ada, jobId, 2, 10_000, 'ref-retry-2')).toMatchObject({ job_id: jobId, request_ref: 'ref-late-2' });
  });

  it("renames a desktop registered with another member's name; one with an escape code is left as it was", async () => {
    const desktops = await cluster.superQuery('SELECT desktop_id, desktop_name, role FROM vendesk.desktops ORDER BY desktop_id');
    expect(desktops.rows).toEqual([
      { desktop_id: 'desk-ada', desktop_name: "Ada's PC", role: 'ada' },
      { desktop_id: 'desk-bola', desktop_name: 'Bola PC', role: 'bola' },
      { desktop_id: 'desk-chidi', desktop_name: 'Chidi PC', role: 'chidi' },
      { desktop_id: 'desk-mal', desktop_name: 'ada’s pc (mallory, desk-mal)', role: 'mallory' },
      { desktop_id: 'desk-mal-2', desktop_name: `Mallory${ESC}[31m PC`, role: 'mallory' },
    ]);
    // mallory joining again with the name her desktop had is refused now; the trail's earlier rows keep the names they were written with.
    const mallory = await connect('mallory');
    await expect(joinDesk(mallory, desk.mallory)).rejects.toThrow(/is taken in this team: a desktop of ada has that name/);
    const joins = await cluster.superQuery("SELECT desktop_name FROM vendesk.audit_trail WHERE action = 'join' AND desktop_id = 'desk-mal'");
    expect(joins.rows).toEqual([{ desktop_name: 'ada’s pc' }]);
  });

  it('admits only team members from then on', async () => {
    expect(oluCouldConnect).toBe(true);
    await expect(new pg.Client(cluster.config('olu', pw.olu)).connect()).rejects.toThrow(/permission denied for database/);
    const bola = await connect('bola');
    expect((await teamSetupProblems(bola)).map((p) => p.kind)).toEqual([]);
  });
});
