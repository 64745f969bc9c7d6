/**
 * Purchases whose requests are lost on their way to the service (the dropping proxy's
 * `loseRequests`): vendesk cannot tell whether they were bought — they are uncertain, "maybe
 * bought" — and the service's log has nothing of them. The suites about what counts such money
 * (the caps, the duplicate checks, a job's figures) share this: one sandbox and proxy per file, one
 * vendesk per test behind the proxy that trusts the log's silence only after an hour (so a lost
 * request stays maybe bought while the test looks) and whose requery loop the test does not race.
 */
import fs from 'node:fs';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import type { BulkJobView, BulkPreview } from '../../../src/shared/contract/bulk';
import type { TopUpView } from '../../../src/shared/contract/purchases';
import { receiptOf } from '../../support/receiptOf';
import { sandboxLog, sandboxWalletKobo } from '../../support/sandboxRecords';
import type { TestApp } from '../../support/testApp';
import { until } from '../../support/until';
import { startTestSandbox, type TestSandbox } from '../../support/testSandbox';
import { FAST_RETRY } from '../api/sandboxHarness';
import { startDroppingProxy, type DroppingProxy } from '../purchases/droppingProxy';
import { pauseLoop } from '../purchases/purchaseHelpers';
import { startBulkTestApp, tempDir, waitForJob, writeCsv } from './bulkTestFiles';

/** A row of an airtime file: an MTN phone and its amount in Naira (as the file writes it). */
export type AirtimeRow = [phone: string, naira: number | string];

export interface MaybeBoughtRun {
  sandbox: TestSandbox;
  proxy: DroppingProxy;
  t: TestApp;
  /** Prepares an airtime job from these rows (a CSV named `name`). */
  prepare(name: string, rows: readonly AirtimeRow[]): Promise<BulkPreview>;
  /** The phones of every purchase in the service's own log of this test's organisation, sorted. */
  servicePhones(): Promise<string[]>;
  /** The organisation's wallet as the service answers it, in kobo. */
  serviceWallet(): Promise<number>;
  /** A job of these rows, sent one at a time, whose first request is lost on its way (paused once the rest are sent): its first row is maybe bought. */
  jobWithLostRequest(name: string, rows: readonly AirtimeRow[]): Promise<BulkJobView>;
  /** A single airtime purchase whose request is lost on its way: uncertain, maybe bought. */
  singleWithLostRequest(phone: string, amountKobo: number): Promise<TopUpView>;
}

export function maybeBoughtRun(): MaybeBoughtRun {
  let dir = '';
  const run = {
    async prepare(name: string, rows: readonly AirtimeRow[]) {
      const file = writeCsv(dir, name, [['Name', 'Phone', 'Network', 'Amount'], ...rows.map(([phone, naira], i) => [`Staff ${i + 1}`, phone, 'MTN', naira])]);
      return run.t.call('bulk.prepare', { file: { path: file }, kind: 'airtime' });
    },
    async servicePhones() {
      return (await sandboxLog(run.t)).map((e) => e.phone_number).sort();
    },
    serviceWallet: () => sandboxWalletKobo(run.t),
    async jobWithLostRequest(name: string, rows: readonly AirtimeRow[]) {
      await run.t.call('bulk.settings.set', { batchSize: 1, concurrency: 1 });
      const preview = await run.prepare(name, rows);
      const lost = run.proxy.lost;
      run.proxy.loseRequests('/purchaseAirtime', 1);
      await run.t.call('bulk.confirm', { jobId: preview.job.id });
      // The job waits for its uncertain row (an hour, here) once the others are answered: it is paused then.
      await waitForJob(run.t, preview.job.id, (j) => j.counts.uncertain === 1 && j.counts.queued + j.counts.held + j.counts.sending === 0);
      await run.t.call('bulk.pause', { jobId: preview.job.id });
      const paused = await waitForJob(run.t, preview.job.id, (j) => !j.active);
      if (run.proxy.lost !== lost + 1) throw new Error('the request to lose did not come');
      return paused;
    },
    async singleWithLostRequest(phone: string, amountKobo: number) {
      const { t } = run;
      run.proxy.loseRequests('/purchaseAirtime', 1);
      const buying = receiptOf(t.call('purchases.buyTopUp', { kind: 'airtime', phone, amountKobo }));
      // Its answer lost, the purchase waits for the log to settle it (an hour, here): it is stopped
      // there, as closing vendesk would stop it, and answers with its receipt: uncertain.
      let jobId: string | undefined;
      await until(async () => {
        jobId = (await t.call('purchases.recentTopUps', {})).find((p) => p.phone === phone && p.state === 'uncertain')?.id;
        return jobId !== undefined;
      }, 'the single purchase to be uncertain');
      await t.call('bulk.pause', { jobId: jobId ?? '' });
      return buying;
    },
  } as MaybeBoughtRun;
  beforeAll(async () => {
    run.sandbox = await startTestSandbox({ acceptAnyToken: true, creditDelayMs: 500 });
    run.proxy = await startDroppingProxy(run.sandbox.url);
  });
  beforeEach(async () => {
    run.t = await startBulkTestApp({ sandbox: { ...run.sandbox, url: run.proxy.url }, clientRetry: FAST_RETRY });
    pauseLoop(run.t);
    await run.t.call('bulk.settings.set', { uncertainSafeDelaySeconds: 3600 });
    dir = tempDir();
  });
  afterEach(async () => {
    await run.t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  afterAll(async () => {
    await run.proxy.close();
    await run.sandbox.close();
  });
  return run;
}
