import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BatchAccepted, LogEntry, PageObject } from '../../../src/shared/wire';
import { AIRTIME_BP, DATA_BP, costNaira, mtnAirtime, mtnData, naira, start, type Org, type Started } from './sandboxHarness';

let s: Started;
beforeAll(async () => {
  s = await start();
});
afterAll(() => s.sandbox.close());

async function logOf(org: Org, query = ''): Promise<LogEntry[]> {
  const r = await org.get<PageObject<LogEntry>>(`/logEntries?perPage=100${query}`);
  return r.body.data.Items;
}

describe('purchaseAirtime', () => {
  it('accepts a batch with 202, 00 and one reference per item, charging amount minus commission', async () => {
    const org = s.org();
    const r = await org.post<BatchAccepted>('/purchaseAirtime', [
      mtnAirtime('08031234567', 500),
      { amount: 1000, phoneNumber: '08021234567', network: 'AIRTEL', productCode: 'AIRTEL-VTU', operator: 'Airtel Nigeria', region: '' },
    ]);
    expect(r.status).toBe(202);
    expect(r.body.gatewayStatus).toBe('00');
    expect(r.body.data.references).toHaveLength(2);
    expect(new Set(r.body.data.references).size).toBe(2);
    expect(typeof r.body.data.message).toBe('string');
    expect(await org.balance()).toBe(naira(1_000_000, -costNaira(500, AIRTIME_BP.MTN), -costNaira(1000, AIRTIME_BP.AIRTEL)));
  });

  it('normalizes 080…, 23480…, +23480… and 80… to the 11-digit local form', async () => {
    const org = s.org();
    const forms = ['08031110001', '2348031110002', '+2348031110003', '8031110004'];
    const r = await org.post<BatchAccepted>(
      '/purchaseAirtime',
      forms.map((p) => mtnAirtime(p, 100)),
    );
    expect(r.status).toBe(202);
    const log = await logOf(org);
    expect(log.map((e) => e.phone_number).sort()).toEqual(['08031110001', '08031110002', '08031110003', '08031110004']);
  });

  it('rejects a non-Nigerian number with 400 before any charge', async () => {
    const org = s.org();
    for (const phone of ['+447911123456', '0803123', '12345678901', 'not-a-number']) {
      const r = await org.post('/purchaseAirtime', [mtnAirtime('08031234567', 100), mtnAirtime(phone, 100)]);
      expect(r.status, phone).toBe(400);
      expect(r.body.gatewayStatus).toBe('88');
      expect(r.body.data).toMatch(/item 2/);
    }
    expect(await org.balance()).toBe(1_000_000);
    expect(await logOf(org)).toHaveLength(0);
  });

  it('rejects an unrecognised network with 400', async () => {
    const org = s.org();
    const r = await org.post('/purchaseAirtime', [mtnAirtime('08031234567', 100, { network: 'VODACOM' })]);
    expect(r.status).toBe(400);
    expect(r.body.data).toMatch(/unrecognised network/);
  });

  it('rejects an amount outside the catalog range (below 100, above max) with 400', async () => {
    const org = s.org();
    for (const amount of [99, 50, 50_001]) {
      const r = await org.post('/purchaseAirtime', [mtnAirtime('08031234567', amount)]);
      expect(r.status, String(amount)).toBe(400);
      expect(r.body.data).toMatch(/amount out of range for the network/);
    }
    expect((await org.post('/purchaseAirtime', [mtnAirtime('08031234567', 100)])).status).toBe(202);
  });

  it('treats product and voucher codes as case-sensitive', async () => {
    const org = s.org();
    const lower = await org.post('/purchaseAirtime', [mtnAirtime('08031234567', 100, { productCode: 'mtn-vtu' })]);
    expect(lower.status).toBe(400);
    const badVoucher = await org.post('/purchaseAirtime', [mtnAirtime('08031234567', 100, { voucherCode: 'mtnv1' })]);
    expect(badVoucher.status).toBe(400);
    expect(badVoucher.body.data).toMatch(/voucher code/);
    const good = await org.post('/purchaseAirtime', [mtnAirtime('08031234567', 100, { voucherCode: 'MTNV1' })]);
    expect(good.status).toBe(202);
  });

  it('answers 400 for an empty array, an empty body and an invalid payload', async () => {
    const org = s.org();
    const empty = await org.post('/purchaseAirtime', []);
    expect(empty.status).toBe(400);
    expect(empty.body.data).toMatch(/at least one item/);
    const none = await org.call('POST', '/purchaseAirtime');
    expect(none.status).toBe(400);
    expect(none.body.data).toMatch(/empty body/);
    const object = await org.post('/purchaseAirtime', mtnAirtime('08031234567', 100));
    expect(object.status).toBe(400);
    expect(object.body.data).toMatch(/invalid payload/);
  });

  it('answers 429 for the same phone and amount while the first is in progress, in any accepted form', async () => {
    const org = s.org();
    expect((await org.post('/purchaseAirtime', [mtnAirtime('08035550001', 200)])).status).toBe(202);
    const dup = await org.post('/purchaseAirtime', [mtnAirtime('+2348035550001', 200)]);
    expect(dup.status).toBe(429);
    expect(dup.body.data).toMatch(/transaction in progress for this number and amount/);
    // another amount is not the same purchase
    expect((await org.post('/purchaseAirtime', [mtnAirtime('08035550001', 300)])).status).toBe(202);
    // once final (5 s of sandbox clock), the number is free again
    await org.advance(5);
    expect((await org.post('/purchaseAirtime', [mtnAirtime('8035550001', 200)])).status).toBe(202);
  });

  it('lists each item as PENDING at once, then SUCCESS 5 s later; transaction_id is the item reference', async () => {
    const org = s.org();
    await org.control.holdClock();
    const r = await org.post<BatchAccepted>('/purchaseAirtime', [mtnAirtime('08031230001', 500), mtnAirtime('08031230002', 600)]);
    let log = await logOf(org);
    expect(log).toHaveLength(2);
    expect(log.every((e) => e.status === 'PENDING')).toBe(true);
    expect(log.map((e) => e.transaction_id).sort()).toEqual([...r.body.data.references].sort());
    const first = log.find((e) => e.transaction_id === r.body.data.references[0])!;
    expect(first.phone_number).toBe('08031230001');
    expect(first.amount).toBe('NGN 500.00');
    expect(first.type).toBe('AIRTIME');
    expect(first.network).toBe('MTN');
    expect(first.commission).toBe(15);
    expect(first.transaction_cost).toBe(485);
    expect(first.partner_reference).toBe(r.body.requestReference);
    await org.advance(4);
    expect((await logOf(org)).every((e) => e.status === 'PENDING')).toBe(true);
    await org.advance(1);
    log = await logOf(org);
    expect(log.every((e) => e.status === 'SUCCESS')).toBe(true);
  });

  it('ends phone numbers in 9999 FAILED after 5 s and refunds exactly', async () => {
    const org = s.org();
    const r = await org.post<BatchAccepted>('/purchaseAirtime', [mtnAirtime('08031239999', 1000), mtnAirtime('08031230005', 1000)]);
    expect(r.status).toBe(202);
    expect(await org.balance()).toBe(naira(1_000_000, -2 * costNaira(1000, AIRTIME_BP.MTN)));
    await org.advance(5);
    const log = await logOf(org);
    expect(log.find((e) => e.phone_number === '08031239999')?.status).toBe('FAILED');
    expect(log.find((e) => e.phone_number === '08031230005')?.status).toBe('SUCCESS');
    expect(await org.balance()).toBe(naira(1_000_000, -costNaira(1000, AIRTIME_BP.MTN)));
  });

  it('refuses a batch the wallet cannot cover with 400 and charges nothing', async () => {
    const org = s.org();
    await org.setWallet(1000);
    const r = await org.post('/purchaseAirtime', [mtnAirtime('08031234567', 600), mtnAirtime('08031234568', 600)]);
    expect(r.status).toBe(400);
    expect(r.body.data).toMatch(/insufficient balance/);
    expect(await org.balance()).toBe(1000);
    expect(await logOf(org)).toHaveLength(0);
  });

  it('answers 422 for an organisation not configured for vending', async () => {
    const org = s.org('unconfigured');
    const r = await org.post('/purchaseAirtime', [mtnAirtime('08031234567', 100)]);
    expect(r.status).toBe(422);
    expect(r.body.data).toMatch(/vending account not configured/);
    const d = await org.post('/purchaseData', [mtnData('08031234567')]);
    expect(d.status).toBe(422);
  });

  it('answers 503 with the reason while a fault is set, then recovers', async () => {
    const org = s.org();
    await org.fault({ path: '/purchaseAirtime', status: 503, count: 2 });
    for (let i = 0; i < 2; i++) {
      const r = await org.post('/purchaseAirtime', [mtnAirtime('08031234567', 100 + i)]);
      expect(r.status).toBe(503);
      expect(r.body.data).toMatch(/airtime vending temporarily unavailable across all servers/);
    }
    expect((await org.post('/purchaseAirtime', [mtnAirtime('08031234567', 100)])).status).toBe(202);
    expect(await org.balance()).toBe(naira(1_000_000, -costNaira(100, AIRTIME_BP.MTN)));
  });

  it('answers 422 "an item could not be posted" through a fault', async () => {
    const org = s.org();
    await org.fault({ path: '/purchaseAirtime', status: 422 });
    const r = await org.post('/purchaseAirtime', [mtnAirtime('08031234567', 100)]);
    expect(r.status).toBe(422);
    expect(r.body.data).toMatch(/could not be posted/);
  });

  it('follows the voucher rule: when the voucher server is down, the same item without voucherCode goes through', async () => {
    const org = s.org();
    await org.fault({ path: '/purchaseAirtime', status: 503, count: 5, withVoucherOnly: true });
    const withVoucher = await org.post('/purchaseAirtime', [mtnAirtime('08031234567', 100, { voucherCode: 'MTNV1' })]);
    expect(withVoucher.status).toBe(503);
    const without = await org.post('/purchaseAirtime', [mtnAirtime('08031234567', 100)]);
    expect(without.status).toBe(202);
  });
});

describe('purchaseData', () => {
  it('accepts a batch with 202 and references, then SUCCESS after 5 s with data_plan set', async () => {
    const org = s.org();
    const r = await org.post<BatchAccepted>('/purchaseData', [mtnData('08031234567'), mtnData('2348031234568', { productCode: 'MTN-1GB-1D', amount: 350 })]);
    expect(r.status).toBe(202);
    expect(r.body.gatewayStatus).toBe('00');
    expect(r.body.data.references).toHaveLength(2);
    expect(await org.balance()).toBe(naira(1_000_000, -costNaira(1500, DATA_BP.MTN), -costNaira(350, DATA_BP.MTN)));
    await org.advance(5);
    const log = await logOf(org, '&type=data');
    expect(log).toHaveLength(2);
    expect(log.every((e) => e.status === 'SUCCESS' && e.type === 'DATA')).toBe(true);
    expect(log.map((e) => e.data_plan).sort()).toEqual(['MTN-1GB-1D', 'MTN-2GB-30D']);
  });

  it('answers 400 when the product code is not in the data catalog (case-sensitive)', async () => {
    const org = s.org();
    for (const productCode of ['mtn-2gb-30d', 'MTN-999GB', 'GLO-10GB-30D']) {
      const r = await org.post('/purchaseData', [mtnData('08031234567', { productCode })]);
      expect(r.status, productCode).toBe(400);
      expect(r.body.data).toMatch(/data bundle for the product code not found/);
    }
    expect(await org.balance()).toBe(1_000_000);
  });

  it('answers 400 for an empty array, an empty body, a wrong amount and a bad number', async () => {
    const org = s.org();
    expect((await org.post('/purchaseData', [])).status).toBe(400);
    expect((await org.call('POST', '/purchaseData')).status).toBe(400);
    const amount = await org.post('/purchaseData', [mtnData('08031234567', { amount: 1000 })]);
    expect(amount.status).toBe(400);
    expect(amount.body.data).toMatch(/catalog amount/);
    expect((await org.post('/purchaseData', [mtnData('0903')])).status).toBe(400);
  });

  it('fails 9999 numbers after 5 s with an exact refund', async () => {
    const org = s.org();
    await org.post('/purchaseData', [mtnData('08039999999')]);
    expect(await org.balance()).toBe(naira(1_000_000, -costNaira(1500, DATA_BP.MTN)));
    await org.advance(5);
    expect((await logOf(org))[0].status).toBe('FAILED');
    expect(await org.balance()).toBe(1_000_000);
  });

  it('refuses a data batch the wallet cannot cover with 400 and charges nothing', async () => {
    const org = s.org();
    await org.setWallet(2000);
    const r = await org.post('/purchaseData', [mtnData('08031234567'), mtnData('08031234568')]);
    expect(r.status).toBe(400);
    expect(r.body.data).toMatch(/insufficient balance/);
    expect(await org.balance()).toBe(2000);
  });

  it('answers 422 "an item could not be posted" through a fault', async () => {
    const org = s.org();
    await org.fault({ path: '/purchaseData', status: 422 });
    const r = await org.post('/purchaseData', [mtnData('08031234567')]);
    expect(r.status).toBe(422);
    expect(r.body.data).toMatch(/could not be posted/);
    expect(await org.balance()).toBe(1_000_000);
  });

  it('has no 429 rule: the same data item twice is accepted', async () => {
    const org = s.org();
    expect((await org.post('/purchaseData', [mtnData('08031234567')])).status).toBe(202);
    expect((await org.post('/purchaseData', [mtnData('08031234567')])).status).toBe(202);
  });

  it('answers 503 "data vending temporarily unavailable" and follows the voucher rule', async () => {
    const org = s.org();
    await org.fault({ path: '/purchaseData', status: 503, count: 1 });
    const down = await org.post('/purchaseData', [mtnData('08031234567')]);
    expect(down.status).toBe(503);
    expect(down.body.data).toMatch(/data vending temporarily unavailable across all servers/);
    await org.fault({ path: '/purchaseData', status: 503, count: 3, withVoucherOnly: true });
    const voucher = await org.post('/purchaseData', [mtnData('08031234567', { voucherCode: 'MTNDV06' })]);
    expect(voucher.status).toBe(503);
    const plain = await org.post('/purchaseData', [mtnData('08031234567')]);
    expect(plain.status).toBe(202);
    expect(await org.balance()).toBe(naira(1_000_000, -costNaira(1500, DATA_BP.MTN)));
  });

  it('rejects a voucher code that does not belong to the plan (case-sensitive)', async () => {
    const org = s.org();
    const r = await org.post('/purchaseData', [mtnData('08031234567', { voucherCode: 'mtndv06' })]);
    expect(r.status).toBe(400);
    expect((await org.post('/purchaseData', [mtnData('08031234567', { voucherCode: 'MTNDV06' })])).status).toBe(202);
  });
});
