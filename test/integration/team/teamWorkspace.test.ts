/**
 * Two desktops (two data folders, two database roles) joined to one real PostgreSQL through the
 * app contract: joining (with the schema made by the first, a password never in the address or
 * settings), the Approvals list, approving someone else's job, self-approval refused, and the
 * audit trail verified and exported.
 */
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { TEAM_MIGRATIONS, TEAM_SCHEMA_VERSION } from '../../../src/main/team/schema';
import { joinDesk, prepareRaw } from '../../support/teamJobs';
import { startPostgresCluster, type PostgresCluster } from '../../support/postgresCluster';
import { startTestApp, type TestApp } from '../../support/testApp';

let cluster: PostgresCluster;
let setup: TestApp; // the database administrator's desktop
let ada: TestApp; // preparer
let bola: TestApp; // approver
const pw: Record<string, string> = {};
const sqlClients: pg.Client[] = [];

function url(user: string): string {
  return `postgres://${user}@127.0.0.1:${cluster.port}/postgres`;
}

async function sqlAs(user: string): Promise<pg.Client> {
  const c = new pg.Client(cluster.config(user, pw[user]));
  await c.connect();
  sqlClients.push(c);
  return c;
}

/** A job prepared by `user` straight through the schema (the bulk flow's own preparing comes later). */
async function prepareAs(user: string, sha: string, totalKobo = 300000): Promise<string> {
  const c = await sqlAs(user);
  const desk = { id: `desk-${user}`, name: 'Ada PC' };
  await joinDesk(c, desk);
  return (await prepareRaw(c, desk, { items: [{ row: 2, phone: '08031234567', amountKobo: totalKobo }], sha, walletKobo: 1_000_000 })).id;
}

beforeAll(async () => {
  cluster = await startPostgresCluster();
  pw.dba = 'dba-pw-7f3a';
  await cluster.superQuery(`CREATE ROLE dba LOGIN SUPERUSER PASSWORD '${pw.dba}'`);
  setup = await startTestApp();
  ada = await startTestApp();
  bola = await startTestApp();
}, 120_000);

afterAll(async () => {
  for (const c of sqlClients) await c.end().catch(() => undefined);
  for (const t of [setup, ada, bola]) await t?.close();
  await cluster?.stop();
});

describe('joining a team', () => {
  it('refuses an address that carries the password, and a wrong password', async () => {
    await expect(setup.call('team.join', { url: `postgres://dba:${pw.dba}@127.0.0.1:${cluster.port}/postgres`, password: pw.dba })).rejects.toMatchObject({
      code: 'team_password_in_url',
    });
    await expect(setup.call('team.join', { url: url('dba'), password: 'wrong' })).rejects.toMatchObject({ code: 'team_auth_failed' });
    expect(await setup.call('team.status', {})).toMatchObject({ joined: false, roles: [] });
  });

  it('creates the schema on the first join, then lets members join', async () => {
    const first = await setup.call('team.join', { url: url('dba'), password: pw.dba, desktopName: 'IT desk' });
    expect(first).toMatchObject({
      joined: true,
      user: 'dba',
      migrated: TEAM_MIGRATIONS.map((m) => m.version),
      schemaVersion: TEAM_SCHEMA_VERSION,
      desktopName: 'IT desk',
      problem: null,
    });
    pw.ada = await cluster.createLogin('ada', ['vendesk_preparer']);
    pw.bola = await cluster.createLogin('bola', ['vendesk_approver']);
    pw.nobody = await cluster.createLogin('nobody');
    await expect(ada.call('team.join', { url: url('nobody'), password: pw.nobody })).rejects.toMatchObject({
      code: 'team_not_member',
      hint: expect.stringMatching(/GRANT vendesk_preparer TO "nobody"/),
    });
    expect(await ada.call('team.join', { url: url('ada'), password: pw.ada, desktopName: 'Ada PC' })).toMatchObject({ roles: ['preparer'], migrated: [] });
    expect(await bola.call('team.join', { url: url('bola'), password: pw.bola, desktopName: 'Bola PC' })).toMatchObject({ roles: ['approver'], migrated: [] });
  });

  it('keeps the password out of settings and the address, in a file only its owner reads', async () => {
    const settings = ada.app.db.prepare("SELECT value FROM settings WHERE key LIKE 'team.%'").all() as { value: string }[];
    expect(settings.map((s) => s.value).join('\n')).not.toContain(pw.ada);
    const file = path.join(ada.dataDir, 'team', 'password.token');
    expect(fs.readFileSync(file, 'utf8')).toBe(pw.ada);
    expect(fs.statSync(file).mode & 0o077).toBe(0);
  });
});

describe('approvals between two desktops', () => {
  it('shows a waiting job to the approver with its preview, and approves it', async () => {
    const jobId = await prepareAs('ada', 'e'.repeat(64), 300000);
    const waiting = await bola.call('approvals.list', {});
    expect(waiting.map((j) => j.id)).toContain(jobId);
    const job = waiting.find((j) => j.id === jobId)!;
    expect(job).toMatchObject({ state: 'awaiting_approval', preparedBy: 'ada', preparedOn: 'Ada PC', totalKobo: 300000, walletKobo: 1000000, walletAfterKobo: 700000 });
    // The preview is derived by the database from the stored items (team schema 004): the product is the kind when the row has no plan.
    expect(job.preview.rows).toEqual([{ row: 2, phone: '08031234567', network: 'MTN', product: 'airtime', amountKobo: 300000 }]);
    expect(job.itemsDigest).toMatch(/^[0-9a-f]{64}$/);
    const decided = await bola.call('approvals.decide', { jobId, decision: 'approve', note: 'Matches HR list' });
    expect(decided).toMatchObject({ state: 'approved', decidedBy: 'bola', decisionNote: 'Matches HR list' });
    expect((await ada.call('approvals.list', { state: 'approved' })).map((j) => j.id)).toContain(jobId);
  });

  it('refuses the preparer approving their own job, and a rejection without a note', async () => {
    const jobId = await prepareAs('ada', 'f'.repeat(64));
    await expect(ada.call('approvals.decide', { jobId, decision: 'approve' })).rejects.toMatchObject({ code: 'team_refused' });
    await expect(bola.call('approvals.decide', { jobId, decision: 'reject' })).rejects.toMatchObject({ code: 'invalid_input' });
    const rejected = await bola.call('approvals.decide', { jobId, decision: 'reject', note: 'Duplicate of last week' });
    expect(rejected).toMatchObject({ state: 'rejected', decidedBy: 'bola' });
    await expect(bola.call('approvals.decide', { jobId, decision: 'approve' })).rejects.toMatchObject({ code: 'team_job_state' });
  });

  it('flags jobs prepared from the same spreadsheet', async () => {
    const sha = '1'.repeat(64);
    const one = await prepareAs('ada', sha);
    const two = await prepareAs('ada', sha);
    const list = await bola.call('approvals.list', {});
    expect(list.find((j) => j.id === two)?.sameFileJobs).toEqual([one]);
  });

  it('lists only the team jobs asked for by id (what the jobs list reads), in any state', async () => {
    const waiting = await prepareAs('ada', '2'.repeat(64));
    const rejected = await prepareAs('ada', '3'.repeat(64));
    await bola.call('approvals.decide', { jobId: rejected, decision: 'reject', note: 'Wrong month' });
    const asked = await ada.call('approvals.list', { state: 'all', jobIds: [waiting, rejected] });
    expect(asked.map((j) => [j.id, j.state, j.decidedBy]).sort()).toEqual(
      [
        [waiting, 'awaiting_approval', null],
        [rejected, 'rejected', 'bola'],
      ].sort(),
    );
    expect(await ada.call('approvals.list', { state: 'waiting', jobIds: [rejected] })).toEqual([]);
    await expect(ada.call('approvals.list', { state: 'all', jobIds: ['not-a-job'] })).rejects.toMatchObject({ code: 'invalid_input' });
  });
});

describe('the approval policy through the contract', () => {
  it('needs two approvers above the amount an admin sets: 1 of 2, then approved; the rows are read a page at a time', async () => {
    await expect(bola.call('team.setPolicy', { dualApprovalAboveKobo: 100_000 })).rejects.toMatchObject({ code: 'team_refused' });
    const set = await setup.call('team.setPolicy', { dualApprovalAboveKobo: 100_000, approvalValidMinutes: 1440 });
    expect(set).toMatchObject({ dualApprovalAboveKobo: 100_000, approvalValidMinutes: 1440 });
    expect(await bola.call('team.status', {})).toMatchObject({ dualApprovalAboveKobo: 100_000, approvalValidMinutes: 1440 });
    const jobId = await prepareAs('ada', 'c'.repeat(64), 250_000);
    const first = await bola.call('approvals.decide', { jobId, decision: 'approve', note: '' });
    expect(first).toMatchObject({ state: 'awaiting_approval', approvedBy: ['bola'], approvalsNeeded: 2 });
    await expect(bola.call('approvals.decide', { jobId, decision: 'approve', note: '' })).rejects.toMatchObject({
      code: 'team_job_state',
      message: expect.stringMatching(/You approved job .* already/),
    });
    const second = await setup.call('approvals.decide', { jobId, decision: 'approve', note: 'second pair of eyes' });
    expect(second).toMatchObject({ state: 'approved', approvedBy: ['bola', 'dba'], approvalsNeeded: 2 });
    const rows = await bola.call('approvals.rows', { jobId, page: 1, pageSize: 50 });
    expect(rows).toMatchObject({ page: 1, pages: 1, rows: [{ row: 2, phone: '08031234567', amountKobo: 250_000 }] });
    await setup.call('team.setPolicy', { dualApprovalAboveKobo: null, approvalValidMinutes: null });
  });
});

describe('the audit trail through the contract', () => {
  it('verifies, is exported for a day range, and says when it was cut after this desktop saw it', async () => {
    const verified = await bola.call('audit.verify', {});
    expect(verified).toMatchObject({ intact: true, breaks: [] });
    // The audit export's days are Lagos days (UTC+1).
    const today = new Date(Date.now() + 3_600_000).toISOString().slice(0, 10);
    const exported = await bola.call('audit.export', { from: today, to: today });
    expect(exported.rows).toBe(verified.rows);
    expect(fs.existsSync(exported.path)).toBe(true);
    const none = await bola.call('audit.export', { from: '2020-01-01', to: '2020-01-31' });
    expect(none.rows).toBe(0);
    await cluster.superQuery(
      `BEGIN; SET LOCAL session_replication_role = replica; DELETE FROM vendesk.audit_trail WHERE seq = (SELECT max(seq) FROM vendesk.audit_trail); COMMIT;`,
    );
    const cut = await bola.call('audit.verify', {});
    expect(cut.intact).toBe(false);
    expect(cut.breaks.map((b) => b.kind)).toEqual(['head_missing']);
  });

  it('says a desktop that left is not joined', async () => {
    const left = await setup.call('team.leave', {});
    expect(left).toMatchObject({ joined: false });
    expect(fs.existsSync(path.join(setup.dataDir, 'team', 'password.token'))).toBe(false);
    await expect(setup.call('approvals.list', {})).rejects.toMatchObject({ code: 'team_not_joined' });
  });
});
