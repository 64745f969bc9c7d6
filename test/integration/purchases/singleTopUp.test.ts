/**
 * Airtime or data for one number, without a spreadsheet: bought through the bulk engine as a
 * one-item job. Every figure is checked against the sandbox's own log and wallet.
 */
import { newItem } from '../../../src/main/buying/jobRows';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBulkService } from '../../../src/main/buying/bulkService';
import { startTestSandbox } from '../../support/testSandbox';
import { nairaToKobo } from '../../../src/shared/money';
import { refusal } from '../../support/refusal';
import { sandboxLog, sandboxWalletKobo } from '../../support/sandboxRecords';
import type { TestApp } from '../../support/testApp';
import { startTestApp } from '../../support/testApp';
import { fastJobs, mtnPhone, QUICK_SETTLEMENT, startBulkTestApp } from '../bulk/bulkTestFiles';
import { startDroppingProxy, type DroppingProxy } from './droppingProxy';
import { receiptOf } from '../../support/receiptOf';

// No test here is about the 5 s an airtime purchase stays in progress: the sandbox settles in 0.5 s.
describe('a single airtime or data purchase', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startBulkTestApp(QUICK_SETTLEMENT);
    await t.sandboxControl.setWallet(100_000);
  });
  afterAll(async () => {
    await t.close();
  });

  it('checks what it would buy without buying anything', async () => {
    const check = await t.call('purchases.checkTopUp', { kind: 'airtime', phone: '+234 803 100 0001', amountKobo: 50_000 });
    expect(check).toMatchObject({ phone: '08031000001', network: 'MTN', productCode: 'MTN-VTU', description: 'MTN airtime', amountKobo: 50_000, recent: null, blocker: null });
    expect(check.walletKobo).toBe(await sandboxWalletKobo(t));
    expect((await sandboxLog(t)).filter((e) => e.phone_number === '08031000001')).toHaveLength(0);
  });

  it('buys airtime once, and the receipt agrees with the service log and wallet', async () => {
    const before = await sandboxWalletKobo(t);
    const bought = await receiptOf(t.call('purchases.buyTopUp', { kind: 'airtime', phone: mtnPhone(11), amountKobo: 50_000 }));
    expect(bought).toMatchObject({
      kind: 'airtime',
      state: 'success',
      phone: mtnPhone(11),
      network: 'MTN',
      amountKobo: 50_000,
      statusText: `Delivered: ₦500.00 of MTN airtime to ${mtnPhone(11)}.`,
    });
    const entries = (await sandboxLog(t)).filter((e) => e.phone_number === mtnPhone(11));
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ transaction_id: bought.reference, status: 'SUCCESS', type: 'AIRTIME' });
    // The wallet cost is the service's own transaction_cost, and the wallet moved by exactly that.
    const paid = before - (await sandboxWalletKobo(t));
    expect(bought.costKobo).toBe(paid);
    expect(paid).toBeLessThan(50_000);
    // The receipt reads the same later, and is listed with the single purchases, not the bulk jobs.
    expect(await t.call('purchases.topUp', { id: bought.id })).toMatchObject({ id: bought.id, state: 'success', reference: bought.reference });
    expect((await t.call('purchases.recentTopUps', {})).map((p) => p.id)).toContain(bought.id);
    expect((await t.call('bulk.list', {})).map((j) => j.id)).not.toContain(bought.id);
  });

  it('refuses the same purchase within 24 hours unless asked again, and then buys it once more', async () => {
    const phone = mtnPhone(12);
    await receiptOf(t.call('purchases.buyTopUp', { kind: 'airtime', phone, amountKobo: 20_000 }));
    const check = await t.call('purchases.checkTopUp', { kind: 'airtime', phone, amountKobo: 20_000 });
    expect(check.recent).toMatch(new RegExp(`^₦200.00 of airtime was already bought for ${phone} in the last 24 hours`));
    const again = await refusal(t.call('purchases.buyTopUp', { kind: 'airtime', phone, amountKobo: 20_000 }));
    expect(again.code).toBe('recent_duplicate');
    expect(again.message).toMatch(/Nothing was bought\.$/);
    expect((await sandboxLog(t)).filter((e) => e.phone_number === phone)).toHaveLength(1);
    const repeated = await receiptOf(t.call('purchases.buyTopUp', { kind: 'airtime', phone, amountKobo: 20_000, repeat: true }));
    expect(repeated.state).toBe('success');
    expect((await sandboxLog(t)).filter((e) => e.phone_number === phone)).toHaveLength(2);
  });

  it('buys a data plan at its catalog price', async () => {
    const bought = await receiptOf(t.call('purchases.buyTopUp', { kind: 'data', phone: mtnPhone(13), productCode: 'MTN-1GB-7D' }));
    expect(bought).toMatchObject({ kind: 'data', state: 'success', amountKobo: nairaToKobo(800), description: 'MTN 1GB Weekly Plan - 7 days', productCode: 'MTN-1GB-7D' });
    const [entry] = (await sandboxLog(t)).filter((e) => e.phone_number === mtnPhone(13));
    expect(entry).toMatchObject({ transaction_id: bought.reference, type: 'DATA', status: 'SUCCESS' });
  });

  it('says a failure at the network plainly: refunded by the service', async () => {
    const before = await sandboxWalletKobo(t);
    const failed = await receiptOf(t.call('purchases.buyTopUp', { kind: 'airtime', phone: '08039999999', amountKobo: 10_000 }));
    expect(failed.state).toBe('failed');
    expect(failed.statusText).toMatch(/^Failed at the network/);
    const [entry] = (await sandboxLog(t)).filter((e) => e.phone_number === '08039999999');
    expect(entry.status).toBe('FAILED');
    expect(await sandboxWalletKobo(t)).toBe(before);
  });

  it('refuses what cannot be bought before anything is sent, saying what to correct', async () => {
    const count = (await sandboxLog(t)).length;
    const phone = await refusal(t.call('purchases.buyTopUp', { kind: 'airtime', phone: '0803123', amountKobo: 10_000 }));
    expect(phone.code).toBe('invalid_phone');
    const amount = await refusal(t.call('purchases.buyTopUp', { kind: 'airtime', phone: mtnPhone(14), amountKobo: 5_000 }));
    expect(amount.code).toBe('invalid_purchase');
    expect(amount.message).toBe('₦50.00 is below the MTN airtime minimum of ₦100.00.');
    const plan = await refusal(t.call('purchases.buyTopUp', { kind: 'data', phone: mtnPhone(14), productCode: 'mtn-1gb-7d' }));
    expect(plan.message).toBe('Data plan code mtn-1gb-7d is not in the catalog; did you mean MTN-1GB-7D? (codes are case-sensitive).');
    await t.sandboxControl.setWallet(300);
    try {
      const wallet = await refusal(t.call('purchases.buyTopUp', { kind: 'airtime', phone: mtnPhone(15), amountKobo: 40_000 }));
      expect(wallet.code).toBe('wallet_short');
      expect(wallet.message).toBe('The wallet holds ₦300.00, less than ₦400.00. Nothing was bought.');
    } finally {
      await t.sandboxControl.setWallet(100_000);
    }
    expect((await sandboxLog(t)).length).toBe(count);
  });

  it('is not held back by the spending caps of bulk jobs, and counts toward the daily cap', async () => {
    const reads = t.app.service(createBulkService).reads;
    const spentBefore = reads.spentSince(t.app.connection.profileId, 0);
    await t.call('bulk.settings.set', { capPerDayKobo: 10_000, capPerJobKobo: 10_000 });
    try {
      const bought = await receiptOf(t.call('purchases.buyTopUp', { kind: 'airtime', phone: mtnPhone(16), amountKobo: 30_000 }));
      expect(bought.state).toBe('success');
      // The money left the wallet: the daily cap of bulk jobs counts it (caps count all the day's spending on the connection).
      expect(reads.spentSince(t.app.connection.profileId, 0) - spentBefore).toBe(30_000);
    } finally {
      await t.call('bulk.settings.set', { capPerDayKobo: null, capPerJobKobo: null });
    }
  });

  it('a purchase whose vendesk stopped mid-way is not resumed: unsent, it is not bought', async () => {
    const bulk = t.app.service(createBulkService);
    const c = t.app.connection;
    const id = bulk.lifecycle.createSingleJob(
      'airtime',
      c,
      'MTN airtime for x',
      newItem({ rowNumber: 2, phone: mtnPhone(17), network: 'MTN', productCode: 'MTN-VTU', description: '', amountKobo: 10_000 }),
    );
    bulk.confirmSingle(id); // "running", with no runner: what a vendesk killed before sending leaves
    const view = await t.call('purchases.topUp', { id });
    expect(view.state).toBe('cancelled');
    expect(view.statusText).toBe('Not bought. Nothing was charged.');
    expect(view.reason).toBe('Not sent, so nothing was charged: vendesk stopped before it was sent.');
    expect((await sandboxLog(t)).filter((e) => e.phone_number === mtnPhone(17))).toHaveLength(0);
  });

  it('does not show another connection’s purchase or a bulk job as a purchase', async () => {
    const missing = await refusal(t.call('purchases.topUp', { id: '00000000-0000-4000-8000-000000000000' }));
    expect(missing.code).toBe('purchase_not_found');
  });
});

describe('a single purchase whose answer is lost', () => {
  let t: TestApp;
  let proxy: DroppingProxy;
  let closeSandbox: () => Promise<void>;
  beforeAll(async () => {
    const sandbox = await startTestSandbox(QUICK_SETTLEMENT);
    closeSandbox = () => sandbox.close();
    proxy = await startDroppingProxy(sandbox.url);
    t = await startTestApp({ sandbox: { ...sandbox, url: proxy.url } });
    fastJobs(t.app);
    await t.call('bulk.settings.set', { outcomeWaitSeconds: 30, uncertainSafeDelaySeconds: 1 });
  });
  afterAll(async () => {
    await t.close();
    await proxy.close();
    await closeSandbox();
  });

  it('is settled from the service log and bought exactly once', async () => {
    const phone = mtnPhone(21);
    proxy.dropAnswers('/purchaseAirtime', 1);
    const bought = await receiptOf(t.call('purchases.buyTopUp', { kind: 'airtime', phone, amountKobo: 15_000 }));
    expect(bought.state).toBe('success');
    expect(bought.settledBy).toMatch(/^log/);
    const entries = (await sandboxLog({ sandbox: { ...t.sandbox, url: proxy.url }, token: t.token })).filter((e) => e.phone_number === phone);
    expect(entries).toHaveLength(1);
    expect(bought.reference).toBe(entries[0].transaction_id);
  });
});
