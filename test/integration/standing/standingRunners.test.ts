/**
 * Who runs a standing order's occurrences, and what stops one, through the real `vendesk` CLI in
 * child processes on one data folder: two `run-due` at once buy each occurrence once; a `run-due`
 * killed with SIGKILL during the occurrence's job is resumed by the next one, each row bought once;
 * a wallet too short stops the run before anything is sent and says how much is missing; an
 * occurrence missed beyond its grace waits for a person (Run now, Skip); two due occurrences of one
 * order are never bought in one run without a person saying so. The service's own log and wallet
 * are the judges.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { killWhen } from '../../support/vendeskProcess';
import { allLogEntries, mtnPhone, QUICK_CLI_JOBS, runBulkCli, spawnBulkCli, startCliSandbox, stopCliSandbox, type CliSandbox } from '../bulk/bulkTestFiles';
import { staffSheet, walletKobo, moveServiceTo, type AddedOrder, type OccurrenceJson, type RunDueJson } from './standingHelpers';
import type { CliPeer } from '../cli/cliHarness';

let env: CliSandbox;
let token: string;
let n = 0;
/** Enough of a CLI peer for the helpers: the sandbox's control, its files folder, its records. */
let peer: CliPeer;

beforeEach(async () => {
  token = `standing-runners-${process.pid}-${++n}`;
  env = await startCliSandbox(token, QUICK_CLI_JOBS);
  peer = { sandbox: env.sandbox, token, dataDir: env.dataDir, dir: env.dataDir, control: env.sandbox.control(token) } as unknown as CliPeer;
});
afterEach(async () => {
  await stopCliSandbox(env);
});

const cli = (args: string[]) => runBulkCli(token, args, env.dataDir, env.sandbox.url);

async function add(rows: number, naira: number, args: string[]): Promise<AddedOrder> {
  const sheet = staffSheet(peer, `staff-${rows}-${naira}.csv`, rows, naira);
  const r = await cli(['standing', 'add', sheet.file, '--kind', 'airtime', '--name', 'Staff airtime', '--yes', '--confirm-total', String(sheet.total), ...args]);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as AddedOrder;
}

async function runDue(): Promise<{ code: number; report: RunDueJson; stderr: string }> {
  const r = await cli(['standing', 'run-due']);
  return { code: r.code, report: JSON.parse(r.stdout) as RunDueJson, stderr: r.stderr };
}

function perPhone(log: { phone_number: string; status: string }[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const e of log.filter((x) => x.status !== 'FAILED')) m.set(e.phone_number, (m.get(e.phone_number) ?? 0) + 1);
  return m;
}

describe('standing order runners', () => {
  it('two run-due processes at once on one data folder buy the occurrence once', { timeout: 600_000 }, async () => {
    await moveServiceTo(peer, '2027-03-01');
    await add(30, 100, ['--monthly-on', '5']);
    await moveServiceTo(peer, '2027-03-05');
    const walletBefore = await walletKobo(peer);
    const a = spawnBulkCli(token, ['standing', 'run-due'], env.dataDir, env.sandbox.url);
    const b = spawnBulkCli(token, ['standing', 'run-due'], env.dataDir, env.sandbox.url);
    const [codeA, codeB] = await Promise.all([a.closed, b.closed]);
    expect([codeA, codeB], `${a.stderr}\n${b.stderr}`).toEqual([0, 0]);
    const reports = [JSON.parse(a.stdout) as RunDueJson, JSON.parse(b.stdout) as RunDueJson];
    const jobs = new Set(reports.flatMap((r) => [...r.ran, ...r.elsewhere].map((o) => o.jobId)).filter((j) => j !== null));
    expect(jobs.size, 'one job for the occurrence').toBe(1);

    // Whichever ran it, the occurrence is bought in full once: the next run-due finishes it if the other was still following it.
    const after = await runDue();
    expect(after.code, after.stderr).toBe(0);
    const log = await allLogEntries(env.sandbox.url, token);
    const counts = perPhone(log);
    expect(
      [...counts.values()].filter((c) => c > 1),
      'bought twice',
    ).toEqual([]);
    expect(counts.size).toBe(30);
    expect(walletBefore - (await walletKobo(peer))).toBeLessThanOrEqual(30 * 100_00);
    expect(walletBefore - (await walletKobo(peer))).toBeGreaterThan(0);
    const shown = JSON.parse((await cli(['standing', 'list'])).stdout) as { lastRun: OccurrenceJson }[];
    expect(shown[0].lastRun).toMatchObject({ occurrence: '2027-03-05', state: 'bought', job: { items: 30, success: 30 } });
  });

  it('a run-due killed with SIGKILL during the occurrence’s job is resumed by the next, each row bought once', { timeout: 600_000 }, async () => {
    const ROWS = 120;
    await moveServiceTo(peer, '2027-03-01');
    await add(ROWS, 100, ['--monthly-on', '5']);
    await moveServiceTo(peer, '2027-03-05');
    const first = spawnBulkCli(token, ['standing', 'run-due'], env.dataDir, env.sandbox.url);
    const outcome = await killWhen(first, async () => (await allLogEntries(env.sandbox.url, token)).length >= 20);
    expect(outcome, first.stderr).toBe('killed');
    const partial = (await allLogEntries(env.sandbox.url, token)).length;
    expect(partial).toBeLessThan(ROWS);

    const resumed = await runDue();
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.report.ran.map((o) => [o.occurrence, o.state])).toEqual([['2027-03-05', 'bought']]);
    const counts = perPhone(await allLogEntries(env.sandbox.url, token));
    expect(
      [...counts.values()].filter((c) => c > 1),
      'bought twice',
    ).toEqual([]);
    expect(
      Array.from({ length: ROWS }, (_, i) => mtnPhone(i)).filter((p) => !counts.has(p)),
      'never bought',
    ).toEqual([]);
    // And nothing more on a further run.
    expect((await runDue()).report.ran).toEqual([]);
    expect(await allLogEntries(env.sandbox.url, token)).toHaveLength(ROWS);
  });

  it('a wallet too short stops the run before anything is sent, and says how much is missing', { timeout: 600_000 }, async () => {
    await moveServiceTo(peer, '2027-03-01');
    await add(5, 1000, ['--monthly-on', '5']);
    await env.sandbox.control(token).setWallet(3000);
    await moveServiceTo(peer, '2027-03-05');
    const short = await runDue();
    expect(short.code).toBe(1);
    expect(short.report.ran).toEqual([]);
    expect(short.report.waiting).toHaveLength(1);
    const w = short.report.waiting[0];
    expect(w).toMatchObject({ occurrence: '2027-03-05', state: 'waiting', reason: 'wallet_short' });
    // The sandbox charges airtime at its face value less a discount: at most ₦5,000 − ₦3,000 is missing, and something is.
    expect(w.missing).toBeGreaterThan(0);
    expect(w.missing).toBeLessThanOrEqual(2000);
    expect(short.stderr).toMatch(/wallet/i);
    expect(await allLogEntries(env.sandbox.url, token)).toHaveLength(0);
    expect(await walletKobo(peer)).toBe(3000_00);

    // Topped up the same day (within its grace), the next run buys it.
    await env.sandbox.control(token).setWallet(100_000);
    const paid = await runDue();
    expect(paid.code, paid.stderr).toBe(0);
    expect(paid.report.ran.map((o) => [o.occurrence, o.state])).toEqual([['2027-03-05', 'bought']]);
    expect(await allLogEntries(env.sandbox.url, token)).toHaveLength(5);
  });

  it('an occurrence missed beyond its grace waits for a person: Run now buys it once, Skip buys nothing', { timeout: 600_000 }, async () => {
    await moveServiceTo(peer, '2027-03-01');
    const order = await add(2, 100, ['--monthly-on', '5', '--grace-days', '3']);
    // 5 March + 3 days of grace = 8 March; on 9 March it is missed.
    await moveServiceTo(peer, '2027-03-09');
    const missed = await runDue();
    expect(missed.code, missed.stderr).toBe(0);
    expect(missed.report.ran).toEqual([]);
    expect(missed.report.waiting.map((o) => [o.occurrence, o.reason])).toEqual([['2027-03-05', 'missed']]);
    expect(missed.report.waiting[0].why).toMatch(/Run now, or Skip/);
    expect(await allLogEntries(env.sandbox.url, token)).toHaveLength(0);
    // Waiting stays waiting on the next run: nothing is bought by itself.
    expect((await runDue()).report.waiting.map((o) => o.reason)).toEqual(['missed']);
    expect(await allLogEntries(env.sandbox.url, token)).toHaveLength(0);

    const run = await cli(['standing', 'run', order.orderId, '--occurrence', '2027-03-05']);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ occurrence: '2027-03-05', state: 'bought' });
    expect(await allLogEntries(env.sandbox.url, token)).toHaveLength(2);
    const again = await cli(['standing', 'run', order.orderId, '--occurrence', '2027-03-05']);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/bought once/);
    expect(await allLogEntries(env.sandbox.url, token)).toHaveLength(2);

    // April's, missed too, is skipped: nothing bought, May's stays next.
    await moveServiceTo(peer, '2027-04-10');
    expect((await runDue()).report.waiting.map((o) => [o.occurrence, o.reason])).toEqual([['2027-04-05', 'missed']]);
    const skip = await cli(['standing', 'skip', order.orderId, '--occurrence', '2027-04-05']);
    expect(skip.code, skip.stderr).toBe(0);
    expect(JSON.parse(skip.stdout)).toMatchObject({ occurrence: '2027-04-05', state: 'skipped' });
    const shown = JSON.parse((await cli(['standing', 'show', order.orderId])).stdout) as AddedOrder;
    expect(shown.next?.occurrence).toBe('2027-05-05');
    expect(await allLogEntries(env.sandbox.url, token)).toHaveLength(2);
  });

  it('two due occurrences of one order are never bought in one run: the latest runs, the earlier waits and says why', { timeout: 600_000 }, async () => {
    await moveServiceTo(peer, '2027-03-01');
    await add(1, 100, ['--weekly-on', 'wednesday', '--grace-days', '10']);
    // Wednesdays 3 and 10 March are both within their grace on 11 March.
    await moveServiceTo(peer, '2027-03-11');
    const r = await runDue();
    expect(r.report.ran.map((o) => o.occurrence)).toEqual(['2027-03-10']);
    expect(r.report.waiting.map((o) => [o.occurrence, o.reason])).toEqual([['2027-03-03', 'another_due']]);
    expect(r.report.waiting[0].why).toMatch(/two occurrences are not bought in one run/);
    expect(await allLogEntries(env.sandbox.url, token)).toHaveLength(1);
  });
});
