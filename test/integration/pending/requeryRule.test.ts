/**
 * The 2 min 1 s rule, pinned to the millisecond: the requery loop asks the service about a
 * PENDING purchase no earlier than 121 s after it was bought. The wall clock is frozen for the
 * whole file (only `Date`: timers and sockets stay real), so vendesk, its service clock and the
 * in-process sandbox all read the same instant, and the test moves it — the result cannot depend
 * on how fast the machine runs the steps between.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TestApp } from '../../support/testApp';
import { createServiceClock } from '../../../src/main/pending';
import { PHONE, account, startPurchaseTestApp, tickRequeryLoop } from '../purchases/purchaseHelpers';
import { receiptOf } from '../../support/receiptOf';

// A whole second, so the service's Date header (second resolution) carries the instant exactly.
const T0 = Date.UTC(2026, 10, 27, 9, 0, 0);

describe('the requery loop keeps the 2 min 1 s rule', () => {
  let t: TestApp;
  beforeAll(async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(T0);
    t = await startPurchaseTestApp();
  });
  afterAll(async () => {
    await t.close();
    vi.useRealTimers();
  });

  it('does not ask 1 s before the 121st second, and asks at it', async () => {
    const bought = await receiptOf(t.call('purchases.buyElectricity', { disco: 'IKEDC', meter: account('0000'), vendType: 'PREPAID', amountKobo: 300_000, phone: PHONE }));
    expect(bought.state).toBe('pending');
    // vendesk's estimate of the service's clock (this computer's clock + the offset it learnt).
    const clock = t.app.service(createServiceClock);
    const boughtAt = clock.now();
    const [listed] = (await t.call('pending.list', {})).filter((i) => i.purchase.id === bought.id);
    expect(listed.dueInSeconds).toBe(121);
    const dueAt = Date.parse(listed.purchase.requery.nextAt ?? '');
    expect(dueAt).toBe(boughtAt + 121_000);

    // Service time one second before it is due.
    vi.setSystemTime(dueAt - 1_000 - clock.offsetMs());
    expect(clock.now()).toBe(dueAt - 1_000);
    await tickRequeryLoop(t);
    const early = await t.call('purchases.get', { id: bought.id });
    expect(early.state).toBe('pending');
    expect(early.requery.attempts).toBe(0);
    expect(early.requery.lastAt).toBeNull();
    const [waiting] = (await t.call('pending.list', {})).filter((i) => i.purchase.id === bought.id);
    expect(waiting.dueInSeconds).toBe(1);

    vi.setSystemTime(dueAt - clock.offsetMs());
    await tickRequeryLoop(t);
    const asked = await t.call('purchases.get', { id: bought.id });
    expect(asked.state).toBe('success');
    expect(asked.settledBy).toBe('requery');
  });
});
