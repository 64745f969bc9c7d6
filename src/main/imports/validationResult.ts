/**
 * What the validation of a bulk purchase sheet produces (valid rows ready to buy, invalid rows
 * with their reasons, rows flagged for a second look) and what it is given (the catalogs and the
 * recent-purchase lookup).
 */
import type { Kobo } from '../../shared/money';
import type { Network } from '../../shared/phone';
import type { AirtimeProduct, CableBouquet, DataPlan, ElectricityProvider, VendType } from '../../shared/wire';
import type { BulkKind, FieldKey } from './columnMapping';

export interface RowIssue {
  /** Row number as the spreadsheet shows it. */
  row: number;
  field: FieldKey;
  /** One sentence starting `Row N:`, saying what is wrong; what to do about it is said where the rows are listed (the window's preview, the CLI). */
  message: string;
}

/** A trailing row that sums the sheet up ("TOTAL", "Grand total"): not a purchase, skipped (docs/imports.md, "A total row"). */
export interface TotalRow {
  row: number;
  /** Its label, as the sheet writes it. */
  label: string;
  /** The amount it states, when its Amount cell reads as one. */
  statedKobo: Kobo | null;
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
  /** The department the purchase is charged to (src/shared/costCentre.ts); null when the row gives none. */
  costCentre: string | null;
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
  /** Rows of purchases: the sheet's data rows less its total rows. */
  counts: { rows: number; valid: number; invalid: number; duplicateRows: number; warnings: number };
  /** The sheet's trailing total rows, skipped (neither bought nor invalid). */
  totalRows: TotalRow[];
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
