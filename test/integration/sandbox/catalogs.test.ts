import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountBalance, AirtimeProduct, CableBouquet, DataPlan, ElectricityProvider } from '../../../src/shared/wire';
import { start, type Org, type Started } from './sandboxHarness';

let s: Started;
let org: Org;
beforeAll(async () => {
  s = await start();
  org = s.org();
});
afterAll(() => s.sandbox.close());

describe('catalogs', () => {
  it('lists airtime for the four networks with minAmount of at least 100 Naira', async () => {
    const r = await org.get<AirtimeProduct[]>('/AirtimeList');
    expect(r.status).toBe(200);
    expect(r.body.gatewayStatus).toBe('00');
    expect(r.body.gatewayMessage).toMatch(/^Successfully Processed/);
    expect(new Set(r.body.data.map((p) => p.network))).toEqual(new Set(['MTN', 'AIRTEL', 'GLOBACOM', '9MOBILE']));
    for (const p of r.body.data) {
      expect(p.minAmount).toBeGreaterThanOrEqual(100);
      expect(p.maxAmount).toBeGreaterThan(p.minAmount);
      expect(Object.keys(p).sort()).toEqual(['id', 'maxAmount', 'minAmount', 'network', 'networkLogo', 'operator', 'productCode', 'productGroup', 'region', 'voucherCode']);
    }
  });

  it('lists data plans for every network, and filters by network (any case, GLO alias)', async () => {
    const all = await org.get<DataPlan[]>('/DataList');
    expect(new Set(all.body.data.map((p) => p.network))).toEqual(new Set(['MTN', 'AIRTEL', 'GLOBACOM', '9MOBILE']));
    for (const p of all.body.data) {
      expect(p.productCode).not.toBe('');
      expect(p.voucherCode).not.toBe('');
      expect(p.amount).toBeGreaterThan(0);
    }
    const mtn = await org.get<DataPlan[]>('/DataList?network=MTN');
    expect(mtn.body.data.length).toBeGreaterThan(3);
    expect(mtn.body.data.every((p) => p.network === 'MTN')).toBe(true);
    const glo = await org.get<DataPlan[]>('/DataList?network=glo');
    expect(glo.body.data.every((p) => p.network === 'GLOBACOM')).toBe(true);
    const nine = await org.get<DataPlan[]>('/DataList?network=9mobile');
    expect(nine.body.data.every((p) => p.network === '9MOBILE')).toBe(true);
    const bad = await org.get('/DataList?network=VODAFONE');
    expect(bad.status).toBe(400);
    expect(bad.body.gatewayStatus).toBe('88');
  });

  it('lists DSTV, GOTV, STARTIMES and SHOWMAX bouquets, filtered by provider', async () => {
    const all = await org.get<CableBouquet[]>('/CableTVList');
    expect(new Set(all.body.data.map((b) => b.network))).toEqual(new Set(['DSTV', 'GOTV', 'STARTIMES', 'SHOWMAX']));
    expect(all.body.data.find((b) => b.description === 'DStv Compact')?.amount).toBeGreaterThan(10000);
    const gotv = await org.get<CableBouquet[]>('/CableTVList?provider=gotv');
    expect(gotv.body.data.length).toBeGreaterThan(3);
    expect(gotv.body.data.every((b) => b.network === 'GOTV')).toBe(true);
    expect((await org.get('/CableTVList?provider=NETFLIX')).status).toBe(400);
  });

  it('lists the eleven distribution companies with their ranges', async () => {
    const r = await org.get<ElectricityProvider[]>('/ElectricityList');
    expect(r.body.data.map((d) => d.productCode).sort()).toEqual(['AEDC', 'BEDC', 'EEDC', 'EKEDC', 'IBEDC', 'IKEDC', 'JED', 'KAEDCO', 'KEDCO', 'PHED', 'YEDC']);
    for (const d of r.body.data) {
      expect(d.minAmount).toBeGreaterThan(0);
      expect(d.maxAmount).toBeGreaterThan(d.minAmount);
      expect(d.percentage).toBeGreaterThan(0);
    }
  });

  it('answers the account balance with the organisation name and NGN wallet', async () => {
    const r = await org.get<AccountBalance>('/accountBalance');
    expect(r.status).toBe(200);
    expect(r.body.data.AccountName).not.toBe('');
    expect(r.body.data.GlobalBalance).toEqual([{ Balance: 1_000_000, Currency: 'NGN', AccountNumber: expect.stringMatching(/^\d{10}$/) }]);
  });

  it('uses accountName and initialBalanceNaira options', async () => {
    const other = await start({ accountName: 'Acme Payroll Ltd', initialBalanceNaira: 2500.5 });
    try {
      const r = await other.org().get<AccountBalance>('/accountBalance');
      expect(r.body.data.AccountName).toBe('Acme Payroll Ltd');
      expect(r.body.data.GlobalBalance[0].Balance).toBe(2500.5);
    } finally {
      await other.sandbox.close();
    }
  });

  it('gives an unconfigured organisation no NGN vending account', async () => {
    const un = s.org('unconfigured');
    const r = await un.get<AccountBalance>('/accountBalance');
    expect(r.status).toBe(200);
    expect(r.body.data.GlobalBalance).toEqual([]);
    expect((await un.get('/AirtimeList')).status).toBe(200);
  });
});
