/**
 * A running multi-item job whose answers are lost on the way back: the service bought the batch
 * (it is in its log and the wallet paid), but vendesk never heard. Those rows are uncertain; the
 * job goes on with the others and settles the uncertain ones from the service's log — never by
 * sending them again. Checked against the sandbox's own log and wallet.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../../support/testSandbox';
import type { TestApp } from '../../support/testApp';
import { sandboxWalletKobo } from '../../support/sandboxRecords';
import { startDroppingProxy, type DroppingProxy } from '../purchases/droppingProxy';
import { airtimeRows, allLogEntries, startBulkTestApp, tempDir, waitForJob, writeCsv } from './bulkTestFiles';

describe('a bulk job that loses answers mid-run', () => {
  let sandbox: TestSandbox;
  let proxy: DroppingProxy;
  let t: TestApp;
  beforeAll(async () => {
    sandbox = await startTestSandbox({ acceptAnyToken: true });
    proxy = await startDroppingProxy(sandbox.url);
    t = await startBulkTestApp({ sandbox: { ...sandbox, url: proxy.url } });
    await t.sandboxControl.setWallet(100_000);
    await t.call('bulk.settings.set', { batchSize: 2, concurrency: 1 });
  });
  afterAll(async () => {
    await t.close();
    await proxy.close();
    await sandbox.close();
  });

  it('settles the rows whose answer was lost from the log and buys every row exactly once', async () => {
    const rows = airtimeRows(10, 100, 700);
    const phones = rows.slice(1).map((r) => String(r[1]));
    const preview = await t.call('bulk.prepare', { file: { path: writeCsv(tempDir(), 'staff.csv', rows) }, kind: 'airtime' });
    const walletBefore = await sandboxWalletKobo({ sandbox, token: t.token });
    // The answers of the first two batches (four rows) never reach vendesk.
    proxy.dropAnswers('/purchaseAirtime', 2);
    await t.call('bulk.confirm', { jobId: preview.job.id });
    const done = await waitForJob(t, preview.job.id, (j) => !j.active && j.counts.success + j.counts.failed === 10, 120_000);

    const log = (await allLogEntries(sandbox.url, t.token)).filter((e) => phones.includes(e.phone_number));
    // Each row once in the service's log: nothing uncertain was sent again.
    expect(log.map((e) => e.phone_number).sort()).toEqual([...phones].sort());
    const items = (await t.call('bulk.items', { jobId: preview.job.id, limit: 100 })).items;
    const byRef = new Map(log.map((e) => [e.transaction_id, e]));
    for (const item of items) {
      expect({ row: item.row, state: item.state }).toEqual({ row: item.row, state: 'success' });
      expect(byRef.get(item.reference ?? '')?.phone_number).toBe(item.phone);
    }
    expect(done.counts.success).toBe(10);
    // The wallet paid for ten rows, at their cost: what the job says it bought.
    expect(walletBefore - (await sandboxWalletKobo({ sandbox, token: t.token }))).toBe(done.bought.costKobo);
  });
});
