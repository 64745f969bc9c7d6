/**
 * `/__sandbox/catalog`: a data plan or cable bouquet repriced or withdrawn for one organisation, as
 * a provider does between months. The lists show it, purchases follow it, other organisations
 * keep the shipped catalog, and a reset brings it back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CableBouquet, DataPlan } from '../../../src/shared/wire';
import { mtnData, start, type Started } from './sandboxHarness';

let s: Started;
beforeAll(async () => {
  s = await start();
});
afterAll(() => s.sandbox.close());

const gotvMax = (smartcard: string, amount: number) => ({ amount, smartcard, phone: '08031234567', provider: 'GOTV', bouquetCode: 'gotv-max' });

describe('catalog changes (sandbox control)', () => {
  it('a repriced data plan is listed and sold at its new amount only, for that organisation alone', async () => {
    const org = s.org();
    const other = s.org();
    const changes = await org.control.changeCatalog({ catalog: 'data', productCode: 'MTN-2GB-30D', amount: 1800 });
    expect(changes).toEqual([{ catalog: 'data', productCode: 'MTN-2GB-30D', amount: 1800, withdrawn: false }]);
    const listed = (await org.get<DataPlan[]>('/DataList?network=MTN')).body.data.find((p) => p.productCode === 'MTN-2GB-30D');
    expect(listed?.amount).toBe(1800);
    const old = await org.post('/purchaseData', [mtnData('08031234567')]);
    expect(old.status).toBe(400);
    expect(old.body.data).toMatch(/does not match the catalog amount 1800/);
    expect((await org.post('/purchaseData', [mtnData('08031234567', { amount: 1800 })])).status).toBe(202);
    // Another organisation keeps the shipped price.
    expect((await other.get<DataPlan[]>('/DataList')).body.data.find((p) => p.productCode === 'MTN-2GB-30D')?.amount).toBe(1500);
    expect((await other.post('/purchaseData', [mtnData('08031234567')])).status).toBe(202);
  });

  it('a withdrawn bouquet is not listed and not sold; DELETE and reset bring the catalog back', async () => {
    const org = s.org();
    await org.control.changeCatalog({ catalog: 'cable', productCode: 'gotv-max', withdrawn: true });
    expect((await org.get<CableBouquet[]>('/CableTVList?provider=GOTV')).body.data.map((b) => b.productCode)).not.toContain('gotv-max');
    const refused = await org.post('/purchaseCableTV', gotvMax('7023456789', 8500));
    expect(refused.status).toBe(400);
    expect(refused.body.data).toMatch(/bouquet code "gotv-max" not found/);
    await org.control.clearCatalogChanges();
    expect((await org.get<CableBouquet[]>('/CableTVList?provider=GOTV')).body.data.map((b) => b.productCode)).toContain('gotv-max');
    await org.control.changeCatalog({ catalog: 'cable', productCode: 'gotv-max', withdrawn: true });
    await org.control.reset();
    expect((await org.post('/purchaseCableTV', gotvMax('7023456780', 8500))).status).toBe(200);
  });

  it('refuses an unknown code and a change that neither reprices nor withdraws', async () => {
    const org = s.org();
    await expect(org.control.changeCatalog({ catalog: 'data', productCode: 'MTN-9TB-1D', amount: 5 })).rejects.toThrow(/not in the data catalog/);
    await expect(org.control.changeCatalog({ catalog: 'data', productCode: 'MTN-2GB-30D' })).rejects.toThrow(/amount|withdrawn/);
    expect((await org.get<DataPlan[]>('/DataList')).body.data.find((p) => p.productCode === 'MTN-2GB-30D')?.amount).toBe(1500);
  });
});
