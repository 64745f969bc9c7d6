/**
 * Row validation of bulk purchase sheets, before anything is charged. Pure and fast: catalogs
 * and the recent-purchase lookup are passed in. Every row is read into a purchase's fields and
 * checked by the one rule a single purchase is checked by (`validateItem.ts`): it ends up valid
 * (ready to buy, with catalog values, never the file's, for codes and prices) or invalid with the
 * reasons, and rows a user should look at twice (duplicates across the file and the last 24
 * hours, numbers whose network was ported) are flagged.
 */
import { excerpt } from '../../shared/excerpt';
import { readCostCentre } from '../../shared/costCentre';
import { formatNaira } from '../../shared/money';
import { amountFromCell, phoneFromCell, textFromCell } from './cellValues';
import { mappedColumns, refuseHiddenCells } from './hiddenCells';
import { assertMappingComplete, type BulkKind, type ColumnMapping, type FieldKey } from './columnMapping';
import { airtimeRow, at, cableRow, dataRow, electricityRow, optionalText, RowChecker, type RowReading } from './bulkRowReaders';
import { indexCatalogs, NO_WARNINGS } from './validateItem';
import type { SheetTable } from './sheetTable';
import type { BulkCatalogs, Duplicate, InFileDuplicate, InvalidRow, NetworkConflict, RecentMatch, RowIssue, TotalRow, ValidationResult, ValidRow } from './validationResult';

/** Read per valid row: a local binding, as an import read in the loop costs a getter call each time where modules are not bundled (tsx, the benchmarks). */
const noWarnings = NO_WARNINGS;

export type {
  BulkCatalogs,
  Duplicate,
  InFileDuplicate,
  InvalidRow,
  NetworkConflict,
  RecentDuplicate,
  RecentMatch,
  RowIssue,
  TotalRow,
  ValidationResult,
  ValidRow,
} from './validationResult';

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
  readonly check = new RowChecker(this.networkConflicts);
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
    out.warnings = warnings.length > 0 ? warnings : noWarnings;
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

  result(rowCount: number, totalRows: TotalRow[]): ValidationResult {
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
      totalRows,
      errors,
    };
  }
}

/** What a sheet's total row says in its first filled cell: Total, TOTAL:, Grand total, Sub-total, Total amount (₦), Sum. */
const TOTAL_LABEL = /^(?:(?:grand|sub)[\s-]*)?totals?(?:\s+amount)?(?:\s*\([^)]*\))?\s*:?$|^sum\s*:?$/i;

/**
 * The sheet's trailing total rows (docs/imports.md, "A total row"): from the last row up, each row
 * whose first filled cell is a total's label and whose account cell (Phone; Meter Number; Smartcard
 * Number) is empty or that label. A row that names an account is a purchase, whatever it says, and
 * ends the search, as does any other row: a total in the middle of the sheet is not one.
 */
export function trailingTotalRows(table: SheetTable, mapping: ColumnMapping, kind: BulkKind): TotalRow[] {
  const account = kind === 'electricity' ? mapping.meter : kind === 'cable' ? mapping.smartcard : mapping.phone;
  const found: TotalRow[] = [];
  for (let r = table.rows.length - 1; r >= 0; r--) {
    const { row, cells } = table.rows[r];
    const first = cells.findIndex((c) => textFromCell(c ?? null).trim() !== '');
    const label = first < 0 ? '' : textFromCell(cells[first] ?? null).trim();
    if (!TOTAL_LABEL.test(label)) break;
    if (account !== null && account !== first && textFromCell(cells[account] ?? null).trim() !== '') break;
    const amount = mapping.amount === null ? null : amountFromCell(cells[mapping.amount] ?? null);
    found.unshift({ row, label, statedKobo: amount?.ok ? amount.kobo : null });
  }
  return found;
}

/**
 * What the preview and `vendesk bulk validate` say of the total rows: not bought, and the amount each
 * states beside what the valid rows add up to, for the eye of whoever checks the sheet. Null when none.
 */
export function totalRowsNote(result: ValidationResult): string | null {
  if (result.totalRows.length === 0) return null;
  return result.totalRows
    .map((t) => {
      const said = `Row ${t.row} (“${excerpt(t.label)}”) is the sheet's total, not a purchase, so it is not bought`;
      if (t.statedKobo === null) return `${said}.`;
      if (t.statedKobo === result.totalKobo) return `${said}; the ${formatNaira(t.statedKobo)} it states is what the valid rows above it add up to.`;
      return `${said}; it states ${formatNaira(t.statedKobo)}, the valid rows above it add up to ${formatNaira(result.totalKobo)}.`;
    })
    .join(' ');
}

/** Validates the rows of a bulk airtime, data, electricity or cable sheet; its trailing total rows are skipped (`totalRows`). */
export function validateBulkRows(table: SheetTable, mapping: ColumnMapping, kind: BulkKind, ctx: BulkCatalogs): ValidationResult {
  assertMappingComplete(mapping, kind, table.headers);
  const ix = indexCatalogs(ctx, kind);
  const totalRows = trailingTotalRows(table, mapping, kind);
  const rows = table.rows.length === 0 || totalRows.length === 0 ? table.rows : table.rows.slice(0, table.rows.length - totalRows.length);
  const v = new Validation(kind, rows.length);
  const check = v.check;
  const col = mapping;
  const recentPurchases = ctx.recentPurchases;
  const reading: RowReading = { col, ix, check };
  // Called for every row: local bindings, not imports (see noWarnings).
  const cellAt = at;
  const textOrNull = optionalText;
  const readRow = kind === 'airtime' ? airtimeRow : kind === 'data' ? dataRow : kind === 'electricity' ? electricityRow : cableRow;
  const readColumns = mappedColumns(mapping, kind);
  const refuse = (field: FieldKey, text: string) => check.issue(field, text);
  for (let r = 0; r < rows.length; r++) {
    const { row, cells } = rows[r];
    check.reset(row);
    // A cell holding a character a screen obeys or hides is not read at all (src/main/imports/hiddenCells.ts).
    if (!refuseHiddenCells(cells, readColumns, refuse)) {
      v.rejectRow(row);
      continue;
    }
    const phoneResult = phoneFromCell(cellAt(cells, col.phone));
    let phone = '';
    if (phoneResult.ok) phone = phoneResult.phone;
    else check.issue('phone', phoneResult.reason);
    const costCentre = readCostCentre(textOrNull(cellAt(cells, col.costCentre)));
    if (!costCentre.ok) check.issue('costCentre', costCentre.reason);
    const out = readRow(row, cells, phone, reading);
    if (out === null || check.issues.length > 0) {
      v.rejectRow(row);
      continue;
    }
    out.name = textOrNull(cellAt(cells, col.name));
    out.reference = textOrNull(cellAt(cells, col.reference));
    out.costCentre = costCentre.ok ? costCentre.value : null;
    v.accept(out, v.accountOf(out));
  }
  v.findDuplicates(recentPurchases);
  return v.result(rows.length, totalRows);
}
