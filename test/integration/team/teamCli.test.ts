/**
 * The team commands as people type them: two data folders (the preparer `ada`, the approver
 * `bola`) against one real PostgreSQL. The password only from a file or the environment; the
 * approver decides with the figures the database holds; the preparer's own approval refused;
 * `audit verify` fails (exit 1) once a superuser altered a row.
 */
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { joinDesk, prepareRaw, rowsOf, type RawItem } from '../../support/teamJobs';
import { startPostgresCluster, type PostgresCluster } from '../../support/postgresCluster';
import { startCliPeer, type CliPeer } from '../cli/cliHarness';

let cluster: PostgresCluster;
let adaDesk: CliPeer;
let bolaDesk: CliPeer;
const pw: Record<string, string> = {};

const url = (user: string) => `postgres://${user}@127.0.0.1:${cluster.port}/postgres`;

function secretFile(peer: CliPeer, name: string, secret: string): string {
  const file = path.join(peer.dir, name);
  fs.writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return file;
}

beforeAll(async () => {
  cluster = await startPostgresCluster();
  adaDesk = await startCliPeer('team-cli-ada');
  bolaDesk = await startCliPeer('team-cli-bola');
  await adaDesk.json(['team', 'join', '--url', url(cluster.superuser), '--password-file', secretFile(adaDesk, 'admin.pw', cluster.superuserPassword)]);
  pw.ada = await cluster.createLogin('ada', ['vendesk_preparer', 'vendesk_approver']);
  pw.bola = await cluster.createLogin('bola', ['vendesk_approver']);
}, 120_000);

afterAll(async () => {
  await adaDesk?.close();
  await bolaDesk?.close();
  await cluster?.stop();
});

/** A job prepared by ada straight through the schema, signed in as ada (SET ROLE would not change who the database sees). */
async function prepareAsAda(totalKobo: number): Promise<string> {
  const first = Math.floor(totalKobo / 2);
  return prepareItemsAsAda([
    { row: 2, phone: '08031000002', amountKobo: first },
    { row: 3, phone: '08031000003', amountKobo: totalKobo - first },
  ]);
}

async function prepareItemsAsAda(items: RawItem[]): Promise<string> {
  const ada = new pg.Client(cluster.config('ada', pw.ada));
  await ada.connect();
  try {
    const desk = { id: 'desk-a', name: 'Ada PC' };
    await joinDesk(ada, desk);
    return (await prepareRaw(ada, desk, { items, fileName: 'salaries.xlsx', walletKobo: 5_000_000 })).id;
  } finally {
    await ada.end();
  }
}

describe('vendesk team join', () => {
  it('takes no password on the command line or in the address', async () => {
    const inUrl = await bolaDesk.run(['team', 'join', '--url', `postgres://bola:${pw.bola}@127.0.0.1:${cluster.port}/postgres`]);
    expect(inUrl.code).toBe(1);
    expect(JSON.parse(inUrl.stdout).error.code).toBe('team_password_in_url');
    expect(inUrl.stdout + inUrl.stderr).not.toContain(pw.bola);
    const asOption = await bolaDesk.run(['team', 'join', '--url', url('bola'), '--password', pw.bola]);
    expect(asOption.code).toBe(2);
    const none = await bolaDesk.run(['team', 'join', '--url', url('bola')]);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/--password-file FILE, or set VENDESK_TEAM_PASSWORD/);
  });

  it('joins with the password from the environment, and says the roles the database grants', async () => {
    const r = await bolaDesk.run(['team', 'join', '--url', url('bola'), '--desktop-name', 'Bola PC'], 'globals first', { env: { VENDESK_TEAM_PASSWORD: pw.bola } });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ joined: true, user: 'bola', roles: ['approver'], desktopName: 'Bola PC', migrated: [], problem: null });
    expect(r.stdout + r.stderr).not.toContain(pw.bola);
    const a = await adaDesk.run(['team', 'join', '--url', url('ada'), '--password-file', secretFile(adaDesk, 'ada.pw', pw.ada)]);
    expect(JSON.parse(a.stdout)).toMatchObject({ user: 'ada', roles: ['preparer', 'approver'] });
  });
});

describe('vendesk approvals, approve and reject', () => {
  it('shows the waiting job in Naira as the database holds it, and lets the other member approve it', async () => {
    const jobId = await prepareAsAda(1234550);
    const list = await bolaDesk.json<{ jobs: { id: string; total: number; walletAfter: number; preparedBy: string; state: string }[] }>(['approvals']);
    const held = await cluster.superQuery<{ total_kobo: string }>('SELECT total_kobo FROM vendesk.jobs WHERE id = $1', [jobId]);
    expect(list.jobs.find((j) => j.id === jobId)).toMatchObject({
      total: Number(held.rows[0].total_kobo) / 100,
      walletAfter: 37654.5,
      preparedBy: 'ada',
      state: 'awaiting_approval',
    });
    const text = await bolaDesk.run(['approvals'], 'globals first', { json: false });
    expect(text.stdout).toContain('₦12,345.50');
    const own = await adaDesk.run(['approve', jobId]);
    expect(own.code).toBe(1);
    expect(JSON.parse(own.stdout).error).toMatchObject({ code: 'team_refused', message: expect.stringMatching(/approver cannot be the preparer/) });
    const approved = await bolaDesk.json<{ state: string; decidedBy: string; note: string }>(['approve', jobId, '--note', 'ok']);
    expect(approved).toMatchObject({ state: 'approved', decidedBy: 'bola', note: 'ok' });
    const stored = await cluster.superQuery('SELECT decision, decided_by FROM vendesk.approvals WHERE job_id = $1', [jobId]);
    expect(stored.rows).toEqual([{ decision: 'approved', decided_by: 'bola' }]);
  });

  it('needs a note to reject', async () => {
    const jobId = await prepareAsAda(50000);
    expect((await bolaDesk.run(['reject', jobId])).code).toBe(2);
    expect(await bolaDesk.json(['reject', jobId, '--note', 'not this month'])).toMatchObject({ state: 'rejected', note: 'not this month' });
  });
});

describe('vendesk approvals JOB_ID', () => {
  it("lists the job's rows as the team database stores them, a page at a time, with its digest", async () => {
    const jobId = await prepareAsAda(30000);
    const first = await bolaDesk.json<{ job: { id: string; itemsDigest: string; approvalsNeeded: number }; page: number; pages: number; rows: unknown[] }>(['approvals', jobId]);
    expect(first).toMatchObject({ job: { id: jobId, approvalsNeeded: 1 }, page: 1, pages: 1 });
    expect(first.rows).toEqual([
      { row: 2, phone: '08031000002', account: null, network: 'MTN', product: 'airtime', amount: 150 },
      { row: 3, phone: '08031000003', account: null, network: 'MTN', product: 'airtime', amount: 150 },
    ]);
    const digest = await cluster.superQuery('SELECT items_digest FROM vendesk.jobs WHERE id = $1', [jobId]);
    expect(first.job.itemsDigest).toBe(digest.rows[0].items_digest);
    const text = await bolaDesk.run(['approvals', jobId], 'globals first', { json: false });
    expect(text.stdout).toContain(`rows digest ${first.job.itemsDigest.slice(0, 12)}`);
    expect(text.stdout).toMatch(/08031000003 .*₦150\.00/);
    expect((await bolaDesk.json<{ rows: unknown[] }>(['approvals', jobId, '--page', '2'])).rows).toEqual([]);
    expect((await bolaDesk.run(['approvals', 'not-a-job'])).code).toBe(2);
    expect((await bolaDesk.run(['approvals', '--page', '2'])).code).toBe(2);
    const list = await bolaDesk.run(['approvals'], 'globals first', { json: false });
    expect(list.stdout).toMatch(/Two approvers: never/);
  });

  it('pages a longer job 50 rows at a time, each page the rows that follow the one before, to the last', async () => {
    const jobId = await prepareItemsAsAda(rowsOf(120, 100, 8032000001));
    const page = (n: number) => bolaDesk.json<{ page: number; pages: number; rows: { row: number; phone: string }[] }>(['approvals', jobId, '--page', String(n)]);
    const second = await page(2);
    expect(second).toMatchObject({ page: 2, pages: 3 });
    expect(second.rows.map((r) => r.row)).toEqual(Array.from({ length: 50 }, (_, i) => 52 + i));
    expect(second.rows[0].phone).toBe('08032000051');
    const last = await page(3);
    expect(last.rows.map((r) => r.row)).toEqual(Array.from({ length: 20 }, (_, i) => 102 + i));
    expect((await page(4)).rows).toEqual([]);
  });

  it('lets only an admin set the approval policy', async () => {
    const refused = await bolaDesk.run(['team', 'policy', '--dual-above', '1000']);
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout).error.code).toBe('team_refused');
    expect((await bolaDesk.run(['team', 'policy'])).code).toBe(2);
    expect((await bolaDesk.run(['team', 'policy', '--valid-for', '0'])).code).toBe(2);
    const setting = await cluster.superQuery("SELECT value FROM vendesk.team_settings WHERE key = 'dual_approval_above_kobo'");
    expect(setting.rows[0].value).toBeNull();
  });
});

describe('vendesk audit', () => {
  it('verifies the chain (exit 0), then reports a row a superuser altered (exit 1)', async () => {
    const ok = await bolaDesk.run(['audit', 'verify']);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ intact: true, breaks: [] });
    await cluster.superQuery(`BEGIN; SET LOCAL session_replication_role = replica; UPDATE vendesk.audit_trail SET actor = 'ada' WHERE action = 'reject'; COMMIT;`);
    const broken = await bolaDesk.run(['audit', 'verify'], 'globals first', { json: false });
    expect(broken.code).toBe(1);
    expect(broken.stdout).toMatch(/NOT intact[\s\S]*was altered after it was written/);
    const exported = await bolaDesk.json<{ chainIntact: boolean; rows: number }>(['audit', 'export', '--out', path.join(bolaDesk.dir, 'audit.xlsx')]);
    expect(exported.chainIntact).toBe(false);
  });
});
