/**
 * Maker-checker in the bulk flow on a LIVE connection: three desktops (three data folders: the
 * preparers ada and dayo, the approver bola) buying from one service (the sandbox, one
 * organisation) and joined to one real PostgreSQL. A job waits for approval and buys nothing
 * until approved; once approved it buys each row once; the same spreadsheet prepared on another
 * desktop and approved too buys nothing more. Every figure is read from the service's own log and
 * wallet.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../src/main/app';
import { jobParts } from '../../../src/main/buying/jobLifecycle';
import { dispatch } from '../../../src/main/dispatch';
import { startSandbox, type SandboxHandle } from '../../../src/sandbox';
import { startPostgresCluster, type PostgresCluster } from '../../support/postgresCluster';
import { sandboxLog, sandboxWalletKobo } from '../../support/sandboxRecords';
import { cliDesk, closeTeamRoom, joinAsNewLogin, joinTeamAs, type TeamDesk, type TeamRoom } from './teamDesks';
import { airtimeRows, mtnPhone, writeCsv } from '../bulk/bulkTestFiles';

const TOKEN = 'maker-checker-org-5d2e';
let cluster: PostgresCluster;
let room: TeamRoom;
let sandbox: SandboxHandle;
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-team-mc-'));
const PHONES = [0, 1, 2].map((i) => mtnPhone(4300 + i));
const service = () => ({ sandbox, token: TOKEN });

const desk = (name: string): TeamDesk => cliDesk(root, name, { baseUrl: sandbox.url, token: TOKEN });

/** The service's log entries for the spreadsheet's phones. */
async function boughtForSheet() {
  return (await sandboxLog(service())).filter((e) => PHONES.includes(e.phone_number));
}

let ada: TeamDesk;
let dayo: TeamDesk;
let bola: TeamDesk;
let sheetOnAda: string;
let sheetOnDayo: string;
let adaJob = '';
let adaTeamJob = '';

beforeAll(async () => {
  cluster = await startPostgresCluster();
  room = { root, cluster };
  sandbox = await startSandbox({ port: 0, tokens: [TOKEN], quiet: true });
  ada = desk('ada');
  dayo = desk('dayo');
  bola = desk('bola');
  await joinTeamAs(room, ada, cluster.superuser, cluster.superuserPassword); // the administrator sets the database up
  await joinAsNewLogin(room, ada, ['vendesk_preparer']);
  await joinAsNewLogin(room, dayo, ['vendesk_preparer']);
  await joinAsNewLogin(room, bola, ['vendesk_approver']);
  // The same payroll spreadsheet, saved on two desktops.
  sheetOnAda = writeCsv(path.join(root, 'ada'), 'payroll.csv', airtimeRows(3, 100, 4300));
  sheetOnDayo = writeCsv(path.join(root, 'dayo'), 'payroll copy.csv', airtimeRows(3, 100, 4300));
}, 120_000);

afterAll(() => closeTeamRoom(root, cluster, sandbox));

describe('a LIVE bulk job in a team', () => {
  it('waits for approval (exit 4) and buys nothing, however often it is resumed', async () => {
    const wallet = await sandboxWalletKobo(service());
    const r = await ada.run(['bulk', 'submit', sheetOnAda, '--kind', 'airtime', '--yes', '--confirm-total', '300']);
    expect(r.code, r.stdout + r.stderr).toBe(4);
    const error = JSON.parse(r.stdout).error as { code: string; message: string; hint: string };
    expect(error.code).toBe('awaiting_approval');
    [, adaJob, adaTeamJob] = /Bulk job (\S+) waits for approval by another team member \(team job ([0-9a-f-]{36})/.exec(error.message) ?? [];
    expect(adaJob).toBeTruthy();
    expect(error.hint).toContain(`vendesk approve ${adaTeamJob}`);
    const again = await ada.run(['bulk', 'resume', adaJob]);
    expect(again.code).toBe(4);
    expect(await boughtForSheet()).toEqual([]);
    expect(await sandboxWalletKobo(service())).toBe(wallet);
    const list = JSON.parse((await bola.run(['approvals'])).stdout) as { jobs: { id: string; total: number; preparedBy: string; items: number }[] };
    expect(list.jobs.find((j) => j.id === adaTeamJob)).toMatchObject({ total: 300, items: 3, preparedBy: 'ada' });
  });

  it('keeps the waiting job in its own state: listed, its status exit 4, its rows fixed, confirming it again buys nothing', async () => {
    const wallet = await sandboxWalletKobo(service());
    const listed = JSON.parse((await ada.run(['bulk', 'list'])).stdout) as { jobId: string; state: string }[];
    expect(listed.find((j) => j.jobId === adaJob)?.state).toBe('awaiting_approval');
    const status = await ada.run(['bulk', 'status', adaJob]);
    expect(status.code, status.stdout).toBe(4);
    expect(JSON.parse(status.stdout)).toMatchObject({ jobId: adaJob, state: 'awaiting_approval', items: 3, message: expect.stringContaining(`team job ${adaTeamJob}`) });
    const app = await createApp({ dataDir: path.join(root, 'ada'), shell: 'test', connection: { baseUrl: sandbox.url, token: TOKEN, kind: 'live' } });
    try {
      // Confirming it again answers where it stands (a state, not a refusal), and sends nothing.
      const again = await dispatch(app, 'bulk.confirm', { jobId: adaJob, typedTotal: '300', wait: true });
      expect(again).toMatchObject({
        ok: true,
        value: {
          state: 'awaiting_approval',
          teamJobId: adaTeamJob,
          message: expect.stringMatching(/waits for approval by another team member .*prepared by ada\)\. Nothing was bought\./),
        },
      });
      // The approver sees its rows as they are: they do not change while it waits.
      const changed = await dispatch(app, 'bulk.setIncluded', { jobId: adaJob, seqs: [1], include: false });
      expect(changed).toMatchObject({ ok: false, error: { code: 'job_not_draft', message: expect.stringContaining('sent for approval') } });
      expect(jobParts(app.db).lifecycle.draftToConfirm(adaJob, app.connection).totals).toEqual({ items: 3, totalKobo: 30000 });
    } finally {
      await app.close();
    }
    expect(await boughtForSheet()).toEqual([]);
    expect(await sandboxWalletKobo(service())).toBe(wallet);
  });

  it('cancels the team job when a draft waiting for approval is discarded, and keeps it from the weekly clean-up', async () => {
    const sheet = writeCsv(path.join(root, 'ada'), 'bonus.csv', airtimeRows(2, 100, 4400));
    const r = await ada.run(['bulk', 'submit', sheet, '--kind', 'airtime', '--yes', '--confirm-total', '200']);
    expect(r.code).toBe(4);
    const [, localJob, teamJob] = /Bulk job (\S+) waits for approval by another team member \(team job ([0-9a-f-]{36})/.exec(JSON.parse(r.stdout).error.message) ?? [];
    const app = await createApp({ dataDir: path.join(root, 'ada'), shell: 'test', connection: { baseUrl: sandbox.url, token: TOKEN, kind: 'live' } });
    try {
      expect(jobParts(app.db).lifecycle.deleteStaleDrafts('9999-12-31T00:00:00.000Z')).toBe(0);
      const discarded = await dispatch(app, 'bulk.discard', { jobId: localJob });
      expect(discarded).toEqual({ ok: true, value: { deleted: true } });
    } finally {
      await app.close();
    }
    const state = await cluster.superQuery('SELECT state FROM vendesk.jobs WHERE id = $1', [teamJob]);
    expect(state.rows[0].state).toBe('cancelled');
    const audit = await cluster.superQuery("SELECT actor FROM vendesk.audit_trail WHERE job_id = $1 AND action = 'cancel'", [teamJob]);
    expect(audit.rows).toEqual([{ actor: 'ada' }]);
    expect((await bola.run(['approve', teamJob])).code).toBe(1);
  });

  it('buys each row once after another member approves it', async () => {
    const wallet = await sandboxWalletKobo(service());
    expect((await bola.run(['approve', adaTeamJob, '--note', 'payroll checked'])).code).toBe(0);
    const r = await ada.run(['bulk', 'resume', adaJob]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const bought = await boughtForSheet();
    expect(bought.map((e) => e.phone_number).sort()).toEqual([...PHONES].sort());
    expect(bought.every((e) => e.status === 'SUCCESS')).toBe(true);
    // Face value `NGN 100.00` each; the wallet paid each entry's transaction cost, and nothing else.
    expect(bought.reduce((s, e) => s + Math.round(Number(e.amount.replace(/[^\d.]/g, '')) * 100), 0)).toBe(30000);
    const cost = bought.reduce((s, e) => s + Math.round((e as unknown as { transaction_cost: number }).transaction_cost * 100), 0);
    expect(cost).toBeGreaterThan(0);
    expect(wallet - (await sandboxWalletKobo(service()))).toBe(cost);
    // The team database knows it too: each claim settled, the team job finished, in the audit trail.
    const claims = await cluster.superQuery('SELECT item_index, outcome FROM vendesk.item_claims WHERE job_id = $1 ORDER BY item_index', [adaTeamJob]);
    expect(claims.rows).toEqual([2, 3, 4].map((row) => ({ item_index: row, outcome: 'succeeded' })));
    const teamJob = await cluster.superQuery('SELECT state FROM vendesk.jobs WHERE id = $1', [adaTeamJob]);
    expect(teamJob.rows[0].state).toBe('finished');
    const settled = await cluster.superQuery<{ n: number; kobo: string }>(
      "SELECT count(*)::int AS n, sum(amount_kobo)::text AS kobo FROM vendesk.audit_trail WHERE job_id = $1 AND action = 'settle'",
      [adaTeamJob],
    );
    expect(settled.rows[0]).toEqual({ n: 3, kobo: '30000' });
    // The trail says what was sent to whom: its send and settle rows name the phones the service's log holds.
    for (const action of ['send', 'settle']) {
      const rows = await cluster.superQuery<{ detail: string }>('SELECT detail FROM vendesk.audit_trail WHERE job_id = $1 AND action = $2', [adaTeamJob, action]);
      expect(rows.rows.map((x) => (JSON.parse(x.detail) as { phone: string }).phone).sort(), action).toEqual(bought.map((e) => e.phone_number).sort());
    }
  });

  it('buys nothing more when the same spreadsheet is prepared (duplicates kept) and approved on another desktop', async () => {
    // vendesk's own check finds the rows in the service's recent log; the officer keeps them anyway.
    const warned = await dayo.run(['bulk', 'submit', sheetOnDayo, '--kind', 'airtime', '--yes', '--confirm-total', '300']);
    expect(warned.code).toBe(1);
    expect(await boughtForSheet()).toHaveLength(3);
    const r = await dayo.run(['bulk', 'submit', sheetOnDayo, '--kind', 'airtime', '--yes', '--confirm-total', '300', '--keep-duplicates']);
    expect(r.code, r.stdout).toBe(4);
    const [, dayoJob, dayoTeamJob] = /Bulk job (\S+) waits for approval by another team member \(team job ([0-9a-f-]{36})/.exec(JSON.parse(r.stdout).error.message) ?? [];
    const list = JSON.parse((await bola.run(['approvals'])).stdout) as { jobs: { id: string; sameFileJobs: string[] }[] };
    expect(list.jobs.find((j) => j.id === dayoTeamJob)?.sameFileJobs).toEqual([adaTeamJob]);
    expect((await bola.run(['approve', dayoTeamJob])).code).toBe(0);
    const wallet = await sandboxWalletKobo(service());
    await dayo.run(['bulk', 'resume', dayoJob]);
    expect(await boughtForSheet()).toHaveLength(3);
    expect(await sandboxWalletKobo(service())).toBe(wallet);
    const status = JSON.parse((await dayo.run(['bulk', 'status', dayoJob])).stdout) as Record<string, number>;
    expect(status).toMatchObject({ items: 3, rejected: 3, success: 0 });
    // It was the team database that stopped them: every row's one claim is ada's job's.
    const claims = await cluster.superQuery<{ job_id: string; n: number }>('SELECT job_id::text, count(*)::int AS n FROM vendesk.item_claims GROUP BY job_id');
    expect(claims.rows).toEqual([{ job_id: adaTeamJob, n: 3 }]);
  });
});
