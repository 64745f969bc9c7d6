/**
 * A bulk job runs on the service's clock, injected into its runner: an airtime item that the
 * service accepted and its log still shows PENDING is requeried from 2 minutes 1 second after it
 * was sent by that clock, not before. The sandbox's own record (its faults, consumed by the
 * request they answer) shows when vendesk asked. Nothing waits for a time: the test waits for the
 * runner's reads of the log and for the sandbox's record, and moves the sandbox's clock itself.
 */
import { expect, it, vi } from 'vitest';
import { VendingClient } from '../../../src/main/api/vendingClient';
import { createBulkService } from '../../../src/main/buying/bulkService';
import { advanceClocks } from '../../support/serviceClocks';
import { until } from '../../support/until';
import { bulkTestEach, mtnPhone, waitForJob, writeCsv } from './bulkTestFiles';

/** The network credits an airtime purchase 10 minutes after acceptance on the sandbox's clock: only when the test moves it on. */
const CREDIT_SECONDS = 600;
const env = bulkTestEach({ creditDelayMs: CREDIT_SECONDS * 1000 });

async function requeryFaultsLeft(): Promise<number> {
  const faults = await env.t.sandboxControl.faults();
  return faults.filter((f) => f.path === '/requeryTransaction').reduce((s, f) => s + f.remaining, 0);
}

it("requeries an accepted item once the job's clock passes 2 min 1 s after sending, not before", async () => {
  const bulk = env.t.app.service(createBulkService);
  // The job waits 2 minutes of its own clock for outcomes: only the test's move of that clock, never
  // a slow machine's real seconds, ends the wait.
  await env.t.call('bulk.settings.set', { outcomeWaitSeconds: 120 });
  const serviceNow = bulk.now;
  let shiftMs = 0;
  bulk.now = () => serviceNow() + shiftMs;
  // The sandbox answers the next requery with 502: the fault is used up only by a requery.
  await env.t.sandboxControl.addFault({ path: '/requeryTransaction', status: 502, count: 1 });
  const preview = await env.t.call('bulk.prepare', {
    file: {
      path: writeCsv(env.dir, 'one.csv', [
        ['Phone', 'Network', 'Amount'],
        [mtnPhone(1), 'MTN', 100],
      ]),
    },
    kind: 'airtime',
  });
  // Every read of the log, whichever way the runner reads it (the spies count and pass through).
  const reads = [vi.spyOn(VendingClient.prototype, 'logEntries'), vi.spyOn(VendingClient.prototype, 'logPage')];
  const logReads = () => reads.reduce((n, spy) => n + spy.mock.calls.length, 0);
  await env.t.call('bulk.confirm', { jobId: preview.job.id });
  await waitForJob(env.t, preview.job.id, (j) => j.counts.accepted === 1);
  // The log shows the purchase PENDING; the runner reads it again and again but may not requery yet.
  const readsAtAcceptance = logReads();
  await until(() => logReads() >= readsAtAcceptance + 3, 'three more reads of the log by the runner');
  expect(await requeryFaultsLeft()).toBe(1);

  shiftMs = 121_000;
  // Once its clock passes 2 min 1 s the runner requeries on one of its next reads.
  await until(async () => (await requeryFaultsLeft()) === 0, 'the runner to requery the item once its clock passed 2 min 1 s');
  // Two minutes have passed on the job's clock: it stops waiting and the item is pending.
  const finished = await waitForJob(env.t, preview.job.id, (j) => !j.active);
  expect(finished.state).toBe('completed');
  expect(finished.counts).toMatchObject({ pending: 1, success: 0 });
  // The network credits it once the sandbox's clock passes the credit delay; "Check again" then settles it from the log.
  await advanceClocks(env.t, CREDIT_SECONDS + 1);
  let settled = finished;
  await until(async () => (settled = await env.t.call('bulk.checkAgain', { jobId: preview.job.id })).counts.success === 1, 'Check again to settle the item from the log');
  expect(settled.counts).toMatchObject({ success: 1, pending: 0, accepted: 0 });
});
