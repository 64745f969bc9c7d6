/**
 * From a spreadsheet to a draft job: read the sheet with the one importer, map its columns
 * (given, remembered for these headers, or detected), validate every row against the catalogs
 * and the last 24 hours of purchases, and write the job, its items and its invalid rows.
 */
import { AppError } from '../../shared/appError';
import { excerpt, quotedList } from '../../shared/excerpt';
import type { AirtimeProduct, CableBouquet, DataPlan, ElectricityProvider } from '../../shared/wire';
import {
  detectMapping,
  emptyMapping,
  fieldsFor,
  FIELD_KEYS,
  headersKey,
  ImportError,
  inspectSpreadsheet,
  noHeaderForKind,
  readFirstTable,
  readSpreadsheet,
  validateBulkRows,
  type ColumnMapping,
  type FieldKey,
  type RecentDuplicate,
  type RecentMatch,
  type SheetTable,
  type ValidationResult,
} from '../imports';
import type { ParsedLogEntry } from '../api/parseLogEntry';
import type { Settings } from '../store/settings';
import { recentTopUpLog, type LogReader } from '../api/logLookup';
import { isVendingKind, type BulkJobKind } from './jobStates';
import { itemOf } from './jobLifecycle';
import type { JobReads, RecentLookup } from './jobReads';
import type { NewItem } from './jobRows';

export interface Catalogs {
  airtime: AirtimeProduct[];
  data: DataPlan[];
  electricity?: ElectricityProvider[];
  cable?: CableBouquet[];
}

export interface MappingChoice {
  mapping: ColumnMapping;
  remembered: boolean;
}

const mappingKey = (kind: BulkJobKind, headers: readonly string[]) => `bulk.mapping.${kind}.${headersKey(headers)}`;

/** Turns an importer error into one a user can act on. */
export function importFailure(error: unknown): never {
  if (error instanceof ImportError) {
    throw new AppError(`import_${error.code}`, error.message, 'Fix the file (or choose another sheet or column mapping), then try again.');
  }
  throw error;
}

export async function readSheet(
  path: string,
  sheet: string | undefined,
  kind: BulkJobKind,
  onProgress?: (rows: number) => void,
  signal?: AbortSignal,
): Promise<{ table: SheetTable; sheetNames: string[] }> {
  try {
    const info = await inspectSpreadsheet(path);
    if (sheet !== undefined && info.format === 'xlsx' && !info.sheetNames.includes(sheet)) {
      throw new AppError('no_sheet', `The workbook has no sheet called "${excerpt(sheet)}".`, `Choose one of: ${quotedList(info.sheetNames)}.`);
    }
    // No sheet named: the first that holds a table (a workbook may open on a notes or cover sheet).
    const table = sheet !== undefined ? await readSpreadsheet(path, { sheet, onProgress, signal }) : await readFirstTable(path, info.sheetNames, { onProgress, signal });
    return { table, sheetNames: info.sheetNames };
  } catch (error) {
    return importFailure(noHeaderForKind(error, kind));
  }
}

/** The mapping to use: given by the user (then remembered), remembered for these headers, or detected. */
export function chooseMapping(settings: Settings, kind: BulkJobKind, headers: string[], given: Record<string, number | null> | undefined): MappingChoice {
  if (given) {
    const mapping = emptyMapping();
    for (const [field, column] of Object.entries(given)) {
      if (!(FIELD_KEYS as readonly string[]).includes(field)) {
        throw new AppError(
          'invalid_mapping',
          `"${field}" is not a column vendesk knows.`,
          'Choose columns for Phone, Amount, Network, Product code, Name, Reference or Cost centre.',
        );
      }
      if (column !== null && (column < 0 || column >= headers.length)) {
        throw new AppError('invalid_mapping', `Column ${column + 1} chosen for ${field} is not in the sheet (it has ${headers.length} columns).`, 'Choose a column of the sheet.');
      }
      mapping[field as FieldKey] = column;
    }
    settings.set(mappingKey(kind, headers), mapping);
    return { mapping, remembered: false };
  }
  const saved = settings.get<ColumnMapping | null>(mappingKey(kind, headers), null);
  if (saved) {
    const mapping = emptyMapping();
    // A column this vendesk knows and the remembered mapping predates (a Dept column before cost centres) is detected.
    const detected = detectMapping(headers, kind);
    for (const f of FIELD_KEYS) {
      const c = saved[f];
      mapping[f] = c === undefined ? (Object.values(saved).includes(detected[f]) ? null : detected[f]) : typeof c === 'number' && c >= 0 && c < headers.length ? c : null;
    }
    return { mapping, remembered: true };
  }
  return { mapping: detectMapping(headers, kind), remembered: false };
}

export function mappingFields(kind: BulkJobKind, mapping: ColumnMapping): { field: string; label: string; required: boolean; column: number | null }[] {
  return fieldsFor(kind).map((f) => ({ field: f.key, label: f.label, required: f.required, column: mapping[f.key] }));
}

export function validate(
  table: SheetTable,
  mapping: ColumnMapping,
  kind: BulkJobKind,
  catalogs: Catalogs,
  recent: (account: string, amountKobo: number) => RecentMatch[],
): ValidationResult {
  try {
    return validateBulkRows(table, mapping, kind, {
      airtime: catalogs.airtime,
      data: catalogs.data,
      electricity: catalogs.electricity,
      cable: catalogs.cable,
      recentPurchases: recent,
    });
  } catch (error) {
    return importFailure(error);
  }
}

/**
 * The items of a job from a validation. Duplicates are flagged and, unless `keepDuplicates`,
 * left out (`excluded`): the first row of an in-file group is kept, the repeats and rows bought
 * in the last 24 hours are dropped until the user keeps them. A generator, so a 200,000-row job is
 * written to SQLite item by item rather than held twice in memory.
 */
/**
 * What the check says about rows it will still buy, beyond duplicates (shown on their own): a data
 * plan or bouquet whose price replaces the file's amount ("Row 4: the file's amount 5 is ignored;
 * plan MTN-1GB-1D costs ₦350.00"). The first three in full, then how many more; null when none.
 */
export function rowWarningsNote(result: ValidationResult): string | null {
  const notes = result.valid.flatMap((v) => v.warnings.filter((w) => w.field === 'amount').map((w) => w.message));
  if (notes.length === 0) return null;
  const more = notes.length > 3 ? ` And ${notes.length - 3} more row${notes.length - 3 === 1 ? '' : 's'} like these.` : '';
  return `${notes
    .slice(0, 3)
    .map((n) => (n.endsWith('.') ? n : `${n}.`))
    .join(' ')}${more}`;
}

/** Why a valid row is left out of a job unless its duplicates are kept: it repeats an earlier row of the file (`sameAsRow`, which is bought), or a purchase of the last 24 hours (`recent`), or both. */
export interface LeftOut {
  sameAsRow: number | null;
  recent: RecentDuplicate | null;
}

/**
 * The valid rows a job leaves out unless its duplicates are kept, by row number: the repeats of
 * a group of rows that buy the same thing (its first row is bought) and the rows bought in the last
 * 24 hours. The one rule for the window's draft (`itemsFromValidation`) and `bulk validate`.
 */
export function leftOutRows(result: ValidationResult): Map<number, LeftOut> {
  const valid = new Set(result.valid.map((v) => v.row));
  const out = new Map<number, LeftOut>();
  const of = (row: number): LeftOut => {
    let found = out.get(row);
    if (!found) out.set(row, (found = { sameAsRow: null, recent: null }));
    return found;
  };
  for (const d of result.duplicates) {
    if (d.kind === 'in_file') {
      for (const row of d.rows.slice(1)) if (valid.has(row)) of(row).sameAsRow = d.rows[0];
    } else if (valid.has(d.row)) of(d.row).recent = d;
  }
  return out;
}

/** Why a row was left out, as a job's row says it ("Same purchase as row 5 of this file; … already had ₦750.00 bought in the last 24 hours …"). */
export function leftOutText(l: LeftOut): string {
  return [l.sameAsRow !== null ? `Same purchase as row ${l.sameAsRow} of this file` : null, l.recent ? l.recent.message.replace(/^Row \d+: /, '') : null]
    .filter(Boolean)
    .join('; ');
}

/** `accountNames`: the name the service gave for each row's meter or smartcard, by row number, where it was checked. */
export function* itemsFromValidation(result: ValidationResult, keepDuplicates: boolean, accountNames?: ReadonlyMap<number, string>): Generator<NewItem> {
  const leftOut = leftOutRows(result);
  const conflictByRow = new Map(result.networkConflicts.map((c) => [c.row, c]));
  for (const v of result.valid) {
    const why = leftOut.get(v.row);
    const dup = why ? leftOutText(why) : null;
    yield itemOf(v, conflictByRow.get(v.row) ?? null, dup, dup && !keepDuplicates ? 'excluded' : 'queued', accountNames?.get(v.row) ?? null);
  }
}

/**
 * Electricity and cable: purchases of the last 24 hours for a meter or smartcard and amount, on
 * this computer and this connection (bulk items and single purchases). The service's log names
 * the customer's phone, not the meter, so it is not used here.
 */
export function recentAccountPurchases(reads: JobReads, profileId: string, kind: BulkJobKind, excludeJobId: string | null): RecentLookup {
  const since = new Date(Date.now() - 24 * 3600_000).toISOString();
  return (account, amountKobo) =>
    reads
      .recentAccountPurchases(profileId, kind, account, amountKobo, since)
      .filter((m) => m.jobId === null || m.jobId !== excludeJobId)
      .map((m) => ({ source: 'job' as const, reference: m.reference, at: m.at, amountKobo, status: m.status, jobId: m.jobId }));
}

/** The lookup of recent purchases on one connection profile for a job's kind. */
export function recentLookupFor(
  reads: JobReads,
  profileId: string,
  kind: BulkJobKind,
  excludeJobId: string | null,
  log: readonly ParsedLogEntry[],
  serviceNowMs = Date.now(),
): RecentLookup {
  return isVendingKind(kind) ? recentAccountPurchases(reads, profileId, kind, excludeJobId) : reads.recentPurchases(profileId, excludeJobId, log, serviceNowMs);
}

/** The service's log of the last 24 hours on its clock (at most 5,000 entries), for the duplicate check. */
export async function recentLog(client: LogReader, kind: BulkJobKind, serviceNowMs = Date.now()): Promise<{ entries: ParsedLogEntry[]; problem: string | null }> {
  return isVendingKind(kind) ? { entries: [], problem: null } : recentTopUpLog(client, kind, serviceNowMs);
}
