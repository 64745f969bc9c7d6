/**
 * Maker-checker for single purchases, and the audit rows of a desktop's own actions, on a LIVE
 * connection: desktops (separate data folders) of the preparer ada, the approver bola and the
 * admin chidi buy from one sandbox organisation and join one real PostgreSQL. A single purchase
 * above the admin's threshold buys nothing until another member approves it, then is bought once
 * however often it is resumed; below the threshold it is bought at once. Every figure is read from
 * the service's own log and wallet, and from the team database.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeVendorExportCsv } from '../../../bench/generate/vendorExport';
import { createApp } from '../../../src/main/app';
import { dispatch } from '../../../src/main/dispatch';
import { startSandbox, type SandboxHandle } from '../../../src/sandbox';
import type { LogEntry } from '../../../src/shared/wire';
import { sheetsViaLibreOffice } from '../../support/libreOffice';
import { startPostgresCluster, type PostgresCluster } from '../../support/postgresCluster';
import { sandboxLog, sandboxWalletKobo } from '../../support/sandboxRecords';
import { cliDesk, closeTeamRoom, joinAsNewLogin, joinTeamAs, type TeamDesk, type TeamRoom } from './teamDesks';
import { claimRaw } from '../../support/teamJobs';
import { SandboxControl } from '../../support/sandboxControl';
import { createBulkService } from '../../../src/main/buying/bulkService';
import { newItem } from '../../../src/main/buying/jobRows';
import type { WaitingPurchaseView } from '../../../src/shared/contract/purchases';
import { mtnPhone, QUICK_SETTLEMENT } from '../bulk/bulkTestFiles';
import type { CliRun } from '../cli/cliHarness';
import { startDroppingProxy } from '../purchases/droppingProxy';
import { account } from '../purchases/purchaseHelpers';

const TOKEN = 'single-approval-org-7a1c';
let cluster: PostgresCluster;
let room: TeamRoom;
let sandbox: SandboxHandle;
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-team-single-'));
const service = () => ({ sandbox, token: TOKEN });
const PHONE = '08031234567';

const desk = (name: string, baseUrl?: string): TeamDesk => cliDesk(root, name, { baseUrl: baseUrl ?? sandbox.url, token: TOKEN });

function errorOf(r: CliRun): { code: string; message: string; hint: string } {
  return (JSON.parse(r.stdout) as { error: { code: string; message: string; hint: string } }).error;
}

/** The team job named in an `awaiting_approval` error. */
function heldJob(r: CliRun): string {
  expect(r.code, r.stdout + r.stderr).toBe(4);
  const error = errorOf(r);
  expect(error.code).toBe('awaiting_approval');
  const id = /team job ([0-9a-f-]{36})/.exec(error.message)?.[1];
  expect(id, error.message).toBeTruthy();
  return id ?? '';
}

const logFor = async (needle: string) => (await sandboxLog(service())).filter((e) => e.phone_number === needle || e.description.includes(needle));
const costKobo = (entries: { transaction_cost?: number }[]) => entries.reduce((s, e) => s + Math.round((e.transaction_cost ?? 0) * 100), 0);

async function auditRows(action: string) {
  return (
    await cluster.superQuery<{ actor: string; desktop_name: string; amount_kobo: string | null; detail: string; job_id: string | null }>(
      'SELECT actor, desktop_name, amount_kobo::text, detail, job_id::text FROM vendesk.audit_trail WHERE action = $1 ORDER BY seq',
      [action],
    )
  ).rows;
}

let ada: TeamDesk;
let bola: TeamDesk;
let chidi: TeamDesk;
let adaPassword = '';

beforeAll(async () => {
  cluster = await startPostgresCluster();
  room = { root, cluster };
  // No test here is about the 5 s an airtime or data purchase stays in progress: settled in 0.5 s.
  sandbox = await startSandbox({ port: 0, tokens: [TOKEN], quiet: true, ...QUICK_SETTLEMENT });
  ada = desk('ada');
  bola = desk('bola');
  chidi = desk('chidi');
  await joinTeamAs(room, chidi, cluster.superuser, cluster.superuserPassword); // the administrator sets the database up
  adaPassword = await joinAsNewLogin(room, ada, ['vendesk_preparer']);
  await joinAsNewLogin(room, bola, ['vendesk_approver']);
  await joinAsNewLogin(room, chidi, ['vendesk_admin']);
  const wallet = await fetch(`${sandbox.url}/__sandbox/wallet`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ balance: 5_000_000 }),
  });
  expect(wallet.ok).toBe(true);
}, 120_000);

afterAll(() => closeTeamRoom(root, cluster, sandbox));

describe('the approval threshold', () => {
  it('is set by an admin only (`vendesk team threshold`), and the change is in the audit trail', async () => {
    const refused = await ada.run(['team', 'threshold', '1']);
    expect(refused.code).toBe(1);
    expect(errorOf(refused).code).toBe('team_refused');
    const r = await chidi.run(['team', 'threshold', '₦2,000']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ approvalThreshold: 2000, roles: ['preparer', 'approver', 'admin'] });
    expect(JSON.parse((await ada.run(['team', 'status'])).stdout)).toMatchObject({ approvalThreshold: 2000 });
    const rows = await auditRows('cap_change');
    expect(rows.at(-1)).toMatchObject({ actor: 'chidi', desktop_name: 'chidi PC', amount_kobo: '200000' });
    expect(JSON.parse(rows.at(-1)!.detail)).toMatchObject({ setting: 'single_purchase_approval_kobo', from: null, to: 200000 });
  });
});

describe('a LIVE single purchase', () => {
  // The team's ₦2,000 threshold is this block's own precondition, not a side effect of the test
  // above: run alone (`vitest -t`), a purchase above it must still wait rather than find no threshold.
  beforeAll(async () => {
    const r = await chidi.run(['team', 'threshold', '₦2,000']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
  });

  it('at or below the threshold is bought at once', async () => {
    const phone = mtnPhone(5100);
    const r = await ada.run(['buy', 'airtime', '--phone', phone, '--amount', '2000', '--yes']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ state: 'success', amount: 2000 });
    expect((await logFor(phone)).map((e) => [e.status, e.amount])).toEqual([['SUCCESS', 'NGN 2,000.00']]);
  });

  let airtimeJob = '';
  const airtimePhone = mtnPhone(5200);

  it('above the threshold waits for approval (exit 4) and buys nothing, however often it is asked', async () => {
    const wallet = await sandboxWalletKobo(service());
    airtimeJob = heldJob(await ada.run(['buy', 'airtime', '--phone', airtimePhone, '--amount', '2,500', '--yes']));
    // Asked again, resumed: still waiting, and no second team job.
    expect(heldJob(await ada.run(['buy', 'airtime', '--phone', airtimePhone, '--amount', '2500', '--yes']))).toBe(airtimeJob);
    expect(heldJob(await ada.run(['purchases', 'resume', airtimeJob]))).toBe(airtimeJob);
    expect(await logFor(airtimePhone)).toEqual([]);
    expect(await sandboxWalletKobo(service())).toBe(wallet);
    const single = await cluster.superQuery("SELECT count(*)::int AS n FROM vendesk.jobs WHERE kind = 'single' AND preview -> 'purchase' ->> 'account' = $1", [airtimePhone]);
    expect(single.rows[0].n).toBe(1);
    // The approver sees what, for whom and how much.
    const list = JSON.parse((await bola.run(['approvals'])).stdout) as {
      jobs: { id: string; kind: string; total: number; preparedBy: string; purchase: unknown; preparedHere: boolean }[];
    };
    expect(list.jobs.find((j) => j.id === airtimeJob)).toMatchObject({
      kind: 'single',
      total: 2500,
      preparedBy: 'ada',
      preparedHere: false,
      purchase: { kind: 'airtime', recipient: airtimePhone, phone: airtimePhone, description: 'MTN airtime', amount: 2500, customerName: null },
    });
    expect((await bola.run(['approvals'])).code).toBe(0);
  });

  it('is bought exactly once after another member approves it, however often it is resumed', async () => {
    const wallet = await sandboxWalletKobo(service());
    expect((await bola.run(['approve', airtimeJob, '--note', 'director asked'])).code).toBe(0);
    const r = await ada.run(['purchases', 'resume', airtimeJob]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const receipt = JSON.parse(r.stdout) as { id: string; state: string; amount: number };
    expect(receipt).toMatchObject({ state: 'success', amount: 2500 });
    const again = await ada.run(['purchases', 'resume', airtimeJob]);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ id: receipt.id, state: 'success' });
    const bought = await logFor(airtimePhone);
    expect(bought.map((e) => [e.status, e.amount])).toEqual([['SUCCESS', 'NGN 2,500.00']]);
    expect(wallet - (await sandboxWalletKobo(service()))).toBe(costKobo(bought as never));
    // The team database: one claim, settled; the job finished; send and settle rows with the amount.
    const claims = await cluster.superQuery('SELECT item_index, outcome, claimed_by FROM vendesk.item_claims WHERE job_id = $1', [airtimeJob]);
    expect(claims.rows).toEqual([{ item_index: 1, outcome: 'succeeded', claimed_by: 'ada' }]);
    expect((await cluster.superQuery('SELECT state FROM vendesk.jobs WHERE id = $1', [airtimeJob])).rows[0].state).toBe('finished');
    const trail = await cluster.superQuery('SELECT action, actor, amount_kobo::text AS amount FROM vendesk.audit_trail WHERE job_id = $1 ORDER BY seq', [airtimeJob]);
    expect(trail.rows).toEqual([
      { action: 'prepare', actor: 'ada', amount: '250000' },
      { action: 'approve', actor: 'bola', amount: '250000' },
      { action: 'send', actor: 'ada', amount: '250000' },
      { action: 'settle', actor: 'ada', amount: '250000' },
      // Finishing the team job is a state change: its own row, with what succeeded (team schema 004).
      { action: 'finish', actor: 'ada', amount: '250000' },
    ]);
    // The same purchase asked for later is a new purchase: it needs its own approval.
    const next = heldJob(await ada.run(['buy', 'airtime', '--phone', airtimePhone, '--amount', '2500', '--yes', '--repeat']));
    expect(next).not.toBe(airtimeJob);
    expect(await logFor(airtimePhone)).toHaveLength(1);
  });

  it('once approved, asking for the same purchase again buys it under that approval, once', async () => {
    const phone = mtnPhone(5250);
    const job = heldJob(await ada.run(['buy', 'data', '--phone', phone, '--plan', 'MTN-3.5GB-30D', '--yes']));
    expect((await bola.run(['approve', job])).code).toBe(0);
    const r = await ada.run(['buy', 'data', '--phone', phone, '--plan', 'MTN-3.5GB-30D', '--yes']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ state: 'success', product: 'MTN-3.5GB-30D', amount: 2500 });
    expect((await logFor(phone)).map((e) => e.status)).toEqual(['SUCCESS']);
    expect((await cluster.superQuery('SELECT outcome FROM vendesk.item_claims WHERE job_id = $1', [job])).rows.map((c) => c.outcome)).toEqual(['claimed']);
    // Its outcome reaches the team database when the approvals are next listed here.
    expect((await ada.run(['approvals'])).code).toBe(0);
    expect((await cluster.superQuery('SELECT outcome FROM vendesk.item_claims WHERE job_id = $1', [job])).rows.map((c) => c.outcome)).toEqual(['succeeded']);
    // Asked once more, it is a new purchase: a new approval, nothing bought.
    expect(heldJob(await ada.run(['buy', 'data', '--phone', phone, '--plan', 'MTN-3.5GB-30D', '--yes', '--repeat']))).not.toBe(job);
    expect(await logFor(phone)).toHaveLength(1);
  });

  it('two resumes at once (a retry while the first is still buying) buy an electricity token once', async () => {
    const meter = account('1234');
    const job = heldJob(await ada.run(['buy', 'electricity', '--disco', 'IKEDC', '--meter', meter, '--type', 'POSTPAID', '--amount', '3000', '--phone', PHONE, '--yes']));
    const approvals = JSON.parse((await bola.run(['approvals'])).stdout) as {
      jobs: { id: string; purchase: { kind: string; recipient: string; customerName: string | null; amount: number } }[];
    };
    const shown = approvals.jobs.find((j) => j.id === job)?.purchase;
    expect(shown).toMatchObject({ kind: 'electricity', recipient: meter, amount: 3000 });
    expect(shown?.customerName).toBeTruthy();
    expect(await logFor(meter)).toEqual([]);
    expect((await bola.run(['approve', job])).code).toBe(0);
    const [one, two] = await Promise.all([ada.run(['purchases', 'resume', job]), ada.run(['purchases', 'resume', job])]);
    const codes = [one, two].map((r) => (r.code === 0 ? 'bought' : errorOf(r).code)).sort();
    expect(codes.filter((c) => c === 'bought').length, one.stdout + two.stdout).toBeGreaterThanOrEqual(1);
    expect(
      codes.every((c) => c === 'bought' || c === 'approval_used' || c === 'purchase_in_progress' || c === 'duplicate_pending'),
      `${codes.join(', ')}\n${one.stdout}${one.stderr}\n${two.stdout}${two.stderr}`,
    ).toBe(true);
    const bought = await logFor(meter);
    expect(bought.map((e) => e.amount)).toEqual(['NGN 3,000.00']);
    const receipt = JSON.parse((await ada.run(['purchases', 'resume', job])).stdout) as { account: string; state: string };
    expect(receipt).toMatchObject({ account: meter, state: 'success' });
    expect(await logFor(meter)).toHaveLength(1);
  });

  it('a desktop that died after claiming the approved item and before buying buys it once when resumed', async () => {
    const phone = mtnPhone(5300);
    const job = heldJob(await ada.run(['buy', 'data', '--phone', phone, '--plan', 'MTN-10GB-30D', '--yes']));
    expect((await bola.run(['approve', job])).code).toBe(0);
    // What ada's vendesk did before it died: the claim, with its own request reference.
    const { desktop_id } = (await cluster.superQuery('SELECT desktop_id FROM vendesk.jobs WHERE id = $1', [job])).rows[0] as { desktop_id: string };
    const asAda = new pg.Client(cluster.config('ada', adaPassword));
    await asAda.connect();
    try {
      await claimRaw(asAda, { id: desktop_id, name: 'ada PC' }, job, 1, 450000, `${desktop_id}:single:${job}`);
    } finally {
      await asAda.end();
    }
    expect(await logFor(phone)).toEqual([]);
    const r = await ada.run(['purchases', 'resume', job]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect((await logFor(phone)).map((e) => e.status)).toEqual(['SUCCESS']);
    expect((await ada.run(['purchases', 'resume', job])).code).toBe(0);
    expect(await logFor(phone)).toHaveLength(1);
  });

  it('a desktop that died after beginning the approved purchase and before sending it buys it once when resumed', async () => {
    const meter = account('1234');
    const job = heldJob(await ada.run(['buy', 'electricity', '--disco', 'IKEDC', '--meter', meter, '--type', 'PREPAID', '--amount', '4200', '--phone', PHONE, '--yes']));
    expect((await bola.run(['approve', job])).code).toBe(0);
    // What ada's vendesk did before it died: its waiting job begun (running, its lease for ten more
    // minutes), nothing sent. The process that held it is gone.
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    const app = await createApp({ dataDir: ada.dataDir, shell: 'test', connection: { baseUrl: sandbox.url, token: TOKEN, kind: 'live' } });
    try {
      const { local_job_id: localJob } = app.db.prepare('SELECT local_job_id FROM team_job_links WHERE team_job_id = ?').get(job) as { local_job_id: string };
      const bulk = app.service(createBulkService);
      const [item] = bulk.reads.items(localJob);
      const asWritten = newItem({
        rowNumber: 1,
        phone: item.phone,
        network: item.network,
        productCode: item.product_code,
        description: item.description,
        amountKobo: item.amount_kobo,
      });
      expect(bulk.lifecycle.beginApprovedSingle(localJob, { ...asWritten, account: item.account, vendType: item.vend_type }, { pid: dead, leaseMs: 600_000 })).toBe(true);
      expect(bulk.reads.job(localJob)).toMatchObject({ state: 'running', runner_pid: dead });
    } finally {
      await app.close();
    }
    expect(await logFor(meter)).toEqual([]);
    const r = await ada.run(['purchases', 'resume', job]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ account: meter, state: 'success', amount: 4200 });
    expect((await logFor(meter)).map((e) => e.amount)).toEqual(['NGN 4,200.00']);
    expect((await ada.run(['purchases', 'resume', job])).code).toBe(0);
    expect(await logFor(meter)).toHaveLength(1);
  });

  it('an approved purchase whose answer was lost is never sent again, however often it is resumed', async () => {
    const proxy = await startDroppingProxy(sandbox.url);
    try {
      const efe = desk('efe', proxy.url);
      await joinAsNewLogin(room, efe, ['vendesk_preparer']);
      const meter = account('1234');
      const job = heldJob(await efe.run(['buy', 'electricity', '--disco', 'IKEDC', '--meter', meter, '--type', 'POSTPAID', '--amount', '3500', '--phone', PHONE, '--yes']));
      expect((await bola.run(['approve', job])).code).toBe(0);
      // The request reaches the service and is charged; its answer, and the log, do not come back.
      proxy.dropAnswers('/purchaseElectricity', 1);
      proxy.dropAnswers('/logEntries', 3);
      const first = await efe.run(['purchases', 'resume', job]);
      const lost = JSON.parse(first.stdout) as { id: string; state: string };
      expect(lost.state, first.stdout).toBe('uncertain');
      expect(await logFor(meter)).toHaveLength(1);
      for (let i = 0; i < 2; i++) {
        const again = await efe.run(['purchases', 'resume', job]);
        expect(JSON.parse(again.stdout)).toMatchObject({ id: lost.id });
      }
      expect((await logFor(meter)).map((e) => e.amount)).toEqual(['NGN 3,500.00']);
    } finally {
      await proxy.close();
    }
  });

  it('asked for in the window, it answers as a purchase waiting for approval, its one-item job waiting; a run stopped before sending leaves it approved, bought once later', async () => {
    const phone = mtnPhone(5650);
    const app = await createApp({ dataDir: ada.dataDir, shell: 'test', connection: { baseUrl: sandbox.url, token: TOKEN, kind: 'live' } });
    try {
      const store = app.service(createBulkService).reads;
      const asked = await dispatch(app, 'purchases.buyTopUp', { kind: 'airtime', phone, amountKobo: 300_000, repeat: false });
      // Its state, not an error: what, for whom, how much, and the team job an approver decides on.
      expect(asked.ok, JSON.stringify(asked)).toBe(true);
      const waiting = (asked.ok ? asked.value : null) as WaitingPurchaseView;
      expect(waiting).toMatchObject({ state: 'awaiting_approval', kind: 'airtime', account: phone, amountKobo: 300_000, description: 'MTN airtime' });
      expect(waiting.message).toBe(
        `The purchase of ₦3,000.00 of MTN airtime for ${phone} waits for approval by another team member: it is above the team's ₦2,000.00 for a single purchase (team job ${waiting.teamJobId}). Nothing was bought.`,
      );
      expect(store.job(waiting.jobId)).toMatchObject({ state: 'awaiting_approval', origin: 'single', kind: 'airtime' });
      expect(store.items(waiting.jobId)).toMatchObject([{ state: 'queued', phone, amount_kobo: 300_000 }]);
      // Not a purchase yet: the recent purchases do not list it (the Approvals page does).
      const recent = await dispatch(app, 'purchases.recentTopUps', { limit: 100 });
      expect(recent.ok && (recent.value as { phone: string }[]).map((p) => p.phone)).not.toContain(phone);
      // Asked again: the same purchase, still waiting; no second team job.
      const again = await dispatch(app, 'purchases.buyTopUp', { kind: 'airtime', phone, amountKobo: 300_000, repeat: false });
      expect(again.ok && again.value).toMatchObject({ state: 'awaiting_approval', teamJobId: waiting.teamJobId, jobId: waiting.jobId });
      const single = await cluster.superQuery("SELECT count(*)::int AS n FROM vendesk.jobs WHERE kind = 'single' AND preview -> 'purchase' ->> 'account' = $1", [phone]);
      expect(single.rows[0].n).toBe(1);
      expect((await bola.run(['approve', waiting.teamJobId])).code).toBe(0);

      // Approved, but the service refuses the token as it is sent: nothing leaves, and it stays approved.
      const control = new SandboxControl(sandbox.url, TOKEN);
      await control.addFault({ path: '/purchaseAirtime', status: 401, count: 1 });
      const stopped = await dispatch(app, 'purchases.resume', { teamJobId: waiting.teamJobId });
      expect(stopped.ok ? null : stopped.error.code).toBe('purchase_not_sent');
      expect(stopped.ok ? '' : stopped.error.message).toMatch(/^Approved, but not sent: .*Nothing was bought\.$/);
      expect(stopped.ok ? '' : stopped.error.hint).toContain('It stays approved: buy it again (Approvals → Approved tab, Buy now)');
      expect(store.job(waiting.jobId)?.state).toBe('awaiting_approval');
      expect(await logFor(phone)).toEqual([]);

      // Bought from there, once, however often it is resumed.
      const wallet = await sandboxWalletKobo(service());
      const bought = await dispatch(app, 'purchases.resume', { teamJobId: waiting.teamJobId });
      expect(bought.ok, JSON.stringify(bought)).toBe(true);
      const receipt = (bought.ok ? bought.value : null) as { topUp: { id: string; state: string; amountKobo: number } };
      expect(receipt.topUp).toMatchObject({ id: waiting.jobId, state: 'success', amountKobo: 300_000 });
      const again2 = await dispatch(app, 'purchases.resume', { teamJobId: waiting.teamJobId });
      expect(again2.ok && again2.value).toMatchObject({ topUp: { id: waiting.jobId, state: 'success' } });
      const log = await logFor(phone);
      expect(log.map((e) => [e.status, e.amount])).toEqual([['SUCCESS', 'NGN 3,000.00']]);
      expect(wallet - (await sandboxWalletKobo(service()))).toBe(costKobo(log as never));
      // Its outcome is in the team database, its team job finished.
      const claims = await cluster.superQuery('SELECT outcome FROM vendesk.item_claims WHERE job_id = $1', [waiting.teamJobId]);
      expect(claims.rows).toEqual([{ outcome: 'succeeded' }]);
      expect((await cluster.superQuery('SELECT state FROM vendesk.jobs WHERE id = $1', [waiting.teamJobId])).rows[0].state).toBe('finished');
    } finally {
      await app.close();
    }
  });

  it('rejected: says why and buys nothing; the approver cannot approve their own purchase', async () => {
    const phone = mtnPhone(5400);
    const job = heldJob(await ada.run(['buy', 'airtime', '--phone', phone, '--amount', '4000', '--yes']));
    expect((await bola.run(['reject', job, '--note', 'not budgeted'])).code).toBe(0);
    const r = await ada.run(['purchases', 'resume', job]);
    expect(r.code).toBe(1);
    expect(errorOf(r)).toMatchObject({ code: 'approval_rejected' });
    expect(errorOf(r).message).toContain('not budgeted');
    expect(await logFor(phone)).toEqual([]);
    // Its job here ended with it, nothing bought: asked for again, it is sent for approval anew.
    const again = heldJob(await ada.run(['buy', 'airtime', '--phone', phone, '--amount', '4000', '--yes']));
    expect(again).not.toBe(job);
    expect(await logFor(phone)).toEqual([]);
    // chidi (an admin: preparer and approver) prepares one and may not approve it himself.
    const mine = heldJob(await chidi.run(['buy', 'airtime', '--phone', mtnPhone(5500), '--amount', '5000', '--yes']));
    const self = await chidi.run(['approve', mine]);
    expect(self.code).toBe(1);
    expect(errorOf(self)).toMatchObject({ code: 'team_refused' });
    expect(errorOf(self).message).toContain('The approver cannot be the preparer');
    expect(await logFor(mtnPhone(5500))).toEqual([]);
  });
});

/** A TCP hop to PostgreSQL that can go down (refusing and cutting connections) and come back on the same port. */
async function startTcpHop(target: number): Promise<{ port: number; down(): Promise<void>; up(): Promise<void>; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(target, '127.0.0.1');
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
  });
  const listen = (port: number) => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  await listen(0);
  const port = (server.address() as net.AddressInfo).port;
  const down = async () => {
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      for (const s of sockets) s.destroy();
    });
  };
  return { port, down, up: () => listen(port), close: () => (server.listening ? down() : Promise.resolve()) };
}

describe("a desktop's own actions in the audit trail", () => {
  it('profile changes (never the token), bulk caps, a reconcile run and its resolutions, with who, what and how much; the chain verifies and the export shows them', async () => {
    const app = await createApp({ dataDir: ada.dataDir, shell: 'test', connection: { baseUrl: sandbox.url, token: TOKEN, kind: 'live' } });
    const secret = 'tok-profile-secret-93ac1';
    try {
      const saved = await dispatch(app, 'profiles.save', { name: 'Head office', baseUrl: sandbox.url, token: secret });
      expect(saved.ok).toBe(true);
      const id = saved.ok ? (saved.value as { id: string }).id : '';
      expect((await dispatch(app, 'profiles.delete', { id })).ok).toBe(true);
    } finally {
      await app.close();
    }
    const profileRows = await auditRows('profile_change');
    expect(profileRows.map((r) => [r.actor, JSON.parse(r.detail).change, JSON.parse(r.detail).profile])).toEqual([
      ['ada', 'saved', 'Head office'],
      ['ada', 'deleted', 'Head office'],
    ]);
    expect(JSON.parse(profileRows[0].detail)).toMatchObject({ kind: 'live', baseUrl: expect.stringContaining('127.0.0.1'), tokenGiven: true });
    const everything = await cluster.superQuery<{ t: string }>("SELECT string_agg(detail, ' ') AS t FROM vendesk.audit_trail");
    expect(everything.rows[0].t).not.toContain(secret);

    expect((await ada.run(['bulk', 'caps', '--per-job', '₦150,000', '--per-day', 'off'])).code).toBe(0);
    const caps = (await auditRows('cap_change')).at(-1)!;
    expect(caps).toMatchObject({ actor: 'ada', amount_kobo: '15000000' });
    expect(JSON.parse(caps.detail)).toMatchObject({ setting: 'bulk', scope: 'desktop', to: { capPerJobKobo: 15_000_000 } });

    const exportFile = path.join(root, 'vendor export.csv');
    const log = (await sandboxLog(service())) as unknown as LogEntry[];
    writeVendorExportCsv(exportFile, [...log, { ...log[0], id: '' as const, transaction_id: 'VENDOR-ONLY-0007', phone_number: '08059998877' }]);
    const run = await ada.run(['reconcile', exportFile]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const runId = (JSON.parse(run.stdout) as { runId: string }).runId;
    const reconcileRow = (await auditRows('reconcile')).at(-1)!;
    const detail = JSON.parse(reconcileRow.detail) as { localRunId: string; totals: Record<string, { count: number; amountKobo: number }>; amountKobo: number };
    expect(reconcileRow.actor).toBe('ada');
    expect(detail.localRunId).toBe(runId);
    expect(Number(reconcileRow.amount_kobo)).toBe(detail.amountKobo);
    const items = JSON.parse((await ada.run(['reconcile', 'items', runId, '--category', 'missingLocally', '--limit', '500'])).stdout) as {
      items: { seq: number; amount: number }[];
    };
    // The row's figures are the run's: one count and amount per category.
    expect(items.items.length).toBeGreaterThanOrEqual(1);
    expect(detail.totals.missingLocally).toEqual({ count: items.items.length, amountKobo: items.items.reduce((sum, i) => sum + Math.round(i.amount * 100), 0) });
    const resolved = await ada.run(['reconcile', 'resolve', runId, String(items.items[0].seq), '--note', 'vendor confirmed by email']);
    expect(resolved.code, resolved.stdout + resolved.stderr).toBe(0);
    const resolveRow = (await auditRows('resolve')).at(-1)!;
    expect(resolveRow.actor).toBe('ada');
    expect(Number(resolveRow.amount_kobo)).toBe(Math.round(items.items[0].amount * 100));
    expect(JSON.parse(resolveRow.detail)).toMatchObject({ resolution: 'missingLocally', note: 'vendor confirmed by email' });

    const verify = await bola.run(['audit', 'verify']);
    expect(verify.code, verify.stdout).toBe(0);
    expect(JSON.parse(verify.stdout)).toMatchObject({ intact: true });
    const out = path.join(root, 'audit.xlsx');
    expect((await bola.run(['audit', 'export', '--out', out])).code).toBe(0);
    const trail = sheetsViaLibreOffice(out).get('Audit trail')!;
    const actions = new Set(trail.slice(1).map((r) => r[5]));
    for (const a of ['cap_change', 'profile_change', 'reconcile', 'resolve', 'prepare', 'approve', 'reject', 'send', 'settle']) expect(actions, a).toContain(a);
    const capRow = trail.find((r) => r[5] === 'cap_change' && r[2] === 'ada');
    expect(capRow?.[7]).toBe('150000');
  }, 120_000); // a reconcile run and a workbook read through LibreOffice

  it('when the team database cannot be reached: the action is kept and written later; a single purchase is refused, nothing bought', async () => {
    // dayo's desktop reaches the database through a network hop that can go down.
    const proxy = await startTcpHop(cluster.port);
    const dayo = desk('dayo');
    await joinAsNewLogin(room, dayo, ['vendesk_preparer'], proxy.port);
    const app = await createApp({ dataDir: dayo.dataDir, shell: 'test', connection: { baseUrl: sandbox.url, token: TOKEN, kind: 'live' } });
    const before = (await auditRows('profile_change')).length;
    try {
      expect((await dispatch(app, 'team.status', {})).ok).toBe(true); // connected once: the pool holds a connection
      await proxy.down();
      const saved = await dispatch(app, 'profiles.save', { name: 'Branch office', baseUrl: sandbox.url });
      expect(saved.ok).toBe(true);
      const status = await dispatch(app, 'team.status', {});
      expect(status.ok && (status.value as { auditQueued: number; problem: string | null }).auditQueued).toBe(1);
      const phone = mtnPhone(5600);
      const buy = await dispatch(app, 'purchases.buyTopUp', { kind: 'airtime', phone, amountKobo: 10_000, repeat: false });
      expect(buy.ok ? null : buy.error.code).toBe('team_unreachable');
      expect(buy.ok ? '' : buy.error.message).toContain('nothing was bought');
      expect(await logFor(phone)).toEqual([]);
      expect(await auditRows('profile_change')).toHaveLength(before);
      // Reachable again: the row is written, with when it happened on the desktop.
      await proxy.up();
      const after = await dispatch(app, 'team.status', {});
      expect(after.ok && (after.value as { auditQueued: number }).auditQueued).toBe(0);
    } finally {
      await app.close();
      await proxy.close();
    }
    const rows = await auditRows('profile_change');
    expect(rows).toHaveLength(before + 1);
    expect(rows.at(-1)).toMatchObject({ actor: 'dayo', desktop_name: 'dayo PC' });
    expect(JSON.parse(rows.at(-1)!.detail)).toMatchObject({ change: 'saved', profile: 'Branch office', at: expect.stringMatching(/^\d{4}-/) });
    expect((await bola.run(['audit', 'verify'])).code).toBe(0);
  });
});
