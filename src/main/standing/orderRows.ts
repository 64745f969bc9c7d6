/**
 * An order's rows: read from a spreadsheet (or a finished job's rows) and checked by the bulk
 * validation (`validateBulkRows` through bulk's `validate`: the catalogs, every spelling rule and the
 * refusal of hidden characters), and checked again before each occurrence against today's catalog
 * by the same validation, so a plan that was withdrawn or repriced is a row that waits, with why.
 *
 * Before each occurrence the stored rows are laid out as a sheet of the kind's own columns (the
 * template's), so what checks a spreadsheet checks them — written once. The rows an occurrence buys
 * are bulk items made from that check (`itemsFromValidation`), never from the stored text alone.
 */
import { AppError } from '../../shared/appError';
import type { BulkLeftOutRow, BulkRowIssueView } from '../../shared/contract/bulk';
import type { FileRef } from '../../shared/contract/files';
import type { WaitingRowView } from '../../shared/contract/standing';
import { formatNaira } from '../../shared/money';
import type { App, Session } from '../appContext';
import { catalogsFor } from '../buying/draftFromFile';
import type { BulkJobKind } from '../buying/jobStates';
import type { NewItem } from '../buying/jobRows';
import { chooseMapping, itemsFromValidation, leftOutRows, leftOutText, readSheet, validate, type Catalogs } from '../buying/prepareJob';
import type { RecentLookup } from '../buying/jobReads';
import { checkAccountsWithService } from '../buying/vendingItems';
import { fileRefName, resolveFileRef } from '../files';
import { emptyMapping, fieldLabel, type ColumnMapping, type FieldKey, type SheetTable, type ValidationResult } from '../imports';
import type { StoredRow } from './standingStore';

/** What a file or a job gave an order: its rows, and what was not taken. */
export interface OrderRowsRead {
  rows: StoredRow[];
  invalid: BulkRowIssueView[];
  leftOut: BulkLeftOutRow[];
  /** Where they came from, in words. */
  source: string;
}

const noRecentPurchases: RecentLookup = () => [];

function storedRow(i: NewItem): StoredRow {
  return {
    rowNumber: i.rowNumber,
    phone: i.phone,
    network: i.network,
    productCode: i.productCode,
    amountKobo: i.amountKobo,
    name: i.name,
    note: i.note,
    description: i.description,
    account: i.account ?? null,
    vendType: i.vendType ?? null,
    accountName: i.accountName ?? null,
  };
}

/** The rows a validation gives an order: the valid ones (repeats of an earlier row left out unless kept), and what was not taken, with why. */
function rowsOfValidation(result: ValidationResult, keepDuplicates: boolean, names: ReadonlyMap<number, string> | undefined, source: string): OrderRowsRead {
  const items = [...itemsFromValidation(result, keepDuplicates, names)];
  const leftOut = leftOutRows(result);
  return {
    rows: items.filter((i) => i.state !== 'excluded').map(storedRow),
    invalid: result.errors.map((e) => ({ row: e.row, field: e.field, message: e.message })),
    leftOut: keepDuplicates
      ? []
      : result.valid
          .filter((v) => leftOut.has(v.row))
          .map((v) => ({
            row: v.row,
            phone: v.phone,
            account: v.meter ?? v.smartcard ?? null,
            amountKobo: v.amountKobo,
            sameAsRow: leftOut.get(v.row)?.sameAsRow ?? null,
            boughtRecently: null,
            reason: leftOutText(leftOut.get(v.row) ?? { sameAsRow: null, recent: null }),
          })),
    source,
  };
}

/** Reads and checks an order's rows from a spreadsheet, as a bulk job's are (an order repeats itself: purchases of the last 24 hours are not its concern). */
export async function rowsFromFile(
  app: App,
  session: Session,
  input: { file: FileRef; kind: BulkJobKind; sheet?: string; mapping?: Record<string, number | null>; keepDuplicates: boolean },
): Promise<OrderRowsRead> {
  const path = resolveFileRef(app, input.file);
  const { table } = await readSheet(path, input.sheet, input.kind);
  const { mapping } = chooseMapping(app.settings, input.kind, table.headers, input.mapping);
  const result = validate(table, mapping, input.kind, await catalogsFor(app, session, input.kind), noRecentPurchases);
  const names = input.kind === 'electricity' || input.kind === 'cable' ? (await checkAccountsWithService(app, session, input.kind, result)).names : undefined;
  const source = `${fileRefName(input.file)}${table.sheetName ? `, sheet ${table.sheetName}` : ''}`;
  return rowsOfValidation(result, input.keepDuplicates, names, source);
}

/** The columns each kind's rows are laid out in to be checked again (the template's), and what fills each. */
const COLUMNS: Record<BulkJobKind, readonly [FieldKey, (r: StoredRow) => string | number | null][]> = {
  airtime: [
    ['phone', (r) => r.phone],
    ['amount', (r) => r.amountKobo / 100],
    ['network', (r) => r.network],
    ['name', (r) => r.name],
    ['reference', (r) => r.note],
  ],
  data: [
    ['phone', (r) => r.phone],
    ['productCode', (r) => r.productCode],
    ['network', (r) => r.network],
    ['name', (r) => r.name],
    ['reference', (r) => r.note],
  ],
  electricity: [
    ['meter', (r) => r.account],
    ['disco', (r) => r.network],
    ['vendType', (r) => r.vendType],
    ['amount', (r) => r.amountKobo / 100],
    ['phone', (r) => r.phone],
    ['name', (r) => r.name],
    ['reference', (r) => r.note],
  ],
  cable: [
    ['smartcard', (r) => r.account],
    ['provider', (r) => r.network],
    ['bouquet', (r) => r.productCode],
    ['phone', (r) => r.phone],
    ['name', (r) => r.name],
    ['reference', (r) => r.note],
  ],
};

/** Stored rows as a sheet of the kind's own columns, each at its first row number. */
function sheetOf(kind: BulkJobKind, rows: readonly StoredRow[]): { table: SheetTable; mapping: ColumnMapping } {
  const columns = COLUMNS[kind];
  const mapping = emptyMapping();
  columns.forEach(([field], i) => (mapping[field] = i));
  return {
    table: {
      format: 'csv',
      sheetName: null,
      fileHash: '',
      headerRow: 0,
      headers: columns.map(([field]) => fieldLabel(field)),
      rows: rows.map((r) => ({ row: r.rowNumber, cells: columns.map(([, cell]) => cell(r)) })),
    },
    mapping,
  };
}

/** A finished (or any confirmed) job's rows as an order's, checked again by the same validation. */
export async function rowsFromJob(app: App, session: Session, kind: BulkJobKind, items: readonly StoredRow[], source: string): Promise<OrderRowsRead> {
  const { table, mapping } = sheetOf(kind, items);
  const result = validate(table, mapping, kind, await catalogsFor(app, session, kind), noRecentPurchases);
  const names = new Map(items.filter((r) => r.accountName).map((r) => [r.rowNumber, r.accountName as string]));
  return rowsOfValidation(result, true, names, source);
}

/** What an occurrence buys today, and what of its rows waits, with why. */
export interface RowsToday {
  items: NewItem[];
  waiting: WaitingRowView[];
  totalKobo: number;
}

/**
 * An order's rows checked again for an occurrence: each against today's catalog (and `recent`, the
 * purchases of the last 24 hours that are not the order's own earlier runs), by the validation a
 * spreadsheet goes through. A row the catalog no longer takes, whose plan or bouquet changed price
 * since the order was confirmed, or that repeats a purchase of the last 24 hours, waits: the others
 * are bought. Nothing here is sent.
 */
export function rowsForToday(kind: BulkJobKind, rows: readonly StoredRow[], catalogs: Catalogs, recent: RecentLookup): RowsToday {
  const { table, mapping } = sheetOf(kind, rows);
  const result = validate(table, mapping, kind, catalogs, recent);
  const byRow = new Map(rows.map((r) => [r.rowNumber, r]));
  const waiting: WaitingRowView[] = [];
  const wait = (r: StoredRow, reason: string) => waiting.push({ row: r.rowNumber, phone: r.phone, account: r.account, amountKobo: r.amountKobo, reason });
  for (const bad of result.invalid) {
    const r = byRow.get(bad.row);
    if (r) wait(r, bad.issues.map((i) => i.message).join(' '));
  }
  const recentRows = new Map(result.duplicates.flatMap((d) => (d.kind === 'recent' ? [[d.row, d.message] as const] : [])));
  const items: NewItem[] = [];
  // The order's rows are kept as confirmed, repeats included: only a repeat of a recent purchase waits.
  for (const item of itemsFromValidation({ ...result, duplicates: result.duplicates.filter((d) => d.kind === 'recent') }, true)) {
    const r = byRow.get(item.rowNumber);
    if (!r) continue;
    const recentNote = recentRows.get(item.rowNumber);
    if (recentNote) wait(r, `${recentNote.replace(/^Row \d+: /, '')} The row waits: buy it by hand if another purchase is wanted.`);
    else if (item.amountKobo !== r.amountKobo) {
      wait(
        r,
        `${item.description || item.productCode} now costs ${formatNaira(item.amountKobo)}, not ${formatNaira(r.amountKobo)} as the order says: the row waits. Change the order (a new version) to buy it at the new price.`,
      );
    } else items.push({ ...item, name: r.name, note: r.note, accountName: r.accountName ?? item.accountName, duplicateOf: null, state: 'queued' });
  }
  waiting.sort((a, b) => a.row - b.row);
  return { items, waiting, totalKobo: items.reduce((s, i) => s + i.amountKobo, 0) };
}

/** Refuses rows that leave the order nothing to buy, or invalid rows unless the valid ones are kept. */
export function checkOrderRows(read: OrderRowsRead, skipInvalid: boolean): void {
  if (read.invalid.length > 0 && !skipInvalid) {
    throw new AppError(
      'invalid_rows',
      `${new Set(read.invalid.map((i) => i.row)).size} row(s) are invalid; the standing order was not made.`,
      'Fix them in the file and try again, or keep only the valid rows (--skip-invalid).',
      { errors: read.invalid },
    );
  }
  if (read.rows.length === 0) {
    throw new AppError(
      'invalid_rows',
      'The standing order would buy nothing: every row is invalid or left out.',
      'Check the file (vendesk bulk validate FILE --kind …) and try again.',
      {
        errors: read.invalid,
      },
    );
  }
}
