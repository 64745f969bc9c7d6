/**
 * What a finance officer reads around vendesk's own purchases, checked against the service's log
 * (GET /logEntries) and wallet:
 * - a bulk job's purchases are in Transactions' totals and the Dashboard's "Spent today" as soon as
 *   the job has sent them, with no sync in between;
 * - the bulk preview's "Wallet after this job" is the balance less the expected wallet cost (the
 *   face value less the commission the log shows), which is where the wallet really ends;
 * - a failed electricity token's refund is stated at what the wallet got back (the log's cost),
 *   not at its face value.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BulkPreview } from '../../../src/shared/contract/bulk';
import { formatNaira } from '../../../src/shared/money';
import type { LogEntry } from '../../../src/shared/wire';
import { costKoboOf, faceKoboOf, serviceLog } from '../../support/serviceSpend';
import type { TestApp } from '../../support/testApp';
import { advanceClocks, lagosDayWithRoom, pauseLoop } from '../purchases/purchaseHelpers';
import { buyElectricity, meter } from '../reconcile/reconcileHelpers';
import { airtimeRows, mtnPhone, startBulkTestApp, tempDir, writeCsv } from './bulkTestFiles';

const ROWS = 12;

let t: TestApp;
let preview: BulkPreview;
let walletBefore: number;
let walletAfter: number;
let jobEntries: LogEntry[];
let totalsBefore: { count: number; amountKobo: number; costKobo: number };
let todayBefore: { purchases: number; costKobo: number };
/** Today's Lagos day on the sandbox's clock, read once, with room before midnight for the whole file. */
let day: string;

beforeAll(async () => {
  t = await startBulkTestApp({ seedHistory: 80 });
  pauseLoop(t);
  await t.call('sync.run', {});
  day = await lagosDayWithRoom(t);
  totalsBefore = await t.call('logs.totals', { filter: { from: day, to: day } });
  todayBefore = (await t.call('dashboard.summary', {})).spend.today;
  walletBefore = (await t.call('account.balance', {})).balanceKobo;
  preview = await t.call('bulk.prepare', { file: { path: writeCsv(tempDir(), 'staff.csv', airtimeRows(ROWS, 250, 700)) }, kind: 'airtime' });
  await t.call('bulk.confirm', { jobId: preview.job.id, wait: true });
  walletAfter = (await t.call('account.balance', {})).balanceKobo;
  const phones = new Set(Array.from({ length: ROWS }, (_, i) => mtnPhone(i + 700)));
  jobEntries = (await serviceLog(t)).filter((e) => phones.has(e.phone_number));
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('spend after a bulk job, with no sync', () => {
  it('is in Transactions’ totals for today at once, as the service logged the job', async () => {
    expect(jobEntries).toHaveLength(ROWS);
    expect(jobEntries.every((e) => e.status === 'SUCCESS')).toBe(true);
    const totals = await t.call('logs.totals', { filter: { from: day, to: day } });
    expect(totals.count - totalsBefore.count).toBe(ROWS);
    expect(totals.amountKobo - totalsBefore.amountKobo).toBe(jobEntries.reduce((s, e) => s + faceKoboOf(e), 0));
    expect(totals.costKobo - totalsBefore.costKobo).toBe(jobEntries.reduce((s, e) => s + costKoboOf(e), 0));
  });

  it('is in the Dashboard’s "Spent today" at once, never counted twice after a sync', async () => {
    const jobCost = jobEntries.reduce((s, e) => s + costKoboOf(e), 0);
    const today = (await t.call('dashboard.summary', {})).spend.today;
    expect(today.purchases - todayBefore.purchases).toBe(ROWS);
    expect(today.costKobo - todayBefore.costKobo).toBe(jobCost);
    await t.call('sync.run', {});
    const synced = (await t.call('dashboard.summary', {})).spend.today;
    expect({ purchases: synced.purchases, costKobo: synced.costKobo }).toEqual({ purchases: today.purchases, costKobo: today.costKobo });
  });
});

describe('the bulk preview', () => {
  it('predicts the wallet after the job from the expected cost (face value less commission), where the wallet really ends', () => {
    const face = ROWS * 25_000;
    const charged = jobEntries.reduce((s, e) => s + costKoboOf(e), 0);
    expect(walletBefore - walletAfter).toBe(charged);
    expect(preview.includedKobo).toBe(face);
    expect(preview.expectedCostKobo).toBeLessThan(face);
    expect(Math.abs(preview.expectedCostKobo - charged)).toBeLessThanOrEqual(ROWS); // a kobo of rounding per row at most
    expect(preview.remainingKobo).not.toBeNull();
    expect(Math.abs((preview.remainingKobo ?? 0) - walletAfter)).toBeLessThanOrEqual(ROWS);
    expect(preview.expectedCostNote).toMatch(/^Estimate/);
  });
});

describe('the bulk preview of electricity tokens', () => {
  it('estimates the wallet charge from the commission rate, where the wallet then ends', async () => {
    const rows = [
      ['Name', 'Meter number', 'Disco', 'Meter type', 'Amount', 'Phone'],
      ['Head office', meter(), 'IKEDC', 'PREPAID', 3000, '08031234567'],
      ['Warehouse', meter(), 'IKEDC', 'PREPAID', 4500, '08031234567'],
    ];
    const draft = await t.call('bulk.prepare', { file: { path: writeCsv(tempDir(), 'meters.csv', rows) }, kind: 'electricity' });
    expect(draft.includedKobo).toBe(750_000);
    expect(draft.expectedCostKobo).toBeLessThan(750_000);
    const before = (await t.call('account.balance', {})).balanceKobo;
    await t.call('bulk.confirm', { jobId: draft.job.id, wait: true });
    const after = (await t.call('account.balance', {})).balanceKobo;
    expect(Math.abs(draft.expectedCostKobo - (before - after))).toBeLessThanOrEqual(2);
    expect(Math.abs((draft.remainingKobo ?? 0) - after)).toBeLessThanOrEqual(2);
  });
});

describe('the confirmation of an electricity token', () => {
  it('says what the wallet will be charged, as the service then charges it', async () => {
    const expected = await t.call('purchases.expectedCost', { kind: 'electricity', network: 'IKEDC', amountKobo: 300_000 });
    const p = await buyElectricity(t, meter(), 3000);
    expect(p.state).toBe('success');
    const entry = (await serviceLog(t)).find((e) => e.transaction_id === p.reference) as LogEntry;
    expect(expected.faceKobo).toBe(300_000);
    expect(expected.rateKnown).toBe(true);
    expect(expected.costKobo).toBeLessThan(300_000);
    expect(Math.abs(expected.costKobo - costKoboOf(entry))).toBeLessThanOrEqual(5);
  });
});

describe('a refunded electricity token', () => {
  it('states the refund at what the wallet got back (the log entry’s cost), not its face value', async () => {
    const p = await buyElectricity(t, meter('9999'), 3000); // declined: debited, then refunded
    expect(p.state).toBe('failed');
    const entry = (await serviceLog(t)).find((e) => e.transaction_id === p.reference) as LogEntry;
    expect(entry.status).toBe('FAILED');
    const back = costKoboOf(entry);
    expect(back).toBeLessThan(300_000);
    const checked = await t.call('purchases.checkRefund', { id: p.id });
    expect(checked.refund.state).toBe('confirmed');
    expect(checked.refund.refundedKobo).toBe(back);
    expect(checked.refund.message).toContain(`gives ${formatNaira(back)} back to the wallet`);
    expect(checked.refund.message).not.toContain(`gives the ${formatNaira(300_000)}`);
  });

  it('on the Pending page too, for a token that stayed pending and then FAILED', async () => {
    const p = await buyElectricity(t, meter('1111'), 3000); // pending; FAILED and refunded from 2 min 1 s on
    expect(p.state).toBe('pending');
    await advanceClocks(t, 125);
    const settled = await t.call('pending.requeryNow', { id: p.id });
    expect(settled.purchase.state).toBe('failed');
    const entry = (await serviceLog(t)).find((e) => e.transaction_id === p.reference) as LogEntry;
    expect(entry.status).toBe('FAILED');
    const back = costKoboOf(entry);
    expect(back).toBeLessThan(300_000);
    const pending = await t.call('pending.list', { includeSettled: true });
    const item = pending.find((i) => i.purchase.id === p.id);
    expect(item?.purchase.refund.state).toBe('confirmed');
    expect(item?.purchase.refund.refundedKobo).toBe(back);
    expect(item?.purchase.refund.message).toContain(`gives ${formatNaira(back)} back to the wallet`);
    expect(item?.purchase.refund.message).not.toContain(`gives the ${formatNaira(300_000)}`);
  });
});
