/**
 * Reconcile's "Requery all pending" asks about vendesk's own airtime and data through the one
 * requery path (issue 38, item 5): the answer settles the item vendesk bought at once, as the
 * requery loop would, instead of being written on the reconcile item only while the purchase stays
 * pending until the loop asks again. Against the sandbox over HTTP; its clock is moved past the
 * 2 min 1 s after which it answers a requery.
 */
import { afterEach, expect, it } from 'vitest';
import { createBulkService } from '../../../src/main/buying/bulkService';
import type { ReconcileRunView } from '../../../src/shared/contract/reconcile';
import { receiptOf } from '../../support/receiptOf';
import { serviceLog } from '../../support/serviceSpend';
import { startTestApp, type TestApp } from '../../support/testApp';
import { advanceClocks, pauseLoop } from '../purchases/purchaseHelpers';
import { exceptions, exportVendorLog, reconcile, sync } from './reconcileHelpers';

let t: TestApp | null = null;

/**
 * Syncs, reconciles the vendor's export (one pending item) and presses "Requery all pending" at
 * once: too early, the service answers from 2 min 1 s after the purchase. Answers the run.
 */
async function pendingRunAskedTooEarly(app: TestApp): Promise<ReconcileRunView> {
  await sync(app);
  const run = await reconcile(app, await exportVendorLog(app));
  expect(exceptions(run)).toEqual({ pending: 1 });
  expect(await app.call('reconcile.requeryPending', { runId: run.id })).toMatchObject({ queued: 1, notChecked: 1 });
  expect((await app.call('reconcile.items', { runId: run.id, category: 'pending' })).items[0].requeryStatus).toMatch(/^NOT CHECKED: .*too early/i);
  return run;
}
afterEach(async () => {
  await t?.close();
  t = null;
});

it('settles the airtime vendesk bought when the service answers SUCCESS, at once, and tells the reconcile item so', async () => {
  // Airtime stays in progress at the service for a minute of its clock; the receipt does not wait for it.
  t = await startTestApp({ creditDelayMs: 60_000 });
  pauseLoop(t);
  await t.call('bulk.settings.set', { outcomeWaitSeconds: 0 });
  const phone = '08031117777';
  const topUp = await receiptOf(t.call('purchases.buyTopUp', { kind: 'airtime', phone, amountKobo: 30_000 }));
  expect(topUp.state).toBe('pending');
  const run = await pendingRunAskedTooEarly(t);
  // The item waits as it was.
  expect(t.app.service(createBulkService).reads.item(topUp.id, 1)).toMatchObject({ state: 'pending', requery_tries: 1, settled_by: null });

  await advanceClocks(t, 125);
  // The service's own answer: its log now says SUCCESS.
  const [entry] = (await serviceLog(t)).filter((e) => e.phone_number === phone);
  expect(entry).toMatchObject({ status: 'SUCCESS', transaction_id: topUp.reference });

  const summary = await t.call('reconcile.requeryPending', { runId: run.id });
  expect(summary).toMatchObject({ queued: 1, success: 1, failed: 0, stillPending: 0, notChecked: 0 });
  const item = (await t.call('reconcile.items', { runId: run.id, category: 'pending' })).items[0];
  expect(item.requeryStatus).toBe('SUCCESS');
  // vendesk's own purchase is settled by that answer, with no pass of the requery loop.
  expect(await t.call('purchases.topUp', { id: topUp.id })).toMatchObject({ state: 'success', settledBy: 'requery', reference: entry.transaction_id });
  expect(t.app.service(createBulkService).reads.item(topUp.id, 1)).toMatchObject({ state: 'success', requery_tries: 2 });
  expect(summary.notes.join(' ')).toMatch(/1 of vendesk's own purchase/);
});

it('asks the service directly only about a purchase vendesk did not make, by its transaction id', async () => {
  t = await startTestApp({ creditDelayMs: 60_000 });
  pauseLoop(t);
  // Bought outside vendesk (the vendor's portal, another tool): straight to the service.
  const answer = await fetch(`${t.sandbox.url}/purchaseAirtime`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${t.token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify([{ amount: 200, phoneNumber: '08031118888', network: 'MTN', productCode: 'MTN-VTU', operator: 'MTN', region: '' }]),
  });
  expect(answer.status).toBe(202);
  const run = await pendingRunAskedTooEarly(t);

  await advanceClocks(t, 125);
  const summary = await t.call('reconcile.requeryPending', { runId: run.id });
  expect(summary).toMatchObject({ queued: 1, success: 1 });
  expect(summary.notes.join(' ')).toMatch(/1 other entry requeried directly/);
});
