/**
 * SIGKILL of either desktop mid-job: two preparers (two data folders) run the same approved
 * payroll spreadsheet as the real `vendesk` CLI in child processes against one service and one
 * real PostgreSQL, each killed with SIGKILL while buying and resumed. The service's log must show
 * every row bought exactly once across both desktops: none twice, none missing.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../src/main/app';
import type { SandboxHandle } from '../../../src/sandbox';
import { startPostgresCluster, type PostgresCluster } from '../../support/postgresCluster';
import { killWhen, type VendeskRun } from '../../support/vendeskProcess';
import { QUICK_CLI_JOBS, airtimeRows, allLogEntries, mtnPhone, runBulkCli, spawnBulkCli, startCliSandbox, stopCliSandbox, writeCsv } from '../bulk/bulkTestFiles';

const TOKEN = 'team-sigkill-org';
const ITEMS = 120;
let cluster: PostgresCluster;
let sandbox: SandboxHandle;
let adaDir: string;
let dayoDir: string;
let bolaDir: string;

async function extraDesk(): Promise<string> {
  const dir = fs.mkdtempSync(`${adaDir}-desk-`);
  const app = await createApp({ dataDir: dir, shell: 'test', connection: { baseUrl: sandbox.url, token: TOKEN, kind: 'live' } });
  app.settings.set('bulk.settings', QUICK_CLI_JOBS);
  await app.close();
  return dir;
}

const runIn = (dir: string, args: string[]) => runBulkCli(TOKEN, args, dir, sandbox.url);

async function join(dir: string, role: string, password: string): Promise<void> {
  const file = `${dir}/${role}.pw`;
  fs.writeFileSync(file, `${password}\n`, { mode: 0o600 });
  const r = await runIn(dir, ['team', 'join', '--url', `postgres://${role}@127.0.0.1:${cluster.port}/postgres`, '--password-file', file]);
  expect(r.code, r.stdout + r.stderr).toBe(0);
}

async function logCount(): Promise<number> {
  const res = await fetch(`${sandbox.url}/logEntries?perPage=1`, { headers: { Authorization: `Bearer ${TOKEN}` } });
  return ((await res.json()) as { data: { TotalRecords: number } }).data.TotalRecords;
}

/** Submits the sheet (sent for approval), has bola approve it, and returns the local job id. */
async function submitApproved(dir: string, file: string): Promise<string> {
  const r = await runIn(dir, ['bulk', 'submit', file, '--kind', 'airtime', '--yes', '--keep-duplicates', '--confirm-total', String(ITEMS * 100)]);
  expect(r.code, r.stdout + r.stderr).toBe(4);
  const [, jobId, teamJob] = /Bulk job (\S+) waits for approval by another team member \(team job ([0-9a-f-]{36})/.exec(JSON.parse(r.stdout).error.message) ?? [];
  expect((await runIn(bolaDir, ['approve', teamJob])).code).toBe(0);
  return jobId;
}

beforeAll(async () => {
  cluster = await startPostgresCluster();
  ({ sandbox, dataDir: adaDir } = await startCliSandbox(TOKEN, QUICK_CLI_JOBS));
  dayoDir = await extraDesk();
  bolaDir = await extraDesk();
  await join(adaDir, cluster.superuser, cluster.superuserPassword);
  await join(adaDir, 'ada', await cluster.createLogin('ada', ['vendesk_preparer']));
  await join(dayoDir, 'dayo', await cluster.createLogin('dayo', ['vendesk_preparer']));
  await join(bolaDir, 'bola', await cluster.createLogin('bola', ['vendesk_approver']));
}, 120_000);

afterAll(async () => {
  if (sandbox) await stopCliSandbox({ sandbox, dataDir: adaDir });
  for (const d of [dayoDir, bolaDir]) if (d) fs.rmSync(d, { recursive: true, force: true });
  await cluster?.stop();
});

describe('two desktops running the same approved spreadsheet, each killed mid-job', () => {
  it('buys every row exactly once across both', { timeout: 240_000 }, async () => {
    const rows = airtimeRows(ITEMS, 100);
    const adaJob = await submitApproved(adaDir, writeCsv(adaDir, 'payroll.csv', rows));
    const dayoJob = await submitApproved(dayoDir, writeCsv(dayoDir, 'payroll.csv', rows));
    const kills: string[] = [];
    const start = (dir: string, job: string): VendeskRun => spawnBulkCli(TOKEN, ['bulk', 'resume', job], dir, sandbox.url);
    // Both run at once; ada is killed first, then dayo, then ada again.
    let adaRun = start(adaDir, adaJob);
    let dayoRun = start(dayoDir, dayoJob);
    kills.push(await killWhen(adaRun, async () => (await logCount()) >= 20));
    kills.push(await killWhen(dayoRun, async () => (await logCount()) >= 45));
    adaRun = start(adaDir, adaJob);
    dayoRun = start(dayoDir, dayoJob);
    kills.push(await killWhen(adaRun, async () => (await logCount()) >= 75));
    expect(kills.filter((k) => k === 'killed').length).toBeGreaterThanOrEqual(2);
    await dayoRun.exited;
    adaRun = start(adaDir, adaJob);
    await adaRun.exited;
    // Whatever a kill left unsettled is settled from the log by resuming each once more.
    for (const [dir, job] of [
      [adaDir, adaJob],
      [dayoDir, dayoJob],
    ] as const)
      await start(dir, job).exited;

    const log = await allLogEntries(sandbox.url, TOKEN);
    const perPhone = new Map<string, number>();
    for (const e of log) perPhone.set(e.phone_number, (perPhone.get(e.phone_number) ?? 0) + 1);
    expect(
      [...perPhone].filter(([, n]) => n > 1),
      'bought twice',
    ).toEqual([]);
    expect(
      Array.from({ length: ITEMS }, (_, i) => mtnPhone(i)).filter((p) => !perPhone.has(p)),
      'never bought',
    ).toEqual([]);
    expect(log).toHaveLength(ITEMS);
    const claims = await cluster.superQuery<{ n: number }>('SELECT count(*)::int AS n FROM vendesk.item_claims');
    expect(claims.rows[0].n).toBe(ITEMS);
    console.log(
      `kills: ${kills.join(', ')}; claims per job: ${JSON.stringify((await cluster.superQuery('SELECT claimed_by, count(*)::int AS n FROM vendesk.item_claims GROUP BY 1 ORDER BY 1')).rows)}`,
    );
  });
});
