/**
 * What makes one purchase valid, whatever it came from: a row of a bulk sheet (`validateRows.ts`
 * reads each row's cells into typed fields, `bulkRowReaders.ts`) or a single purchase typed in a
 * form or on the command line (`buying/singleTopUp.ts` hands its typed fields in directly). One
 * function, `validateItem(kind, fields, catalogs, check)`: the purchase as the catalog sells it
 * (codes, prices, operator and voucher are the catalog's, never the given ones), or null, each
 * issue and warning said to `check` in the order the fields are checked. The checker words them
 * for where they came from: a row of a file (`Row 4: ….`, "the file says":
 * `RowChecker`, bulkRowReaders.ts) or a purchase asked for on its own (one sentence each, "you
 * chose": `PurchaseChecker`, buying/singleTopUp.ts).
 *
 * Pure and cheap: it runs once per row of 200,000-row files, so the catalogs are indexed once per
 * run (`indexCatalogs`) and a valid row is a class instance, not an object literal. What it is
 * given — the fields of each kind, the checker and its words — is in `itemFields.ts`.
 */
import { excerpt } from '../../shared/excerpt';
import { formatNaira, nairaToKobo, type Kobo } from '../../shared/money';
import { NETWORK_LABEL, networkOfPhone, type Network } from '../../shared/phone';
import type { AirtimeProduct, CableBouquet, DataPlan, ElectricityProvider, VendType } from '../../shared/wire';
import type { BulkKind } from './columnMapping';
import type { AirtimeFields, CableFields, DataFields, ElectricityFields, ItemChecker, ItemFields } from './itemFields';
import type { BulkCatalogs, RowIssue, ValidRow } from './validationResult';

/** The service's floor for airtime, whatever the catalog says: ₦100. The one airtime minimum. */
export const AIRTIME_MIN_KOBO = 10_000;

/** What an airtime product sells, in kobo: [least, most] (most 0: no maximum). The catalog's range, never under ₦100. */
export function airtimeKoboRange(product: Pick<AirtimeProduct, 'minAmount' | 'maxAmount'>): [Kobo, Kobo] {
  return [Math.max(AIRTIME_MIN_KOBO, nairaToKobo(product.minAmount)), nairaToKobo(product.maxAmount)];
}

// ------------------------------------------------------------------ the catalogs, indexed once

export function lower(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** The catalogs a purchase is checked against, indexed (by code, by loose name, amounts in kobo). */
export interface ItemCatalogs {
  airtimeByNetwork: Map<Network, AirtimeProduct>;
  airtimeByCode: Map<string, AirtimeProduct>;
  plansByCode: Map<string, DataPlan>;
  plansByLowerCode: Map<string, DataPlan>;
  discoByCode: Map<string, ElectricityProvider>;
  discoByLooseName: Map<string, ElectricityProvider>;
  bouquetsByCode: Map<string, CableBouquet[]>;
  bouquetsByLowerCode: Map<string, CableBouquet>;
  providers: Map<string, string>;
  /** Catalog amounts in kobo, converted once: [min, max] for airtime and discos, [amount, amount] for plans and bouquets. */
  kobo: Map<object, [number, number]>;
}

export function indexCatalogs(ctx: Pick<BulkCatalogs, 'airtime' | 'data' | 'electricity' | 'cable'>, kind: BulkKind): ItemCatalogs {
  const ix: ItemCatalogs = {
    airtimeByNetwork: new Map(),
    airtimeByCode: new Map(),
    plansByCode: new Map(),
    plansByLowerCode: new Map(),
    discoByCode: new Map(),
    discoByLooseName: new Map(),
    bouquetsByCode: new Map(),
    bouquetsByLowerCode: new Map(),
    providers: new Map(),
    kobo: new Map(),
  };
  for (const p of ctx.airtime) {
    if (!ix.airtimeByNetwork.has(p.network)) ix.airtimeByNetwork.set(p.network, p);
    ix.airtimeByCode.set(p.productCode, p);
    ix.kobo.set(p, airtimeKoboRange(p));
  }
  for (const p of ctx.data) {
    ix.plansByCode.set(p.productCode, p);
    ix.plansByLowerCode.set(p.productCode.toLowerCase(), p);
    const amount = nairaToKobo(p.amount);
    ix.kobo.set(p, [amount, amount]);
  }
  if (kind === 'electricity') {
    if (!ctx.electricity) throw new TypeError('validateBulkRows: the electricity catalog is required for electricity rows');
    for (const d of ctx.electricity) {
      ix.discoByCode.set(d.productCode, d);
      ix.discoByLooseName.set(lower(d.name), d);
      ix.kobo.set(d, [nairaToKobo(d.minAmount), nairaToKobo(d.maxAmount)]);
    }
  }
  if (kind === 'cable') {
    if (!ctx.cable) throw new TypeError('validateBulkRows: the cable catalog is required for cable rows');
    for (const b of ctx.cable) {
      const list = ix.bouquetsByCode.get(b.productCode);
      if (list) list.push(b);
      else ix.bouquetsByCode.set(b.productCode, [b]);
      ix.bouquetsByLowerCode.set(b.productCode.toLowerCase(), b);
      ix.providers.set(lower(b.network), b.network);
      const amount = nairaToKobo(b.amount);
      ix.kobo.set(b, [amount, amount]);
    }
  }
  return ix;
}

// ------------------------------------------------------------------ the rules

/**
 * networkOfPhone as a table indexed by the three digits after the 0 (and the fourth where a
 * block is split), built once from the shared function so the two cannot disagree.
 */
const PREFIX_NETWORK: (Network | null | (Network | null)[])[] = (() => {
  const table: (Network | null | (Network | null)[])[] = new Array(1000).fill(null);
  for (let p = 700; p < 1000; p++) {
    const byFourth: (Network | null)[] = [];
    for (let f = 0; f < 10; f++) byFourth.push(networkOfPhone(`0${p}${f}000000`));
    table[p] = byFourth.every((n) => n === byFourth[0]) ? byFourth[0] : byFourth;
  }
  return table;
})();

function networkOfLocalPhone(phone: string): Network | null {
  const p = (phone.charCodeAt(1) - 48) * 100 + (phone.charCodeAt(2) - 48) * 10 + (phone.charCodeAt(3) - 48);
  const entry = PREFIX_NETWORK[p];
  return Array.isArray(entry) ? entry[phone.charCodeAt(4) - 48] : (entry ?? null);
}

/** `an MTN`, `an Airtel`, `a Glo`, `a 9mobile`. */
export function withArticle(word: string): string {
  return /^[AEIOM]/i.test(word) && !/^[Mm][a-z]/.test(word) ? `an ${word}` : `a ${word}`;
}

/** The warnings of a row that has none: one shared, frozen empty array (100k rows, no 100k arrays). */
export const NO_WARNINGS: RowIssue[] = Object.freeze([]) as unknown as RowIssue[];

/**
 * A class rather than an object literal: V8 clones literals of more than a handful of
 * properties through a slow runtime path, and this runs once per row.
 */
class ValidRowRecord implements ValidRow {
  network: Network | null = null;
  amountKobo = 0;
  productCode = '';
  voucherCode: string | null = null;
  dataValue: number | null = null;
  operator = '';
  region = '';
  description: string | null = null;
  name: string | null = null;
  reference: string | null = null;
  costCentre: string | null = null;
  meter: string | null = null;
  disco: string | null = null;
  vendType: VendType | null = null;
  smartcard: string | null = null;
  provider: string | null = null;
  bouquetCode: string | null = null;
  warnings: RowIssue[] = NO_WARNINGS;

  constructor(
    public row: number,
    public phone: string,
  ) {}
}

/** The catalogs of a purchase of `kind`: indexed once for a file's rows (`indexCatalogs`), or as the catalog cache gives them. */
export type PurchaseCatalogs = ItemCatalogs | Pick<BulkCatalogs, 'airtime' | 'data' | 'electricity' | 'cable'>;

/**
 * One purchase of `kind`, checked against the catalogs: valid (what the catalog sells, at its
 * price) or null, its issues and warnings told to `check`. `row` is its row in the file (a
 * purchase asked for on its own has the row a one-row file would give it, 2).
 */
export function validateItem<K extends BulkKind>(kind: K, fields: ItemFields[K], catalogs: PurchaseCatalogs, check: ItemChecker, row = 2): ValidRow | null {
  const ix = 'kobo' in catalogs ? catalogs : indexCatalogs(catalogs, kind);
  switch (kind) {
    case 'airtime':
      return airtimeItem(row, fields as AirtimeFields, ix, check);
    case 'data':
      return dataItem(row, fields as DataFields, ix, check);
    case 'electricity':
      return electricityItem(row, fields as ElectricityFields, ix, check);
    default:
      return cableItem(row, fields as CableFields, ix, check);
  }
}

function airtimeItem(row: number, f: AirtimeFields, ix: ItemCatalogs, check: ItemChecker): ValidRow | null {
  const { phone, network: given, productCode: codeText, amount } = f;
  if (given && !given.ok) check.issue('network', given.reason);
  const inferred = phone ? networkOfLocalPhone(phone) : null;
  let network: Network | null = given?.ok ? given.value : inferred;
  let product: AirtimeProduct | undefined;
  if (codeText !== null) {
    product = ix.airtimeByCode.get(codeText);
    if (!product) {
      const hint = [...ix.airtimeByCode.keys()].find((c) => c.toLowerCase() === codeText.toLowerCase());
      check.issue('productCode', `airtime product code ${excerpt(codeText)} is not in the catalog${hint ? ` (did you mean ${hint}? codes are case-sensitive)` : ''}`);
    } else if (network && product.network !== network) {
      check.issue('productCode', `airtime product ${excerpt(codeText)} is for ${NETWORK_LABEL[product.network]}, not ${NETWORK_LABEL[network]}`);
    } else {
      network = product.network;
    }
  }
  if (phone && !network && !(given && !given.ok)) {
    check.issue('network', `cannot tell the network of ${phone} from its prefix; ${check.words.giveNetwork}`);
  }
  if (network && !product) {
    product = ix.airtimeByNetwork.get(network);
    if (!product) check.issue('network', `the airtime catalog has no product for ${NETWORK_LABEL[network]}; refresh the catalog or choose another network`);
  }
  if (!amount.ok) check.issue('amount', amount.reason);
  else if (product) {
    const [min, max] = ix.kobo.get(product) as [number, number];
    if (amount.kobo < min) check.issue('amount', `${formatNaira(amount.kobo)} is below the ${NETWORK_LABEL[product.network]} airtime minimum of ${formatNaira(min)}`);
    else if (max > 0 && amount.kobo > max)
      check.issue('amount', `${formatNaira(amount.kobo)} is above the ${NETWORK_LABEL[product.network]} airtime maximum of ${formatNaira(max)}`);
  }
  if (!product || !network || !amount.ok || !phone) return null;
  if (given?.ok && inferred && inferred !== given.value) {
    check.networkConflict(
      phone,
      given.value,
      inferred,
      `${phone} has ${withArticle(NETWORK_LABEL[inferred])} prefix but ${check.words.given} ${NETWORK_LABEL[given.value]}; ${NETWORK_LABEL[given.value]} will be used (numbers can be ported). ${check.words.changeNetwork}`,
    );
  }
  const out = new ValidRowRecord(row, phone);
  out.network = network;
  out.amountKobo = amount.kobo;
  out.productCode = product.productCode;
  out.voucherCode = product.voucherCode ? product.voucherCode : null;
  out.operator = product.operator;
  out.region = product.region;
  return out;
}

function dataItem(row: number, f: DataFields, ix: ItemCatalogs, check: ItemChecker): ValidRow | null {
  const { phone, productCode: codeText, network: given } = f;
  let plan: DataPlan | undefined;
  if (codeText === null) check.issue('productCode', `the data plan code is empty; ${check.words.choosePlan}`);
  else {
    plan = ix.plansByCode.get(codeText);
    if (!plan) {
      const near = ix.plansByLowerCode.get(codeText.toLowerCase());
      check.issue(
        'productCode',
        near
          ? `data plan code ${excerpt(codeText)} is not in the catalog; did you mean ${near.productCode}? (codes are case-sensitive)`
          : `data plan code ${excerpt(codeText)} is not in the catalog; ${check.words.exactPlan}`,
      );
    }
  }
  if (given && !given.ok) check.issue('network', given.reason);
  if (!plan || !phone || (given && !given.ok)) return null;
  const planKobo = (ix.kobo.get(plan) as [number, number])[0];
  const out = new ValidRowRecord(row, phone);
  out.network = plan.network;
  out.amountKobo = planKobo;
  out.productCode = plan.productCode;
  out.voucherCode = plan.voucherCode ? plan.voucherCode : null;
  out.dataValue = Number.isFinite(plan.dataValue) ? plan.dataValue : null;
  out.operator = plan.operator;
  out.description = plan.description;
  if (given?.ok && given.value !== plan.network) {
    check.warn(
      'network',
      `${check.words.given} ${NETWORK_LABEL[given.value]} but plan ${plan.productCode} is ${withArticle(NETWORK_LABEL[plan.network])} plan; ${NETWORK_LABEL[plan.network]} will be used`,
    );
  }
  const inferred = networkOfLocalPhone(phone);
  if (inferred && inferred !== plan.network) {
    check.networkConflict(
      phone,
      plan.network,
      inferred,
      `${phone} has ${withArticle(NETWORK_LABEL[inferred])} prefix but plan ${plan.productCode} is for ${NETWORK_LABEL[plan.network]}; it will be bought on ${NETWORK_LABEL[plan.network]} (numbers can be ported). Choose ${withArticle(NETWORK_LABEL[inferred])} plan if that is wrong`,
    );
  }
  return out;
}

function electricityItem(row: number, f: ElectricityFields, ix: ItemCatalogs, check: ItemChecker): ValidRow | null {
  const { phone, disco: discoText, meter, vendType, amount } = f;
  let disco: ElectricityProvider | undefined;
  if (discoText === null) check.issue('disco', 'the disco is empty; write the disco code from the electricity provider list');
  else {
    disco = ix.discoByCode.get(discoText) ?? ix.discoByLooseName.get(lower(discoText));
    if (!disco) {
      const near = [...ix.discoByCode.keys()].find((c) => c.toLowerCase() === discoText.toLowerCase());
      check.issue(
        'disco',
        near
          ? `disco ${excerpt(discoText)} is not in the catalog; did you mean ${near}? (codes are case-sensitive)`
          : `disco ${excerpt(discoText)} is not in the catalog; use one of ${[...ix.discoByCode.keys()].join(', ')}`,
      );
    }
  }
  if (!meter.ok) check.issue('meter', meter.reason);
  if (!vendType.ok) check.issue('vendType', vendType.reason);
  if (!amount.ok) check.issue('amount', amount.reason);
  else if (disco) {
    const [min, max] = ix.kobo.get(disco) as [number, number];
    if (amount.kobo < min) check.issue('amount', `${formatNaira(amount.kobo)} is below ${disco.name}'s minimum of ${formatNaira(min)}`);
    else if (max > 0 && amount.kobo > max) check.issue('amount', `${formatNaira(amount.kobo)} is above ${disco.name}'s maximum of ${formatNaira(max)}`);
  }
  if (!disco || !meter.ok || !vendType.ok || !amount.ok || !phone) return null;
  const out = new ValidRowRecord(row, phone);
  out.amountKobo = amount.kobo;
  out.productCode = disco.productCode;
  out.disco = disco.productCode;
  out.meter = meter.value;
  out.vendType = vendType.value;
  out.description = disco.name;
  return out;
}

function cableItem(row: number, f: CableFields, ix: ItemCatalogs, check: ItemChecker): ValidRow | null {
  const { phone, provider: providerText, bouquet: codeText, smartcard } = f;
  let provider: string | null = null;
  if (providerText !== null) {
    provider = ix.providers.get(lower(providerText)) ?? null;
    if (!provider) check.issue('provider', `cable provider ${excerpt(providerText)} is not in the catalog; use one of ${[...new Set(ix.providers.values())].join(', ')}`);
  }
  let bouquet: CableBouquet | undefined;
  if (codeText === null) check.issue('bouquet', 'the bouquet code is empty; copy a bouquet code from the cable TV list');
  else {
    const candidates = ix.bouquetsByCode.get(codeText);
    if (!candidates) {
      const near = ix.bouquetsByLowerCode.get(codeText.toLowerCase());
      check.issue(
        'bouquet',
        near
          ? `bouquet code ${excerpt(codeText)} is not in the catalog; did you mean ${near.productCode}? (codes are case-sensitive)`
          : `bouquet code ${excerpt(codeText)} is not in the catalog; copy the exact code from the cable TV list`,
      );
    } else {
      bouquet = provider ? candidates.find((b) => b.network === provider) : candidates[0];
      if (!bouquet && provider) check.issue('bouquet', `bouquet ${excerpt(codeText)} is ${withArticle(candidates[0].network)} bouquet, not ${provider}`);
    }
  }
  if (!smartcard.ok) check.issue('smartcard', smartcard.reason);
  if (!bouquet || !smartcard.ok || !phone || (providerText !== null && !provider)) return null;
  const out = new ValidRowRecord(row, phone);
  out.amountKobo = (ix.kobo.get(bouquet) as [number, number])[0];
  out.productCode = bouquet.productCode;
  out.bouquetCode = bouquet.productCode;
  out.provider = bouquet.network;
  out.smartcard = smartcard.value;
  out.description = bouquet.description;
  return out;
}
