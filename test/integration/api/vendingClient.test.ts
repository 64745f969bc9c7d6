import { afterEach, describe, expect, it } from 'vitest';
import { ServiceError } from '../../../src/main/api/serviceErrors';
import { VendingClient } from '../../../src/main/api/vendingClient';
import { parseLogEntry } from '../../../src/main/api/parseLogEntry';
import type { AirtimeItem, AirtimeProduct, DataItem, ElectricityPurchase } from '../../../src/shared/wire';
import { FAST_RETRY, rejectionOf, startHarness, type Harness } from './sandboxHarness';

let h: Harness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

async function harness(token?: string, options?: Parameters<typeof startHarness>[1]): Promise<Harness> {
  h = await startHarness(token, options);
  return h;
}

function airtimeItem(product: AirtimeProduct, phoneNumber: string, amount = 100): AirtimeItem {
  return { amount, phoneNumber, network: product.network, productCode: product.productCode, voucherCode: product.voucherCode, operator: product.operator, region: product.region };
}

async function mtnAirtime(client: VendingClient): Promise<AirtimeProduct> {
  const product = (await client.airtimeCatalog()).find((p) => p.network === 'MTN');
  if (!product) throw new Error('no MTN airtime in the catalog');
  return product;
}

async function electricity(client: VendingClient, meter: string, amount = 2000): Promise<ElectricityPurchase> {
  const disco = (await client.electricityCatalog())[0];
  return { amount: Math.max(amount, disco.minAmount), meter, phone: '08031234567', disco: disco.productCode, vendType: 'PREPAID' };
}

describe('VendingClient against the sandbox: happy paths', () => {
  it('reads every catalog, the balance and validations', async () => {
    const { client } = await harness();
    expect((await client.airtimeCatalog()).map((p) => p.network)).toEqual(expect.arrayContaining(['MTN', 'AIRTEL', 'GLOBACOM', '9MOBILE']));
    const data = await client.dataCatalog('AIRTEL');
    expect(data.length).toBeGreaterThan(0);
    expect(data.every((p) => p.network === 'AIRTEL')).toBe(true);
    const dstv = await client.cableCatalog('DSTV');
    expect(dstv.length).toBeGreaterThan(0);
    expect(dstv.every((b) => b.network === 'DSTV')).toBe(true);
    const discos = await client.electricityCatalog();
    expect(discos.length).toBeGreaterThan(5);
    const balance = await client.accountBalance();
    expect(balance.GlobalBalance[0]).toMatchObject({ Currency: 'NGN', Balance: 1_000_000 });
    const meter = await client.validateMeter({ meter: '12345678901', disco: discos[0].productCode, vendType: 'PREPAID' });
    expect(meter.name).toBeTruthy();
    const card = await client.validateSmartcard({ smartcard: '1234567890', provider: 'DSTV' });
    expect(card.name).toBeTruthy();
  });

  it('buys airtime and data: accepted with one reference per item, each settled in the log', async () => {
    const { client, advanceClock } = await harness();
    const product = await mtnAirtime(client);
    const result = await client.purchaseAirtime([airtimeItem(product, '08031234567', 150), airtimeItem(product, '2348061234567', 200)]);
    expect(result.kind).toBe('success');
    if (result.kind !== 'success') return;
    expect(result.httpStatus).toBe(202);
    expect(result.data.references).toHaveLength(2);

    const plan = (await client.dataCatalog('MTN'))[0];
    const data = await client.purchaseData([
      { phoneNumber: '08031234568', productCode: plan.productCode, network: plan.network, voucherCode: plan.voucherCode, amount: plan.amount, dataValue: plan.dataValue },
    ]);
    expect(data.kind).toBe('success');

    await advanceClock(10);
    const page = await client.logEntries({ type: 'airtime', perPage: 100 });
    const byRef = new Map(page.Items.map((e) => [e.transaction_id, parseLogEntry(e)]));
    const first = byRef.get(result.data.references[0]);
    expect(first).toMatchObject({ status: 'SUCCESS', amountKobo: 15_000, phoneNumber: '08031234567', type: 'AIRTIME' });
    expect(first?.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });

  it('buys cable TV (200 with package details) and follows NextPage through the log', async () => {
    const { client } = await harness();
    const bouquet = (await client.cableCatalog('GOTV'))[0];
    const result = await client.purchaseCableTV({
      amount: bouquet.amount,
      smartcard: '1234567891',
      phone: '08031234567',
      provider: bouquet.network,
      bouquetCode: bouquet.productCode,
    });
    expect(result).toMatchObject({ kind: 'success', httpStatus: 200, data: { provider: 'GOTV', smartcard: '1234567891' } });
    for (let i = 0; i < 4; i++) await client.purchaseElectricity(await electricity(client, `5000000000${i}`));

    const seen: number[] = [];
    let page = await client.logEntries({ perPage: 2 });
    const pages = page.TotalPages;
    seen.push(...page.Items.map((e) => e.id));
    while (page.NextPage) {
      page = await client.logPage(page.NextPage);
      seen.push(...page.Items.map((e) => e.id));
    }
    expect(pages).toBe(3);
    expect(new Set(seen).size).toBe(5);
  });

  it('a pending electricity purchase: 425 before 2 minutes, then requery gives SUCCESS with the token', async () => {
    const { client, advanceClock } = await harness();
    const result = await client.purchaseElectricity(await electricity(client, '12345670000'));
    expect(result.kind).toBe('pending');
    expect(result.httpStatus).toBe(202);
    const orderId = result.reference;

    const early = await rejectionOf(client.requery(orderId));
    expect(early).toBeInstanceOf(ServiceError);
    expect(early).toMatchObject({ action: 'wait', httpStatus: 425 });

    await advanceClock(121);
    const settled = await client.requery(orderId);
    expect(settled.status).toBe('SUCCESS');
    expect(settled.reference).toBe(orderId);
    expect(settled.token).toBeTruthy();
  });

  it('a pending purchase that fails: requery says FAILED and the wallet is refunded', async () => {
    const { client, advanceClock, balanceKobo } = await harness();
    const before = await balanceKobo();
    const result = await client.purchaseElectricity(await electricity(client, '12345671111'));
    expect(result.kind).toBe('pending');
    await advanceClock(121);
    expect((await client.requery(result.reference)).status).toBe('FAILED');
    expect(await balanceKobo()).toBe(before);
  });

  it('messaging: sender IDs, templates, phonebooks, contacts, send, status, history and evidence', async () => {
    const { client } = await harness();
    const senders = await client.getSenderIds();
    expect(senders.find((s) => s.senderId === 'VENDESK')?.approval?.NG).toBe('APPROVED');
    const template = await client.createTemplate({ body: 'Hello {{1}}, your code is {{2}}', indexes: ['1', '2'], name: 'greet', slug: 'greet', useCase: 'otp,notice' });
    expect(template.approval?.NG).toBe('PENDING');
    expect((await client.getTemplates()).map((t) => t.id)).toContain(template.id);
    const book = await client.createPhonebook({ name: 'Staff', description: 'Finance team' });
    const bookId = book.id ?? NaN;
    expect(Number.isInteger(bookId)).toBe(true);
    const added = await client.createContacts(
      [
        { name: 'Ada', phoneNumber: '08031234567' },
        { name: 'Bayo', phoneNumber: '2348061234567' },
      ],
      bookId,
    );
    expect(added).toMatchObject({ phoneBookId: bookId, added: 2 });
    expect((await client.getPhonebooks()).map((b) => b.id)).toContain(bookId);
    expect((await client.getPhonebook(bookId))?.contacts?.map((c) => c.phoneNumber)).toEqual(expect.arrayContaining(['08031234567', '08061234567']));
    const sent = await client.sendMessage({ senderId: 'VENDESK', isBulk: true, phoneBookId: bookId, messageBody: 'Payday is Friday' });
    expect(sent.recipientCount).toBe(2);
    const reference = sent.reference ?? '';
    expect(reference).not.toBe('');
    expect((await client.messageStatus(reference)).reference).toBe(reference);
    const history = await client.messageHistory({ perPage: 10 });
    expect(history.items.map((m) => m.reference)).toContain(reference);
    const evidence = await client.sendEvidence({ receiverNumber: '08031234567', senderId: 'VENDESK', numberOfDigits: 6, seconds: 300 });
    const evidenceReference = evidence.reference ?? '';
    const entries = await h!.control.outbox();
    const code = entries.find((e) => e.reference === evidenceReference && e.code)?.code;
    expect(code).toBeTruthy();
    expect((await client.confirmEvidence({ otp: code!, reference: evidenceReference })).confirmed).toBe(true);
    const again = await rejectionOf(client.confirmEvidence({ otp: code!, reference: evidenceReference }));
    expect(again).toBeInstanceOf(ServiceError);
    const unapproved = await rejectionOf(client.sendMessage({ senderId: 'PROMOTXT', receiverNumber: '08031234567', messageBody: 'x' }));
    expect(unapproved).toMatchObject({ action: 'fix_input' });
    expect(unapproved.message).toMatch(/PROMOTXT/);
  });
});

describe('VendingClient against the sandbox: each error class', () => {
  it('400 on airtime: the batch is refused, fix the input (nothing charged)', async () => {
    const { client, balanceKobo } = await harness();
    const before = await balanceKobo();
    const product = await mtnAirtime(client);
    const error = await rejectionOf(client.purchaseAirtime([{ ...airtimeItem(product, '08031234567'), productCode: 'NOT-A-CODE' }]));
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toMatchObject({ action: 'fix_input', httpStatus: 400, code: 'service_fix_input' });
    expect((error as ServiceError).reason).toBeTruthy();
    expect(await balanceKobo()).toBe(before);
  });

  it('400 on electricity: a declined purchase is a failed result, refunded', async () => {
    const { client, balanceKobo } = await harness();
    const before = await balanceKobo();
    const result = await client.purchaseElectricity(await electricity(client, '12345679999'));
    expect(result).toMatchObject({ kind: 'failed', httpStatus: 400, refunded: true });
    if (result.kind === 'failed') expect(result.reason).toMatch(/declined/);
    expect(await balanceKobo()).toBe(before);
  });

  it('400 on a POSTPAID meter bought as PREPAID says the vendType does not match', async () => {
    const { client } = await harness();
    const result = await client.purchaseElectricity(await electricity(client, '12345675555'));
    expect(result.kind).toBe('failed');
    if (result.kind === 'failed') expect(result.reason).toMatch(/vendType|POSTPAID/i);
  });

  it('401: the token is refused; the message says to check it and never contains it', async () => {
    const secret = 'sk_live_wrong_4f9a8b7c6d5e';
    const { sandbox } = await harness('known-token-abcdef', { acceptAnyToken: false, tokens: ['known-token-abcdef'] });
    const client = new VendingClient({ baseUrl: sandbox.url, token: secret, retry: FAST_RETRY });
    const error = await rejectionOf(client.accountBalance());
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toMatchObject({ action: 'credentials', httpStatus: 401 });
    expect((error as ServiceError).hint).toMatch(/token/);
    expect(JSON.stringify({ m: error.message, s: (error as ServiceError).toShape(), st: error.stack })).not.toContain(secret);
  });

  it('404: requery of an unknown reference', async () => {
    const { client } = await harness();
    const error = await rejectionOf(client.requery('REQ-DOES-NOT-EXIST'));
    expect(error).toMatchObject({ action: 'not_found', httpStatus: 404 });
  });

  it('422: an organisation not configured for vending', async () => {
    const { client } = await harness('unconfigured-acme-0001');
    const error = await rejectionOf(client.purchaseAirtime([airtimeItem(await mtnAirtime(client), '08031234567')]));
    expect(error).toMatchObject({ action: 'configuration', httpStatus: 422 });
    expect(error.message).toMatch(/not configured/);
  });

  it('429 on a purchase: the same airtime is in progress, do not send it again', async () => {
    const { client } = await harness();
    const item = airtimeItem(await mtnAirtime(client), '08031234567', 500);
    expect((await client.purchaseAirtime([item])).kind).toBe('success');
    const error = await rejectionOf(client.purchaseAirtime([{ ...item, phoneNumber: '+2348031234567' }]));
    expect(error).toMatchObject({ action: 'do_not_resend', httpStatus: 429 });
    expect((error as ServiceError).hint).toMatch(/Do not send it again/);
  });

  it('429 on requery: attempts used up, hand to support', async () => {
    const { client, advanceClock } = await harness();
    const result = await client.purchaseElectricity(await electricity(client, '12345672222'));
    expect(result.kind).toBe('pending');
    await advanceClock(121);
    for (let i = 0; i < 5; i++) expect((await client.requery(result.reference)).status).toBe('PENDING');
    const error = await rejectionOf(client.requery(result.reference));
    expect(error).toMatchObject({ action: 'hand_to_support', httpStatus: 429 });
    expect((error as ServiceError).hint).toMatch(/support/);
  });

  it('502 on requery is retried, then answers', async () => {
    const { client, advanceClock, fault } = await harness();
    const result = await client.purchaseElectricity(await electricity(client, '12345670000'));
    await advanceClock(121);
    await fault('/requeryTransaction', 502, 2);
    expect((await client.requery(result.reference)).status).toBe('SUCCESS');
  });

  it('502 on requery that persists: retry later', async () => {
    const { client, advanceClock, fault } = await harness();
    const result = await client.purchaseElectricity(await electricity(client, '12345670000'));
    await advanceClock(121);
    await fault('/requeryTransaction', 502, 10);
    const error = await rejectionOf(client.requery(result.reference));
    expect(error).toMatchObject({ action: 'retry_later', httpStatus: 502 });
    expect(error.message).toMatch(/did not recover after vendesk retried/);
  });

  it('503 on airtime is retried after a delay, then accepted once', async () => {
    const { client, fault, advanceClock } = await harness();
    const product = await mtnAirtime(client);
    await fault('/purchaseAirtime', 503, 2);
    const result = await client.purchaseAirtime([{ ...airtimeItem(product, '08031234567'), voucherCode: undefined }]);
    expect(result.kind).toBe('success');
    expect(result.voucherDropped).toBeUndefined();
    await advanceClock(10);
    const log = await client.logEntries({ search: '08031234567' });
    expect(log.TotalRecords).toBe(1); // bought once, not three times
  });

  it('503 that persists: retry later, nothing charged', async () => {
    const { client, fault, balanceKobo } = await harness();
    const before = await balanceKobo();
    const product = await mtnAirtime(client);
    await fault('/purchaseAirtime', 503, 10);
    const error = await rejectionOf(client.purchaseAirtime([{ ...airtimeItem(product, '08031234567'), voucherCode: undefined }]));
    expect(error).toMatchObject({ action: 'retry_later', httpStatus: 503 });
    expect(error.message).toMatch(/^Airtime vending is temporarily unavailable/);
    expect((error as ServiceError).hint).toMatch(/Nothing was charged/);
    expect(await balanceKobo()).toBe(before);
  });
});

describe('VendingClient against the sandbox: the voucher rule', () => {
  it('airtime whose voucher server is unavailable goes through once without the voucherCode', async () => {
    const { client, fault } = await harness();
    const product = await mtnAirtime(client);
    expect(product.voucherCode).not.toBe('');
    await fault('/purchaseAirtime', 503, 100, true);
    const result = await client.purchaseAirtime([airtimeItem(product, '08031234567')]);
    expect(result).toMatchObject({ kind: 'success', voucherDropped: true });
  });

  it('data likewise', async () => {
    const { client, fault } = await harness();
    const plan = (await client.dataCatalog('MTN')).find((p) => p.voucherCode !== '')!;
    await fault('/purchaseData', 503, 100, true);
    const item: DataItem = { phoneNumber: '08031234567', productCode: plan.productCode, network: plan.network, voucherCode: plan.voucherCode, amount: plan.amount };
    expect(await client.purchaseData([item])).toMatchObject({ kind: 'success', voucherDropped: true });
  });

  it('when vending is down for every server, the retry without voucher also fails: retry later', async () => {
    const { client, fault } = await harness();
    await fault('/purchaseAirtime', 503, 100);
    const error = await rejectionOf(client.purchaseAirtime([airtimeItem(await mtnAirtime(client), '08031234567')]));
    expect(error).toMatchObject({ action: 'retry_later', httpStatus: 503 });
  });
});
