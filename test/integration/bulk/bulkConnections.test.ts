/**
 * Every bulk job belongs to the connection it was made on. Two sandboxes (two services, two
 * wallets), one vendesk switching between a profile for each: a job made on one is not listed,
 * opened, exported, resumed, cancelled or counted toward the daily cap on the other; duplicates
 * are not flagged from the other's purchases; spending caps and bulk settings are each
 * connection's own; the CLI on the other service does not see the job.
 */
import fs from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/main';
import type { SandboxHandle } from '../../../src/sandbox';
import { startTestSandbox } from '../../support/testSandbox';
import type { ProfileView } from '../../../src/shared/contract/app';
import { refusal } from '../../support/refusal';
import type { TestApp } from '../../support/testApp';
import { airtimeRows, allLogEntries, QUICK_SETTLEMENT, startBulkTestApp, tempDir, writeCsv } from './bulkTestFiles';

const TOKEN_B = 'bulk-connections-b';

let t: TestApp;
let b: SandboxHandle;
let dir: string;
let profileA: ProfileView;
let profileB: ProfileView;

beforeEach(async () => {
  // Not about the 5 s an airtime purchase stays in progress: both sandboxes settle in 0.5 s.
  t = await startBulkTestApp(QUICK_SETTLEMENT);
  b = await startTestSandbox({ tokens: [TOKEN_B], ...QUICK_SETTLEMENT });
  dir = tempDir();
  profileA = await t.call('profiles.save', { name: 'Sandbox A', baseUrl: t.sandbox.url, token: t.token });
  profileB = await t.call('profiles.save', { name: 'Sandbox B', baseUrl: b.url, token: TOKEN_B });
  await t.call('profiles.activate', { id: profileA.id, confirmLive: true });
});

afterEach(async () => {
  await t.close();
  await b.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A job of `count` ₦100 airtime rows, confirmed (these profiles are LIVE: the total is typed) and run to its end. */
async function buy(name: string, count: number) {
  const preview = await t.call('bulk.prepare', { file: { path: writeCsv(dir, name, airtimeRows(count, 100)) }, kind: 'airtime' });
  const done = await t.call('bulk.confirm', { jobId: preview.job.id, typedTotal: String(count * 100), wait: true });
  expect(done.state).toBe('completed');
  return done;
}

describe('bulk jobs and their connection', () => {
  it('a job made on one sandbox is not shown, opened, run or counted on another', async () => {
    await t.call('bulk.settings.set', { capPerDayKobo: 500_00, outcomeWaitSeconds: 30 });
    const jobA = await buy('a.csv', 3);
    expect((await t.call('bulk.list', {})).map((j) => j.id)).toEqual([jobA.id]);

    await t.call('profiles.activate', { id: profileB.id, confirmLive: true });
    expect(await t.call('bulk.list', {})).toEqual([]);
    for (const attempt of [
      t.call('bulk.status', { jobId: jobA.id }),
      t.call('bulk.items', { jobId: jobA.id }),
      t.call('bulk.invalidRows', { jobId: jobA.id }),
      t.call('bulk.preview', { jobId: jobA.id }),
      t.call('bulk.export', { jobId: jobA.id, format: 'csv' }),
      t.call('bulk.resume', { jobId: jobA.id }),
      t.call('bulk.cancel', { jobId: jobA.id }),
      t.call('bulk.checkAgain', { jobId: jobA.id }),
      t.call('bulk.pause', { jobId: jobA.id }),
    ]) {
      const error = await refusal(attempt);
      expect(error.code).toBe('job_other_connection');
      expect(error.message).toMatch(/is not on this connection/);
      expect(error.hint).toMatch(/Switch back to the connection the job was prepared for/);
    }

    // B has its own limits: A's daily cap does not apply here, and A's ₦300 is not B's spending.
    expect(await t.call('bulk.settings.get', {})).toMatchObject({ capPerDayKobo: null, outcomeWaitSeconds: 60 });
    await t.call('bulk.settings.set', { capPerJobKobo: 250_00, outcomeWaitSeconds: 30 });
    const tooBig = await t.call('bulk.prepare', { file: { path: writeCsv(dir, 'b-big.csv', airtimeRows(3, 100)) }, kind: 'airtime' });
    expect(tooBig.spentTodayKobo).toBe(0);
    expect(tooBig.capPerDayKobo).toBeNull();
    expect(tooBig.blocker).toMatch(/above the spending cap per job of ₦250\.00/);
    // The same phones as A's job: bought on another service, so not duplicates here.
    expect(tooBig.duplicates).toEqual([]);
    await t.call('bulk.discard', { jobId: tooBig.job.id });
    const jobB = await buy('b.csv', 2);
    expect((await t.call('bulk.list', {})).map((j) => j.id)).toEqual([jobB.id]);

    // Back on A: only A's job, A's cap, A's spending; B's job is not on this connection.
    await t.call('profiles.activate', { id: profileA.id, confirmLive: true });
    expect((await t.call('bulk.list', {})).map((j) => j.id)).toEqual([jobA.id]);
    expect(await t.call('bulk.settings.get', {})).toMatchObject({ capPerDayKobo: 500_00, capPerJobKobo: null });
    const again = await t.call('bulk.prepare', { file: { path: writeCsv(dir, 'a2.csv', airtimeRows(3, 100, 10)) }, kind: 'airtime' });
    expect(again.spentTodayKobo).toBe(300_00);
    expect(again.blocker).toMatch(/daily cap of ₦500\.00/);
    expect((await refusal(t.call('bulk.status', { jobId: jobB.id }))).code).toBe('job_other_connection');

    // Each service's own log: each job bought on its own sandbox only.
    expect(await allLogEntries(t.sandbox.url, t.token)).toHaveLength(3);
    expect(await allLogEntries(b.url, TOKEN_B)).toHaveLength(2);

    // The CLI on sandbox B does not see A's job.
    const cli = async (args: string[]) => {
      let stdout = '';
      const code = await runCli([...args, '--base-url', b.url, '--data-dir', t.dataDir, '--json'], {
        stdout: (s) => (stdout += s),
        stderr: () => undefined,
        env: { VENDESK_TOKEN: TOKEN_B },
      });
      return { code, json: JSON.parse(stdout) as unknown };
    };
    const status = await cli(['bulk', 'status', jobA.id]);
    expect(status.code).toBe(1);
    expect(status.json).toMatchObject({ error: { code: 'job_other_connection' } });
    const listed = await cli(['bulk', 'list']);
    expect(listed.code).toBe(0);
    expect((listed.json as { jobId: string }[]).map((j) => j.jobId)).not.toContain(jobA.id);
    expect(await allLogEntries(t.sandbox.url, t.token)).toHaveLength(3);
  });
});
