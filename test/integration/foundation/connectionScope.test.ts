/**
 * Every local record belongs to the connection it was made on (issue 12, finding 1): after
 * switching to a LIVE profile, nothing made on the sandbox is listed, counted, summed, opened or
 * requeried there, and the live service is never asked about a sandbox purchase. Reconciling on
 * the LIVE connection reads only its own submissions, message charges and wallet readings, even
 * when the sandbox made some inside the live period (issue 25: a reconcile query that lost its
 * connection filter survived every test).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../../../src/main/app';
import { dispatch } from '../../../src/main/dispatch';
import { createPendingScheduler } from '../../../src/main/pending';
import { startTestSandbox, type TestSandbox } from '../../support/testSandbox';
import type { OperationInput, OperationName, OperationOutput } from '../../../src/shared/contract';
import { AppError } from '../../../src/shared/appError';
import { refusal } from '../../support/refusal';
import { sandboxWalletKobo } from '../../support/sandboxRecords';
import { startTestApp, type TestApp } from '../../support/testApp';
import { PHONE, account, advanceClocks, pauseLoop } from '../purchases/purchaseHelpers';
import { buyElectricity, exceptions, exportVendorLog, meter, reconcile, removeFile, sync } from '../reconcile/reconcileHelpers';
import { receiptOf } from '../../support/receiptOf';

const LIVE_TOKEN = 'scope-live-token-7d2e';

async function call<N extends OperationName>(app: App, name: N, input: OperationInput<N>): Promise<OperationOutput<N>> {
  const r = await dispatch(app, name, input);
  if (!r.ok) throw AppError.fromShape(r.error);
  return r.value as OperationOutput<N>;
}

/** The live service's own list of faults still armed on /requeryTransaction: a requery would have used one. */
async function armedRequeryFaults(live: TestSandbox): Promise<number> {
  const faults = await live.control(LIVE_TOKEN).faults();
  return faults.filter((f) => f.path === '/requeryTransaction').reduce((s, f) => s + f.remaining, 0);
}

describe('records of one connection stay with it', () => {
  let t: TestApp;
  let live: TestSandbox;
  let pendingId = '';
  let paidId = '';

  beforeAll(async () => {
    live = await startTestSandbox({ tokens: [LIVE_TOKEN], accountName: 'Acme Live Ltd' });
    t = await startTestApp();
    pauseLoop(t);
    await t.sandboxControl.setWallet(1_000_000);
    const pending = await receiptOf(t.call('purchases.buyElectricity', { disco: 'IKEDC', meter: account('0000'), vendType: 'PREPAID', amountKobo: 400_000, phone: PHONE }));
    const paid = await receiptOf(
      t.call('purchases.buyCable', {
        provider: 'DSTV',
        smartcard: account('4321'),
        bouquetCode: (await t.call('purchases.cableProviders', {})).find((c) => c.provider === 'DSTV')!.bouquets[0].code,
        phone: PHONE,
      }),
    );
    expect(pending.state).toBe('pending');
    expect(paid.state).toBe('success');
    pendingId = pending.id;
    paidId = paid.id;
    // A message too: what it cost is the sandbox connection's spend, not the live one's.
    const message = { target: { kind: 'number' as const, to: PHONE }, content: { kind: 'text' as const, text: 'Your token is ready.' }, emails: [] };
    await t.call('messaging.send', { ...message, senderId: 'VENDESK', confirmedTotalKobo: (await t.call('messaging.quote', message)).totalKobo });
    await t.call('sync.run', {});
  });
  afterAll(async () => {
    await t.close();
    await live.close();
  });

  it('on the sandbox, its purchases are listed, pending and summed', async () => {
    expect((await t.call('purchases.recent', { limit: 50 })).map((p) => p.id)).toEqual(expect.arrayContaining([pendingId, paidId]));
    expect((await t.call('pending.list', {})).map((i) => i.purchase.id)).toContain(pendingId);
    const { today } = (await t.call('dashboard.summary', {})).spend;
    expect(today.purchases).toBeGreaterThanOrEqual(2);
    expect(today.messaging).toMatchObject({ sends: 1, costKobo: 400 });
  });

  it('after switching to a LIVE profile, nothing of the sandbox is listed, counted, summed, opened or requeried', async () => {
    const saved = await t.call('profiles.save', { name: 'Acme live', baseUrl: live.url, token: LIVE_TOKEN });
    await t.call('profiles.activate', { id: saved.id, confirmLive: true });
    expect((await t.call('app.info', {})).connection).toMatchObject({ kind: 'live', profileName: 'Acme live' });

    expect(await t.call('purchases.recent', { limit: 50 })).toEqual([]);
    expect(await t.call('pending.list', { includeSettled: true })).toEqual([]);
    expect(await t.call('pending.count', {})).toMatchObject({ count: 0, due: 0 });
    const summary = await t.call('dashboard.summary', {});
    expect(summary.spend.today).toEqual({
      purchases: 0,
      faceKobo: 0,
      costKobo: 0,
      refunded: { count: 0, costKobo: 0 },
      messaging: {
        sends: 0,
        messages: 0,
        costKobo: 0,
        sms: { sends: 0, messages: 0, costKobo: 0 },
        codes: { sends: 0, messages: 0, costKobo: 0 },
        asQuoted: 0,
        uncertain: { sends: 0, quotedKobo: 0 },
      },
      walletKobo: 0,
    });
    expect(summary.pendingCount).toBe(0);
    expect(summary.balance?.accountName).toBe('Acme Live Ltd');
    expect(await t.call('reconcile.runs', {})).toEqual([]);
    expect((await refusal(t.call('purchases.get', { id: paidId }))).code).toBe('purchase_not_found');
    expect((await refusal(t.call('pending.requeryNow', { id: pendingId }))).code).toBe('purchase_not_found');
    // The window's sandbox outbox is not read through a live connection (a live service sends to real phones).
    const outbox = await refusal(t.call('messaging.sandboxOutbox', {}));
    expect(outbox.code).toBe('not_sandbox');
    expect(outbox.message).toMatch(/only on the sandbox connection/);

    // The requery loop of the live connection never asks the live service about the sandbox's purchase.
    await live.control(LIVE_TOKEN).addFault({ path: '/requeryTransaction', status: 502, count: 1 });
    await advanceClocks(t, 125);
    const loop = t.app.service(createPendingScheduler);
    loop.resume();
    await loop.tick();
    loop.pause();
    expect(await call(t.app, 'pending.requeryDue', { all: true })).toMatchObject({ checked: 0 });
    expect(await armedRequeryFaults(live)).toBe(1);
  });

  it('a second vendesk on the same data folder, connected to the sandbox again, still has them, untouched', async () => {
    const again = await createApp({ dataDir: t.dataDir, shell: 'test', connection: { baseUrl: t.sandbox.url, token: t.token, kind: 'sandbox', name: 'Test sandbox' } });
    try {
      const pending = await call(again, 'purchases.get', { id: pendingId });
      expect(pending.state).toBe('pending');
      expect(pending.requery.attempts).toBe(0);
      expect((await call(again, 'purchases.recent', { limit: 50 })).map((p) => p.id)).toEqual(expect.arrayContaining([pendingId, paidId]));
    } finally {
      again.service(createPendingScheduler).pause();
      await again.close();
    }
  });
});

describe('reconciling on a LIVE connection', () => {
  let t: TestApp;
  let live: TestSandbox;
  beforeAll(async () => {
    live = await startTestSandbox({ tokens: [LIVE_TOKEN], accountName: 'Acme Live Ltd' });
    t = await startTestApp();
    pauseLoop(t);
    await t.sandboxControl.setWallet(1_000_000);
    expect((await buyElectricity(t, meter('4321'))).state).toBe('success');
    await sync(t);
    const saved = await t.call('profiles.save', { name: 'Acme live', baseUrl: live.url, token: LIVE_TOKEN });
    await t.call('profiles.activate', { id: saved.id, confirmLive: true });
  });
  afterAll(async () => {
    await t.close();
    await live.close();
  });

  it('compares the live export with live records only: purchases, message charges and wallet readings', async () => {
    // The sandbox's purchase and first wallet reading were made just before, inside the period of
    // the live export.
    const liveWallet = () => sandboxWalletKobo({ sandbox: live, token: LIVE_TOKEN });
    await sync(t); // the live opening balance
    const opening = await liveWallet();
    // Meanwhile a second vendesk on this data folder, on the sandbox, pays for a message and reads
    // its wallet, inside the live period and after it: a charge and balances of the sandbox's.
    const sandboxSide = await createApp({ dataDir: t.dataDir, shell: 'test', connection: { baseUrl: t.sandbox.url, token: t.token, kind: 'sandbox', name: 'Test sandbox' } });
    let closing = 0;
    try {
      sandboxSide.service(createPendingScheduler).pause();
      const sms = { target: { kind: 'number' as const, to: PHONE }, content: { kind: 'text' as const, text: 'Scope check' }, emails: [] };
      const quote = await call(sandboxSide, 'messaging.quote', sms);
      await call(sandboxSide, 'messaging.send', { ...sms, senderId: 'VENDESK', confirmedTotalKobo: quote.totalKobo });
      await call(sandboxSide, 'sync.run', {});
      const bought = await buyElectricity(t, meter('4321'));
      expect(bought.state).toBe('success');
      await sync(t); // the live closing balance
      closing = await liveWallet();
      await call(sandboxSide, 'sync.run', {});
    } finally {
      sandboxSide.service(createPendingScheduler).pause();
      await sandboxSide.close();
    }
    const file = await exportVendorLog(t);
    try {
      const run = await reconcile(t, file);
      // Had the sandbox's purchases been read as this connection's, they would stand as lost submissions.
      expect(exceptions(run)).toEqual({});
      expect(run.totals.matched.count).toBe(1);
      // The roll-forward is the live wallet's own: its balances, no sandbox message charge.
      expect(run.rollForward).toMatchObject({ available: true, openingKobo: opening, closingKobo: closing, messagingKobo: 0, messagingCharges: 0, unexplainedKobo: 0 });
    } finally {
      removeFile(file);
    }
  });
});
