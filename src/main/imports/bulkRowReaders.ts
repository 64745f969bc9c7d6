/**
 * Reads one row of each kind of bulk sheet (airtime, data, electricity, cable) into a valid row
 * with catalog values, collecting the row's issues and warnings on the way. Runs once per row:
 * no per-row closures or object literals (see `ValidRowRecord`).
 */
import { excerpt } from '../../shared/excerpt';
import { formatNaira } from '../../shared/money';
import { NETWORK_LABEL, networkOfPhone, type Network } from '../../shared/phone';
import type { AirtimeProduct, CableBouquet, DataPlan, ElectricityProvider, VendType } from '../../shared/wire';
import { lower, type Indexes } from './catalogIndexes';
import { accountNumberFromCell, amountFromCell, networkFromCell, textFromCell, vendTypeFromCell } from './cellValues';
import type { ColumnMapping, FieldKey } from './columnMapping';
import type { CellValue } from './sheetTable';
import type { NetworkConflict, RowIssue, ValidRow } from './validationResult';

/**
 * One row's problem as a sentence, ended once: `Row 5: Amount one thousand: That is not an amount.
 * Type the amount in Naira, like … or ₦5,000.` What to do about it is said where the rows are listed,
 * in that place's terms: the window's preview (fix the spreadsheet and check the file again), the
 * CLI (fix the file, or `--skip-invalid`).
 */
export function rowSentence(row: number, text: string): string {
  return `Row ${row}: ${text}${/[.?!]$/.test(text) ? '' : '.'}`;
}

/** What every row of one validation run is read with. */
export interface RowReading {
  col: ColumnMapping;
  ix: Indexes;
  check: RowChecker;
  conflicts: NetworkConflict[];
}

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

export function at(cells: readonly CellValue[], column: number | null): CellValue {
  if (column === null) return null;
  const v = cells[column];
  return v === undefined ? null : v;
}

export function optionalText(cell: CellValue): string | null {
  const t = textFromCell(cell);
  return t === '' ? null : t;
}

/** `an MTN`, `an Airtel`, `a Glo`, `a 9mobile`. */
function withArticle(word: string): string {
  return /^[AEIOM]/i.test(word) && !/^[Mm][a-z]/.test(word) ? `an ${word}` : `a ${word}`;
}

/** Collects one row's issues and warnings; one instance is reused for every row (no per-row closures). */
export class RowChecker {
  row = 0;
  issues: RowIssue[] = [];
  warnings: RowIssue[] = [];

  reset(row: number): void {
    this.row = row;
    if (this.issues.length > 0) this.issues = [];
    if (this.warnings.length > 0) this.warnings = [];
  }

  issue(field: FieldKey, text: string): void {
    this.issues.push({ row: this.row, field, message: rowSentence(this.row, text) });
  }

  warn(field: FieldKey, text: string): void {
    this.warnings.push({ row: this.row, field, message: `Row ${this.row}: ${text}` });
  }
}

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

/** The warnings of a row that has none: one shared, frozen empty array (100k rows, no 100k arrays). */
export const NO_WARNINGS: RowIssue[] = Object.freeze([]) as unknown as RowIssue[];

function blankRow(row: number, phone: string): ValidRow {
  return new ValidRowRecord(row, phone);
}

export function airtimeRow(row: number, cells: readonly CellValue[], phone: string, reading: RowReading): ValidRow | null {
  const { col, ix, check, conflicts } = reading;
  const given = networkFromCell(at(cells, col.network));
  if (given && !given.ok) check.issue('network', given.reason);
  const inferred = phone ? networkOfLocalPhone(phone) : null;
  let network: Network | null = given?.ok ? given.value : inferred;
  const codeText = optionalText(at(cells, col.productCode));
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
    check.issue('network', `cannot tell the network of ${phone} from its prefix; add a Network column (MTN, Airtel, Glo or 9mobile)`);
  }
  if (network && !product) {
    product = ix.airtimeByNetwork.get(network);
    if (!product) check.issue('network', `the airtime catalog has no product for ${NETWORK_LABEL[network]}; refresh the catalog or choose another network`);
  }
  const amount = amountFromCell(at(cells, col.amount));
  if (!amount.ok) check.issue('amount', amount.reason);
  else if (product) {
    const [min, max] = ix.kobo.get(product) as [number, number];
    if (amount.kobo < min) check.issue('amount', `${formatNaira(amount.kobo)} is below the ${NETWORK_LABEL[product.network]} airtime minimum of ${formatNaira(min)}`);
    else if (max > 0 && amount.kobo > max)
      check.issue('amount', `${formatNaira(amount.kobo)} is above the ${NETWORK_LABEL[product.network]} airtime maximum of ${formatNaira(max)}`);
  }
  if (!product || !network || !amount.ok || !phone) return null;
  if (given?.ok && inferred && inferred !== given.value) {
    const message = `Row ${row}: ${phone} has ${withArticle(NETWORK_LABEL[inferred])} prefix but the file says ${NETWORK_LABEL[given.value]}; ${NETWORK_LABEL[given.value]} will be used (numbers can be ported). Change the Network cell if that is wrong`;
    conflicts.push({ row, phone, given: given.value, inferred, message });
    check.warn('network', message.slice(message.indexOf(': ') + 2));
  }
  const out = blankRow(row, phone);
  out.network = network;
  out.amountKobo = amount.kobo;
  out.productCode = product.productCode;
  out.voucherCode = product.voucherCode ? product.voucherCode : null;
  out.operator = product.operator;
  out.region = product.region;
  return out;
}

export function dataRow(row: number, cells: readonly CellValue[], phone: string, reading: RowReading): ValidRow | null {
  const { col, ix, check, conflicts } = reading;
  const codeText = optionalText(at(cells, col.productCode));
  let plan: DataPlan | undefined;
  if (codeText === null) check.issue('productCode', 'the data plan code is empty; copy a product code from the data plan list');
  else {
    plan = ix.plansByCode.get(codeText);
    if (!plan) {
      const near = ix.plansByLowerCode.get(codeText.toLowerCase());
      check.issue(
        'productCode',
        near
          ? `data plan code ${excerpt(codeText)} is not in the catalog; did you mean ${near.productCode}? (codes are case-sensitive)`
          : `data plan code ${excerpt(codeText)} is not in the catalog; copy the exact product code from the data plan list`,
      );
    }
  }
  const given = networkFromCell(at(cells, col.network));
  if (given && !given.ok) check.issue('network', given.reason);
  // The plan's price is charged whatever the file says; a different amount is only a warning.
  const fileAmountCell = at(cells, col.amount);
  if (!plan || !phone || (given && !given.ok)) return null;
  const planKobo = (ix.kobo.get(plan) as [number, number])[0];
  const out = blankRow(row, phone);
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
      `the file says ${NETWORK_LABEL[given.value]} but plan ${plan.productCode} is ${withArticle(NETWORK_LABEL[plan.network])} plan; ${NETWORK_LABEL[plan.network]} will be used`,
    );
  }
  const inferred = networkOfLocalPhone(phone);
  if (inferred && inferred !== plan.network) {
    const message = `Row ${row}: ${phone} has ${withArticle(NETWORK_LABEL[inferred])} prefix but plan ${plan.productCode} is for ${NETWORK_LABEL[plan.network]}; it will be bought on ${NETWORK_LABEL[plan.network]} (numbers can be ported). Choose ${withArticle(NETWORK_LABEL[inferred])} plan if that is wrong`;
    conflicts.push({ row, phone, given: plan.network, inferred, message });
    check.warn('network', message.slice(message.indexOf(': ') + 2));
  }
  if (fileAmountCell !== null) {
    const fileAmount = amountFromCell(fileAmountCell);
    if (!fileAmount.ok || fileAmount.kobo !== planKobo) {
      check.warn('amount', `the file's amount ${excerpt(textFromCell(fileAmountCell))} is ignored; plan ${plan.productCode} costs ${formatNaira(planKobo)}`);
    }
  }
  return out;
}

export function electricityRow(row: number, cells: readonly CellValue[], phone: string, reading: RowReading): ValidRow | null {
  const { col, ix, check } = reading;
  const discoText = optionalText(at(cells, col.disco));
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
  const meter = accountNumberFromCell(at(cells, col.meter), 'Meter number', 6, 20);
  if (!meter.ok) check.issue('meter', meter.reason);
  const vendType = vendTypeFromCell(at(cells, col.vendType));
  if (!vendType.ok) check.issue('vendType', vendType.reason);
  const amount = amountFromCell(at(cells, col.amount));
  if (!amount.ok) check.issue('amount', amount.reason);
  else if (disco) {
    const [min, max] = ix.kobo.get(disco) as [number, number];
    if (amount.kobo < min) check.issue('amount', `${formatNaira(amount.kobo)} is below ${disco.name}'s minimum of ${formatNaira(min)}`);
    else if (max > 0 && amount.kobo > max) check.issue('amount', `${formatNaira(amount.kobo)} is above ${disco.name}'s maximum of ${formatNaira(max)}`);
  }
  if (!disco || !meter.ok || !vendType.ok || !amount.ok || !phone) return null;
  const out = blankRow(row, phone);
  out.amountKobo = amount.kobo;
  out.productCode = disco.productCode;
  out.disco = disco.productCode;
  out.meter = meter.value;
  out.vendType = vendType.value;
  out.description = disco.name;
  return out;
}

export function cableRow(row: number, cells: readonly CellValue[], phone: string, reading: RowReading): ValidRow | null {
  const { col, ix, check } = reading;
  const providerText = optionalText(at(cells, col.provider));
  let provider: string | null = null;
  if (providerText !== null) {
    provider = ix.providers.get(lower(providerText)) ?? null;
    if (!provider) check.issue('provider', `cable provider ${excerpt(providerText)} is not in the catalog; use one of ${[...new Set(ix.providers.values())].join(', ')}`);
  }
  const codeText = optionalText(at(cells, col.bouquet));
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
  const smartcard = accountNumberFromCell(at(cells, col.smartcard), 'Smartcard number', 8, 20);
  if (!smartcard.ok) check.issue('smartcard', smartcard.reason);
  if (!bouquet || !smartcard.ok || !phone || (providerText !== null && !provider)) return null;
  const kobo = (ix.kobo.get(bouquet) as [number, number])[0];
  const out = blankRow(row, phone);
  out.amountKobo = kobo;
  out.productCode = bouquet.productCode;
  out.bouquetCode = bouquet.productCode;
  out.provider = bouquet.network;
  out.smartcard = smartcard.value;
  out.description = bouquet.description;
  const fileAmountCell = at(cells, col.amount);
  if (fileAmountCell !== null) {
    const fileAmount = amountFromCell(fileAmountCell);
    if (!fileAmount.ok || fileAmount.kobo !== kobo)
      check.warn('amount', `the file's amount ${excerpt(textFromCell(fileAmountCell))} is ignored; ${bouquet.description} costs ${formatNaira(kobo)}`);
  }
  return out;
}
