/**
 * The pending-to-requery loop against the sandbox over real HTTP. The sandbox's clock and
 * vendesk's service clock are moved forward together (advanceClocks) instead of waiting 2 min.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertSendingPurchase } from '../../../src/main/purchases/purchaseStore';
import { countPendingItems, createServiceClock } from '../../../src/main/pending';
import type { EventMap } from '../../../src/shared/contract';
import type { AppError } from '../../../src/shared/appError';
import { startTestApp, type TestApp } from '../../support/testApp';
import { PHONE, account, advanceClocks, cli, pauseLoop, serviceLogEntry, startPurchaseTestApp, tickRequeryLoop, walletKobo } from '../purchases/purchaseHelpers';
import { receiptOf } from '../../support/receiptOf';

async function buyPending(t: TestApp, ending: string, amountKobo = 300_000) {
  const p = await receiptOf(t.call('purchases.buyElectricity', { disco: 'IKEDC', meter: account(ending), vendType: 'PREPAID', amountKobo, phone: PHONE }));
  expect(p.state).toBe('pending');
  return p;
}

describe('pending purchases and requery', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startPurchaseTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('tracks a pending purchase with a countdown; "requery now" before the service answers asks nothing and says when, then brings the token into the receipt', async () => {
    const p = await buyPending(t, '0000');
    // The countdown is bracketed by the clock the code read (vendesk's service clock), before and
    // after the call: however long the machine takes, it is the time left until 121 s after buying.
    const clock = t.app.service(createServiceClock);
    const before = clock.now();
    const [item] = (await t.call('pending.list', {})).filter((i) => i.purchase.id === p.id);
    const after = clock.now();
    const dueAt = Date.parse(item.purchase.requery.nextAt ?? '');
    expect(item.due).toBe(false);
    expect(item.dueInSeconds).toBeGreaterThanOrEqual(Math.ceil((dueAt - after) / 1000));
    expect(item.dueInSeconds).toBeLessThanOrEqual(Math.ceil((dueAt - before) / 1000));
    expect(item.dueInSeconds).toBeGreaterThan(0);
    // The service answers from 2 min 1 s after the purchase: that is when the first check is due.
    expect(item.requeryAllowedAt).toBe(item.dueAt);
    expect(item.requeryAllowedInSeconds).toBe(item.dueInSeconds);

    // A tripwire: the next requery the service receives fails. Pressed now, nothing reaches it.
    await t.sandboxControl.addFault({ path: '/requeryTransaction', status: 502, count: 1 });
    const early = await t.call('pending.requeryNow', { id: p.id });
    expect(early.purchase.state).toBe('pending');
    expect(early.purchase.requery.attempts).toBe(0);
    expect(early.purchase.requery.lastAt).toBeNull();
    expect(early.requeryAllowedAt).toBe(item.requeryAllowedAt);
    expect(early.requeryAllowedInSeconds).toBeGreaterThan(0);
    // The loop asks at that moment: it is the purchase's next check.
    expect(early.dueAt).toBe(early.requeryAllowedAt);
    expect(await t.sandboxControl.faults()).toEqual([expect.objectContaining({ path: '/requeryTransaction', remaining: 1 })]);
    await t.sandboxControl.clearFaults();

    await advanceClocks(t, 125);
    const done = await t.call('pending.requeryNow', { id: p.id });
    expect(done.purchase.state).toBe('success');
    expect(done.purchase.token).toMatch(/^\d{4}(-\d{4}){4}$/);
    expect(done.purchase.units).toBeGreaterThan(0);
    expect(done.purchase.settledBy).toBe('requery');
    expect(done.purchase.requery.attempts).toBe(1);
    expect((await t.call('purchases.get', { id: p.id })).token).toBe(done.purchase.token);
  });

  it('settles a pending purchase that FAILED and confirms the refund', async () => {
    const before = await walletKobo(t);
    const p = await buyPending(t, '1111');
    expect(await walletKobo(t)).toBeLessThan(before);
    await advanceClocks(t, 125);
    const done = await t.call('pending.requeryNow', { id: p.id });
    expect(done.purchase.state).toBe('failed');
    expect(done.purchase.refund.state).toBe('confirmed');
    expect(await walletKobo(t)).toBe(before);
  });

  it('confirms the refund of a purchase that failed after requery from its own record, although another purchase lowered the wallet meanwhile', async () => {
    const p = await buyPending(t, '1111', 250_000);
    // Another purchase before it settles: the wallet is lower than before the failed one, for a good reason.
    const other = await receiptOf(t.call('purchases.buyElectricity', { disco: 'IKEDC', meter: account('1234'), vendType: 'PREPAID', amountKobo: 300_000, phone: PHONE }));
    expect(other.state).toBe('success');
    await advanceClocks(t, 125);
    const done = await t.call('pending.requeryNow', { id: p.id });
    expect(done.purchase.state).toBe('failed');
    expect(done.purchase.refund.state).toBe('confirmed');
    expect(done.purchase.refund.message).toMatch(/^Refunded: the service records this purchase as FAILED/);
    expect(done.purchase.refund.message).not.toMatch(/lower|not seen/i);
    expect((await serviceLogEntry(t, p.reference ?? ''))?.status).toBe('FAILED');
    // "Check refund again" keeps it confirmed: nothing flips it back.
    const rechecked = await t.call('purchases.checkRefund', { id: p.id });
    expect(rechecked.refund.state).toBe('confirmed');
    expect(rechecked.refund.evidence).toMatch(/FAILED/);
  });

  it('keeps a purchase that stays PENDING, counts the attempt and backs off; "requery now" overrules the back-off, as the CLI does', async () => {
    const p = await buyPending(t, '2222');
    await advanceClocks(t, 125);
    const once = await t.call('pending.requeryNow', { id: p.id });
    expect(once.purchase.state).toBe('pending');
    expect(once.purchase.requery.attempts).toBe(1);
    expect(once.due).toBe(false);
    expect(once.dueInSeconds).toBeGreaterThan(50);
    expect(once.purchase.requery.lastNote).toMatch(/still PENDING/);
    // vendesk's own next check is a minute away; the service answers now, so a person may ask now.
    expect(once.requeryAllowedInSeconds).toBe(0);
    const twice = await t.call('pending.requeryNow', { id: p.id });
    expect(twice.purchase.requery.attempts).toBe(2);
    expect(twice.purchase.requery.lastNote).toMatch(/^Requery 2: still PENDING/);
  });

  it('reschedules when the service says it is too early (425), without counting an attempt', async () => {
    const p = await buyPending(t, '0000', 350_000);
    // vendesk's estimate of the service's clock runs 125 s ahead of the service (it moved, the
    // service did not): vendesk believes the service answers; the service says it is too early.
    t.app.service(createServiceClock).advance(125_000);
    const item = await t.call('pending.requeryNow', { id: p.id });
    expect(item.purchase.state).toBe('pending');
    expect(item.purchase.requery.attempts).toBe(0);
    expect(item.purchase.requery.lastNote).toMatch(/Too early/);
    expect(item.dueInSeconds).toBeGreaterThan(100);
  });

  it('retries later when the provider cannot be reached (502), then settles', async () => {
    const p = await buyPending(t, '0000', 360_000);
    await advanceClocks(t, 125);
    await t.sandboxControl.addFault({ path: '/requeryTransaction', status: 502, count: 3 });
    const failedCheck = await t.call('pending.requeryNow', { id: p.id });
    expect(failedCheck.purchase.state).toBe('pending');
    expect(failedCheck.purchase.requery.lastNote).toMatch(/could not be reached/);
    expect(failedCheck.dueInSeconds).toBeGreaterThan(50);
    await advanceClocks(t, 61);
    const settled = await t.call('pending.requeryNow', { id: p.id });
    expect(settled.purchase.state).toBe('success');
  });

  it('hands a purchase to support once the service stops answering (429), with the details support asks for', async () => {
    const p = await buyPending(t, '2222', 410_000);
    await advanceClocks(t, 125);
    for (let i = 0; i < 5; i++) {
      const item = await t.call('pending.requeryNow', { id: p.id });
      expect(item.purchase.state).toBe('pending');
    }
    const stuck = await t.call('pending.requeryNow', { id: p.id });
    expect(stuck.purchase.state).toBe('needs_support');
    expect(stuck.due).toBe(false);
    expect(stuck.support).not.toBeNull();
    const text = stuck.support?.text ?? '';
    expect(text).toContain(p.reference ?? 'missing');
    expect(text).toContain('₦4,100.00');
    expect(text).toContain(p.account);
    expect(text).toContain(PHONE);
    expect(text).toContain('Status checks answered: 5');
    expect(stuck.purchase.whatToDo).toMatch(/support/);
    // Still unsettled: a duplicate is refused.
    const dup = await receiptOf(t.call('purchases.buyElectricity', { disco: 'IKEDC', meter: p.account, vendType: 'PREPAID', amountKobo: 410_000, phone: PHONE })).catch(
      (e: unknown) => e,
    );
    expect((dup as AppError).code).toBe('duplicate_pending');
    // Resolved by hand with a note.
    const resolved = await t.call('pending.resolve', { id: p.id, outcome: 'SUCCESS', note: 'Support ticket 5512 confirmed the token', token: '1111-2222-3333-4444-5555' });
    expect(resolved.purchase.state).toBe('success');
    expect(resolved.purchase.settledBy).toBe('manual');
    expect(resolved.purchase.note).toContain('5512');
  });

  it('explains a reference the service does not know (404)', async () => {
    const other = await startTestApp();
    try {
      pauseLoop(other);
      const p = await receiptOf(other.call('purchases.buyElectricity', { disco: 'IKEDC', meter: account('0000'), vendType: 'PREPAID', amountKobo: 300_000, phone: PHONE }));
      await other.sandboxControl.reset();
      await advanceClocks(other, 125);
      const item = await other.call('pending.requeryNow', { id: p.id });
      expect(item.purchase.state).toBe('not_found');
      expect(item.purchase.statusText).toContain(p.reference ?? 'missing');
      expect(item.purchase.whatToDo).toMatch(/nothing was bought/i);
      expect(countPendingItems(other.app)).toBe(0);
    } finally {
      await other.close();
    }
  });

  it('runs by itself: the loop announces due purchases and settles them', async () => {
    const p = await buyPending(t, '0000', 370_000);
    const events: EventMap['pending.due'][] = [];
    const off = t.app.events.subscribe((e) => {
      if (e.name === 'pending.due') events.push(e.payload as EventMap['pending.due']);
    });
    await advanceClocks(t, 125);
    try {
      await tickRequeryLoop(t);
    } finally {
      off();
    }
    expect(events.some((e) => e.count >= 1)).toBe(true);
    expect((await t.call('purchases.get', { id: p.id })).state).toBe('success');
  });

  it('counts what waits for a final answer, and `vendesk requery` checks every one now', async () => {
    const a = await buyPending(t, '0000', 380_000);
    const b = await buyPending(t, '2222', 390_000);
    const counted = countPendingItems(t.app);
    expect(counted).toBeGreaterThanOrEqual(2);
    expect((await t.call('pending.count', {})).count).toBe(counted);
    await advanceClocks(t, 125);
    const { code, stdout } = await cli(t, ['requery']);
    expect(code).toBe(0);
    const summary = JSON.parse(stdout) as { checked: number; success: number; items: { id: string; state: string }[] };
    expect(summary.items.find((i) => i.id === a.id)?.state).toBe('success');
    expect(summary.items.find((i) => i.id === b.id)?.state).toBe('pending');
  });

  it('`vendesk requery` does not ask the service about a purchase it does not answer yet: rescheduled to that moment', async () => {
    // An app of its own: no other purchase of this file is there to be asked.
    const other = await startPurchaseTestApp();
    try {
      const p = await buyPending(other, '0000', 395_000);
      // A tripwire: the next requery the service receives fails.
      await other.sandboxControl.addFault({ path: '/requeryTransaction', status: 502, count: 1 });
      const { code, stdout } = await cli(other, ['requery']);
      expect(code).toBe(0);
      const summary = JSON.parse(stdout) as { checked: number; rescheduled: number; items: { id: string; state: string; dueInSeconds: number | null }[] };
      expect(summary).toMatchObject({ checked: 1, rescheduled: 1 });
      expect(summary.items.map((i) => [i.id, i.state])).toEqual([[p.id, 'pending']]);
      expect(summary.items[0].dueInSeconds).toBeGreaterThan(0);
      expect(await other.sandboxControl.faults()).toEqual([expect.objectContaining({ path: '/requeryTransaction', remaining: 1 })]);
      const [listed] = await other.call('pending.list', {});
      expect(listed.purchase.requery.attempts).toBe(0);
      expect(listed.purchase.requery.lastAt).toBeNull();
    } finally {
      await other.close();
    }
  });

  it('turns a purchase left in "sending" by a crash into "uncertain", looks for it in the log, and blocks a duplicate meanwhile', async () => {
    const meter = account('1234');
    const clock = t.app.service(createServiceClock);
    const row = insertSendingPurchase(
      t.app,
      t.app.session(),
      {
        kind: 'electricity',
        provider_code: 'IKEDC',
        provider_name: 'Ikeja Electric',
        account: meter,
        vend_type: 'POSTPAID',
        bouquet_code: '',
        bouquet_name: '',
        amount_kobo: 130_000,
        phone: PHONE,
        customer_name: 'Left by a crash',
        customer_address: '',
        customer_type: '',
        balance_before_kobo: null,
      },
      clock.now() - 5 * 60_000,
    );
    await tickRequeryLoop(t);
    const after = await t.call('purchases.get', { id: row.id });
    expect(after.state).toBe('uncertain');
    expect(after.requery.lastNote).toMatch(/Not in the transaction log yet/);
    const dup = await receiptOf(t.call('purchases.buyElectricity', { disco: 'IKEDC', meter, vendType: 'POSTPAID', amountKobo: 130_000, phone: PHONE })).catch((e: unknown) => e);
    expect((dup as AppError).code).toBe('duplicate_pending');
    const resolved = await t.call('pending.resolve', { id: row.id, outcome: 'FAILED', note: 'Not in the log after a day; wallet not debited' });
    expect(resolved.purchase.state).toBe('failed');
    const bought = await receiptOf(t.call('purchases.buyElectricity', { disco: 'IKEDC', meter, vendType: 'POSTPAID', amountKobo: 130_000, phone: PHONE }));
    expect(bought.state).toBe('success');
  });
});
