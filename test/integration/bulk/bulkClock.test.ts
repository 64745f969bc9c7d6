/**
 * A bulk job runs on the service's clock, injected into its runner: an airtime item that the
 * service accepted and its log still shows PENDING is requeried from 2 minutes 1 second after it
 * was sent by that clock, not before. The sandbox's own record (its faults, consumed by the
 * request they answer) shows when vendesk asked.
 */
import { expect, it } from 'vitest';
import { createBulkService } from '../../../src/main/bulk/bulkService';
import { bulkTestEach, mtnPhone, waitForJob, writeCsv } from './bulkTestFiles';

const env = bulkTestEach();

async function requeryFaultsLeft(): Promise<number> {
  const faults = await env.t.sandboxControl.faults();
  return faults.filter((f) => f.path === '/requeryTransaction').reduce((s, f) => s + f.remaining, 0);
}

it("requeries an accepted item once the job's clock passes 2 min 1 s after sending, not before", async () => {
  const bulk = env.t.app.service(createBulkService);
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
  await env.t.call('bulk.confirm', { jobId: preview.job.id });
  await waitForJob(env.t, preview.job.id, (j) => j.counts.accepted === 1, 4_000);
  // The log shows the purchase PENDING for 5 s; the runner reads it every 0.3 s but may not requery yet.
  await new Promise((r) => setTimeout(r, 1_000));
  expect(await requeryFaultsLeft()).toBe(1);

  shiftMs = 121_000;
  // Once its clock passes 2 min 1 s the runner requeries on one of its next reads: polled for with
  // a deadline no busy machine reaches (it reads every 0.3 s), not timed.
  const start = Date.now();
  while ((await requeryFaultsLeft()) > 0) {
    expect(Date.now() - start, 'the runner requeried the item once its clock passed 2 min 1 s').toBeLessThan(30_000);
    await new Promise((r) => setTimeout(r, 100));
  }
  // Two minutes have passed on the job's clock: it stops waiting and the item is pending; the
  // log, once the network credits it (5 s after acceptance), settles it on "Check again".
  const finished = await waitForJob(env.t, preview.job.id, (j) => !j.active);
  expect(finished.state).toBe('completed');
  let settled = finished;
  for (const until = Date.now() + 15_000; settled.counts.success === 0 && Date.now() < until;) {
    await new Promise((r) => setTimeout(r, 500));
    settled = await env.t.call('bulk.checkAgain', { jobId: preview.job.id });
  }
  expect(settled.counts).toMatchObject({ success: 1, pending: 0, accepted: 0 });
});
