/**
 * Buying one electricity token or one cable TV bouquet, safely:
 *
 * 1. Everything that can be checked before money moves is checked: the phone number, the disco
 *    or provider and bouquet in the catalog, the amount against the catalog range and the meter's
 *    own minimum, the meter or smartcard against the service (validation), and that no purchase
 *    of the same meter/smartcard and amount (and bouquet) is still unsettled.
 * 2. The purchase is written in state `sending` and committed before the request leaves.
 * 3. Its state moves only from the service's answer: `success` (with token and units),
 *    `pending` (tracked by the requery loop), `failed` (a 400 decline: refunded, checked at the
 *    next balance read), `rejected` (refused, nothing charged) or `uncertain` (no usable answer:
 *    settled from the transaction log, never resent).
 *
 * Every purchase is a job's item (`bulk/`): a bulk row is bought by `buyElectricity` and
 * `buyCable` (`source: 'bulk'`, under its job's approval); a single purchase is checked here
 * (`checkElectricity`, `checkCable`), asked of the team's gate by `buying/singleVending.ts`, and
 * bought by its run (`CheckedVendingPurchase.buy`). None asks the team itself, and none tells a
 * window anything: the buy operations declare what they change (`PURCHASE_CHANGES`), and a bulk
 * job, which is background work, says the same through `app.invalidate`.
 *
 * Longer than 400 lines on purpose: the three steps above, for electricity and cable alike, share
 * their checks and their one writer of a purchase's answer; split, a step would be read without
 * the rule that makes the next one safe.
 */
import { formatDateTime } from '../../shared/localDates';
import type { CableRequest, ElectricityRequest, PurchaseKind } from '../../shared/contract/purchases';
import type { SinglePurchaseSummary } from '../../shared/contract/team';
import { cableRequestSchema, electricityRequestSchema } from '../../shared/contract/purchases';
import { AppError } from '../../shared/appError';
import { formatNaira, koboToNaira, nairaToKobo, type Kobo } from '../../shared/money';
import { normalizePhone } from '../../shared/phone';
import type { CableBouquet, ElectricityProvider, MeterValidation, SmartcardValidation } from '../../shared/wire';
import { declinedPurchaseHint } from '../api/serviceErrors';
import { ServiceError, UncertainOutcomeError, type PurchaseResult } from '../api/vendingClient';
import type { App, AppPart, Connection, Session } from '../appContext';
import type { VendingClient } from '../api/vendingClient';
import { firstRequeryDueMs } from '../api/requeryBackoff';
import { createServiceClock } from '../api/serviceClock';
import { readNgnWallet } from '../api/walletReading';
import { freshCatalog } from '../catalog/catalogCache';
import { keepWalletReading } from '../transactions/balanceSnapshots';
import { refreshReferences } from '../transactions/mirrorRefresh';
import { checkRefund } from './refundCheck';
import { describeAccount, findBlockingPurchase, insertSendingPurchase, learnCommissionFromLog, updatePurchase, type NewPurchase, type PurchaseRow } from './purchaseStore';
import { settleFromLog } from './settleFromLog';

export interface BuyOptions {
  /** `bulk` for spreadsheet rows; shown on the Pending page. Default `single`. */
  source?: string;
  /**
   * Called with the purchase's id in the transaction that writes it, before its request leaves: a
   * bulk row links its purchase there, so no crash can leave a purchase its row does not know.
   */
  written?: (purchaseId: string) => void;
}

function phoneOrThrow(input: string): string {
  const result = normalizePhone(input);
  if (!result.ok) throw new AppError('invalid_phone', result.reason, "Enter the customer's Nigerian mobile number, like 08031234567.");
  return result.phone;
}

/** A validation the service refused becomes an error that quotes it and says what to fix. */
function validationError(error: unknown, what: 'meter' | 'smartcard'): never {
  if (error instanceof ServiceError && error.action === 'fix_input') {
    throw new AppError(
      `invalid_${what}`,
      `The ${what} was not accepted by the service: ${error.reason || error.message}`,
      what === 'meter'
        ? 'Check the meter number, the electricity company and whether the meter is PREPAID or POSTPAID, then check the meter again. Nothing was charged.'
        : 'Check the smartcard (IUC) number and the provider, then check the smartcard again. Nothing was charged.',
    );
  }
  throw error;
}

export async function findDisco(app: AppPart<'db'>, session: Session, code: string): Promise<ElectricityProvider> {
  const discos = await freshCatalog(app, session, 'electricity');
  const disco = discos.find((d) => d.productCode === code);
  if (!disco) {
    const near = discos.find((d) => d.productCode.toLowerCase() === code.toLowerCase());
    throw new AppError(
      'unknown_disco',
      `"${code}" is not an electricity company in the catalog.`,
      near ? `Codes are case-sensitive: did you mean ${near.productCode} (${near.name})?` : `Use one of: ${discos.map((d) => d.productCode).join(', ')}.`,
    );
  }
  return disco;
}

export async function findBouquet(app: AppPart<'db'>, session: Session, provider: string, code: string): Promise<CableBouquet> {
  const bouquets = await freshCatalog(app, session, 'cable');
  const ofProvider = bouquets.filter((b) => b.network.toUpperCase() === provider.toUpperCase());
  if (ofProvider.length === 0) {
    const providers = [...new Set(bouquets.map((b) => b.network))];
    throw new AppError('unknown_provider', `"${provider}" is not a cable TV provider in the catalog.`, `Use one of: ${providers.join(', ')}.`);
  }
  const bouquet = ofProvider.find((b) => b.productCode === code);
  if (!bouquet) {
    const near = ofProvider.find((b) => b.productCode.toLowerCase() === code.toLowerCase());
    throw new AppError(
      'unknown_bouquet',
      `"${code}" is not a ${ofProvider[0].network} bouquet in the catalog.`,
      near
        ? `Codes are case-sensitive: did you mean ${near.productCode} (${near.description})?`
        : `Choose a bouquet from the list (Catalog page), e.g. ${ofProvider[0].productCode} (${ofProvider[0].description}).`,
    );
  }
  return bouquet;
}

export async function validateMeter(
  app: AppPart<'db'>,
  session: Session,
  request: { disco: string; meter: string; vendType: 'PREPAID' | 'POSTPAID' },
): Promise<{ disco: ElectricityProvider; validation: MeterValidation }> {
  const disco = await findDisco(app, session, request.disco);
  try {
    const validation = await session.client.validateMeter({ meter: request.meter, disco: disco.productCode, vendType: request.vendType });
    return { disco, validation };
  } catch (error) {
    return validationError(error, 'meter');
  }
}

/** The least a meter takes, in kobo: its own minimum, from the service's validation of it. */
export function meterMinimumKobo(validation: MeterValidation): Kobo {
  return nairaToKobo(validation.minAmount);
}

/**
 * What a meter may be sold, in kobo: at least its own minimum and its disco's, at most its disco's
 * maximum (what the window's meter check shows, `purchases.validateMeter`).
 */
export function meterAmountRange(disco: Pick<ElectricityProvider, 'minAmount' | 'maxAmount'>, validation: MeterValidation): { meterMinKobo: Kobo; minKobo: Kobo; maxKobo: Kobo } {
  const meterMinKobo = meterMinimumKobo(validation);
  return { meterMinKobo, minKobo: Math.max(meterMinKobo, nairaToKobo(disco.minAmount)), maxKobo: nairaToKobo(disco.maxAmount) };
}

/**
 * The one meter rule, for a single purchase, a bulk row and the window's check: an amount under
 * the meter's own minimum is refused with this sentence (null when the amount is enough). The
 * disco's range is checked apart, before the meter is asked.
 */
export function belowMeterMinimum(meter: string, validation: MeterValidation, amountKobo: Kobo): string | null {
  const min = meterMinimumKobo(validation);
  return amountKobo < min ? `meter ${meter} accepts at least ${formatNaira(min)}; ${formatNaira(amountKobo)} is less` : null;
}

export async function validateSmartcard(
  app: AppPart<'db'>,
  session: Session,
  request: { provider: string; smartcard: string },
): Promise<{ provider: string; validation: SmartcardValidation }> {
  const bouquets = await freshCatalog(app, session, 'cable');
  const provider = bouquets.find((b) => b.network.toUpperCase() === request.provider.toUpperCase())?.network;
  if (!provider) {
    throw new AppError(
      'unknown_provider',
      `"${request.provider}" is not a cable TV provider in the catalog.`,
      `Use one of: ${[...new Set(bouquets.map((b) => b.network))].join(', ')}.`,
    );
  }
  try {
    const validation = await session.client.validateSmartcard({ smartcard: request.smartcard, provider });
    return { provider, validation };
  } catch (error) {
    return validationError(error, 'smartcard');
  }
}

/** What makes two purchases the same: the meter or smartcard, the amount and (cable) the bouquet. */
export type DuplicateKey = { kind: PurchaseKind; account: string; amountKobo: number; bouquetCode?: string };

/** Refuses a purchase while the same one is unsettled on `connection`, naming the purchase that blocks it. */
export function refuseDuplicate(app: AppPart<'db'>, connection: Pick<Connection, 'profileId'>, key: DuplicateKey): void {
  const blocking = findBlockingPurchase(app, connection, key);
  if (!blocking) return;
  const when = formatDateTime(blocking.created_at);
  const ref = blocking.reference ? `reference ${blocking.reference}` : `purchase ${blocking.id}, no reference yet`;
  const stateWord = blocking.state === 'needs_support' ? 'waiting for support' : blocking.state;
  throw new AppError(
    'duplicate_pending',
    `A purchase of ${formatNaira(blocking.amount_kobo)} for ${describeAccount(blocking)} is still ${stateWord} (${ref}, started ${when}). Buying it again could charge twice.`,
    'Wait until it is settled on the Pending page (or resolve it there), then buy again if it failed.',
    { blockingId: blocking.id, blockingReference: blocking.reference, blockingState: blocking.state },
  );
}

/** Sends the purchase whose row is `sending`, and records what the service answered. */
async function sendAndRecord<T>(
  app: App,
  session: Session,
  row: PurchaseRow,
  send: (client: VendingClient) => Promise<PurchaseResult<T>>,
  onSuccess: (data: T) => Partial<PurchaseRow>,
): Promise<PurchaseRow> {
  const clock = app.service(createServiceClock);
  // When the answer (or the failure) came, on this machine's clock: written with what it says, in one write.
  let answeredMs: number | null = null;
  const record = (changes: Partial<PurchaseRow>): PurchaseRow => updatePurchase(app, row.id, { local_answered_ms: answeredMs ?? Date.now(), ...changes });
  let updated: PurchaseRow;
  try {
    const result = await send(session.client).finally(() => {
      answeredMs = Date.now();
    });
    const at = new Date().toISOString();
    const purchasedMs = clock.now();
    if (result.kind === 'success') {
      updated = record({
        state: 'success',
        reference: result.reference || null,
        purchased_ms: purchasedMs,
        settled_by: 'answer',
        final_at: at,
        ...onSuccess(result.data),
      });
    } else if (result.kind === 'pending') {
      updated = record({
        state: 'pending',
        reference: result.reference || null,
        purchased_ms: purchasedMs,
        next_requery_ms: firstRequeryDueMs(purchasedMs),
      });
    } else {
      updated = record({
        state: 'failed',
        reference: result.reference || null,
        purchased_ms: purchasedMs,
        reason: result.reason,
        // The refund is the receipt's own line (refund.message), at the figure the log gives.
        hint: declinedPurchaseHint(row.kind),
        refund_state: 'checking',
        settled_by: 'answer',
        final_at: at,
      });
      updated = await checkRefund(app, session, row.id);
    }
  } catch (error) {
    if (error instanceof UncertainOutcomeError || !(error instanceof AppError)) {
      const detail = error instanceof Error ? error.message : String(error);
      updated = record({
        state: 'uncertain',
        reason: detail,
        hint: error instanceof AppError ? (error.hint ?? null) : null,
        next_requery_ms: clock.now() + 30_000,
      });
      // The log usually has it already: try once now, then the requery loop keeps trying.
      try {
        updated = await settleFromLog(app, session, row.id);
      } catch {
        // Stays uncertain; the loop tries again.
      }
    } else if (error instanceof ServiceError) {
      updated = record({
        state: 'rejected',
        reference: error.reference || null,
        reason: error.reason || error.message,
        hint: error.hint ?? null,
        settled_by: 'answer',
        final_at: new Date().toISOString(),
      });
    } else {
      updated = record({ state: 'rejected', reason: error.message, hint: error.hint ?? null, settled_by: 'answer', final_at: new Date().toISOString() });
    }
  }
  // The Dashboard and Transactions show it by the time the answer is shown, without a sync, and its
  // receipt the wallet cost they count (a pending purchase's answer gives no commission).
  return learnCommissionFromLog(app, updated, await refreshReferences(app, session, row.kind, [updated.reference]));
}

/** Buys one electricity token of a bulk row (`source: 'bulk'`) on its run's session: checked, then written and sent. */
export async function buyElectricity(app: App, session: Session, request: ElectricityRequest, options: BuyOptions = {}): Promise<PurchaseRow> {
  return (await checkElectricity(app, session, request)).buy(options);
}

/** Step 1 of the file's comment for an electricity token, on `session`: everything checked, nothing written or sent. */
export async function checkElectricity(app: App, session: Session, request: ElectricityRequest): Promise<CheckedVendingPurchase> {
  const req = electricityRequestSchema.parse(request);
  const phone = phoneOrThrow(req.phone);
  const disco = await findDisco(app, session, req.disco);
  const min = nairaToKobo(disco.minAmount);
  const max = nairaToKobo(disco.maxAmount);
  if (req.amountKobo < min || req.amountKobo > max) {
    throw new AppError(
      'amount_out_of_range',
      `${disco.name} sells ${formatNaira(min)} to ${formatNaira(max)} per purchase; ${formatNaira(req.amountKobo)} is outside that range.`,
      'Enter an amount within the range.',
    );
  }
  // Refuse a duplicate before the validation call too: nothing is worth asking while one is unsettled.
  refuseDuplicate(app, session.connection, { kind: 'electricity', account: req.meter, amountKobo: req.amountKobo });
  const { validation } = await validateMeter(app, session, { disco: disco.productCode, meter: req.meter, vendType: req.vendType });
  const below = belowMeterMinimum(req.meter, validation, req.amountKobo);
  if (below) throw new AppError('amount_below_meter_minimum', `M${below.slice(1)}.`, `Enter ${formatNaira(meterMinimumKobo(validation))} or more.`);
  return checked(app, session, {
    key: { kind: 'electricity', account: req.meter, amountKobo: req.amountKobo },
    phone,
    customer: validation,
    provider: { provider_code: disco.productCode, provider_name: disco.name, vend_type: req.vendType, bouquet_code: '', bouquet_name: '' },
    description: `${disco.name} ${req.vendType} electricity`,
    request: req,
    send: (client) => client.purchaseElectricity({ amount: koboToNaira(req.amountKobo), meter: req.meter, phone, disco: disco.productCode, vendType: req.vendType }),
    onSuccess: (data) => ({
      token: data.token || null,
      units: Number.isFinite(data.units) && (data.units > 0 || data.token) ? data.units : null,
      receipt_no: data.receiptNo || null,
      commission_kobo: nairaToKobo(data.commission),
    }),
  });
}

/** Buys one cable TV bouquet of a bulk row: as `buyElectricity`. */
export async function buyCable(app: App, session: Session, request: CableRequest, options: BuyOptions = {}): Promise<PurchaseRow> {
  return (await checkCable(app, session, request)).buy(options);
}

/** Step 1 of the file's comment for a cable TV bouquet, on `session`: everything checked, nothing written or sent. */
export async function checkCable(app: App, session: Session, request: CableRequest): Promise<CheckedVendingPurchase> {
  const req = cableRequestSchema.parse(request);
  const phone = phoneOrThrow(req.phone);
  const bouquet = await findBouquet(app, session, req.provider, req.bouquetCode);
  const amountKobo = nairaToKobo(bouquet.amount);
  refuseDuplicate(app, session.connection, { kind: 'cable', account: req.smartcard, amountKobo, bouquetCode: bouquet.productCode });
  const { validation } = await validateSmartcard(app, session, { provider: bouquet.network, smartcard: req.smartcard });
  return checked(app, session, {
    key: { kind: 'cable', account: req.smartcard, amountKobo, bouquetCode: bouquet.productCode },
    phone,
    customer: validation,
    provider: { provider_code: bouquet.network, provider_name: bouquet.network, vend_type: null, bouquet_code: bouquet.productCode, bouquet_name: bouquet.description },
    description: `${bouquet.network} ${bouquet.description}`,
    request: req,
    send: (client) => client.purchaseCableTV({ amount: bouquet.amount, smartcard: req.smartcard, phone, provider: bouquet.network, bouquetCode: bouquet.productCode }),
    onSuccess: (data) => ({ commission_kobo: nairaToKobo(data.commission), bouquet_name: data.bouquet || bouquet.description }),
  });
}

/** What was checked of a purchase, with how to send it and read its answer. */
interface CheckedParts<T> {
  key: DuplicateKey;
  phone: string;
  /** What the service's meter or smartcard check said of the customer. */
  customer: { name: string; address: string; customerType?: string };
  provider: Pick<NewPurchase, 'provider_code' | 'provider_name' | 'vend_type' | 'bouquet_code' | 'bouquet_name'>;
  /** How the team's approvers see it, like "Ikeja Electric PREPAID electricity". */
  description: string;
  /** The request as parsed: kept as it is when the purchase waits for a team member's approval. */
  request: unknown;
  send: (client: VendingClient) => Promise<PurchaseResult<T>>;
  onSuccess: (data: T) => Partial<PurchaseRow>;
}

/** A purchase checked with the catalog and the service of one session, ready to be bought there. */
export interface CheckedVendingPurchase {
  key: DuplicateKey;
  /** The disco's catalog code, or the cable provider, as the service names it. */
  providerCode: string;
  /** What the team's gate is shown of it (the request as parsed: kept as it is while it waits for approval). */
  summary: SinglePurchaseSummary & { request: unknown };
  /**
   * Steps 2 and 3 of the file's comment, on the session it was checked on: written `sending` (the
   * team's gate was asked before, where one applies), sent, its answer recorded.
   */
  buy(options: BuyOptions): Promise<PurchaseRow>;
}

function checked<T>(app: App, session: Session, p: CheckedParts<T>): CheckedVendingPurchase {
  return {
    key: p.key,
    providerCode: p.provider.provider_code,
    summary: {
      kind: p.key.kind,
      account: p.key.account,
      phone: p.phone,
      amountKobo: p.key.amountKobo,
      description: p.description,
      customerName: p.customer.name,
      request: p.request,
    },
    async buy(options) {
      // The wallet before it, of the connection it is bought on, kept in the purchase's own write.
      const wallet = await readNgnWallet(session.client).catch(() => null);
      const keep = () => wallet && keepWalletReading(app, session, wallet, 'purchase');
      const purchase: NewPurchase = {
        ...p.provider,
        kind: p.key.kind,
        source: options.source,
        account: p.key.account,
        amount_kobo: p.key.amountKobo,
        phone: p.phone,
        customer_name: p.customer.name,
        customer_address: p.customer.address,
        customer_type: p.customer.customerType ?? '',
        balance_before_kobo: wallet?.balanceKobo ?? null,
      };
      let row: PurchaseRow | undefined;
      try {
        row = insertGuarded(app, session, purchase, p.key, (id) => {
          keep();
          options.written?.(id);
        });
      } finally {
        // Refused, the purchase is not written; the wallet it read is kept all the same.
        if (!row) keep();
      }
      return sendAndRecord(app, session, row, p.send, p.onSuccess);
    },
  };
}

/**
 * The duplicate check and the `sending` row in one transaction: two windows cannot both pass.
 * `written` links the new purchase to what it is bought for (its approval, its bulk row) in it.
 */
function insertGuarded(app: App, session: Session, purchase: NewPurchase, key: DuplicateKey, written: (purchaseId: string) => void): PurchaseRow {
  const clock = app.service(createServiceClock);
  return app.db
    .transaction(() => {
      session.refuseIfSwitched();
      refuseDuplicate(app, session.connection, key);
      const row = insertSendingPurchase(app, session, purchase, clock.now());
      written(row.id);
      return row;
    })
    .immediate();
}
