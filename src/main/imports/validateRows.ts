/**
 * Row validation of bulk purchase sheets, before anything is charged. Pure and fast: catalogs
 * and the recent-purchase lookup are passed in. Every row ends up valid (ready to buy, with
 * catalog values, never the file's, for codes and prices) or invalid with the reasons, and
 * rows a user should look at twice (duplicates, numbers whose network was ported) are flagged.
 */
import { excerpt } from '../../shared/excerpt';
import { formatNaira, nairaToKobo, type Kobo } from '../../shared/money';
import { NETWORK_LABEL, networkOfPhone, type Network } from '../../shared/phone';
import type { AirtimeProduct, CableBouquet, DataPlan, ElectricityProvider, VendType } from '../../shared/wire';
import { accountNumberFromCell, amountFromCell, networkFromCell, phoneFromCell, textFromCell, vendTypeFromCell } from './cellValues';
import { assertMappingComplete, type BulkKind, type ColumnMapping, type FieldKey } from './columnMapping';
import type { CellValue, SheetTable } from './sheetTable';

export interface RowIssue {
  /** Row number as the spreadsheet shows it. */
  row: number;
  field: FieldKey;
  /** Complete sentence starting `Row N:`, saying what to do. */
  message: string;
}

/** A purchase in the last 24 hours (mirror of the vending log, or an item of a job) that a row may repeat. */
export interface RecentMatch {
  source: 'log' | 'job';
  /** Service reference or job item reference, when known. */
  reference: string | null;
  /** When it was bought or queued (ISO 8601). */
  at: string;
  amountKobo: Kobo;
  /** Log status or job item state, as the caller names it. */
  status: string;
  jobId?: string | null;
}

export interface ValidRow {
  row: number;
  /** Customer phone, 11-digit local form. */
  phone: string;
  /** Airtime and data: the network bought on; null for electricity and cable. */
  network: Network | null;
  amountKobo: Kobo;
  /** Catalog product code: airtime product, data plan, disco (electricity) or bouquet (cable). */
  productCode: string;
  voucherCode: string | null;
  dataValue: number | null;
  /** Airtime/data catalog operator and region ('' when the catalog has none). */
  operator: string;
  region: string;
  /** Data plan or bouquet description from the catalog, for the preview. */
  description: string | null;
  name: string | null;
  reference: string | null;
  /** Electricity */
  meter: string | null;
  disco: string | null;
  vendType: VendType | null;
  /** Cable */
  smartcard: string | null;
  provider: string | null;
  bouquetCode: string | null;
  /** Empty rows share one frozen array: read it, do not push to it. */
  warnings: RowIssue[];
}

export interface InvalidRow {
  row: number;
  issues: RowIssue[];
}

export interface InFileDuplicate {
  kind: 'in_file';
  /** Rows that would buy the same thing, first one first. */
  rows: number[];
  /** Phone (airtime, data) or meter/smartcard number. */
  account: string;
  amountKobo: Kobo;
  productCode: string;
  message: string;
}

export interface RecentDuplicate {
  kind: 'recent';
  row: number;
  account: string;
  amountKobo: Kobo;
  matches: RecentMatch[];
  message: string;
}

export type Duplicate = InFileDuplicate | RecentDuplicate;

/** The file names one network, the number's prefix another (the number may have been ported). */
export interface NetworkConflict {
  row: number;
  phone: string;
  /** The network used (from the file, or the data plan's network). */
  given: Network;
  /** The network of the number's prefix. */
  inferred: Network;
  message: string;
}

export interface ValidationResult {
  kind: BulkKind;
  valid: ValidRow[];
  invalid: InvalidRow[];
  duplicates: Duplicate[];
  networkConflicts: NetworkConflict[];
  /** Sum of the valid rows' amounts. */
  totalKobo: Kobo;
  counts: { rows: number; valid: number; invalid: number; duplicateRows: number; warnings: number };
  /** Every issue of every invalid row, in row order (what the CLI prints). */
  errors: RowIssue[];
}

export interface BulkCatalogs {
  airtime: AirtimeProduct[];
  data: DataPlan[];
  electricity?: ElectricityProvider[];
  cable?: CableBouquet[];
  /** Last 24 hours of the mirror and of job items for this phone (or meter/smartcard) and amount. */
  recentPurchases?: (phoneOrAccount: string, amountKobo: Kobo) => RecentMatch[];
}

const FIX = 'fix or exclude the row';
/** The service's floor for airtime, whatever the catalog says: ₦100. */
const MIN_AIRTIME_KOBO = 10_000;

function at(cells: readonly CellValue[], column: number | null): CellValue {
  if (column === null) return null;
  const v = cells[column];
  return v === undefined ? null : v;
}

function optionalText(cell: CellValue): string | null {
  const t = textFromCell(cell);
  return t === '' ? null : t;
}

function lower(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** `an MTN`, `an Airtel`, `a Glo`, `a 9mobile`. */
function withArticle(word: string): string {
  return /^[AEIOM]/i.test(word) && !/^[Mm][a-z]/.test(word) ? `an ${word}` : `a ${word}`;
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

interface Indexes {
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

function buildIndexes(ctx: BulkCatalogs, kind: BulkKind): Indexes {
  const ix: Indexes = {
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
    ix.kobo.set(p, [Math.max(MIN_AIRTIME_KOBO, nairaToKobo(p.minAmount)), nairaToKobo(p.maxAmount)]);
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

/**
 * A number standing for an account (phone, meter or smartcard number): equal accounts always
 * give equal numbers; different ones almost never do (a 10- or 11-digit phone is exact), and
 * when they do the exact comparison in findDuplicates sorts them out.
 */
function accountDigest(account: string): number {
  let v = 0;
  for (let i = 0; i < account.length; i++) v = (v * 10 + (account.charCodeAt(i) & 15)) % 9007199254740881; // never negative
  return v;
}

/** State of one validation run. The rare paths (invalid rows, duplicates) live in their own methods so the hot loop stays small and does not deoptimize when the first bad row turns up. */
class Validation {
  readonly valid: ValidRow[] = [];
  readonly invalid: InvalidRow[] = [];
  readonly networkConflicts: NetworkConflict[] = [];
  readonly duplicates: Duplicate[] = [];
  readonly firstByAccount = new Map<string, ValidRow | ValidRow[]>();
  readonly groups = new Map<ValidRow, InFileDuplicate>();
  /** Rows in any duplicate (in the file or against recent purchases), each counted once. */
  readonly flaggedRows = new Set<number>();
  readonly check = new RowChecker();
  totalKobo = 0;
  warnings = 0;
  readonly accountField: FieldKey;
  readonly sameWhat: string;
  readonly sameByAmount: boolean;

  /** accountDigest of each valid row's account, by index into `valid`. */
  readonly keys: Float64Array;

  constructor(
    readonly kind: BulkKind,
    rowCount: number,
  ) {
    this.keys = new Float64Array(rowCount);
    this.accountField = kind === 'electricity' ? 'meter' : kind === 'cable' ? 'smartcard' : 'phone';
    this.sameWhat = kind === 'airtime' ? 'phone and amount' : kind === 'data' ? 'phone and data plan' : kind === 'electricity' ? 'meter and amount' : 'smartcard and bouquet';
    this.sameByAmount = kind === 'airtime' || kind === 'electricity';
  }

  rejectRow(row: number): void {
    const check = this.check;
    if (check.issues.length === 0) check.issue('phone', 'the row could not be read');
    this.invalid.push({ row, issues: check.issues });
  }

  /** Same account and same amount (airtime, electricity) or product (data, cable) as an earlier row. */
  sameAsEarlier(out: ValidRow, account: string, earlier: ValidRow | ValidRow[]): void {
    const list = Array.isArray(earlier) ? earlier : [earlier];
    const first = list.find((e) => (this.sameByAmount ? e.amountKobo === out.amountKobo : e.productCode === out.productCode));
    if (!first) {
      list.push(out);
      if (!Array.isArray(earlier)) this.firstByAccount.set(account, list);
      return;
    }
    let group = this.groups.get(first);
    if (!group) {
      group = { kind: 'in_file', rows: [first.row], account, amountKobo: out.amountKobo, productCode: out.productCode, message: '' };
      this.groups.set(first, group);
      this.duplicates.push(group);
      this.flaggedRows.add(first.row);
    }
    group.rows.push(out.row);
    this.flaggedRows.add(out.row);
    this.check.warn(this.accountField, `same ${this.sameWhat} as row ${first.row} (${account}, ${formatNaira(out.amountKobo)}); keep it only if both purchases are wanted`);
  }

  boughtRecently(out: ValidRow, account: string, matches: RecentMatch[]): void {
    const row = out.row;
    const last = matches[matches.length - 1];
    const message = `Row ${row}: ${account} already had ${formatNaira(out.amountKobo)} bought in the last 24 hours (${matches.length === 1 ? '' : `${matches.length} times, last `}${last.at}${last.reference ? `, reference ${last.reference}` : ''}, ${last.status}); keep the row only if another purchase is wanted`;
    this.duplicates.push({ kind: 'recent', row, account, amountKobo: out.amountKobo, matches, message });
    this.flaggedRows.add(row);
    this.check.warnings.push({ row, field: this.accountField, message });
  }

  /**
   * A valid row: counted now; its duplicate checks wait for {@link findDuplicates}. Keying a Map
   * by 100,000 fresh account strings cost more than the rest of the validation, so the hot loop
   * only records a numeric digest of the account and the (rare) repeats are found afterwards.
   */
  accept(out: ValidRow, account: string): void {
    this.keys[this.valid.length] = accountDigest(account);
    const warnings = this.check.warnings;
    out.warnings = warnings.length > 0 ? warnings : NO_WARNINGS;
    this.warnings += warnings.length;
    this.totalKobo += out.amountKobo;
    this.valid.push(out);
  }

  /**
   * Duplicates within the file and against recent purchases, row by row in file order, with
   * the same results (and warnings in the same order) as checking each row as it was accepted.
   * Rows whose account digest occurs once cannot repeat an earlier row and skip the in-file check.
   */
  findDuplicates(recentPurchases: BulkCatalogs['recentPurchases']): void {
    const n = this.valid.length;
    // Digest and index packed in one exact double, sorted: equal digests end up side by side.
    let indexBits = 1;
    while (2 ** indexBits < n) indexBits++;
    const span = 2 ** indexBits;
    const digestSpan = 2 ** (52 - indexBits);
    const packed = new Float64Array(n);
    for (let i = 0; i < n; i++) packed[i] = (this.keys[i] % digestSpan) * span + i;
    packed.sort();
    const candidate = new Uint8Array(n);
    let candidates = 0;
    for (let i = 1; i < n; i++) {
      if (Math.floor(packed[i] / span) === Math.floor(packed[i - 1] / span)) {
        candidate[packed[i] % span] = 1;
        candidate[packed[i - 1] % span] = 1;
        candidates++;
      }
    }
    if (candidates === 0 && !recentPurchases) return;
    const check = this.check;
    for (let i = 0; i < n; i++) {
      const inFile = candidate[i] === 1;
      if (!inFile && !recentPurchases) continue;
      const out = this.valid[i];
      const account = this.accountOf(out);
      check.row = out.row;
      check.warnings = [];
      if (inFile) {
        const earlier = this.firstByAccount.get(account);
        if (earlier === undefined) this.firstByAccount.set(account, out);
        else this.sameAsEarlier(out, account, earlier);
      }
      if (recentPurchases) {
        const matches = recentPurchases(account, out.amountKobo);
        if (matches.length > 0) this.boughtRecently(out, account, matches);
      }
      const added = check.warnings;
      if (added.length > 0) {
        out.warnings = out.warnings.length > 0 ? [...out.warnings, ...added] : added;
        this.warnings += added.length;
      }
    }
  }

  accountOf(out: ValidRow): string {
    return this.kind === 'electricity' ? (out.meter as string) : this.kind === 'cable' ? (out.smartcard as string) : out.phone;
  }

  result(rowCount: number): ValidationResult {
    for (const group of this.groups.values()) {
      group.message = `Rows ${group.rows.join(', ')} buy the same thing for ${group.account} (${formatNaira(group.amountKobo)} each); keep them only if every purchase is wanted, otherwise exclude the extra rows`;
    }
    const errors: RowIssue[] = [];
    for (const r of this.invalid) for (const i of r.issues) errors.push(i);
    return {
      kind: this.kind,
      valid: this.valid,
      invalid: this.invalid,
      duplicates: this.duplicates,
      networkConflicts: this.networkConflicts,
      totalKobo: this.totalKobo,
      counts: { rows: rowCount, valid: this.valid.length, invalid: this.invalid.length, duplicateRows: this.flaggedRows.size, warnings: this.warnings },
      errors,
    };
  }
}

/** Validates the rows of a bulk airtime, data, electricity or cable sheet. */
export function validateBulkRows(table: SheetTable, mapping: ColumnMapping, kind: BulkKind, ctx: BulkCatalogs): ValidationResult {
  assertMappingComplete(mapping, kind, table.headers);
  const ix = buildIndexes(ctx, kind);
  const v = new Validation(kind, table.rows.length);
  const check = v.check;
  const col = mapping;
  const rows = table.rows;
  const recentPurchases = ctx.recentPurchases;
  for (let r = 0; r < rows.length; r++) {
    const { row, cells } = rows[r];
    check.reset(row);
    const phoneResult = phoneFromCell(at(cells, col.phone));
    let phone = '';
    if (phoneResult.ok) phone = phoneResult.phone;
    else check.issue('phone', phoneResult.reason);
    let out: ValidRow | null;
    if (kind === 'airtime') out = airtimeRow(row, cells, col, ix, phone, check, v.networkConflicts);
    else if (kind === 'data') out = dataRow(row, cells, col, ix, phone, check, v.networkConflicts);
    else if (kind === 'electricity') out = electricityRow(row, cells, col, ix, phone, check);
    else out = cableRow(row, cells, col, ix, phone, check);
    if (out === null || check.issues.length > 0) {
      v.rejectRow(row);
      continue;
    }
    out.name = optionalText(at(cells, col.name));
    out.reference = optionalText(at(cells, col.reference));
    v.accept(out, v.accountOf(out));
  }
  v.findDuplicates(recentPurchases);
  return v.result(rows.length);
}

/**
 * A row's issue or warning as said about one purchase typed in a form or on the command line
 * (a single airtime or data purchase is validated as a one-row sheet): no row number, no "fix or
 * exclude the row", and the network and plan are chosen rather than read from columns.
 */
export function singlePurchaseText(message: string): string {
  const text = message
    .replace(/^Row \d+: /, '')
    .replace(`; ${FIX}`, '')
    .replace('add a Network column (MTN, Airtel, Glo or 9mobile)', 'give the network (MTN, Airtel, Glo or 9mobile)')
    .replace(/the file says/g, 'you chose')
    .replace('Change the Network cell if that is wrong', 'Choose the network if that is wrong')
    .replace('copy the exact product code from the data plan list', 'use the exact plan code of the data catalog')
    .replace('copy a product code from the data plan list', 'choose a plan of the data catalog');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}${/[.?!]$/.test(text) ? '' : '.'}`;
}

/** Collects one row's issues and warnings; one instance is reused for every row (no per-row closures). */
class RowChecker {
  row = 0;
  issues: RowIssue[] = [];
  warnings: RowIssue[] = [];

  reset(row: number): void {
    this.row = row;
    if (this.issues.length > 0) this.issues = [];
    if (this.warnings.length > 0) this.warnings = [];
  }

  issue(field: FieldKey, text: string): void {
    this.issues.push({ row: this.row, field, message: `Row ${this.row}: ${text}; ${FIX}` });
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
const NO_WARNINGS: RowIssue[] = Object.freeze([]) as unknown as RowIssue[];

function blankRow(row: number, phone: string): ValidRow {
  return new ValidRowRecord(row, phone);
}

function airtimeRow(
  row: number,
  cells: readonly CellValue[],
  col: ColumnMapping,
  ix: Indexes,
  phone: string,
  check: RowChecker,
  conflicts: NetworkConflict[],
): ValidRow | null {
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
    else if (max > 0 && amount.kobo > max) check.issue('amount', `${formatNaira(amount.kobo)} is above the ${NETWORK_LABEL[product.network]} airtime maximum of ${formatNaira(max)}`);
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

function dataRow(
  row: number,
  cells: readonly CellValue[],
  col: ColumnMapping,
  ix: Indexes,
  phone: string,
  check: RowChecker,
  conflicts: NetworkConflict[],
): ValidRow | null {
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
    check.warn('network', `the file says ${NETWORK_LABEL[given.value]} but plan ${plan.productCode} is ${withArticle(NETWORK_LABEL[plan.network])} plan; ${NETWORK_LABEL[plan.network]} will be used`);
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

function electricityRow(row: number, cells: readonly CellValue[], col: ColumnMapping, ix: Indexes, phone: string, check: RowChecker): ValidRow | null {
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

function cableRow(row: number, cells: readonly CellValue[], col: ColumnMapping, ix: Indexes, phone: string, check: RowChecker): ValidRow | null {
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
        near ? `bouquet code ${excerpt(codeText)} is not in the catalog; did you mean ${near.productCode}? (codes are case-sensitive)` : `bouquet code ${excerpt(codeText)} is not in the catalog; copy the exact code from the cable TV list`,
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
    if (!fileAmount.ok || fileAmount.kobo !== kobo) check.warn('amount', `the file's amount ${excerpt(textFromCell(fileAmountCell))} is ignored; ${bouquet.description} costs ${formatNaira(kobo)}`);
  }
  return out;
}
