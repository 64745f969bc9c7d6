/**
 * The Dashboard's "Pending purchases": every purchase vendesk made that waits for its final
 * answer, whichever way it was bought — an electricity token (followed on the Pending page) and
 * airtime for one number (followed on its receipt) — equal to what the service's own log shows
 * PENDING, and back to nothing once the service has answered.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { serviceLog } from '../../support/serviceSpend';
import type { TestApp } from '../../support/testApp';
import { advanceClocks, startPendingTopUpApp, tickRequeryLoop } from '../purchases/purchaseHelpers';
import { buyElectricity, meter } from '../reconcile/reconcileHelpers';
import { receiptOf } from '../../support/receiptOf';

let t: TestApp;

beforeAll(async () => {
  t = await startPendingTopUpApp();
});

afterAll(async () => {
  await t?.close();
});

it('counts pending electricity and pending airtime alike, as the service logs them', async () => {
  const token = await buyElectricity(t, meter('0000'), 1500); // pending at the service until requeried
  const topUp = await receiptOf(t.call('purchases.buyTopUp', { kind: 'airtime', phone: '08031112222', amountKobo: 20_000 }));
  expect([token.state, topUp.state]).toEqual(['pending', 'pending']);

  const pendingAtService = (await serviceLog(t)).filter((e) => e.status === 'PENDING');
  expect(pendingAtService.map((e) => e.type).sort()).toEqual(['AIRTIME', 'ELECTRICITY']);
  const summary = await t.call('dashboard.summary', {});
  expect({ pending: summary.pendingCount, airtimeData: summary.pendingAirtimeData }).toEqual({ pending: pendingAtService.length, airtimeData: 1 });

  // The service answers both: the airtime is delivered, the token's requery comes back SUCCESS.
  await advanceClocks(t, 601);
  await tickRequeryLoop(t);
  await t.call('bulk.checkAgain', { jobId: topUp.id }); // as its receipt's Check again
  expect((await t.call('purchases.get', { id: token.id })).state).toBe('success');
  expect((await t.call('purchases.topUp', { id: topUp.id })).state).toBe('success');
  expect((await serviceLog(t)).filter((e) => e.status === 'PENDING')).toEqual([]);
  expect(await t.call('dashboard.summary', {})).toMatchObject({ pendingCount: 0, pendingAirtimeData: 0 });
});
