import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TestApp } from '../../support/testApp';
import { airtimeRows, allLogEntries, mtnPhone, QUICK_SETTLEMENT, startBulkTestApp, tempDir, writeCsv } from './bulkTestFiles';

let t: TestApp;
let dir: string;

beforeEach(async () => {
  // Not about the 5 s an airtime purchase stays in progress: the sandbox settles in 0.5 s.
  t = await startBulkTestApp(QUICK_SETTLEMENT);
  dir = tempDir();
});

afterEach(async () => {
  await t.close();
});

describe('a bulk airtime job', () => {
  it('previews, buys every valid row once and reports each outcome', async () => {
    const rows = airtimeRows(7, 100);
    rows.push(['Bad number', '0703123', 'MTN', 100]);
    rows.push(['Will fail', '08031239999', 'MTN', 200]);
    const file = writeCsv(dir, 'staff.csv', rows);

    const preview = await t.call('bulk.prepare', { file: { path: file }, kind: 'airtime' });
    expect(preview.job.state).toBe('draft');
    expect(preview.includedItems).toBe(8);
    expect(preview.includedKobo).toBe(7 * 100_00 + 200_00);
    expect(preview.walletKobo).toBe(1_000_000_00);
    expect(preview.remainingKobo).toBe(1_000_000_00 - 900_00);
    expect(preview.blocker).toBeNull();
    const invalid = await t.call('bulk.invalidRows', { jobId: preview.job.id });
    expect(invalid.rows).toHaveLength(1);
    expect(invalid.rows[0].row).toBe(9);
    expect(invalid.rows[0].message).toMatch(/Row 9: .*not a Nigerian mobile number/);

    const done = await t.call('bulk.confirm', { jobId: preview.job.id, wait: true });
    expect(done.state).toBe('completed');
    expect(done.counts.success).toBe(7);
    expect(done.counts.failed).toBe(1);
    expect(done.bought.faceKobo).toBe(700_00);
    expect(done.refunded.faceKobo).toBe(200_00);

    const items = await t.call('bulk.items', { jobId: preview.job.id, limit: 100 });
    for (const item of items.items) expect(item.reference).toMatch(/\S/);
    const failed = items.items.find((i) => i.phone === '08031239999');
    expect(failed?.state).toBe('failed');
    expect(failed?.reason).toMatch(/refunded/);

    const log = await allLogEntries(t.sandbox.url, t.token);
    for (let i = 0; i < 7; i++) expect(log.filter((e) => e.phone_number === mtnPhone(i))).toHaveLength(1);
    expect(log).toHaveLength(8);
  });

  it('buys data plans at the catalog price, whatever the file says', async () => {
    const file = writeCsv(dir, 'data.csv', [
      ['Phone', 'Plan', 'Amount'],
      [mtnPhone(1), 'MTN-1GB-1D', 1],
      [mtnPhone(2), 'mtn-1gb-1d', 350],
    ]);
    const preview = await t.call('bulk.prepare', { file: { path: file }, kind: 'data' });
    expect(preview.includedItems).toBe(1);
    expect(preview.includedKobo).toBe(350_00);
    const invalid = await t.call('bulk.invalidRows', { jobId: preview.job.id });
    expect(invalid.rows[0].message).toMatch(/did you mean MTN-1GB-1D/);
    const done = await t.call('bulk.confirm', { jobId: preview.job.id, wait: true });
    expect(done.counts.success).toBe(1);
    const log = await allLogEntries(t.sandbox.url, t.token);
    expect(log).toHaveLength(1);
    expect(log[0].amount).toBe('NGN 350.00');
  });
});
