/**
 * An approved team job run on another team desktop, and outcomes written back after the team
 * database was down. Four data folders against one sandbox and one real PostgreSQL: ada prepares,
 * bola approves, chidi — with his own token for the same organisation — adopts and runs the job;
 * dayo's token is another organisation's. Every figure is read from the service's own log and
 * wallet, and from PostgreSQL as its superuser.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../../../src/main/app';
import { dispatch } from '../../../src/main/dispatch';
import { createBulkFollowUp } from '../../../src/main/buying/followUpLoop';
import { createTeamOutcomeRetry } from '../../../src/main/team/teamOutcomeRetry';
import { startSandbox, type SandboxHandle } from '../../../src/sandbox';
import { startPostgresCluster, type PostgresCluster } from '../../support/postgresCluster';
import { sandboxWalletKobo } from '../../support/sandboxRecords';
import { closeTeamRoom, joinAsNewLogin, joinTeamAs, liveDesk, type LiveDesk, type TeamRoom } from './teamDesks';
import { killWhen } from '../../support/vendeskProcess';
import { airtimeRows, allLogEntries, mtnPhone, runBulkCli, spawnBulkCli, writeCsv } from '../bulk/bulkTestFiles';
import { holdMethod } from '../../support/heldAnswer';
import { until } from '../../support/until';

const ORG = 'adopt-org';
const ADA_TOKEN = 'adopt-org-ada-7f1c';
const CHIDI_TOKEN = 'adopt-org-chidi-2b9e';
const OTHER_TOKEN = 'another-org-d41a';
let cluster: PostgresCluster;
let room: TeamRoom;
let sandbox: SandboxHandle;
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-team-adopt-'));

type Desk = LiveDesk;

const desk = (name: string, token: string): Promise<Desk> => liveDesk(root, name, { baseUrl: sandbox.url, token });

const org = () => ({ sandbox, token: ADA_TOKEN });

/** How often the service's log holds each of these phones. */
async function boughtPerPhone(phones: string[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const e of await allLogEntries(sandbox.url, ADA_TOKEN)) if (phones.includes(e.phone_number)) counts.set(e.phone_number, (counts.get(e.phone_number) ?? 0) + 1);
  return counts;
}

function costKobo(entries: { phone_number: string }[], phones: string[]): number {
  return entries.filter((e) => phones.includes(e.phone_number)).reduce((s, e) => s + Math.round((e as unknown as { transaction_cost: number }).transaction_cost * 100), 0);
}

/** Submits the sheet on `d` (sent for approval, exit 4), has bola approve it; the local and team job ids. */
async function submitApproved(d: Desk, sheet: string, totalNaira: number): Promise<{ localJob: string; teamJob: string }> {
  const r = await d.run(['bulk', 'submit', sheet, '--kind', 'airtime', '--yes', '--keep-duplicates', '--confirm-total', String(totalNaira)]);
  expect(r.code, r.stdout + r.stderr).toBe(4);
  const [, localJob, teamJob] = /Bulk job (\S+) waits for approval by another team member \(team job ([0-9a-f-]{36})/.exec(JSON.parse(r.stdout).error.message) ?? [];
  expect((await bola.run(['approve', teamJob])).code).toBe(0);
  return { localJob, teamJob };
}

let ada: Desk;
let bola: Desk;
let chidi: Desk;
let dayo: Desk;

beforeAll(async () => {
  cluster = await startPostgresCluster();
  room = { root, cluster };
  sandbox = await startSandbox({ port: 0, tokens: [OTHER_TOKEN], bearers: { [ADA_TOKEN]: ORG, [CHIDI_TOKEN]: ORG }, quiet: true });
  ada = await desk('ada', ADA_TOKEN);
  bola = await desk('bola', ADA_TOKEN);
  chidi = await desk('chidi', CHIDI_TOKEN);
  dayo = await desk('dayo', OTHER_TOKEN);
  await joinTeamAs(room, ada, cluster.superuser, cluster.superuserPassword); // the administrator sets the database up
  await joinAsNewLogin(room, ada, ['vendesk_preparer']);
  await joinAsNewLogin(room, bola, ['vendesk_approver']);
  await joinAsNewLogin(room, chidi, ['vendesk_preparer']);
  await joinAsNewLogin(room, dayo, ['vendesk_preparer']);
}, 120_000);

afterAll(() => closeTeamRoom(root, cluster, sandbox));

describe('an approved team job run on another desktop', () => {
  it('runs on a third desktop with its own token for the organisation; another organisation is refused; the preparer then buys nothing more', async () => {
    const phones = [0, 1, 2].map((i) => mtnPhone(5100 + i));
    const { localJob: adaJob, teamJob } = await submitApproved(ada, writeCsv(ada.dir, 'payroll.csv', airtimeRows(3, 100, 5100)), 300);
    // The rows another desktop needs are in the team database, readable by members.
    const stored = await cluster.superQuery<{ item_index: number; amount_kobo: string }>(
      'SELECT item_index, amount_kobo::text FROM vendesk.job_items WHERE job_id = $1 ORDER BY seq',
      [teamJob],
    );
    expect(stored.rows).toEqual([2, 3, 4].map((row) => ({ item_index: row, amount_kobo: '10000' })));

    const wallet = await sandboxWalletKobo(org());
    const refused = await dayo.run(['bulk', 'adopt', teamJob]);
    expect(refused.code).toBe(1);
    const error = JSON.parse(refused.stdout).error as { code: string; message: string };
    expect(error.code).toBe('team_other_organisation');
    expect(error.message).toContain('Nothing was bought');
    expect(await boughtPerPhone(phones)).toEqual(new Map());

    const approved = JSON.parse((await chidi.run(['approvals', '--state', 'approved'])).stdout) as { jobs: { id: string }[] };
    expect(approved.jobs.map((j) => j.id)).toContain(teamJob);
    const r = await chidi.run(['bulk', 'adopt', teamJob]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ items: 3, success: 3, uncertain: 0 });
    expect(await boughtPerPhone(phones)).toEqual(new Map(phones.map((p) => [p, 1])));
    const log = await allLogEntries(sandbox.url, ADA_TOKEN);
    expect(wallet - (await sandboxWalletKobo(org()))).toBe(costKobo(log, phones));
    const claims = await cluster.superQuery('SELECT item_index, claimed_by, outcome FROM vendesk.item_claims WHERE job_id = $1 ORDER BY item_index', [teamJob]);
    expect(claims.rows).toEqual([2, 3, 4].map((row) => ({ item_index: row, claimed_by: 'chidi', outcome: 'succeeded' })));
    expect((await cluster.superQuery('SELECT state FROM vendesk.jobs WHERE id = $1', [teamJob])).rows[0].state).toBe('finished');
    // chidi's desktop adopted the job before its first claim (team schema 7), which let it finish the job.
    const ended = await cluster.superQuery("SELECT action, actor FROM vendesk.audit_trail WHERE job_id = $1 AND action IN ('adopt', 'finish') ORDER BY seq", [teamJob]);
    expect(ended.rows).toEqual([
      { action: 'adopt', actor: 'chidi' },
      { action: 'finish', actor: 'chidi' },
    ]);

    // The preparer resumes the same job afterwards: each row is found sent by chidi, settled from the log.
    const walletAfter = await sandboxWalletKobo(org());
    const resumed = await ada.run(['bulk', 'resume', adaJob]);
    expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ items: 3, success: 3, uncertain: 0, rejected: 0 });
    expect(await boughtPerPhone(phones)).toEqual(new Map(phones.map((p) => [p, 1])));
    expect(await sandboxWalletKobo(org())).toBe(walletAfter);
    // chidi adopting it again resumes his own local job: nothing more.
    expect((await chidi.run(['bulk', 'adopt', teamJob])).code).toBe(0);
    expect(await boughtPerPhone(phones)).toEqual(new Map(phones.map((p) => [p, 1])));
    const claimCount = await cluster.superQuery<{ n: number }>('SELECT count(*)::int AS n FROM vendesk.item_claims WHERE job_id = $1', [teamJob]);
    expect(claimCount.rows[0].n).toBe(3);
  });

  it('runs nothing, at either organisation, when the desktop is switched to another connection while the organisation is checked', async () => {
    const phones = [0, 1].map((i) => mtnPhone(5700 + i));
    const { teamJob } = await submitApproved(ada, writeCsv(ada.dir, 'switched.csv', airtimeRows(2, 100, 5700)), 200);
    // A desktop of its own, whose connection profiles this test changes.
    const emeka = await desk('emeka', CHIDI_TOKEN);
    await joinAsNewLogin(room, emeka, ['vendesk_preparer']);
    const app = await createApp({ dataDir: emeka.dir, shell: 'test' });
    try {
      const call = async <T>(name: string, input: unknown): Promise<T> => {
        const r = await dispatch(app, name, input);
        if (!r.ok) throw new Error(`${name}: ${JSON.stringify(r.error)}`);
        return r.value as T;
      };
      const own = await call<{ id: string }>('profiles.save', { name: 'The organisation', baseUrl: sandbox.url, token: CHIDI_TOKEN });
      const other = await call<{ id: string }>('profiles.save', { name: 'Another organisation', baseUrl: sandbox.url, token: OTHER_TOKEN });
      await call('profiles.activate', { id: own.id, confirmLive: true });
      // The wallet read that names this connection's organisation answers slowly: the user switches meanwhile.
      const check = holdMethod(app.client(), 'accountBalance');
      const adopting = dispatch(app, 'bulk.adopt', { teamJobId: teamJob, wait: true });
      await until(() => check.asked, 'the organisation check of the connection in use');
      await call('profiles.activate', { id: other.id, confirmLive: true });
      check.release();
      expect(await adopting).toMatchObject({ ok: false, error: { code: 'connection_changed', message: expect.stringContaining('Nothing was bought') } });
      expect(await boughtPerPhone(phones)).toEqual(new Map());
      expect((await allLogEntries(sandbox.url, OTHER_TOKEN)).filter((e) => phones.includes(e.phone_number))).toEqual([]);
      const claims = await cluster.superQuery('SELECT item_index FROM vendesk.item_claims WHERE job_id = $1', [teamJob]);
      expect(claims.rows).toEqual([]);
    } finally {
      await app.close();
    }
  });

  it('refuses a job still waiting for approval', async () => {
    const r = await ada.run(['bulk', 'submit', writeCsv(ada.dir, 'later.csv', airtimeRows(1, 100, 5300)), '--kind', 'airtime', '--yes', '--confirm-total', '100']);
    expect(r.code).toBe(4);
    const [, , teamJob] = /Bulk job (\S+) waits for approval by another team member \(team job ([0-9a-f-]{36})/.exec(JSON.parse(r.stdout).error.message) ?? [];
    const adopted = await chidi.run(['bulk', 'adopt', teamJob]);
    expect(adopted.code).toBe(4);
    expect(JSON.parse(adopted.stdout).error.code).toBe('awaiting_approval');
    expect(await boughtPerPhone([mtnPhone(5300)])).toEqual(new Map());
  });

  it("keeps to the adopting desktop's own caps, and discarding the refused job there leaves the team job approved for others", async () => {
    const { teamJob } = await submitApproved(ada, writeCsv(ada.dir, 'caps.csv', airtimeRows(2, 100, 5400)), 200);
    expect((await chidi.run(['bulk', 'caps', '--per-job', '150'])).code).toBe(0);
    const refused = await chidi.run(['bulk', 'adopt', teamJob]);
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout).error.code).toBe('job_refused');
    expect(await boughtPerPhone([mtnPhone(5400), mtnPhone(5401)])).toEqual(new Map());
    const app = await createApp({ dataDir: chidi.dir, shell: 'test', connection: { baseUrl: sandbox.url, token: CHIDI_TOKEN, kind: 'live' } });
    try {
      const link = app.db.prepare('SELECT local_job_id FROM team_job_links WHERE team_job_id = ?').get(teamJob) as { local_job_id: string };
      expect(await dispatch(app, 'bulk.discard', { jobId: link.local_job_id })).toEqual({ ok: true, value: { deleted: true } });
    } finally {
      await app.close();
    }
    expect((await cluster.superQuery('SELECT state FROM vendesk.jobs WHERE id = $1', [teamJob])).rows[0].state).toBe('approved');
    expect((await chidi.run(['bulk', 'caps', '--per-job', 'off'])).code).toBe(0);
  });

  it('loses and doubles nothing when the adopting desktop is killed mid-job and the preparer resumes', { timeout: 240_000 }, async () => {
    const ITEMS = 60;
    const phones = Array.from({ length: ITEMS }, (_, i) => mtnPhone(6000 + i));
    const { localJob: adaJob, teamJob } = await submitApproved(ada, writeCsv(ada.dir, 'big payroll.csv', airtimeRows(ITEMS, 100, 6000)), ITEMS * 100);
    const sent = async () => [...(await boughtPerPhone(phones)).values()].reduce((a, b) => a + b, 0);
    const chidiRun = spawnBulkCli(CHIDI_TOKEN, ['bulk', 'adopt', teamJob], chidi.dir, sandbox.url);
    expect(await killWhen(chidiRun, async () => (await sent()) >= 15)).toBe('killed');
    // The preparer resumes while chidi's desktop is down, then each desktop once more settles what a kill left open.
    await runBulkCli(ADA_TOKEN, ['bulk', 'resume', adaJob], ada.dir, sandbox.url);
    await runBulkCli(CHIDI_TOKEN, ['bulk', 'adopt', teamJob], chidi.dir, sandbox.url);
    await runBulkCli(ADA_TOKEN, ['bulk', 'resume', adaJob], ada.dir, sandbox.url);
    const perPhone = await boughtPerPhone(phones);
    expect(
      [...perPhone].filter(([, n]) => n > 1),
      'bought twice',
    ).toEqual([]);
    expect(
      phones.filter((p) => !perPhone.has(p)),
      'never bought',
    ).toEqual([]);
    const claims = await cluster.superQuery<{ claimed_by: string; n: number }>(
      'SELECT claimed_by, count(*)::int AS n FROM vendesk.item_claims WHERE job_id = $1 GROUP BY 1 ORDER BY 1',
      [teamJob],
    );
    expect(claims.rows.reduce((s, r) => s + r.n, 0)).toBe(ITEMS);
    expect(claims.rows.map((r) => r.claimed_by)).toEqual(['ada', 'chidi']);
  });
});

describe('outcomes the team database missed', () => {
  it('are written by the periodic pass once the database is back: claims settled, job finished, settle rows in the audit trail', { timeout: 120_000 }, async () => {
    const phones = [0, 1].map((i) => mtnPhone(7000 + i));
    const { localJob, teamJob } = await submitApproved(ada, writeCsv(ada.dir, 'bonus.csv', airtimeRows(2, 150, 7000)), 300);
    let app: App | null = await createApp({ dataDir: ada.dir, shell: 'test', background: true, connection: { baseUrl: sandbox.url, token: ADA_TOKEN, kind: 'live' } });
    try {
      // The database goes down the moment the job ends, before its outcomes are written.
      let halted = false;
      app.events.subscribe((event) => {
        if (event.name !== 'job.progress' || halted) return;
        const p = event.payload as { jobId: string; state: string };
        if (p.jobId === localJob && p.state === 'completed') {
          halted = true;
          cluster.halt();
        }
      });
      const done = await dispatch(app, 'bulk.resume', { jobId: localJob, wait: true });
      expect(done).toMatchObject({ ok: true, value: { state: 'completed' } });
      expect(halted).toBe(true);
      expect(await boughtPerPhone(phones)).toEqual(new Map(phones.map((p) => [p, 1])));
      // Only the team loop may write them here: the bulk follow-up loop (which also reports) is stopped.
      await app.service(createBulkFollowUp).stop();
      cluster.restart();
      const open = await cluster.superQuery('SELECT outcome FROM vendesk.item_claims WHERE job_id = $1', [teamJob]);
      expect(open.rows).toEqual([{ outcome: 'claimed' }, { outcome: 'claimed' }]);
      expect((await cluster.superQuery('SELECT state FROM vendesk.jobs WHERE id = $1', [teamJob])).rows[0].state).toBe('running');

      // The loop createApp({ background: true }) started, at a test's pace.
      const loop = app.service(createTeamOutcomeRetry);
      expect(loop.running).toBe(true);
      loop.start(200);
      const deadline = Date.now() + 30_000;
      let outcomes: string[] = [];
      while (Date.now() < deadline) {
        outcomes = (await cluster.superQuery<{ outcome: string }>('SELECT outcome FROM vendesk.item_claims WHERE job_id = $1', [teamJob])).rows.map((r) => r.outcome);
        if (outcomes.every((o) => o === 'succeeded')) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(outcomes).toEqual(['succeeded', 'succeeded']);
      await loop.tick();
      expect((await cluster.superQuery('SELECT state FROM vendesk.jobs WHERE id = $1', [teamJob])).rows[0].state).toBe('finished');
      const settled = await cluster.superQuery<{ n: number; kobo: string }>(
        "SELECT count(*)::int AS n, sum(amount_kobo)::text AS kobo FROM vendesk.audit_trail WHERE job_id = $1 AND action = 'settle'",
        [teamJob],
      );
      expect(settled.rows[0]).toEqual({ n: 2, kobo: '30000' });
    } finally {
      await app?.close();
      app = null;
    }
  });

  it("are written by the command line's next team command", { timeout: 120_000 }, async () => {
    const phones = [mtnPhone(7100)];
    const { localJob, teamJob } = await submitApproved(ada, writeCsv(ada.dir, 'refund.csv', airtimeRows(1, 100, 7100)), 100);
    const app = await createApp({ dataDir: ada.dir, shell: 'test', connection: { baseUrl: sandbox.url, token: ADA_TOKEN, kind: 'live' } });
    try {
      app.events.subscribe((event) => {
        const p = event.payload as { jobId: string; state: string };
        if (event.name === 'job.progress' && p.jobId === localJob && p.state === 'completed') cluster.halt();
      });
      expect(await dispatch(app, 'bulk.resume', { jobId: localJob, wait: true })).toMatchObject({ ok: true, value: { state: 'completed' } });
    } finally {
      await app.close();
    }
    cluster.restart();
    expect(await boughtPerPhone(phones)).toEqual(new Map([[phones[0], 1]]));
    expect((await cluster.superQuery('SELECT outcome FROM vendesk.item_claims WHERE job_id = $1', [teamJob])).rows).toEqual([{ outcome: 'claimed' }]);
    const r = await ada.run(['approvals']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect((await cluster.superQuery('SELECT outcome FROM vendesk.item_claims WHERE job_id = $1', [teamJob])).rows).toEqual([{ outcome: 'succeeded' }]);
    expect((await cluster.superQuery('SELECT state FROM vendesk.jobs WHERE id = $1', [teamJob])).rows[0].state).toBe('finished');
  });
});

describe('the stored rows of a team job, attacked', () => {
  it('take no direct writes, no change even by the owner, and must add up to what the approver is shown', async () => {
    const password = await cluster.createLogin('mallory', ['vendesk_preparer']);
    const client = new pg.Client(cluster.config('mallory', password));
    await client.connect();
    try {
      const job = (await cluster.superQuery<{ id: string }>('SELECT job_id::text AS id FROM vendesk.job_items LIMIT 1')).rows[0].id;
      await expect(client.query("INSERT INTO vendesk.job_items (job_id, seq, item_index, amount_kobo, item) VALUES ($1, 99, 99, 100000, '{}')", [job])).rejects.toThrow(
        /permission denied/,
      );
      await expect(client.query('UPDATE vendesk.job_items SET amount_kobo = 1 WHERE job_id = $1', [job])).rejects.toThrow(/permission denied/);
      await expect(cluster.superQuery('UPDATE vendesk.job_items SET amount_kobo = 1 WHERE job_id = $1', [job])).rejects.toThrow(/append-only/);
      await expect(cluster.superQuery('DELETE FROM vendesk.job_items WHERE job_id = $1', [job])).rejects.toThrow(/append-only/);
      // Shown ₦100 for one row, but the stored row would buy ₦5,000: refused, and no job is left behind.
      const before = (await cluster.superQuery<{ n: number }>('SELECT count(*)::int AS n FROM vendesk.jobs')).rows[0].n;
      const items = JSON.stringify([{ rowNumber: 2, phone: mtnPhone(7200), amountKobo: 500_000 }]);
      await expect(
        client.query("SELECT vendesk.prepare_bulk_job('d', 'mallory PC', 'x', 'f.csv', NULL, false, 1, 10000, NULL, '{}'::jsonb, '{}'::jsonb, $1::jsonb)", [items]),
      ).rejects.toThrow(/not the job's count and total/);
      expect((await cluster.superQuery<{ n: number }>('SELECT count(*)::int AS n FROM vendesk.jobs')).rows[0].n).toBe(before);
    } finally {
      await client.end();
    }
  });
});
