/**
 * What an operation changes is declared next to it in the contract (`invalidates`), and dispatch
 * tells the windows after it succeeds (`data.changed` with those topics) — never after a refusal.
 * Background work (the requery loop, a sync) tells them through `app.invalidate`, naming itself.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { operations } from '../../../src/shared/contract';
import type { AppEvent } from '../../../src/shared/contract/events';
import { splitEventStream } from '../../../src/shared/eventStream';
import { SESSION_HEADER } from '../../../src/shared/webSession';
import { startTestApp, type TestApp } from '../../support/testApp';
import { PHONE, account, advanceClocks, pauseLoop, tickRequeryLoop } from '../purchases/purchaseHelpers';
import { receiptOf } from '../../support/receiptOf';

type Changed = AppEvent<'data.changed'>['payload'];

let t: TestApp;
let changed: Changed[];
let off: () => void;

async function start(options: { web?: boolean } = {}): Promise<void> {
  t = await startTestApp(options);
  pauseLoop(t);
  await t.control('wallet', { balance: 1_000_000 });
  changed = [];
  off = t.app.events.subscribe((e: AppEvent) => {
    if (e.name === 'data.changed') changed.push({ ...(e.payload as Changed) });
  });
}

afterEach(async () => {
  off();
  await t.close();
});

describe('declared invalidation', () => {
  beforeEach(() => start());

  it('the operations that change jobs, bulk settings and reconciliation say so in the contract', () => {
    expect(operations['bulk.settings.set'].invalidates).toEqual(['bulk.settings']);
    for (const name of ['bulk.prepare', 'bulk.cancel', 'bulk.resolveItems', 'bulk.discard'] as const) expect(operations[name].invalidates, name).toEqual(['jobs']);
    expect(operations['reconcile.resolve'].invalidates).toEqual(['reconcile']);
  });

  it('a successful call tells the windows once, with the declared topics', async () => {
    await t.call('bulk.settings.set', { batchSize: 7 });
    expect(changed.map((c) => c.topics)).toEqual([['bulk.settings']]);
    expect((await t.call('bulk.settings.get', {})).batchSize).toBe(7);
  });

  it('a refused call tells nobody anything changed', async () => {
    await expect(t.call('bulk.settings.set', { batchSize: 0 })).rejects.toThrow(/Batch size/);
    await expect(t.call('bulk.discard', { jobId: 'no-such-job' })).rejects.toThrow();
    // A purchase refused before anything is written (an amount below the disco's range).
    await expect(t.call('purchases.buyElectricity', { disco: 'IKEDC', meter: account('1234'), vendType: 'PREPAID', amountKobo: 50_000, phone: PHONE })).rejects.toThrow(/range/);
    expect(changed).toEqual([]);
  });

  it('a purchase tells the windows once, after its answer, with what its operation declares', async () => {
    const p = await receiptOf(t.call('purchases.buyElectricity', { disco: 'IKEDC', meter: account('1234'), vendType: 'PREPAID', amountKobo: 500_000, phone: PHONE }));
    expect(p.state).toBe('success');
    expect(changed).toEqual([{ topics: ['purchases', 'pending', 'balance', 'mirror'], reason: 'purchases.buyElectricity' }]);
  });

  it('the requery loop, which no operation starts, tells the windows itself when it settles a purchase', async () => {
    const p = await receiptOf(t.call('purchases.buyElectricity', { disco: 'IKEDC', meter: account('0000'), vendType: 'PREPAID', amountKobo: 300_000, phone: PHONE }));
    expect(p.state).toBe('pending');
    changed = [];
    await advanceClocks(t, 125);
    await tickRequeryLoop(t);
    expect((await t.call('purchases.get', { id: p.id })).state).toBe('success');
    // Moving the service clock changes what is due; the requery settled it and mirrored its entry.
    expect(changed).toEqual([
      { topics: ['pending'], reason: 'service clock moved' },
      { topics: ['pending', 'purchases', 'mirror'], reason: 'requery loop' },
    ]);
  });

  it('tells the windows once for a pass of the requery loop, however many purchases it settles', async () => {
    const bought = [];
    for (const amountKobo of [300_000, 400_000, 500_000]) {
      bought.push(await receiptOf(t.call('purchases.buyElectricity', { disco: 'IKEDC', meter: account('0000'), vendType: 'PREPAID', amountKobo, phone: PHONE })));
    }
    expect(bought.map((p) => p.state)).toEqual(['pending', 'pending', 'pending']);
    await advanceClocks(t, 125);
    changed = [];
    await tickRequeryLoop(t);
    for (const p of bought) expect((await t.call('purchases.get', { id: p.id })).state).toBe('success');
    expect(changed).toEqual([{ topics: ['pending', 'purchases', 'mirror'], reason: 'requery loop' }]);
  });
});

describe('declared invalidation through the web shell', () => {
  beforeEach(() => start({ web: true }));

  it('a write over HTTP puts exactly the declared data.changed event on the event stream', async () => {
    const shell = t.shell!;
    const headers = { [SESSION_HEADER]: shell.secret };
    const controller = new AbortController();
    const stream = await fetch(`${shell.origin}/api/events`, { headers, signal: controller.signal });
    const reader = stream.body!.getReader();
    await reader.read(); // ": connected"

    const answer = await fetch(`${shell.origin}/api/messaging.phonebooks.create`, {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Field staff', description: 'Invalidation test' }),
    });
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { ok: boolean }).ok).toBe(true);
    // A marker after the call: every data.changed before it is what the call caused.
    t.app.invalidate(['catalog'], 'end of test');

    const received: Changed[] = [];
    let rest = '';
    for (;;) {
      const split = splitEventStream(rest + new TextDecoder().decode((await reader.read()).value));
      rest = split.rest;
      for (const e of split.events) if (e.name === 'data.changed') received.push(JSON.parse(e.data) as Changed);
      if (received.some((c) => c.reason === 'end of test')) break;
    }
    controller.abort();
    expect(received).toEqual([
      { topics: ['phonebooks'], reason: 'messaging.phonebooks.create' },
      { topics: ['catalog'], reason: 'end of test' },
    ]);
  });
});
