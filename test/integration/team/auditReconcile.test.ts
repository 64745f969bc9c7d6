/**
 * `vendesk audit verify` reconciles the team's state with its trail (issue 23: "a forged approval
 * is caught even when the forger could switch triggers off"). A superuser with triggers off writes
 * an approval in bola's name and sets the job approved, and a claim settled as succeeded, all
 * without audit rows: the chain itself is untouched and verifies, yet `audit verify` names each
 * forged state and exits 1.
 */
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateTeamSchema } from '../../../src/main/team/teamMigrations';
import { startPostgresCluster, type PostgresCluster } from '../../support/postgresCluster';
import { claimRaw, joinDesk, prepareRaw, rowsOf, type Desk } from '../../support/teamJobs';
import { startCliPeer, type CliPeer } from '../cli/cliHarness';

let cluster: PostgresCluster;
let bolaDesk: CliPeer;
let ada: pg.Client;
let chidi: pg.Client;

interface Verify {
  intact: boolean;
  breaks: unknown[];
  unrecorded: { code: string; jobId: string | null; item: number | null; message: string }[];
}

const adaDesk: Desk = { id: 'desk-ada', name: 'Ada PC' };
const chidiDesk: Desk = { id: 'desk-chidi', name: 'Chidi PC' };

/** A job ada prepares through the schema's own function (with its items and prepare row): two rows of ₦100, or of `amountKobo`. */
async function prepareAsAda(amountKobo = 10000): Promise<string> {
  return (await prepareRaw(ada, adaDesk, { items: rowsOf(2, amountKobo), fileName: 'salaries.xlsx' })).id;
}

/** The failures `audit verify` names for one job. */
async function unrecordedOf(jobId: string): Promise<Verify['unrecorded']> {
  const v = JSON.parse((await bolaDesk.run(['audit', 'verify'])).stdout) as Verify;
  return v.unrecorded.filter((u) => u.jobId === jobId);
}

/** SQL as the superuser with every trigger off (session_replication_role = replica), in one transaction. */
const forge = (sql: string, params: unknown[] = []) => cluster.forge(sql, params);

beforeAll(async () => {
  cluster = await startPostgresCluster();
  const setup = new pg.Client(cluster.config());
  await setup.connect();
  await migrateTeamSchema(setup);
  await setup.end();
  const adaPassword = await cluster.createLogin('ada', ['vendesk_preparer']);
  const bolaPassword = await cluster.createLogin('bola', ['vendesk_approver']);
  const chidiPassword = await cluster.createLogin('chidi', ['vendesk_approver', 'vendesk_admin']);
  ada = new pg.Client(cluster.config('ada', adaPassword));
  await ada.connect();
  await joinDesk(ada, adaDesk);
  chidi = new pg.Client(cluster.config('chidi', chidiPassword));
  await chidi.connect();
  await joinDesk(chidi, chidiDesk);
  bolaDesk = await startCliPeer('audit-reconcile-bola');
  const file = path.join(bolaDesk.dir, 'bola.pw');
  fs.writeFileSync(file, `${bolaPassword}\n`, { mode: 0o600 });
  await bolaDesk.json(['team', 'join', '--url', `postgres://bola@127.0.0.1:${cluster.port}/postgres`, '--password-file', file]);
}, 120_000);

afterAll(async () => {
  await ada?.end().catch(() => undefined);
  await chidi?.end().catch(() => undefined);
  await bolaDesk?.close();
  await cluster?.stop();
});

describe('audit verify reconciles the state with the trail', () => {
  it('passes a team whose every approval and job state went through the schema', async () => {
    const jobId = await prepareAsAda();
    await bolaDesk.json(['approve', jobId]);
    const rejected = await prepareAsAda();
    await bolaDesk.json(['reject', rejected, '--note', 'wrong month']);
    await prepareAsAda(); // still waiting
    // Sent, settled and finished through the schema (team schema 004 writes the finish row).
    const finished = await prepareAsAda();
    await bolaDesk.json(['approve', finished]);
    await claimRaw(ada, adaDesk, finished, 2, 10000, 'ref-finished-2');
    await ada.query("SELECT vendesk.settle_item($1, 2, 'succeeded', $2, $3)", [finished, adaDesk.id, adaDesk.name]);
    await ada.query('SELECT vendesk.finish_job($1, $2, $3)', [finished, adaDesk.id, adaDesk.name]);
    const finishRows = await cluster.superQuery("SELECT actor FROM vendesk.audit_trail WHERE job_id = $1 AND action = 'finish'", [finished]);
    expect(finishRows.rows).toEqual([{ actor: 'ada' }]);
    // Above the team's dual-approval amount: two approvals, each with its own approve row.
    await chidi.query("SELECT vendesk.set_team_setting('dual_approval_above_kobo', '30000'::jsonb, $1, $2)", [chidiDesk.id, chidiDesk.name]);
    const dual = await prepareAsAda(20000);
    expect(await bolaDesk.json(['approve', dual])).toMatchObject({ state: 'awaiting_approval' });
    await chidi.query("SELECT vendesk.decide_job($1, 'approved', '', $2, $3)", [dual, chidiDesk.id, chidiDesk.name]);
    const approvals = await cluster.superQuery<{ decided_by: string }>('SELECT decided_by FROM vendesk.approvals WHERE job_id = $1 ORDER BY decided_by', [dual]);
    expect(approvals.rows.map((a) => a.decided_by)).toEqual(['bola', 'chidi']);
    const r = await bolaDesk.run(['audit', 'verify']);
    expect(r.code, r.stdout).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ intact: true, breaks: [], unrecorded: [] });
  });

  it('reports an approval, a job state and a settled claim a superuser forged with triggers off (exit 1)', async () => {
    const jobId = await prepareAsAda();
    await forge(
      `INSERT INTO vendesk.approvals (job_id, prepared_by, decision, decided_by, desktop_id, desktop_name) VALUES ($1, 'ada', 'approved', 'bola', 'desk-bola', 'Bola PC');
       UPDATE vendesk.jobs SET state = 'approved' WHERE id = $1;`.replace(/\$1/g, `'${jobId}'`),
    );
    await forge(
      `INSERT INTO vendesk.item_claims (claim_scope, item_index, item_key, job_id, desktop_id, claimed_by, request_ref, amount_kobo, outcome, settled_at)
       SELECT claim_scope, 7, 'forged-key', id, 'desk-ada', 'ada', 'forged-ref', 10000, 'succeeded', now() FROM vendesk.jobs WHERE id = $1`,
      [jobId],
    );
    const r = await bolaDesk.run(['audit', 'verify']);
    expect(r.code).toBe(1);
    const v = JSON.parse(r.stdout) as Verify;
    expect(v.intact).toBe(false);
    expect(v.breaks).toEqual([]); // the chain itself was not touched
    expect(v.unrecorded).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          code: 'approval_unrecorded',
          jobId,
          message: expect.stringMatching(new RegExp(`Job ${jobId} shows it approved by bola, and the audit trail holds no such decision`)),
        }),
        expect.objectContaining({ code: 'state_unrecorded', jobId, message: `Job ${jobId} is approved, and the audit trail holds no approve row for it.` }),
        expect.objectContaining({ code: 'claim_unrecorded', jobId, item: 7 }),
        expect.objectContaining({ code: 'settle_unrecorded', jobId, item: 7 }),
      ]),
    );
    expect(v.unrecorded).toHaveLength(4);
    const text = await bolaDesk.run(['audit', 'verify'], 'globals first', { json: false });
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(/chain is intact[\s\S]*holds what the trail does not record[\s\S]*approved by bola[\s\S]*\[approval_unrecorded\]/);
  });

  it('reports a job a superuser inserted with no prepare row, and a cancelled state with no cancel row', async () => {
    const jobId = await prepareAsAda();
    await forge(`UPDATE vendesk.jobs SET state = 'cancelled' WHERE id = $1`, [jobId]);
    const r = await bolaDesk.run(['audit', 'verify']);
    const v = JSON.parse(r.stdout) as Verify;
    expect(v.unrecorded).toEqual(
      expect.arrayContaining([expect.objectContaining({ code: 'state_unrecorded', jobId, message: `Job ${jobId} is cancelled, and the audit trail holds no cancel row for it.` })]),
    );
    await forge(
      `INSERT INTO vendesk.jobs (kind, desktop_id, desktop_name, claim_scope, item_count, total_kobo, preview, prepared_by)
       VALUES ('bulk', 'desk-x', 'Desk X', 'job:ghost', 1, 100, '{}'::jsonb, 'ada')`,
    );
    const again = JSON.parse((await bolaDesk.run(['audit', 'verify'])).stdout) as Verify;
    expect(again.unrecorded.filter((u) => u.code === 'job_unrecorded')).toEqual([
      expect.objectContaining({ message: expect.stringMatching(/prepared by ada\) is in the team database, and the audit trail holds no prepare row/) }),
    ]);
  });

  it('reports a job set finished with triggers off, without the finish row the schema writes, and one of two approvals forged', async () => {
    const jobId = await prepareAsAda();
    await bolaDesk.json(['approve', jobId]);
    await forge(`UPDATE vendesk.jobs SET state = 'finished' WHERE id = $1`, [jobId]);
    expect(await unrecordedOf(jobId)).toEqual([
      expect.objectContaining({ code: 'state_unrecorded', message: `Job ${jobId} is finished, and the audit trail holds no finish row for it.` }),
    ]);
    // Dual approval: bola's approve row is there, the second approver's is not.
    const dual = await prepareAsAda(20000);
    await bolaDesk.json(['approve', dual]);
    await forge(
      `INSERT INTO vendesk.approvals (job_id, prepared_by, decision, decided_by, desktop_id, desktop_name) VALUES ($1, 'ada', 'approved', 'chidi', 'desk-chidi', 'Chidi PC');
       UPDATE vendesk.jobs SET state = 'approved' WHERE id = $1;`.replace(/\$1/g, `'${dual}'`),
    );
    expect(await unrecordedOf(dual)).toEqual([
      expect.objectContaining({ code: 'approval_unrecorded', message: expect.stringMatching(/shows it approved by chidi, and the audit trail holds no such decision/) }),
    ]);
  });
  it('passes a job finished before team schema step 4 wrote finish rows, though a row of it is settled after the upgrade', async () => {
    // Under schema 3 finish_job wrote no row; a row left uncertain is settled later, after the upgrade.
    const before = await prepareAsAda();
    await bolaDesk.json(['approve', before]);
    await claimRaw(ada, adaDesk, before, 2, 10000, 'ref-before-2');
    await forge(`UPDATE vendesk.jobs SET state = 'finished' WHERE id = $1`, [before]);
    const step = await cluster.superQuery<{ applied_at: Date }>('SELECT applied_at FROM vendesk.schema_migrations WHERE version = 4');
    // The upgrade to step 4 happens now.
    await cluster.superQuery("UPDATE vendesk.schema_migrations SET applied_at = date_trunc('milliseconds', clock_timestamp()) WHERE version = 4");
    try {
      await ada.query("SELECT vendesk.settle_item($1, 2, 'succeeded', $2, $3)", [before, adaDesk.id, adaDesk.name]);
      // Approved after the upgrade and finished with triggers off: its finish row is missing.
      const after = await prepareAsAda();
      await bolaDesk.json(['approve', after]);
      await forge(`UPDATE vendesk.jobs SET state = 'finished' WHERE id = $1`, [after]);
      expect(await unrecordedOf(before)).toEqual([]);
      expect(await unrecordedOf(after)).toEqual([
        expect.objectContaining({ code: 'state_unrecorded', message: `Job ${after} is finished, and the audit trail holds no finish row for it.` }),
      ]);
    } finally {
      await cluster.superQuery('UPDATE vendesk.schema_migrations SET applied_at = $1 WHERE version = 4', [step.rows[0].applied_at]);
    }
  });
});
