/**
 * Single electricity and cable purchases against the sandbox over real HTTP: receipts, declines
 * and refunds, the POSTPAID rule, duplicates of a pending purchase (operation and CLI), and a
 * purchase whose answer was lost, settled from the transaction log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../support/testApp';
import { startTestSandbox } from '../../support/testSandbox';
import { refusal } from '../../support/refusal';
import { sandboxLog } from '../../support/sandboxRecords';
import { startDroppingProxy, type DroppingProxy } from './droppingProxy';
import { PHONE, account, cli, pauseLoop, serviceLogEntry, startPurchaseTestApp, walletKobo } from './purchaseHelpers';
import { receiptOf } from '../../support/receiptOf';

const TOKEN_SHAPE = /^\d{4}(-\d{4}){4}$/;

describe('electricity and cable purchases', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startPurchaseTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('lists the discos with their ranges and the cable bouquets from the catalog', async () => {
    const discos = await t.call('purchases.electricityProviders', {});
    const ikedc = discos.find((d) => d.code === 'IKEDC');
    expect(ikedc).toMatchObject({ name: 'Ikeja Electric', minKobo: 100_000, maxKobo: 50_000_000 });
    const cable = await t.call('purchases.cableProviders', {});
    expect(cable.map((c) => c.provider)).toEqual(expect.arrayContaining(['DSTV', 'GOTV']));
  });

  it('validates a meter, buys a prepaid token and gives a receipt with token and units; the wallet is debited', async () => {
    const meter = account('1234');
    const meterView = await t.call('purchases.validateMeter', { disco: 'IKEDC', meter, vendType: 'PREPAID' });
    expect(meterView.name).not.toBe('');
    expect(meterView.address).not.toBe('');
    expect(meterView.allowedMinKobo).toBeGreaterThanOrEqual(100_000);
    const before = await walletKobo(t);
    const p = await receiptOf(t.call('purchases.buyElectricity', { disco: 'IKEDC', meter, vendType: 'PREPAID', amountKobo: 500_000, phone: '+234 803 123 4567' }));
    expect(p.state).toBe('success');
    expect(p.token).toMatch(TOKEN_SHAPE);
    expect(p.units).toBeGreaterThan(0);
    expect(p.reference).toBeTruthy();
    expect(p.phone).toBe(PHONE);
    expect(p.customerName).toBe(meterView.name);
    expect(p.statusText).toContain('Paid');
    expect(p.whatToDo).toContain('token');
    expect(await walletKobo(t)).toBeLessThan(before);
    // The receipt can be opened again later.
    expect((await t.call('purchases.get', { id: p.id })).token).toBe(p.token);
  });

  it('refuses a POSTPAID meter bought as PREPAID before anything is charged, and buys it as POSTPAID', async () => {
    const meter = account('5555');
    const before = await walletKobo(t);
    const error = await refusal(t.call('purchases.buyElectricity', { disco: 'EKEDC', meter, vendType: 'PREPAID', amountKobo: 300_000, phone: PHONE }));
    expect(error.code).toBe('invalid_meter');
    expect(error.message).toMatch(/vendType|POSTPAID/i);
    expect(error.hint).toContain('Nothing was charged');
    expect(await walletKobo(t)).toBe(before);
    const p = await receiptOf(t.call('purchases.buyElectricity', { disco: 'EKEDC', meter, vendType: 'POSTPAID', amountKobo: 300_000, phone: PHONE }));
    expect(p.state).toBe('success');
    expect(p.token).toBeNull();
  });

  it('refuses an amount outside the disco range or under the meter minimum, naming the range', async () => {
    const error = await refusal(t.call('purchases.buyElectricity', { disco: 'IKEDC', meter: account('1234'), vendType: 'PREPAID', amountKobo: 50_000, phone: PHONE }));
    expect(error.code).toBe('amount_out_of_range');
    expect(error.message).toContain('₦1,000.00');
    const unknown = await refusal(t.call('purchases.buyElectricity', { disco: 'ikedc', meter: account('1234'), vendType: 'PREPAID', amountKobo: 500_000, phone: PHONE }));
    expect(unknown.code).toBe('unknown_disco');
    expect(unknown.hint).toContain('IKEDC');
    // A meter whose own minimum is above its disco's (the sandbox's meters ending 4444 take ₦5,000):
    // refused before anything is sent, saying the meter's minimum; the service's wallet and log are untouched.
    const meter = account('4444');
    const before = await walletKobo(t);
    const below = await refusal(t.call('purchases.buyElectricity', { disco: 'IKEDC', meter, vendType: 'PREPAID', amountKobo: 200_000, phone: PHONE }));
    expect(below.code).toBe('amount_below_meter_minimum');
    expect(below.message).toBe(`Meter ${meter} accepts at least ₦5,000.00; ₦2,000.00 is less.`);
    expect(below.hint).toBe('Enter ₦5,000.00 or more.');
    expect(await walletKobo(t)).toBe(before);
    expect((await sandboxLog(t)).filter((e) => e.description.includes(meter))).toEqual([]);
    expect((await receiptOf(t.call('purchases.buyElectricity', { disco: 'IKEDC', meter, vendType: 'PREPAID', amountKobo: 500_000, phone: PHONE }))).state).toBe('success');
  });

  it("shows a provider decline with the provider's reason and confirms the refund from the service's log of that purchase", async () => {
    const before = await walletKobo(t);
    const p = await receiptOf(t.call('purchases.buyElectricity', { disco: 'IKEDC', meter: account('9999'), vendType: 'PREPAID', amountKobo: 200_000, phone: PHONE }));
    expect(p.state).toBe('failed');
    expect(p.reason).toMatch(/declined by provider/);
    expect(p.whatToDo).toMatch(/Check the meter number and whether the meter is PREPAID or POSTPAID/);
    expect(p.refund.state).toBe('confirmed');
    expect(p.refund.message).toMatch(/^Refunded: the service records this purchase as FAILED/);
    expect(p.refund.evidence).toContain(p.reference);
    expect((await serviceLogEntry(t, p.reference ?? ''))?.status).toBe('FAILED');
    expect(await walletKobo(t)).toBe(before);
  });

  it('validates a smartcard and buys a cable bouquet at its catalog price', async () => {
    const [dstv] = (await t.call('purchases.cableProviders', {})).filter((c) => c.provider === 'DSTV');
    const bouquet = dstv.bouquets[0];
    const smartcard = account('4321');
    const card = await t.call('purchases.validateSmartcard', { provider: 'dstv', smartcard });
    expect(card.name).not.toBe('');
    expect(card.customerType).toBe('RESIDENTIAL');
    const p = await receiptOf(t.call('purchases.buyCable', { provider: 'DSTV', smartcard, bouquetCode: bouquet.code, phone: PHONE }));
    expect(p.state).toBe('success');
    expect(p.amountKobo).toBe(bouquet.amountKobo);
    expect(p.bouquetName).toBe(bouquet.name);
    expect(p.customerType).toBe('RESIDENTIAL');
    const wrongCase = await refusal(t.call('purchases.buyCable', { provider: 'DSTV', smartcard, bouquetCode: bouquet.code.toUpperCase(), phone: PHONE }));
    expect(wrongCase.code).toBe('unknown_bouquet');
  });

  it('refuses a duplicate of a pending purchase, saying which purchase blocks it, in the operation and the CLI', async () => {
    const meter = account('0000');
    const first = await receiptOf(t.call('purchases.buyElectricity', { disco: 'IKEDC', meter, vendType: 'PREPAID', amountKobo: 400_000, phone: PHONE }));
    expect(first.state).toBe('pending');
    expect(first.reference).toBeTruthy();
    const before = await walletKobo(t);

    const error = await refusal(t.call('purchases.buyElectricity', { disco: 'IKEDC', meter, vendType: 'PREPAID', amountKobo: 400_000, phone: '08039999999' }));
    expect(error.code).toBe('duplicate_pending');
    expect(error.message).toContain(first.reference ?? 'missing');
    expect(error.message).toContain(meter);
    expect(error.hint).toContain('Pending page');

    const viaCli = await cli(t, ['buy', 'electricity', '--disco', 'IKEDC', '--meter', meter, '--type', 'PREPAID', '--amount', '4,000', '--phone', PHONE, '--yes']);
    expect(viaCli.code).toBe(1);
    const doc = JSON.parse(viaCli.stdout) as { error: { code: string; message: string } };
    expect(doc.error.code).toBe('duplicate_pending');
    expect(doc.error.message).toContain(first.reference ?? 'missing');
    expect(await walletKobo(t)).toBe(before);

    // A cable bouquet pending on a smartcard blocks the same bouquet, not a different one.
    const smartcard = account('0000');
    const cable = await t.call('purchases.cableProviders', {});
    const gotv = cable.find((c) => c.provider === 'GOTV');
    if (!gotv) throw new Error('no GOTV in the catalog');
    const pendingCable = await receiptOf(t.call('purchases.buyCable', { provider: 'GOTV', smartcard, bouquetCode: gotv.bouquets[0].code, phone: PHONE }));
    expect(pendingCable.state).toBe('pending');
    const dup = await refusal(t.call('purchases.buyCable', { provider: 'GOTV', smartcard, bouquetCode: gotv.bouquets[0].code, phone: PHONE }));
    expect(dup.code).toBe('duplicate_pending');
  });

  it('buys from the CLI with --yes, refuses without it, and lists pending purchases', async () => {
    const meter = account('2222');
    const noYes = await cli(t, ['buy', 'electricity', '--disco', 'AEDC', '--meter', meter, '--type', 'PREPAID', '--amount', '2500', '--phone', PHONE]);
    expect(noYes.code).toBe(2);
    expect(noYes.stderr).toContain('Add --yes');

    const bought = await cli(t, ['buy', 'electricity', '--disco', 'AEDC', '--meter', meter, '--type', 'PREPAID', '--amount', '2500', '--phone', PHONE, '--yes']);
    expect(bought.code).toBe(0);
    const purchase = JSON.parse(bought.stdout) as { state: string; amount: number; reference: string };
    expect(purchase).toMatchObject({ state: 'pending', amount: 2500 });

    const listed = await cli(t, ['pending']);
    expect(listed.code).toBe(0);
    const list = JSON.parse(listed.stdout) as { count: number; items: { reference: string; account: string }[] };
    expect(list.items.map((i) => i.reference)).toContain(purchase.reference);

    const cableBought = await cli(t, ['buy', 'cable', '--provider', 'GOTV', '--smartcard', account('7777'), '--bouquet', 'gotv-smallie', '--phone', PHONE, '--yes']);
    expect(cableBought.code).toBe(0);
    expect(JSON.parse(cableBought.stdout)).toMatchObject({ state: 'success', bouquet: 'gotv-smallie', amount: 1900 });
  });
});

describe('a purchase whose answer is lost', () => {
  let t: TestApp;
  let proxy: DroppingProxy;
  let closeSandbox: () => Promise<void>;
  beforeAll(async () => {
    const sandbox = await startTestSandbox();
    closeSandbox = () => sandbox.close();
    proxy = await startDroppingProxy(sandbox.url);
    t = await startTestApp({ sandbox: { ...sandbox, url: proxy.url } });
    pauseLoop(t);
  });
  afterAll(async () => {
    await t.close();
    await proxy.close();
    await closeSandbox();
  });

  it('is recorded as uncertain, never resent, and settled from the transaction log', async () => {
    const meter = account('1234');
    const before = await walletKobo(t);
    proxy.dropAnswers('/purchaseElectricity', 1);
    const p = await receiptOf(t.call('purchases.buyElectricity', { disco: 'IKEDC', meter, vendType: 'POSTPAID', amountKobo: 150_000, phone: PHONE }));
    // The log had it at once: settled as a success with the service's reference.
    expect(p.state).toBe('success');
    expect(p.settledBy).toBe('log');
    expect(p.reference).toBeTruthy();
    expect(p.requery.lastNote).toContain('Found in the transaction log');
    // Charged exactly once.
    const after = await walletKobo(t);
    expect(before - after).toBeGreaterThan(0);
    expect(before - after).toBeLessThanOrEqual(150_000);
  });

  it('is settled from the log even when the log also holds an entry vendesk cannot read', async () => {
    const meter = account('1234');
    proxy.dropAnswers('/purchaseElectricity', 1);
    // The log's answer carries, beside the purchase, an entry with an amount nobody can read.
    proxy.rewriteAnswers('/logEntries', 1, ({ status, body }) => {
      const envelope = JSON.parse(body) as { data: { Items: Record<string, unknown>[] } };
      const items = envelope.data.Items;
      if (items.length > 0) items.push({ ...items[0], id: 987_654_321, transaction_id: 'UNREADABLE-1', amount: 'NGN one thousand' });
      return { status, body: JSON.stringify(envelope) };
    });
    const p = await receiptOf(t.call('purchases.buyElectricity', { disco: 'IKEDC', meter, vendType: 'POSTPAID', amountKobo: 130_000, phone: PHONE }));
    expect(p.state).toBe('success');
    expect(p.settledBy).toBe('log');
    // The entry it was tied to is the service's record of this purchase.
    const entry = await serviceLogEntry(t, p.reference ?? '');
    expect(entry).toMatchObject({ status: 'SUCCESS', amount: 'NGN 1,300.00' });
    expect(entry?.description).toContain(meter);
  });

  it('keeps a prepaid purchase found in the log pending until a requery brings its token', async () => {
    proxy.dropAnswers('/purchaseElectricity', 1);
    const p = await receiptOf(t.call('purchases.buyElectricity', { disco: 'IKEDC', meter: account('1234'), vendType: 'PREPAID', amountKobo: 150_000, phone: PHONE }));
    expect(p.state).toBe('pending');
    expect(p.requery.lastNote).toMatch(/requeries it to fetch the token/);
  });

  it('says the refund is missing when the answer said declined but the service logged the purchase as charged', async () => {
    const before = await walletKobo(t);
    proxy.rewriteAnswers('/purchaseElectricity', 1, ({ body }) => {
      const real = JSON.parse(body) as { requestReference: string };
      return {
        status: 400,
        body: JSON.stringify({ gatewayStatus: '88', gatewayMessage: 'Unsucessfull', requestReference: real.requestReference, data: 'declined by provider: try again later' }),
      };
    });
    const p = await receiptOf(t.call('purchases.buyElectricity', { disco: 'IKEDC', meter: account('1234'), vendType: 'POSTPAID', amountKobo: 110_000, phone: PHONE }));
    expect(p.state).toBe('failed');
    // The service's own records: charged and logged SUCCESS under the reference it answered with.
    expect((await serviceLogEntry(t, p.reference ?? ''))?.status).toBe('SUCCESS');
    expect(await walletKobo(t)).toBeLessThan(before);
    expect(p.refund.state).toBe('missing');
    expect(p.refund.message).toMatch(/^Refund missing: the service's log shows this purchase as charged/);
    expect(p.whatToDo).toMatch(/Contact support/);
  });

  it('stays uncertain (and blocks a duplicate) when the log does not show it', async () => {
    const meter = account('1234');
    proxy.dropAnswers('/purchaseElectricity', 1);
    proxy.dropAnswers('/logEntries', 3);
    const p = await receiptOf(t.call('purchases.buyElectricity', { disco: 'IKEDC', meter, vendType: 'POSTPAID', amountKobo: 120_000, phone: PHONE }));
    expect(p.state).toBe('uncertain');
    expect(p.whatToDo).toContain('Do not buy it again');
    const dup = await refusal(t.call('purchases.buyElectricity', { disco: 'IKEDC', meter, vendType: 'POSTPAID', amountKobo: 120_000, phone: PHONE }));
    expect(dup.code).toBe('duplicate_pending');
    // The next look at the log settles it.
    const settled = await t.call('purchases.settleUncertain', { id: p.id });
    expect(settled.state).toBe('success');
    expect(settled.settledBy).toBe('log');
  });
});
