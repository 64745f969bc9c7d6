/**
 * The purchase state table (purchases/purchaseStore.ts): an open purchase may still be settled, a
 * settled one keeps its state. A late writer — the log read after a requery already settled it —
 * leaves a bought token bought, and the database refuses any other path that tries.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../support/testApp';
import { FINAL_PURCHASE_STATES, OPEN_STATES, UNSETTLED_STATES, getPurchaseRow, updatePurchase } from '../../../src/main/purchases/purchaseStore';
import { FINAL_PURCHASE_STATES_AT_21 } from '../../../src/main/store/migrations/021_final_purchases_stay';
import { PHONE, account, pauseLoop, startPurchaseTestApp } from './purchaseHelpers';
import { receiptOf } from '../../support/receiptOf';

describe('a settled purchase', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startPurchaseTestApp();
    pauseLoop(t); // the test settles the pending purchase itself
  });
  afterAll(async () => {
    await t.close();
  });

  it('has the states the table says: unsettled ones refuse a duplicate, open ones can be settled, final ones stay', () => {
    expect([...UNSETTLED_STATES].sort()).toEqual(['needs_support', 'pending', 'sending', 'uncertain']);
    expect([...OPEN_STATES].sort()).toEqual(['needs_support', 'not_found', 'pending', 'sending', 'uncertain']);
    expect([...FINAL_PURCHASE_STATES].sort()).toEqual([...FINAL_PURCHASE_STATES_AT_21].sort());
  });

  it('keeps a bought token bought when a late writer says it failed, and the database refuses the same change', async () => {
    const bought = await receiptOf(t.call('purchases.buyElectricity', { disco: 'IKEDC', meter: account('1234'), vendType: 'PREPAID', amountKobo: 500_000, phone: PHONE }));
    expect(bought.state).toBe('success');
    const late = updatePurchase(t.app, bought.id, { state: 'failed', reason: 'the transaction log shows it as FAILED', refund_state: 'checking' });
    expect(late).toMatchObject({ state: 'success', reason: null, token: bought.token });
    expect(() => t.app.db.prepare("UPDATE purchases SET state = 'failed' WHERE id = ?").run(bought.id)).toThrow('a settled purchase keeps its state');
    const receipt = await t.call('purchases.get', { id: bought.id });
    expect(receipt).toMatchObject({ state: 'success', token: bought.token });
  });

  it('still settles an open purchase, and then keeps that outcome', async () => {
    const open = await receiptOf(t.call('purchases.buyElectricity', { disco: 'IKEDC', meter: account('0000'), vendType: 'PREPAID', amountKobo: 400_000, phone: PHONE }));
    expect(open.state).toBe('pending');
    expect(updatePurchase(t.app, open.id, { state: 'success', settled_by: 'requery' }).state).toBe('success');
    expect(updatePurchase(t.app, open.id, { state: 'pending' }).state).toBe('success');
    expect(getPurchaseRow(t.app, open.id)).toMatchObject({ state: 'success', settled_by: 'requery' });
  });
});
