/**
 * Reads one row of each kind of bulk sheet (airtime, data, electricity, cable): its cells into the
 * typed fields of a purchase, which `validateItem` checks against the catalogs as it checks a
 * purchase asked for on its own, and what only a file's row can say (an amount the catalog's price
 * replaces). Runs once per row: no per-row closures.
 */
import { excerpt } from '../../shared/excerpt';
import { formatNaira } from '../../shared/money';
import type { Network } from '../../shared/phone';
import { accountNumberFromCell, amountFromCell, networkFromCell, textFromCell, vendTypeFromCell } from './cellValues';
import type { ColumnMapping, FieldKey } from './columnMapping';
import type { CellValue } from './sheetTable';
import { SHEET_WORDS, type ItemChecker } from './itemFields';
import { validateItem, type ItemCatalogs } from './validateItem';
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
  ix: ItemCatalogs;
  check: RowChecker;
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

/** Collects one row's issues and warnings, in a file's words; one instance is reused for every row (no per-row closures). */
export class RowChecker implements ItemChecker {
  readonly words = SHEET_WORDS;
  row = 0;
  issues: RowIssue[] = [];
  warnings: RowIssue[] = [];

  /** `conflicts`: where the run keeps the rows whose number's prefix names another network. */
  constructor(readonly conflicts: NetworkConflict[] = []) {}

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

  networkConflict(phone: string, given: Network, inferred: Network, text: string): void {
    this.conflicts.push({ row: this.row, phone, given, inferred, message: `Row ${this.row}: ${text}` });
    this.warn('network', text);
  }
}

export function airtimeRow(row: number, cells: readonly CellValue[], phone: string, reading: RowReading): ValidRow | null {
  const { col } = reading;
  const fields = { phone, network: networkFromCell(at(cells, col.network)), productCode: optionalText(at(cells, col.productCode)), amount: amountFromCell(at(cells, col.amount)) };
  return validateItem('airtime', fields, reading.ix, reading.check, row);
}

export function dataRow(row: number, cells: readonly CellValue[], phone: string, reading: RowReading): ValidRow | null {
  const { col, check } = reading;
  const out = validateItem('data', { phone, productCode: optionalText(at(cells, col.productCode)), network: networkFromCell(at(cells, col.network)) }, reading.ix, check, row);
  // The plan's price is charged whatever the file says; a different amount is only a warning.
  if (out) fileAmountIgnored(at(cells, col.amount), out.amountKobo, `plan ${out.productCode}`, check);
  return out;
}

export function electricityRow(row: number, cells: readonly CellValue[], phone: string, reading: RowReading): ValidRow | null {
  const { col } = reading;
  const fields = {
    phone,
    disco: optionalText(at(cells, col.disco)),
    meter: accountNumberFromCell(at(cells, col.meter), 'Meter number', 6, 20),
    vendType: vendTypeFromCell(at(cells, col.vendType)),
    amount: amountFromCell(at(cells, col.amount)),
  };
  return validateItem('electricity', fields, reading.ix, reading.check, row);
}

export function cableRow(row: number, cells: readonly CellValue[], phone: string, reading: RowReading): ValidRow | null {
  const { col, check } = reading;
  const fields = {
    phone,
    provider: optionalText(at(cells, col.provider)),
    bouquet: optionalText(at(cells, col.bouquet)),
    smartcard: accountNumberFromCell(at(cells, col.smartcard), 'Smartcard number', 8, 20),
  };
  const out = validateItem('cable', fields, reading.ix, check, row);
  if (out) fileAmountIgnored(at(cells, col.amount), out.amountKobo, out.description ?? '', check);
  return out;
}

/** A data plan or bouquet costs the catalog's price: a file's other amount is said to be ignored. */
function fileAmountIgnored(cell: CellValue, priceKobo: number, what: string, check: RowChecker): void {
  if (cell === null) return;
  const given = amountFromCell(cell);
  if (!given.ok || given.kobo !== priceKobo) check.warn('amount', `the file's amount ${excerpt(textFromCell(cell))} is ignored; ${what} costs ${formatNaira(priceKobo)}`);
}
