/**
 * A bulk job against the real sandbox while the service answers badly: 503s the client gives up on,
 * vending that stays unavailable, the voucher rule, a 400 on a batch, and a wallet that runs short.
 * (Split from bulkPaths.test.ts so the suites run side by side.)
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../../src/shared/appError';
import { airtimeRows, allLogEntries, bulkPathRun, QUICK_SERVICE, QUICK_SETTLEMENT, waitForJob } from './bulkTestFiles';

const run = bulkPathRun();

describe('service answers during a job', () => {
  // Not about the service's or the client's waits: purchases settle in 0.5 s, retries 10–40 ms apart.
  beforeEach(() => run.start(QUICK_SERVICE));

  it('503 after the client gave up: the batch waits, goes again, and every item is bought once', async () => {
    const preview = await run.prepareAirtime(airtimeRows(3));
    // 3 tries by the client + 1 without voucher codes: the whole round fails, then the next succeeds.
    await run.t.sandboxControl.addFault({ path: '/purchaseAirtime', status: 503, count: 4 });
    const done = await run.t.call('bulk.confirm', { jobId: preview.job.id, wait: true });
    expect(done.state).toBe('completed');
    expect(done.counts.success).toBe(3);
    const log = await allLogEntries(run.t.sandbox.url, run.t.token);
    expect(log).toHaveLength(3);
  });

  it('vending that stays unavailable pauses the job with nothing charged; resume finishes it once it is back', async () => {
    const preview = await run.prepareAirtime(airtimeRows(2));
    await run.t.sandboxControl.addFault({ path: '/purchaseAirtime', status: 503, count: 1000 });
    const paused = await run.t.call('bulk.confirm', { jobId: preview.job.id, wait: true });
    expect(paused.state).toBe('paused');
    expect(paused.message).toMatch(/stayed unavailable after 6 tries.*Nothing was charged for the waiting items/);
    expect(paused.counts.queued).toBe(2);
    expect(await allLogEntries(run.t.sandbox.url, run.t.token)).toHaveLength(0);
    await run.t.sandboxControl.reset();
    const done = await run.t.call('bulk.resume', { jobId: preview.job.id, wait: true });
    expect(done.counts.success).toBe(2);
  });

  it('voucher rule: when only the voucher server is down the items go through without it, and say so', async () => {
    const preview = await run.prepareAirtime(airtimeRows(2));
    await run.t.sandboxControl.addFault({ path: '/purchaseAirtime', status: 503, count: 50, withVoucherOnly: true });
    const done = await run.t.call('bulk.confirm', { jobId: preview.job.id, wait: true });
    expect(done.counts.success).toBe(2);
    const items = await run.t.call('bulk.items', { jobId: preview.job.id });
    for (const item of items.items) expect(item.reason).toMatch(/without its voucher code/);
    expect(await allLogEntries(run.t.sandbox.url, run.t.token)).toHaveLength(2);
  });

  it('400 on a batch: nothing was charged, the items go one by one and each gets its own answer', async () => {
    const preview = await run.prepareAirtime(airtimeRows(3));
    await run.t.sandboxControl.addFault({ path: '/purchaseAirtime', status: 400, count: 1 });
    const done = await run.t.call('bulk.confirm', { jobId: preview.job.id, wait: true });
    expect(done.counts.success).toBe(3);
    expect(await allLogEntries(run.t.sandbox.url, run.t.token)).toHaveLength(3);
  });
});

describe('service answers during a job', () => {
  // The client's own retry delays are the window in which the wallet drops under the next item.
  beforeEach(() => run.start(QUICK_SETTLEMENT));

  it('the wallet running short pauses the job; after a top-up, resume buys the rest', async () => {
    const preview = await run.prepareAirtime(airtimeRows(3));
    await run.t.sandboxControl.setWallet(150);
    const paused = await run.t.call('bulk.confirm', { jobId: preview.job.id, wait: true }).catch((e: unknown) => e);
    // The preview's wallet check refuses it first.
    expect(paused).toBeInstanceOf(AppError);
    expect((paused as AppError).message).toMatch(/wallet holds ₦150\.00/);
    // One item at a time; the first is slowed by 503s while the wallet drops under the next one.
    await run.t.call('bulk.settings.set', { batchSize: 1, concurrency: 1 });
    await run.t.sandboxControl.setWallet(10_000);
    await run.t.sandboxControl.addFault({ path: '/purchaseAirtime', status: 503, count: 3 });
    const running = await run.t.call('bulk.confirm', { jobId: preview.job.id });
    await run.t.sandboxControl.setWallet(150);
    const stopped = await waitForJob(run.t, running.id, (j) => !j.active, 30_000);
    expect(stopped.state).toBe('paused');
    expect(stopped.message).toMatch(/wallet does not hold enough.*Top up the wallet, then resume/);
    expect(stopped.counts.queued).toBe(2);
    await run.t.sandboxControl.setWallet(10_000);
    const resumed = await run.t.call('bulk.resume', { jobId: running.id, wait: true });
    expect(resumed.state).toBe('completed');
    const final = await run.t.call('bulk.status', { jobId: running.id });
    expect(final.counts.success).toBe(3);
    expect(await allLogEntries(run.t.sandbox.url, run.t.token)).toHaveLength(3);
  });
});
