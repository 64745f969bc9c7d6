/**
 * Purchases, validation, requery and balance. Each purchase checks and debits the wallet
 * synchronously inside one SQLite transaction, so concurrent requests can never overdraw or
 * lose a kobo.
 */
import { z } from 'zod';
import { koboToNaira, koboToWireText } from '../shared/money';
import { normalizePhone, parseNetwork, type Network } from '../shared/phone';
import {
  PENDING_MESSAGE,
  SUCCESS_MESSAGE,
  type AccountBalance,
  type BatchAccepted,
  type CableResult,
  type ElectricityResult,
  type MeterValidation,
  type RequeryResult,
  type SmartcardValidation,
} from '../shared/wire';
import { AIRTIME_COMMISSION_BP, DATA_COMMISSION_BP, DISCO_REGION, TARIFF_NAIRA_PER_KWH, findAirtime, findDisco, parseCableProvider } from './catalogs';
import { bouquetOf, dataPlanOf } from './catalogChanges';
import { MAX_BATCH_ITEMS, amountKobo, parseBody, type Ctx } from './context';
import { customerAddress, customerName, electricityToken, outstandingNaira } from './customers';
import { HttpError, ok, type Reply } from './httpErrors';
import { newReference } from './references';
import type { LogRow, NewLogRow } from './store';
import { CREDIT_DELAY_MS, MAX_REQUERIES, REQUERY_EARLIEST_MS, accountOutcome, isPostpaidMeter, meterMinimumNaira, phoneFails } from './testNumbers';

export const NOT_CONFIGURED_REASON = 'vending account not configured: no active NGN vending account found';

function commissionKobo(amount: number, basisPoints: number): number {
  return Math.floor((amount * basisPoints) / 10_000);
}

function percentToBp(percentage: number): number {
  return Math.round(percentage * 100);
}

function requireConfigured(ctx: Ctx): void {
  if (!ctx.org.configured) throw new HttpError(422, NOT_CONFIGURED_REASON);
}

function phoneOrThrow(input: string, where: string): string {
  const result = normalizePhone(input);
  if (!result.ok) throw new HttpError(400, `${where}${result.reason}`);
  return result.phone;
}

function insufficient(ctx: Ctx, needed: number): HttpError {
  const have = ctx.core.balanceKobo(ctx.org);
  return new HttpError(400, `insufficient balance: this purchase costs ${koboToWireText(needed)} and the wallet holds ${koboToWireText(have)}; nothing was charged`);
}

/** Whether an identical purchase (same account and amount) is still pending. */
function inProgress(ctx: Ctx, type: LogRow['type'], account: string, amount: number): boolean {
  const statement = ctx.core.stmt<[number, string, number, string], { id: number }>(
    "SELECT id FROM log INDEXED BY log_pending_account WHERE org_id = ? AND account = ? AND amount_kobo = ? AND status = 'PENDING' AND type = ? LIMIT 1",
  );
  return statement.get(ctx.org.id, account, amount, type) !== undefined;
}

// ---------------------------------------------------------------- airtime and data

const optionalText = z.string().optional();

const airtimeItem = z.object({
  amount: z.number().positive(),
  phoneNumber: z.string().min(1),
  network: z.string().min(1),
  productCode: z.string().min(1),
  voucherCode: optionalText,
  operator: optionalText,
  region: optionalText,
});
const airtimeBatch = z.array(airtimeItem).min(1, 'the batch must hold at least one item');

const dataItem = z.object({
  phoneNumber: z.string().min(1),
  productCode: z.string().min(1),
  network: z.string().min(1),
  voucherCode: optionalText,
  amount: z.number().positive(),
  dataValue: z.number().optional(),
});
const dataBatch = z.array(dataItem).min(1, 'the batch must hold at least one item');

interface PreparedItem {
  phone: string;
  network: Network;
  amount: number;
  commission: number;
  operator: string;
  region: string;
  description: string;
  dataPlan: string;
}

function acceptBatch(ctx: Ctx, type: 'AIRTIME' | 'DATA', items: PreparedItem[]): Reply {
  if (type === 'AIRTIME') {
    for (const [i, item] of items.entries()) {
      if (inProgress(ctx, 'AIRTIME', item.phone, item.amount)) {
        throw new HttpError(429, `transaction in progress for this number and amount, please wait (item ${i + 1}: ${item.phone}, ${koboToWireText(item.amount)})`);
      }
    }
  }
  const total = items.reduce((sum, item) => sum + (item.amount - item.commission), 0);
  const prefix = type === 'AIRTIME' ? 'ATM' : 'DAT';
  const references = items.map(() => newReference(prefix, ctx.now));
  const { core, org, now } = ctx;
  const accepted = core.db.transaction(() => {
    if (!core.tryDebit(org, total)) return false;
    items.forEach((item, i) => {
      const row: NewLogRow = {
        org_id: org.id,
        transaction_id: references[i],
        partner_reference: ctx.ref,
        phone_number: item.phone,
        amount_kobo: item.amount,
        cost_kobo: item.amount - item.commission,
        commission_kobo: item.commission,
        type,
        network: item.network,
        operator: item.operator,
        region: item.region,
        description: item.description,
        data_plan: item.dataPlan,
        status: 'PENDING',
        outcome: phoneFails(item.phone) ? 'FAILED' : 'SUCCESS',
        final_at_ms: now + (core.options.creditDelayMs ?? CREDIT_DELAY_MS),
        created_ms: now,
        updated_ms: now,
        account: item.phone,
        vend_type: '',
        token: '',
        units: 0,
      };
      core.insertLog(row);
    });
    return true;
  })();
  if (!accepted) throw insufficient(ctx, total);
  const data: BatchAccepted = {
    message: `Batch accepted: ${items.length} item(s) will be credited within seconds; track each by its reference`,
    references,
  };
  return ok(ctx.ref, data, SUCCESS_MESSAGE, 202, '00');
}

/** What an item buys, once its product, voucher and amount are checked. */
interface Offer {
  amount: number;
  commissionBp: number;
  operator: string;
  region: string;
  dataPlan: string;
  describe(phone: string): string;
}

/**
 * A batch purchase: the organisation must be configured, the body a non-empty array of items,
 * each with a recognised network; `offer` checks an item's product, voucher and amount (`where`
 * names the item), then its phone number is checked.
 */
function purchaseBatch<T extends { network: string; phoneNumber: string }>(
  ctx: Ctx,
  type: 'AIRTIME' | 'DATA',
  schema: z.ZodType<T[]>,
  offer: (item: T, where: string, network: Network) => Offer,
): Reply {
  requireConfigured(ctx);
  const batch = parseBody(ctx, schema, `a JSON array with at least one ${type.toLowerCase()} item`, MAX_BATCH_ITEMS);
  const items = batch.map((item, i): PreparedItem => {
    const where = `item ${i + 1}: `;
    const network = parseNetwork(item.network);
    if (!network) throw new HttpError(400, `${where}unrecognised network "${item.network}"; use MTN, AIRTEL, GLOBACOM or 9MOBILE`);
    const { amount, commissionBp, operator, region, dataPlan, describe } = offer(item, where, network);
    const phone = phoneOrThrow(item.phoneNumber, where);
    return { phone, network, amount, commission: commissionKobo(amount, commissionBp), operator, region, description: describe(phone), dataPlan };
  });
  return acceptBatch(ctx, type, items);
}

function checkVoucher(where: string, given: string | undefined, product: { voucherCode: string; productCode: string }): void {
  if (given && given !== product.voucherCode) {
    throw new HttpError(400, `${where}voucher code "${given}" not found for ${product.productCode} (codes are case-sensitive)`);
  }
}

export function purchaseAirtime(ctx: Ctx): Reply {
  return purchaseBatch(ctx, 'AIRTIME', airtimeBatch, (item, where, network) => {
    const product = findAirtime(item.productCode);
    if (!product) throw new HttpError(400, `${where}airtime product code "${item.productCode}" not found in the airtime catalog (codes are case-sensitive)`);
    if (product.network !== network) throw new HttpError(400, `${where}product code ${product.productCode} is for ${product.network}, not ${network}`);
    checkVoucher(where, item.voucherCode, product);
    const amount = amountKobo(item.amount, where);
    if (amount < product.minAmount * 100 || amount > product.maxAmount * 100) {
      throw new HttpError(400, `${where}amount out of range for the network: ${network} airtime is ${product.minAmount} to ${product.maxAmount} Naira, got ${item.amount}`);
    }
    return {
      amount,
      commissionBp: AIRTIME_COMMISSION_BP[network],
      operator: item.operator ?? product.operator,
      region: item.region ?? product.region,
      dataPlan: '',
      describe: (phone) => `${network} airtime ${koboToWireText(amount)} to ${phone}`,
    };
  });
}

export function purchaseData(ctx: Ctx): Reply {
  return purchaseBatch(ctx, 'DATA', dataBatch, (item, where, network) => {
    const plan = dataPlanOf(ctx.org, item.productCode);
    if (!plan || plan.network !== network) {
      throw new HttpError(400, `${where}data bundle for the product code not found: "${item.productCode}" on ${network} (codes are case-sensitive)`);
    }
    checkVoucher(where, item.voucherCode, plan);
    const amount = amountKobo(item.amount, where);
    if (amount !== plan.amount * 100) {
      throw new HttpError(400, `${where}amount ${item.amount} does not match the catalog amount ${plan.amount} of ${plan.productCode}`);
    }
    return {
      amount,
      commissionBp: DATA_COMMISSION_BP[network],
      operator: plan.operator,
      region: '',
      dataPlan: plan.productCode,
      describe: (phone) => `${plan.description} to ${phone}`,
    };
  });
}

// ---------------------------------------------------------------- electricity

const vendType = z.enum(['PREPAID', 'POSTPAID']);
const meterNumber = z.string().regex(/^\d{6,20}$/, 'a meter number is 6 to 20 digits');
const smartcardNumber = z.string().regex(/^\d{6,20}$/, 'a smartcard or IUC number is 6 to 20 digits');

const electricityBody = z.object({
  amount: z.number().positive(),
  meter: meterNumber,
  phone: z.string().min(1),
  disco: z.string().min(1),
  vendType,
});

const meterBody = z.object({ meter: meterNumber, disco: z.string().min(1), vendType });

function discoOrThrow(code: string) {
  const disco = findDisco(code);
  if (!disco) throw new HttpError(400, `disco "${code}" not found in the electricity catalog (use a productCode from /ElectricityList; codes are case-sensitive)`);
  return disco;
}

function checkVendType(meter: string, given: 'PREPAID' | 'POSTPAID'): void {
  const actual = isPostpaidMeter(meter) ? 'POSTPAID' : given;
  if (actual !== given) throw new HttpError(400, `vendType ${given} does not match meter ${meter}, which is ${actual}`);
}

export function validateMeter(ctx: Ctx): Reply {
  const body = parseBody(ctx, meterBody, 'a JSON object with meter, disco and vendType');
  const disco = discoOrThrow(body.disco);
  checkVendType(body.meter, body.vendType);
  const city = DISCO_REGION[disco.productCode] ?? 'Lagos';
  const data: MeterValidation = {
    name: customerName(body.meter),
    address: customerAddress(body.meter, city),
    minAmount: meterMinimumNaira(body.meter, disco.minAmount),
    outstanding: body.vendType === 'POSTPAID' ? outstandingNaira(body.meter) : 0,
  };
  return ok(ctx.ref, data, SUCCESS_MESSAGE);
}

/** A declined electricity or cable purchase: debited, then refunded, logged FAILED, 400. */
function declined(ctx: Ctx, row: NewLogRow, what: string): never {
  const { core, org } = ctx;
  const charged = core.db.transaction(() => {
    if (!core.tryDebit(org, row.cost_kobo)) return false;
    core.insertLog({ ...row, status: 'FAILED', outcome: 'FAILED', final_at_ms: row.created_ms });
    core.refund(org, row.cost_kobo);
    return true;
  })();
  if (!charged) throw insufficient(ctx, row.cost_kobo);
  throw new HttpError(400, `declined by provider: ${what}; the wallet was refunded ${koboToWireText(row.cost_kobo)}`);
}

/** Debits and logs an electricity or cable purchase; SUCCESS at once or PENDING per the test numbers. */
function chargeAndLog(ctx: Ctx, row: NewLogRow): void {
  const { core, org } = ctx;
  const ok = core.db.transaction(() => {
    if (!core.tryDebit(org, row.cost_kobo)) return false;
    core.insertLog(row);
    return true;
  })();
  if (!ok) throw insufficient(ctx, row.cost_kobo);
}

function pendingFields(account: string, now: number): Pick<NewLogRow, 'status' | 'outcome' | 'final_at_ms'> | null {
  switch (accountOutcome(account)) {
    case 'PENDING_SUCCESS':
      return { status: 'PENDING', outcome: 'SUCCESS', final_at_ms: now + REQUERY_EARLIEST_MS };
    case 'PENDING_FAILED':
      return { status: 'PENDING', outcome: 'FAILED', final_at_ms: now + REQUERY_EARLIEST_MS };
    case 'PENDING_FOREVER':
      return { status: 'PENDING', outcome: 'PENDING', final_at_ms: null };
    default:
      return null;
  }
}

export function purchaseElectricity(ctx: Ctx): Reply {
  requireConfigured(ctx);
  const body = parseBody(ctx, electricityBody, 'a JSON object with amount, meter, phone, disco and vendType');
  const disco = discoOrThrow(body.disco);
  checkVendType(body.meter, body.vendType);
  const amount = amountKobo(body.amount, '');
  if (amount < disco.minAmount * 100 || amount > disco.maxAmount * 100) {
    throw new HttpError(400, `amount out of range for ${disco.productCode}: ${disco.minAmount} to ${disco.maxAmount} Naira, got ${body.amount}`);
  }
  const meterMinimum = meterMinimumNaira(body.meter, disco.minAmount);
  if (amount < meterMinimum * 100) throw new HttpError(400, `amount below the minimum of meter ${body.meter}: at least ${meterMinimum} Naira, got ${body.amount}`);
  const phone = phoneOrThrow(body.phone, 'phone: ');
  if (inProgress(ctx, 'ELECTRICITY', body.meter, amount)) {
    throw new HttpError(429, `transaction in progress for this meter and amount, please wait (meter ${body.meter}, ${koboToWireText(amount)})`);
  }
  const commission = commissionKobo(amount, percentToBp(disco.percentage));
  const prepaid = body.vendType === 'PREPAID';
  const token = prepaid ? electricityToken(ctx.ref) : '';
  const units = prepaid ? Math.round((amount / 100 / TARIFF_NAIRA_PER_KWH) * 100) / 100 : 0;
  const receiptNo = `RCPT${ctx.ref.slice(-12)}`;
  const row: NewLogRow = {
    org_id: ctx.org.id,
    transaction_id: ctx.ref,
    partner_reference: receiptNo,
    phone_number: phone,
    amount_kobo: amount,
    cost_kobo: amount - commission,
    commission_kobo: commission,
    type: 'ELECTRICITY',
    network: disco.productCode,
    operator: disco.name,
    region: DISCO_REGION[disco.productCode] ?? '',
    description: `${disco.productCode} ${body.vendType} ${koboToWireText(amount)} for meter ${body.meter}`,
    data_plan: '',
    ...vendedNow(ctx.now),
    account: body.meter,
    vend_type: body.vendType,
    token,
    units,
  };
  if (accountOutcome(body.meter) === 'DECLINED') declined(ctx, row, `meter ${body.meter} could not be credited`);
  const pending = pendingFields(body.meter, ctx.now);
  chargeAndLog(ctx, pending ? { ...row, ...pending } : row);
  if (pending) return ok(ctx.ref, {}, PENDING_MESSAGE, 202, '01');
  const data: ElectricityResult = { token, units, receiptNo, commission: koboToNaira(commission) };
  return ok(ctx.ref, data, SUCCESS_MESSAGE);
}

// ---------------------------------------------------------------- cable TV

const smartcardBody = z.object({ smartcard: smartcardNumber, provider: z.string().min(1) });
const cableBody = z.object({
  amount: z.number().positive(),
  smartcard: smartcardNumber,
  phone: z.string().min(1),
  provider: z.string().min(1),
  bouquetCode: z.string().min(1),
});

/** An electricity or cable vend that succeeded when it was asked for (a pending one overrides these). */
function vendedNow(now: number): Pick<NewLogRow, 'status' | 'outcome' | 'final_at_ms' | 'created_ms' | 'updated_ms'> {
  return { status: 'SUCCESS', outcome: 'SUCCESS', final_at_ms: now, created_ms: now, updated_ms: now };
}

function providerOrThrow(input: string) {
  const provider = parseCableProvider(input);
  if (!provider) throw new HttpError(400, `provider "${input}" not found in the cable TV catalog; use DSTV, GOTV, STARTIMES or SHOWMAX`);
  return provider;
}

export function validateSmartcard(ctx: Ctx): Reply {
  const body = parseBody(ctx, smartcardBody, 'a JSON object with smartcard and provider');
  const provider = providerOrThrow(body.provider);
  const data: SmartcardValidation = {
    name: customerName(body.smartcard),
    address: customerAddress(body.smartcard, 'Lagos'),
    customerType: provider === 'SHOWMAX' ? 'MOBILE' : 'RESIDENTIAL',
    outstanding: 0,
  };
  return ok(ctx.ref, data, SUCCESS_MESSAGE);
}

export function purchaseCableTV(ctx: Ctx): Reply {
  requireConfigured(ctx);
  const body = parseBody(ctx, cableBody, 'a JSON object with amount, smartcard, phone, provider and bouquetCode');
  const provider = providerOrThrow(body.provider);
  const bouquet = bouquetOf(ctx.org, provider, body.bouquetCode);
  if (!bouquet) throw new HttpError(400, `bouquet code "${body.bouquetCode}" not found for ${provider} (codes are case-sensitive)`);
  const amount = amountKobo(body.amount, '');
  if (amount !== bouquet.amount * 100) {
    throw new HttpError(400, `amount ${body.amount} does not match the package amount ${bouquet.amount} of ${bouquet.description}`);
  }
  const phone = phoneOrThrow(body.phone, 'phone: ');
  const commission = commissionKobo(amount, percentToBp(bouquet.percentage));
  const row: NewLogRow = {
    org_id: ctx.org.id,
    transaction_id: ctx.ref,
    partner_reference: `RCPT${ctx.ref.slice(-12)}`,
    phone_number: phone,
    amount_kobo: amount,
    cost_kobo: amount - commission,
    commission_kobo: commission,
    type: 'CABLETV',
    network: provider,
    operator: provider,
    region: '',
    description: `${bouquet.description} for smartcard ${body.smartcard}`,
    data_plan: '',
    ...vendedNow(ctx.now),
    account: body.smartcard,
    vend_type: '',
    token: '',
    units: 0,
  };
  if (accountOutcome(body.smartcard) === 'DECLINED') declined(ctx, row, `smartcard ${body.smartcard} could not be renewed`);
  const pending = pendingFields(body.smartcard, ctx.now);
  chargeAndLog(ctx, pending ? { ...row, ...pending } : row);
  if (pending) return ok(ctx.ref, {}, PENDING_MESSAGE, 202, '01');
  const data: CableResult = {
    smartcard: body.smartcard,
    provider,
    bouquet: bouquet.description,
    amount: bouquet.amount,
    commission: koboToNaira(commission),
  };
  return ok(ctx.ref, data, SUCCESS_MESSAGE);
}

// ---------------------------------------------------------------- requery and balance

export function requery(ctx: Ctx): Reply {
  const orderId = ctx.param;
  const row = ctx.core.stmt<[number, string], LogRow>('SELECT * FROM log WHERE org_id = ? AND transaction_id = ?').get(ctx.org.id, orderId);
  if (!row) throw new HttpError(404, `transaction not found: no purchase with reference ${orderId}`);
  const earliest = row.created_ms + REQUERY_EARLIEST_MS;
  if (ctx.now < earliest) {
    const wait = Math.ceil((earliest - ctx.now) / 1000);
    throw new HttpError(425, `requery attempted too early: try again in ${wait} s (from ${new Date(earliest).toISOString()})`, {
      'Retry-After': String(wait),
    });
  }
  if (row.requery_count >= MAX_REQUERIES) {
    throw new HttpError(429, `maximum requery attempts reached (${MAX_REQUERIES}) for ${orderId}; support resolves it manually`);
  }
  ctx.core.stmt<[number]>('UPDATE log SET requery_count = requery_count + 1 WHERE id = ?').run(row.id);
  const data: RequeryResult = { status: row.status, reference: orderId };
  if (row.type === 'ELECTRICITY' && row.status === 'SUCCESS' && row.vend_type === 'PREPAID') {
    data.token = row.token;
    data.units = row.units;
  }
  return ok(ctx.ref, data, SUCCESS_MESSAGE);
}

export function accountBalance(ctx: Ctx): Reply {
  const row = ctx.core.orgRow(ctx.org);
  const data: AccountBalance = {
    AccountName: row.name,
    GlobalBalance: ctx.org.configured ? [{ Balance: koboToNaira(row.balance_kobo), Currency: 'NGN', AccountNumber: row.account_number }] : [],
  };
  return ok(ctx.ref, data, SUCCESS_MESSAGE);
}
