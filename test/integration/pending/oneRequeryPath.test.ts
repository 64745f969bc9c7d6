/**
 * One requery path (issue 27): the requery loop asks the service about every item whose requery is
 * due, whatever it buys: an electricity token through its purchase (the vending detail the
 * purchases module writes), airtime of a job no process runs. The bulk follow-up loop reads the
 * log and leaves requeries to it. Each answer is the sandbox's own; what was asked is read from
 * what each record says it was told.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createBulkService } from '../../../src/main/buying/bulkService';
import { createBulkFollowUp } from '../../../src/main/buying/followUpLoop';
import { serviceLog } from '../../support/serviceSpend';
import type { TestApp } from '../../support/testApp';
import { receiptOf } from '../../support/receiptOf';
import { advanceClocks, startPendingTopUpApp, tickRequeryLoop } from '../purchases/purchaseHelpers';
import { buyElectricity, meter } from '../reconcile/reconcileHelpers';
import { startTestSandbox } from '../../support/testSandbox';
import { allLogEntries } from '../bulk/bulkTestFiles';
import type { DueRequery } from '../../../src/main/buying/jobRows';

const OTHER_TOKEN = 'one-requery-path-other';

let t: TestApp;

beforeAll(async () => {
  // A top-up's job ends with its item pending (the service delivers airtime 10 minutes later).
  t = await startPendingTopUpApp();
});

afterAll(async () => {
  await t?.close();
});

it('asks about a finished job’s pending airtime and a pending token once their 2 min 1 s have passed; the follow-up loop only reads the log', async () => {
  const phone = '08031114444';
  const topUp = await receiptOf(t.call('purchases.buyTopUp', { kind: 'airtime', phone, amountKobo: 25_000 }));
  const token = await buyElectricity(t, meter('0000'), 1500); // pending at the service until requeried
  expect([topUp.state, token.state]).toEqual(['pending', 'pending']);
  const bulk = t.app.service(createBulkService);
  const itemOf = () => bulk.reads.item(topUp.id, 1);
  // Too early for either: the service answers a requery from 2 min 1 s after the purchase.
  expect(bulk.dueForRequery(t.app.connection)).toEqual([]);
  await tickRequeryLoop(t);
  expect(itemOf()).toMatchObject({ state: 'pending', requery_tries: 0 });
  expect((await t.call('purchases.get', { id: token.id })).requery.attempts).toBe(0);

  await advanceClocks(t, 125);
  expect(
    bulk
      .dueForRequery(t.app.connection)
      .map((due) => (due.purchase ? ['purchase', due.purchase.id, due.purchase.state] : [due.job.kind, due.item.seq, due.item.state]))
      .sort(),
  ).toEqual([
    ['airtime', 1, 'pending'],
    ['purchase', token.id, 'pending'],
  ]);
  // The follow-up loop reads the log (the airtime is still PENDING there) and asks nothing.
  await t.app.service(createBulkFollowUp).tick();
  expect(itemOf()).toMatchObject({ state: 'pending', requery_tries: 0 });
  // The requery loop asks about both: the service still has the airtime PENDING (asked again in a
  // minute); the token is answered.
  await tickRequeryLoop(t);
  expect(itemOf()).toMatchObject({ state: 'pending', requery_tries: 1 });
  const tokenNow = await t.call('purchases.get', { id: token.id });
  expect(tokenNow.requery.attempts).toBe(1);
  expect(tokenNow.state).toBe('success');
  // Its item follows it.
  expect(t.app.db.prepare('SELECT state FROM bulk_items WHERE purchase_id = ?').get(token.id)).toEqual({ state: 'success' });

  // The service delivers the airtime; its next requery, once due, settles the item and its job.
  await advanceClocks(t, 601);
  await tickRequeryLoop(t);
  expect(itemOf()).toMatchObject({ state: 'success', settled_by: 'requery', requery_tries: 2 });
  const [entry] = (await serviceLog(t)).filter((e) => e.phone_number === phone);
  expect(entry.status).toBe('SUCCESS');
  expect(await t.call('purchases.topUp', { id: topUp.id })).toMatchObject({ state: 'success', reference: entry.transaction_id });
  expect(bulk.dueForRequery(t.app.connection)).toEqual([]);
});

it('never asks one service about another’s item: an item found due is not asked about once vendesk was switched to another connection', async () => {
  const phone = '08031115555';
  const topUp = await receiptOf(t.call('purchases.buyTopUp', { kind: 'airtime', phone, amountKobo: 30_000 }));
  await advanceClocks(t, 125);
  const bulk = t.app.service(createBulkService);
  const due = bulk.dueForRequery(t.app.connection).find((d) => d.purchase === null && d.job.id === topUp.id);
  expect(due).toBeTruthy();
  // The user switches to another service between the loop's look and its ask.
  const other = await startTestSandbox({ tokens: [OTHER_TOKEN] });
  try {
    const profile = await t.call('profiles.save', { name: 'Branch office', baseUrl: other.url, token: OTHER_TOKEN });
    await t.call('profiles.activate', { id: profile.id, confirmLive: true });
    expect(await bulk.requeryDue(t.app.session(), due as DueRequery)).toMatchObject({ changed: false, said: null, note: expect.stringMatching(/prepared for another connection/) });
    expect(bulk.reads.item(topUp.id, 1)).toMatchObject({ state: 'pending', requery_tries: 0 });
    expect(bulk.dueForRequery(t.app.connection)).toEqual([]); // nothing of the first service is due on this one
    expect(await allLogEntries(other.url, OTHER_TOKEN)).toEqual([]);
  } finally {
    await other.close();
  }
});
