/**
 * A job paused after its last item was sent has nothing left to send: it completes, its accepted
 * items followed to their outcome like any finished job's — it never waits for a Resume that
 * would send nothing ("Paused: resume to send the remaining items" with To send 0).
 */
import { expect, it } from 'vitest';
import { advanceClocks } from '../purchases/purchaseHelpers';
import { airtimeRows, allLogEntries, bulkTestEach, waitForJob, writeCsv } from './bulkTestFiles';

const env = bulkTestEach();

it('pause pressed once every row was sent completes the job; its items settle from the log', async () => {
  const { t, dir } = env;
  const file = writeCsv(dir, 'five.csv', airtimeRows(5));
  const preview = await t.call('bulk.prepare', { file: { path: file }, kind: 'airtime', keepDuplicates: false });
  // The log cannot be read for now, so the sent rows stay accepted while the job waits for them.
  await t.sandboxControl.addFault({ path: '/logEntries', status: 503, count: 100_000 });
  await t.sandboxControl.addFault({ path: '/requeryTransaction', status: 503, count: 100_000 });
  await t.call('bulk.confirm', { jobId: preview.job.id });
  const allSent = await waitForJob(t, preview.job.id, (j) => j.counts.queued + j.counts.held + j.counts.sending === 0);
  expect(allSent.active).toBe(true);
  await t.call('bulk.pause', { jobId: preview.job.id });
  const stopped = await waitForJob(t, preview.job.id, (j) => !j.active);
  expect(stopped.counts.queued + stopped.counts.held).toBe(0);
  expect(stopped.state).toBe('completed');
  expect(stopped.message ?? '').not.toMatch(/resume/i);
  expect(stopped.message).toMatch(/5 item\(s\) are still pending at the service/);

  // Once the log answers again, the follow-up settles them against the service's own records.
  // (Past the 2 minutes from which a purchase may be requeried, so nothing is left pending.)
  await t.sandboxControl.clearFaults();
  await advanceClocks(t, 10 * 60);
  await t.call('bulk.checkAgain', { jobId: preview.job.id });
  const settled = await t.call('bulk.status', { jobId: preview.job.id });
  const log = await allLogEntries(t.sandbox.url, t.token);
  expect(log).toHaveLength(5);
  expect(settled.counts.success).toBe(log.filter((e) => e.status === 'SUCCESS').length);
  expect(settled.counts.failed).toBe(log.filter((e) => e.status === 'FAILED').length);
  expect(settled.counts.success + settled.counts.failed).toBe(5);
  expect(settled.state).toBe('completed');
});
