/**
 * Bulk electricity and cable TV from a spreadsheet, against the sandbox over HTTP. Each row is
 * validated before anything is charged, bought through the purchases module (so its purchase is
 * written before the request leaves and the requery loop chases a pending one), and the job's
 * counts, items and results files show each row's outcome, with the token of prepaid meters.
 */
import fs from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createBulkService } from '../../../src/main/buying/bulkService';
import { holdMethod } from '../../support/heldAnswer';
import { refusal } from '../../support/refusal';
import type { TestApp } from '../../support/testApp';
import { until } from '../../support/until';
import { advanceClocks, pauseLoop, walletKobo } from '../purchases/purchaseHelpers';
import { allLogEntries, startBulkTestApp, tempDir, writeCsv } from './bulkTestFiles';

let t: TestApp;
let dir: string;

beforeEach(async () => {
  t = await startBulkTestApp();
  dir = tempDir();
  // The test moves the clocks and requeries by hand; the automatic loop must not race it.
  pauseLoop(t);
});

afterEach(async () => {
  await t.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The name the service itself gives for a prepaid meter (POST /validateMeter, disco by its catalog productCode), asked without vendesk's client. */
async function serviceMeterName(meter: string, disco: string): Promise<string> {
  const headers = { Authorization: `Bearer ${t.token}`, 'Content-Type': 'application/json' };
  const r = await fetch(`${t.sandbox.url}/validateMeter`, { method: 'POST', headers, body: JSON.stringify({ meter, disco, vendType: 'PREPAID' }) });
  const name = ((await r.json()) as { data: { name: string } }).data.name;
  expect(name).toMatch(/\S/);
  return name;
}

describe('a bulk electricity job', () => {
  it('checks every row before charging, buys each meter once and reports tokens, declines, refusals and pending outcomes', async () => {
    const file = writeCsv(dir, 'meters.csv', [
      ['Name', 'Meter number', 'Disco', 'Meter type', 'Amount', 'Phone'],
      ['Head office', '45011112345', 'IKEDC', 'PREPAID', 5000, '08031234567'],
      ['Warehouse', '45011110000', 'IKEDC', 'PREPAID', 3000, '08031234568'],
      ['Shop', '45011119999', 'EKEDC', 'PREPAID', 2000, '08031234569'],
      ['Staff flat', '45011115555', 'IKEDC', 'PREPAID', 4000, '08031234570'],
      ['Unknown disco', '45011112346', 'NOPE', 'PREPAID', 4000, '08031234571'],
      ['Too little', '45011112347', 'IKEDC', 'PREPAID', 500, '08031234572'],
      ['No type', '45011112348', 'IKEDC', 'PAYG', 4000, '08031234573'],
    ]);
    const before = await walletKobo(t);

    const preview = await t.call('bulk.prepare', { file: { path: file }, kind: 'electricity' });
    expect(preview.job.kind).toBe('electricity');
    // The POSTPAID meter written as PREPAID is caught by the meter check, before any charge.
    expect(preview.includedItems).toBe(3);
    expect(preview.includedKobo).toBe((5000 + 3000 + 2000) * 100);
    // What the wallet holds after is estimated from the expected charge: face value less commission.
    expect(preview.expectedCostKobo).toBeLessThanOrEqual(preview.includedKobo);
    expect(preview.remainingKobo).toBe(before - preview.expectedCostKobo);
    expect(preview.mapping.filter((m) => m.required).every((m) => m.column !== null)).toBe(true);
    const invalid = await t.call('bulk.invalidRows', { jobId: preview.job.id });
    expect(invalid.rows.map((r) => r.row)).toEqual([5, 6, 7, 8]);
    expect(invalid.rows[0]).toMatchObject({ field: 'meter', message: expect.stringMatching(/^Row 5: The meter was not accepted by the service: .*POSTPAID/i) });
    expect(invalid.rows[1].message).toMatch(/Row 6: disco NOPE is not in the catalog/);
    expect(invalid.rows[2].message).toMatch(/Row 7: .*below Ikeja Electric's minimum/);
    expect(invalid.rows[3].message).toMatch(/Row 8: /);
    // Before confirming, each meter to be paid for shows whose it is, as the service's own meter check names it.
    const toBuy = (await t.call('bulk.items', { jobId: preview.job.id, limit: 100, states: ['queued'] })).items;
    expect(toBuy).toHaveLength(3);
    for (const item of toBuy) expect(item.accountName).toBe(await serviceMeterName(item.account ?? '', item.network));
    // Nothing has been bought by checking the file.
    expect(await allLogEntries(t.sandbox.url, t.token)).toHaveLength(0);
    expect(await walletKobo(t)).toBe(before);

    const done = await t.call('bulk.confirm', { jobId: preview.job.id, wait: true });
    expect(done.state).toBe('completed');
    expect(done.counts).toMatchObject({ success: 1, pending: 1, failed: 1, rejected: 0, uncertain: 0, queued: 0 });
    expect(done.items).toBe(3);
    expect(done.message).toMatch(/1 item\(s\) are still pending/);

    const items = (await t.call('bulk.items', { jobId: preview.job.id, limit: 100 })).items;
    const byMeter = (m: string) => items.find((i) => i.account === m);
    const ok = byMeter('45011112345');
    expect(ok).toMatchObject({ state: 'success', vendType: 'PREPAID', network: 'IKEDC', phone: '08031234567' });
    expect(ok?.token).toMatch(/^\d{4}(-\d{4}){4}$/);
    expect(ok?.units).toBeGreaterThan(0);
    expect(ok?.purchaseId).toBeTruthy();
    const declined = byMeter('45011119999');
    expect(declined?.state).toBe('failed');
    expect(declined?.reason).toMatch(/refund/i);
    expect(declined?.token).toBeNull();
    expect(byMeter('45011115555')).toBeUndefined();
    const pending = byMeter('45011110000');
    expect(pending?.state).toBe('pending');
    expect(pending?.reference).toBeTruthy();

    // Each purchase is one row of the purchases table with source bulk, and one log entry.
    const receipt = await t.call('purchases.get', { id: ok?.purchaseId as string });
    expect(receipt.token).toBe(ok?.token);
    const log = await allLogEntries(t.sandbox.url, t.token);
    expect(log.filter((e) => e.type.toUpperCase() === 'ELECTRICITY').length).toBe(log.length);
    expect(log).toHaveLength(3); // success, pending, declined: the postpaid meter was refused before any charge
    // The declined meter was refunded: the wallet lost the successful and the pending purchase
    // only (less the service's commission credited back).
    const spent = before - (await walletKobo(t));
    expect(spent).toBeLessThanOrEqual(5000_00 + 3000_00);
    expect(spent).toBeGreaterThan(5000_00 + 3000_00 - 2000_00);

    // Pending → the requery loop brings success and the token into the job.
    await advanceClocks(t, 125);
    await t.call('pending.requeryDue', {});
    const after = await t.call('bulk.status', { jobId: preview.job.id });
    expect(after.counts).toMatchObject({ success: 2, pending: 0, failed: 1, rejected: 0 });
    expect(after.message).toBeNull();
    const settled = (await t.call('bulk.items', { jobId: preview.job.id, limit: 100 })).items.find((i) => i.account === '45011110000');
    expect(settled?.state).toBe('success');
    expect(settled?.token).toMatch(/^\d{4}(-\d{4}){4}$/);

    // The results: Summary + Items with token and units; CSV with the items.
    const xlsx = await t.call('bulk.export', { jobId: preview.job.id, format: 'xlsx' });
    const ExcelJS = (await import('exceljs')).default;
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(xlsx.path);
    expect(wb.worksheets.map((w) => w.name)).toEqual(['Summary', 'Items']);
    const sheet = wb.getWorksheet('Items');
    const header = (sheet?.getRow(1).values as unknown[]).slice(1);
    expect(header).toEqual(expect.arrayContaining(['Meter number', 'Disco', 'Meter type', 'Token', 'Units (kWh)', 'Outcome', 'Reason']));
    // One row per data row of the file (7), the 4 invalid ones with why they were not bought.
    expect(sheet?.rowCount).toBe(8);
    const summary = wb.getWorksheet('Summary');
    const summaryText = JSON.stringify(summary?.getSheetValues());
    expect(summaryText).toContain('Electricity');
    const csv = await t.call('bulk.export', { jobId: preview.job.id, format: 'csv' });
    const text = fs.readFileSync(csv.path, 'utf8');
    expect(text).toMatch(/^\uFEFF?Row,Meter number,Disco,Meter type/);
    expect(text).toContain(settled?.token as string);
    expect(text).toMatch(/45011119999.*Failed \(refunded\)/);
  });

  it('links each row to its purchase before the request leaves, so a crash mid-request leaves no purchase its row does not know', async () => {
    const file = writeCsv(dir, 'one meter.csv', [
      ['Meter', 'Disco', 'Type', 'Amount', 'Phone'],
      ['45033334567', 'IKEDC', 'PREPAID', 2500, '08031234567'],
    ]);
    const preview = await t.call('bulk.prepare', { file: { path: file }, kind: 'electricity' });
    const jobId = preview.job.id;
    // The purchase request is held at the service's door: what vendesk wrote before it left is on disk now.
    const atTheDoor = holdMethod(t.app.client(), 'purchaseElectricity');
    await t.call('bulk.confirm', { jobId, wait: false });
    await until(() => atTheDoor.asked, 'the purchase request to leave');
    let item: unknown;
    try {
      item = t.app.db
        .prepare('SELECT b.state AS item, b.purchase_id, p.state AS purchase, p.account FROM bulk_items b LEFT JOIN purchases p ON p.id = b.purchase_id WHERE b.job_id = ?')
        .get(jobId);
    } finally {
      atTheDoor.release();
    }
    expect(item).toEqual({ item: 'sending', purchase_id: expect.any(String), purchase: 'sending', account: '45033334567' });
    await t.app.service(createBulkService).waitFor(t.app.connection, jobId);
    const bought = (await allLogEntries(t.sandbox.url, t.token)).filter((e) => e.description.includes('45033334567'));
    expect(bought).toHaveLength(1);
    expect(t.app.db.prepare('SELECT reference FROM purchases WHERE id = (SELECT purchase_id FROM bulk_items WHERE job_id = ?)').get(jobId)).toEqual({
      reference: bought[0].transaction_id,
    });
  });

  it('counts a row against the daily cap from the moment it is picked, while its meter is still being checked', async () => {
    const meters = (name: string, meter: string) =>
      writeCsv(dir, name, [
        ['Meter', 'Disco', 'Type', 'Amount', 'Phone'],
        [meter, 'IKEDC', 'PREPAID', 3000, '08031234567'],
      ]);
    const first = await t.call('bulk.prepare', { file: { path: meters('first.csv', '45055554567') }, kind: 'electricity' });
    const second = await t.call('bulk.prepare', { file: { path: meters('second.csv', '45055564567') }, kind: 'electricity' });
    await t.call('bulk.settings.set', { capPerDayKobo: 5000_00 });
    // The first job's row is picked and its meter's check is held at the service's door.
    const check = holdMethod(t.app.client(), 'validateMeter');
    await t.call('bulk.confirm', { jobId: first.job.id, wait: false });
    await until(() => check.asked, 'the first meter check to leave');
    let refused: Awaited<ReturnType<typeof refusal>>;
    try {
      // ₦3,000 under way and ₦3,000 more would pass the day's ₦5,000: the second job is refused.
      refused = await refusal(t.call('bulk.confirm', { jobId: second.job.id, wait: false }));
    } finally {
      check.release();
    }
    expect(refused.code).toBe('job_refused');
    expect(refused.message).toMatch(/daily/);
    await t.app.service(createBulkService).waitFor(t.app.connection, first.job.id);
    const bought = (await allLogEntries(t.sandbox.url, t.token)).filter((e) => /4505555\d{4}|4505556\d{4}/.test(e.description));
    expect(bought.map((e) => e.description).join(' ')).toContain('45055554567');
    expect(bought).toHaveLength(1);
  });

  it('does not flag a meter as bought today once its pending purchase failed at requery, without the job being opened', async () => {
    const rows = [
      ['Meter', 'Disco', 'Type', 'Amount', 'Phone'],
      ['45044441111', 'IKEDC', 'PREPAID', 2500, '08031234567'], // the sandbox keeps it pending, then fails it
    ];
    const first = await t.call('bulk.prepare', { file: { path: writeCsv(dir, 'first.csv', rows) }, kind: 'electricity' });
    await t.call('bulk.confirm', { jobId: first.job.id, wait: true });
    const row = () => t.app.db.prepare('SELECT state FROM bulk_items WHERE job_id = ?').get(first.job.id);
    expect(row()).toEqual({ state: 'pending' });
    // The requery loop settles the purchase; nobody opens the job.
    await advanceClocks(t, 125);
    await t.call('pending.requeryDue', {});
    const purchase = t.app.db.prepare('SELECT state, refund_state FROM purchases WHERE id = (SELECT purchase_id FROM bulk_items WHERE job_id = ?)').get(first.job.id);
    expect(purchase).toMatchObject({ state: 'failed' });
    const entry = (await allLogEntries(t.sandbox.url, t.token)).find((e) => e.description.includes('45044441111'));
    expect(entry?.status).toBe('FAILED');
    // Its row says so at once, and the next file with the same meter and amount is not held back as bought.
    expect(row()).toEqual({ state: 'failed' });
    const again = await t.call('bulk.prepare', { file: { path: writeCsv(dir, 'second.csv', rows) }, kind: 'electricity' });
    expect(again.duplicates).toEqual([]);
    expect(again.includedItems).toBe(1);
  });

  it('leaves out a meter already bought for the same amount today unless kept', async () => {
    const rows = [
      ['Meter', 'Disco', 'Type', 'Amount', 'Phone'],
      ['45022223456', 'IKEDC', 'PREPAID', 2500, '08031234567'],
    ];
    const first = await t.call('bulk.prepare', { file: { path: writeCsv(dir, 'a.csv', rows) }, kind: 'electricity' });
    await t.call('bulk.confirm', { jobId: first.job.id, wait: true });
    const again = await t.call('bulk.prepare', { file: { path: writeCsv(dir, 'b.csv', rows) }, kind: 'electricity' });
    expect(again.duplicates).toHaveLength(1);
    expect(again.duplicates[0].account).toBe('45022223456');
    expect(again.includedItems).toBe(0);
    expect(again.blocker).toMatch(/nothing to buy/);
  });
});

describe('a bulk cable TV job', () => {
  it('buys bouquets at the catalog price and keeps the decline reason', async () => {
    const file = writeCsv(dir, 'decoders.csv', [
      ['Smartcard', 'Provider', 'Bouquet', 'Amount', 'Phone'],
      ['7012345678', 'DSTV', 'dstv79', 1, '08031234567'],
      ['7012349999', 'GOTV', 'gotv-max', 8500, '08031234568'],
      ['7012341234', 'DSTV', 'DSTV79', 19000, '08031234569'],
    ]);
    const preview = await t.call('bulk.prepare', { file: { path: file }, kind: 'cable' });
    expect(preview.includedItems).toBe(2);
    expect(preview.includedKobo).toBe((19000 + 8500) * 100);
    const invalid = await t.call('bulk.invalidRows', { jobId: preview.job.id });
    expect(invalid.rows[0].message).toMatch(/Row 4: .*did you mean dstv79/);
    const done = await t.call('bulk.confirm', { jobId: preview.job.id, wait: true });
    expect(done.state).toBe('completed');
    expect(done.counts).toMatchObject({ success: 1, failed: 1 });
    expect(done.bought.faceKobo).toBe(19000_00);
    const items = (await t.call('bulk.items', { jobId: preview.job.id, limit: 10 })).items;
    expect(items.find((i) => i.account === '7012345678')).toMatchObject({ state: 'success', productCode: 'dstv79', network: 'DSTV' });
    expect(items.find((i) => i.account === '7012349999')?.reason).toMatch(/refund/i);
    const log = await allLogEntries(t.sandbox.url, t.token);
    expect(log).toHaveLength(2);
    expect(log.find((e) => e.status === 'SUCCESS')?.amount).toBe('NGN 19,000.00');
  });
});
