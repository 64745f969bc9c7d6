/**
 * Reconciliation against the real sandbox over HTTP: each category is created on purpose —
 * through the sandbox (a purchase after the mirror's sync, a pending meter, a declined meter
 * whose refund is taken back out of the wallet, a purchase the vendor forgets after a reset, a
 * second charge made outside vendesk) or by editing the vendor's export — and found, with
 * nothing else reported.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/main';
import { startTestApp, type TestApp } from '../../support/testApp';
import { advanceClocks, pauseLoop } from '../purchases/purchaseHelpers';
import { buyElectricity, buyElsewhere, CUSTOMER_PHONE, exceptions, exportVendorLog, meter, reconcile, sync } from './reconcileHelpers';
import { receiptOf } from '../../support/receiptOf';

let t: TestApp | null = null;
afterEach(async () => {
  await t?.close();
  t = null;
});

/** A vendesk on its own sandbox organisation, whose log starts with `seedHistory` past entries. */
async function start(seedHistory = 0): Promise<TestApp> {
  t = await startTestApp({ seedHistory });
  pauseLoop(t);
  return t;
}

describe('reconciling a vendor export', () => {
  it('matches a clean export entry for entry, by transaction_id, and saves the run with its inputs', async () => {
    const t = await start(120);
    await sync(t);
    const file = await exportVendorLog(t);
    const run = await reconcile(t, file);
    expect(run.state).toBe('done');
    expect(exceptions(run)).toEqual({});
    expect(run.totals.matched.count).toBe(120);
    expect(run.matchedByRule.transaction_id).toBe(120);
    expect(run.inputs).toMatchObject({ fileFormat: 'csv', exportRows: 120, mirrorRows: 120, exportRowsUnreadable: 0 });
    expect(run.inputs?.fileHash).toMatch(/^[0-9a-f]{64}$/);

    const runs = await t.call('reconcile.runs', {});
    expect(runs[0]).toMatchObject({ id: run.id, matched: 120, exceptions: 0 });
    const reopened = await t.call('reconcile.run', { runId: run.id });
    expect(reopened.totals).toEqual(run.totals);
    const page = await t.call('reconcile.items', { runId: run.id, category: 'matched', offset: 0, limit: 10 });
    expect(page.total).toBe(120);
    expect(page.items[0]).toMatchObject({ category: 'matched', rule: 'transaction_id' });
  });

  it('finds a purchase made elsewhere after the mirror was synced as missing locally', async () => {
    const t = await start();
    await buyElectricity(t, meter());
    await sync(t);
    const late = await buyElsewhere(t, meter(), 3000);
    const run = await reconcile(t, await exportVendorLog(t));
    expect(exceptions(run)).toEqual({ missingLocally: 1 });
    const items = await t.call('reconcile.items', { runId: run.id, category: 'missingLocally' });
    expect(items.items[0]).toMatchObject({ transactionId: late.reference, exportAmountKobo: 300_000, mirrorAmountKobo: null });
    expect(items.items[0].detail).toMatch(/Sync the mirror/);
  });

  it('finds entries left out of the export, and edited amounts and statuses', async () => {
    const t = await start(40);
    await sync(t);
    let dropped = '';
    let changedAmount = '';
    let changedStatus = '';
    const file = await exportVendorLog(t, (rows) => {
      dropped = String(rows[3].transaction_id);
      changedAmount = rows[5].transaction_id;
      const status = rows.findIndex((r, i) => i > 6 && r.status === 'SUCCESS');
      changedStatus = rows[status].transaction_id;
      return rows
        .filter((_, i) => i !== 3)
        .map((r) => (r.transaction_id === changedAmount ? { ...r, amount: 'NGN 999,999.00' } : r.transaction_id === changedStatus ? { ...r, status: 'FAILED' } : r));
    });
    const run = await reconcile(t, file);
    expect(exceptions(run)).toEqual({ missingInExport: 1, amountMismatch: 1, statusMismatch: 1 });
    const get = async (category: 'missingInExport' | 'amountMismatch' | 'statusMismatch') => (await t.call('reconcile.items', { runId: run.id, category })).items[0];
    expect((await get('missingInExport')).transactionId).toBe(dropped);
    expect(await get('amountMismatch')).toMatchObject({ transactionId: changedAmount, exportAmountKobo: 99_999_900 });
    expect(await get('statusMismatch')).toMatchObject({ transactionId: changedStatus, exportStatus: 'FAILED', mirrorStatus: 'SUCCESS' });
  });

  it('matches by id and by phone, amount and time when the export has no references', async () => {
    const t = await start(30);
    await sync(t);
    const file = await exportVendorLog(t, (rows) => rows.map((r, i) => (i === 2 ? { ...r, transaction_id: '' } : i === 4 ? { ...r, transaction_id: '', id: '' } : r)));
    const run = await reconcile(t, file);
    expect(exceptions(run)).toEqual({});
    expect(run.matchedByRule).toEqual({ transaction_id: 28, id: 1, phone_amount_time: 1 });
  });

  it('lists pending purchases and requeries them all in one action', async () => {
    const t = await start();
    const pending = await buyElectricity(t, meter('0000'));
    expect(pending.state).toBe('pending');
    await sync(t);
    const run = await reconcile(t, await exportVendorLog(t));
    expect(exceptions(run)).toEqual({ pending: 1 });
    await advanceClocks(t, 125);
    const summary = await t.call('reconcile.requeryPending', { runId: run.id });
    expect(summary).toMatchObject({ queued: 1, success: 1, failed: 0, notChecked: 0 });
    const item = (await t.call('reconcile.items', { runId: run.id, category: 'pending' })).items[0];
    expect(item.requeryStatus).toBe('SUCCESS');
    expect((await t.call('purchases.get', { id: pending.id })).state).toBe('success');
  });

  it('reports a purchase vendesk made that the vendor has no record of as a lost submission', async () => {
    const t = await start();
    const lost = await buyElectricity(t, meter(), 1500);
    await t.sandboxControl.reset();
    await buyElectricity(t, meter());
    await sync(t);
    const run = await reconcile(t, await exportVendorLog(t));
    expect(exceptions(run)).toEqual({ lostSubmissions: 1 });
    const item = (await t.call('reconcile.items', { runId: run.id, category: 'lostSubmissions' })).items[0];
    expect(item).toMatchObject({ localRef: `purchase:${lost.id}`, transactionId: lost.reference, amountKobo: 150_000 });
  });

  it('flags a second charge for the same customer and amount that vendesk did not ask for', async () => {
    const t = await start();
    const account = meter();
    await buyElectricity(t, account, 2500);
    // The vendor charges the same purchase again (here: a second request outside vendesk).
    await t.app.client().purchaseElectricity({ amount: 2500, meter: account, phone: CUSTOMER_PHONE, disco: 'IKEDC', vendType: 'PREPAID' });
    await sync(t);
    const run = await reconcile(t, await exportVendorLog(t));
    expect(exceptions(run)).toEqual({ duplicateCharges: 1 });
    expect(run.totals.duplicateCharges.amountKobo).toBe(250_000);
    expect(run.totals.matched.count).toBe(1);
  });

  it('rolls the wallet forward between syncs and names a failed purchase whose refund never showed', async () => {
    const t = await start();
    await sync(t); // opening snapshot
    // The service's times are whole seconds: a purchase in the same second as a balance reading may
    // fall either side of it. The sandbox's clock is moved on between them, so none does.
    await advanceClocks(t, 2);
    await buyElectricity(t, meter(), 4000);
    // The provider logs the decline as FAILED but its refund never reaches the wallet.
    await t.sandboxControl.withholdRefunds(1);
    await receiptOf(t.call('purchases.buyElectricity', { disco: 'IKEDC', meter: meter('9999'), vendType: 'PREPAID', amountKobo: 300_000, phone: CUSTOMER_PHONE }));
    const log = (await t.app.client().logEntries({ status: 'failed', perPage: 10 })).Items;
    expect(log).toHaveLength(1);
    const cost = Math.round(log[0].transaction_cost * 100);
    await advanceClocks(t, 2);
    await sync(t); // closing snapshot
    const run = await reconcile(t, await exportVendorLog(t));
    // It has failed once in many runs on a busy machine without saying why: when it does, it says
    // what the roll-forward placed and what the wallet readings and purchases were.
    const evidence = JSON.stringify({
      rollForward: run.rollForward,
      readings: t.app.db.prepare('SELECT taken_at, taken_to, balance_kobo, source, local_from_ms, local_to_ms FROM balance_snapshots ORDER BY id').all(),
      purchases: t.app.db.prepare('SELECT state, amount_kobo, reference, local_sent_ms, local_answered_ms FROM purchases ORDER BY created_at').all(),
      log: (await t.app.client().logEntries({ perPage: 20 })).Items.map((e) => [e.transaction_id, e.status, e.transaction_cost, e.created_at, e.updated_at]),
    });
    expect(exceptions(run), evidence).toEqual({ missingRefunds: 1 });
    expect(run.rollForward).toMatchObject({ available: true, refundsKobo: cost, failedDebitsKobo: cost, differenceKobo: -cost, missingRefundsKobo: -cost, unexplainedKobo: 0 });
    const item = (await t.call('reconcile.items', { runId: run.id, category: 'missingRefunds' })).items[0];
    expect(item).toMatchObject({ transactionId: log[0].transaction_id, exportStatus: 'FAILED' });
  });

  it('shows a wallet movement nothing in the log explains', async () => {
    const t = await start();
    await sync(t);
    await advanceClocks(t, 2); // readings and movements in distinct seconds of the service's clock
    await buyElectricity(t, meter(), 2000);
    const now = (await t.call('account.balance', {})).balanceKobo;
    await t.sandboxControl.setWallet((now + 50_000_00) / 100); // a top-up of ₦50,000
    await advanceClocks(t, 2);
    await sync(t);
    const run = await reconcile(t, await exportVendorLog(t));
    expect(exceptions(run)).toEqual({});
    expect(run.rollForward).toMatchObject({ available: true, differenceKobo: 5_000_000, unexplainedKobo: 5_000_000 });
  });

  it('marks items resolved with a note, kept when the run is reopened', async () => {
    const t = await start(10);
    await sync(t);
    const run = await reconcile(t, await exportVendorLog(t, (rows) => rows.filter((_, i) => i !== 4)));
    const item = (await t.call('reconcile.items', { runId: run.id, category: 'missingInExport' })).items[0];
    await expect(t.call('reconcile.resolve', { runId: run.id, seqs: [item.seq], note: 'ok' })).rejects.toThrow(/short note/);
    await t.call('reconcile.resolve', { runId: run.id, seqs: [item.seq], note: 'Vendor confirmed: export cut at midnight' });
    const again = (await t.call('reconcile.items', { runId: run.id, category: 'missingInExport' })).items[0];
    expect(again).toMatchObject({ resolutionNote: 'Vendor confirmed: export cut at midnight' });
    expect((await t.call('reconcile.run', { runId: run.id })).resolved).toEqual({ missingInExport: 1 });
  });

  it('says what to do with a file that is not a transaction log', async () => {
    const t = await start();
    const file = `${t.dataDir}/contacts.csv`;
    (await import('node:fs')).writeFileSync(file, 'Name,Phone\nAda,08031234567\n');
    await expect(reconcile(t, file)).rejects.toThrow(/No Amount and status column found/);
    const runs = await t.call('reconcile.runs', {});
    expect(runs[0]).toMatchObject({ state: 'failed' });
  });

  it('vendesk reconcile FILE prints the JSON of the issue and exits 0', async () => {
    const t = await start(25);
    await sync(t);
    const file = await exportVendorLog(t, (rows) => rows.filter((_, i) => i !== 5 && i !== 7));
    const out: string[] = [];
    const err: string[] = [];
    const workbook = `${t.dataDir}/report.xlsx`;
    const code = await runCli(['reconcile', file, '--out', workbook, '--data-dir', t.dataDir, '--base-url', t.sandbox.url], {
      stdout: (s) => out.push(s),
      stderr: (s) => err.push(s),
      env: { VENDESK_TOKEN: t.token },
    });
    expect(code).toBe(0);
    const json = JSON.parse(out.join('')) as Record<string, unknown>;
    expect(Object.keys(json)).toEqual([
      'runId',
      'matched',
      'missingLocally',
      'missingInExport',
      'amountMismatch',
      'statusMismatch',
      'pending',
      'lostSubmissions',
      'duplicateCharges',
      'missingRefunds',
      'unexplainedBalance',
      'rollForward',
    ]);
    expect(json.matched).toMatchObject({ count: 23 });
    expect(json.missingInExport).toMatchObject({ count: 2 });
    expect(typeof (json.missingInExport as { amount: number }).amount).toBe('number');
    // One sync is one balance reading: no roll-forward, and "unknown" is null, never 0.
    expect(json.unexplainedBalance).toBeNull();
    expect(json.rollForward).toMatchObject({ available: false, unexplained: null, difference: null });
    expect((json.rollForward as { note: string }).note).toMatch(/two wallet balance readings|No wallet balance/);
    expect((await import('node:fs')).existsSync(workbook)).toBe(true);
    expect(err.join('\n')).toMatch(/In the local mirror, not in the export\s+2/);
  });
});
