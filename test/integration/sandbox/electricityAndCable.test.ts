import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CableResult, ElectricityResult, LogEntry, MeterValidation, PageObject, RequeryResult, SmartcardValidation } from '../../../src/shared/wire';
import { naira, start, type Org, type Started } from './sandboxHarness';

let s: Started;
beforeAll(async () => {
  s = await start();
});
afterAll(() => s.sandbox.close());

const power = (meter: string, amount = 5000, extra: Record<string, unknown> = {}) => ({
  amount,
  meter,
  phone: '08031234567',
  disco: 'IKEDC',
  vendType: 'PREPAID',
  ...extra,
});
const cable = (smartcard: string, extra: Record<string, unknown> = {}) => ({
  amount: 19000,
  smartcard,
  phone: '08031234567',
  provider: 'DSTV',
  bouquetCode: 'dstv79',
  ...extra,
});
/** IKEDC 1.2 % commission; DSTV 1.5 %. */
const ikedcCost = (amount: number) => naira(amount, -Math.floor(amount * 1.2) / 100);
const dstvCompactCost = naira(19000, -285);

async function log(org: Org, q = ''): Promise<LogEntry[]> {
  return (await org.get<PageObject<LogEntry>>(`/logEntries?perPage=100${q}`)).body.data.Items;
}

describe('validateMeter', () => {
  it('answers the customer name, address, minAmount and outstanding', async () => {
    const org = s.org();
    const r = await org.post<MeterValidation>('/validateMeter', { meter: '45071234567', disco: 'IKEDC', vendType: 'PREPAID' });
    expect(r.status).toBe(200);
    expect(r.body.gatewayStatus).toBe('00');
    expect(r.body.data.name).toMatch(/\w+ \w+/);
    expect(r.body.data.address).not.toBe('');
    expect(r.body.data.minAmount).toBe(1000);
    expect(r.body.data.outstanding).toBe(0);
  });

  it('a meter ending 4444 takes at least ₦5,000 whatever its disco takes: validation says so, a purchase below it is refused and charges nothing', async () => {
    const org = s.org();
    const v = await org.post<MeterValidation>('/validateMeter', { meter: '45071234444', disco: 'IKEDC', vendType: 'PREPAID' });
    expect(v.body.data.minAmount).toBe(5000);
    const before = await org.balance();
    const below = await org.post('/purchaseElectricity', power('45071234444', 4999));
    expect(below.status).toBe(400);
    expect(JSON.stringify(below.body)).toContain('amount below the minimum of meter 45071234444');
    expect(await org.balance()).toBe(before);
    expect(await log(org)).toEqual([]);
    const enough = await org.post<ElectricityResult>('/purchaseElectricity', power('45071234444', 5000));
    expect(enough.status).toBe(200);
  });

  it('treats meters ending 5555 as POSTPAID: PREPAID validation answers 400 with the vendType reason', async () => {
    const org = s.org();
    const bad = await org.post('/validateMeter', { meter: '45071235555', disco: 'IKEDC', vendType: 'PREPAID' });
    expect(bad.status).toBe(400);
    expect(bad.body.data).toMatch(/vendType PREPAID does not match/);
    const good = await org.post<MeterValidation>('/validateMeter', { meter: '45071235555', disco: 'IKEDC', vendType: 'POSTPAID' });
    expect(good.status).toBe(200);
    expect(good.body.data.outstanding).toBeGreaterThanOrEqual(0);
  });

  it('answers 400 for an unknown disco (case-sensitive) or a malformed meter', async () => {
    const org = s.org();
    expect((await org.post('/validateMeter', { meter: '45071234567', disco: 'ikedc', vendType: 'PREPAID' })).status).toBe(400);
    expect((await org.post('/validateMeter', { meter: 'ABC', disco: 'IKEDC', vendType: 'PREPAID' })).status).toBe(400);
    expect((await org.post('/validateMeter', { meter: '45071234567', disco: 'IKEDC', vendType: 'SMART' })).status).toBe(400);
  });
});

describe('purchaseElectricity', () => {
  it('completes with 200, a token, units, receipt and commission, debiting amount minus commission', async () => {
    const org = s.org();
    const r = await org.post<ElectricityResult>('/purchaseElectricity', power('45071234567'));
    expect(r.status).toBe(200);
    expect(r.body.gatewayStatus).toBe('00');
    expect(r.body.data.token).toMatch(/^\d{4}(-\d{4}){4}$/);
    expect(r.body.data.units).toBeGreaterThan(0);
    expect(r.body.data.receiptNo).not.toBe('');
    expect(r.body.data.commission).toBe(60);
    expect(await org.balance()).toBe(naira(1_000_000, -ikedcCost(5000)));
    const [entry] = await log(org);
    expect(entry.transaction_id).toBe(r.body.requestReference);
    expect(entry.type).toBe('ELECTRICITY');
    expect(entry.status).toBe('SUCCESS');
    expect(entry.amount).toBe('NGN 5,000.00');
    expect(entry.transaction_cost).toBe(4940);
  });

  it('sells a POSTPAID meter ending 5555 as POSTPAID and refuses it as PREPAID', async () => {
    const org = s.org();
    const bad = await org.post('/purchaseElectricity', power('45071235555'));
    expect(bad.status).toBe(400);
    expect(bad.body.data).toMatch(/vendType PREPAID does not match/);
    expect(await org.balance()).toBe(1_000_000);
    const good = await org.post<ElectricityResult>('/purchaseElectricity', power('45071235555', 5000, { vendType: 'POSTPAID' }));
    expect(good.status).toBe(200);
    expect(good.body.data.token).toBe('');
  });

  it('0000: pending (202, 01, {}), SUCCESS with token and units from 2 min 1 s', async () => {
    const org = s.org();
    const r = await org.post('/purchaseElectricity', power('45071230000'));
    expect(r.status).toBe(202);
    expect(r.body.gatewayStatus).toBe('01');
    expect(r.body.data).toEqual({});
    expect((await log(org))[0].status).toBe('PENDING');
    expect((await log(org, '&status=pending')).length).toBe(1);
    await org.advance(121);
    const q = await org.get<RequeryResult>(`/requeryTransaction/${r.body.requestReference}`);
    expect(q.status).toBe(200);
    expect(q.body.data.status).toBe('SUCCESS');
    expect(q.body.data.reference).toBe(r.body.requestReference);
    expect(q.body.data.token).toMatch(/^\d{4}(-\d{4}){4}$/);
    expect(q.body.data.units).toBeGreaterThan(0);
    expect((await log(org))[0].status).toBe('SUCCESS');
    expect(await org.balance()).toBe(naira(1_000_000, -ikedcCost(5000)));
  });

  it('1111: pending, then FAILED with the wallet refunded', async () => {
    const org = s.org();
    const r = await org.post('/purchaseElectricity', power('45071231111', 10000));
    expect(r.status).toBe(202);
    expect(await org.balance()).toBe(naira(1_000_000, -ikedcCost(10000)));
    await org.advance(121);
    const q = await org.get<RequeryResult>(`/requeryTransaction/${r.body.requestReference}`);
    expect(q.body.data.status).toBe('FAILED');
    expect(q.body.data.token).toBeUndefined();
    expect(await org.balance()).toBe(1_000_000);
    expect((await log(org))[0].status).toBe('FAILED');
  });

  it('2222: pending for good', async () => {
    const org = s.org();
    const r = await org.post('/purchaseElectricity', power('45071232222'));
    expect(r.status).toBe(202);
    await org.advance(3600);
    const q = await org.get<RequeryResult>(`/requeryTransaction/${r.body.requestReference}`);
    expect(q.body.data.status).toBe('PENDING');
    await org.advance(86_400);
    expect((await org.get<RequeryResult>(`/requeryTransaction/${r.body.requestReference}`)).body.data.status).toBe('PENDING');
    expect(await org.balance()).toBe(naira(1_000_000, -ikedcCost(5000)));
  });

  it('9999: declined with 400, debited then refunded, logged FAILED', async () => {
    const org = s.org();
    const r = await org.post('/purchaseElectricity', power('45071239999'));
    expect(r.status).toBe(400);
    expect(r.body.gatewayStatus).toBe('88');
    expect(r.body.data).toMatch(/declined by provider.*refunded/);
    expect(await org.balance()).toBe(1_000_000);
    const [entry] = await log(org);
    expect(entry.status).toBe('FAILED');
    expect(entry.transaction_id).toBe(r.body.requestReference);
  });

  it('answers 429 for the same meter and amount while pending; another amount or a settled one goes through', async () => {
    const org = s.org();
    expect((await org.post('/purchaseElectricity', power('45071230000', 2000))).status).toBe(202);
    const dup = await org.post('/purchaseElectricity', power('45071230000', 2000));
    expect(dup.status).toBe(429);
    expect(dup.body.data).toMatch(/transaction in progress for this meter and amount/);
    expect((await org.post('/purchaseElectricity', power('45071230000', 3000))).status).toBe(202);
    await org.advance(121);
    expect((await org.post('/purchaseElectricity', power('45071230000', 2000))).status).toBe(202);
  });

  it('answers 400 for an amount outside the disco range, an unknown disco and a bad phone', async () => {
    const org = s.org();
    const low = await org.post('/purchaseElectricity', power('45071234567', 999));
    expect(low.status).toBe(400);
    expect(low.body.data).toMatch(/amount out of range/);
    expect((await org.post('/purchaseElectricity', power('45071234567', 500_001))).status).toBe(400);
    expect((await org.post('/purchaseElectricity', power('45071234567', 5000, { disco: 'Ikedc' }))).status).toBe(400);
    expect((await org.post('/purchaseElectricity', power('45071234567', 5000, { phone: '+14155552671' }))).status).toBe(400);
    expect((await org.call('POST', '/purchaseElectricity')).status).toBe(400);
    expect(await org.balance()).toBe(1_000_000);
  });

  it('answers 400 for insufficient balance and charges nothing', async () => {
    const org = s.org();
    await org.setWallet(100);
    const r = await org.post('/purchaseElectricity', power('45071234567'));
    expect(r.status).toBe(400);
    expect(r.body.data).toMatch(/insufficient balance/);
    expect(await org.balance()).toBe(100);
  });

  it('answers 422 for an unconfigured organisation', async () => {
    const r = await s.org('unconfigured').post('/purchaseElectricity', power('45071234567'));
    expect(r.status).toBe(422);
    expect(r.body.data).toMatch(/not configured/);
  });
});

describe('cable TV', () => {
  it('validates a smartcard', async () => {
    const org = s.org();
    const r = await org.post<SmartcardValidation>('/validateSmartcard', { smartcard: '7023456789', provider: 'DSTV' });
    expect(r.status).toBe(200);
    expect(r.body.data.name).not.toBe('');
    expect(typeof r.body.data.customerType).toBe('string');
    expect((await org.post('/validateSmartcard', { smartcard: '7023456789', provider: 'CANAL' })).status).toBe(400);
    expect((await org.post('/validateSmartcard', { smartcard: 70234, provider: 'DSTV' })).status).toBe(400);
  });

  it('completes with 200 and the package details', async () => {
    const org = s.org();
    const r = await org.post<CableResult>('/purchaseCableTV', cable('7023456789'));
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ smartcard: '7023456789', provider: 'DSTV', bouquet: 'DStv Compact', amount: 19000, commission: 285 });
    expect(await org.balance()).toBe(naira(1_000_000, -dstvCompactCost));
    const [entry] = await log(org, '&type=cable');
    expect(entry.type).toBe('CABLETV');
    expect(entry.transaction_id).toBe(r.body.requestReference);
  });

  it('treats bouquet codes as case-sensitive and checks the amount', async () => {
    const org = s.org();
    expect((await org.post('/purchaseCableTV', cable('7023456789', { bouquetCode: 'DSTV79' }))).status).toBe(400);
    expect((await org.post('/purchaseCableTV', cable('7023456789', { amount: 100 }))).status).toBe(400);
    expect((await org.post('/purchaseCableTV', cable('7023456789', { provider: 'GOTV' }))).status).toBe(400);
  });

  it('follows the test numbers: 0000 success later, 1111 failed and refunded, 2222 pending, 9999 declined and refunded', async () => {
    const org = s.org();
    const ok = await org.post('/purchaseCableTV', cable('7023450000'));
    const bad = await org.post('/purchaseCableTV', cable('7023451111'));
    const stuck = await org.post('/purchaseCableTV', cable('7023452222'));
    for (const r of [ok, bad, stuck]) {
      expect(r.status).toBe(202);
      expect(r.body.gatewayStatus).toBe('01');
      expect(r.body.data).toEqual({});
    }
    const declined = await org.post('/purchaseCableTV', cable('7023459999'));
    expect(declined.status).toBe(400);
    expect(declined.body.data).toMatch(/declined/);
    expect(await org.balance()).toBe(naira(1_000_000, -3 * dstvCompactCost));
    await org.advance(121);
    const status = async (ref: string) => (await org.get<RequeryResult>(`/requeryTransaction/${ref}`)).body.data.status;
    expect(await status(ok.body.requestReference)).toBe('SUCCESS');
    expect(await status(bad.body.requestReference)).toBe('FAILED');
    expect(await status(stuck.body.requestReference)).toBe('PENDING');
    expect(await org.balance()).toBe(naira(1_000_000, -2 * dstvCompactCost));
  });

  it('has no 429 rule: the same smartcard and amount twice while pending is accepted', async () => {
    const org = s.org();
    expect((await org.post('/purchaseCableTV', cable('7023450000'))).status).toBe(202);
    expect((await org.post('/purchaseCableTV', cable('7023450000'))).status).toBe(202);
  });

  it('answers 400 for insufficient balance and 422 when unconfigured', async () => {
    const org = s.org();
    await org.setWallet(50);
    const r = await org.post('/purchaseCableTV', cable('7023456789'));
    expect(r.status).toBe(400);
    expect(r.body.data).toMatch(/insufficient balance/);
    expect(await org.balance()).toBe(50);
    expect((await s.org('unconfigured').post('/purchaseCableTV', cable('7023456789'))).status).toBe(422);
  });
});
