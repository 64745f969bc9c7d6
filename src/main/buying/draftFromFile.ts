/**
 * From a file to a draft bulk job, or to a check of its rows only: the sheet is read, its columns
 * mapped, every row validated against the catalogs of its kind and the last 24 hours of
 * purchases, and (for a draft) the job written with its items and its invalid rows.
 */
import type { BulkLeftOutRow, BulkSettingsView, BulkValidation } from '../../shared/contract/bulk';
import type { FileRef } from '../../shared/contract/files';
import type { App, AppPart, Session } from '../appContext';
import { fileRefName, resolveFileRef } from '../files';
import { missingFields, textFromCell, totalRowsNote, type ColumnMapping, type SheetRow, type SheetTable } from '../imports';
import type { BulkJobKind } from './jobStates';
import { isVendingKind } from './jobStates';
import type { JobParts } from './jobLifecycle';
import type { JobReads } from './jobReads';
import type { InvalidRowRecord } from './jobRows';
import {
  chooseMapping,
  itemsFromValidation,
  leftOutRows,
  leftOutText,
  readSheet,
  recentLog,
  recentLookupFor,
  rowWarningsNote,
  validate,
  type Catalogs,
  type LeftOut,
} from './prepareJob';
import { checkAccountsWithService } from './vendingItems';
import { CATALOG_FRESH_MS, freshCatalog } from '../catalog/catalogCache';

export interface FileCheckInput {
  file: FileRef;
  kind: BulkJobKind;
  sheet?: string;
  mapping?: Record<string, number | null>;
}

export interface PrepareInput extends FileCheckInput {
  replaceJobId?: string;
  keepDuplicates: boolean;
}

/**
 * The catalogs a job of this kind is validated against, of `session`'s connection: from the one
 * catalog cache (`catalog/catalogCache.ts`), read again from its service when older than `maxAgeMs`
 * (five minutes; 0 reads it now, as a standing order's occurrence does: days may have passed since
 * its rows were last checked, whatever the cache's clock says).
 */
export async function catalogsFor(app: AppPart<'db'>, session: Session, kind: BulkJobKind, maxAgeMs = CATALOG_FRESH_MS): Promise<Catalogs> {
  if (kind === 'airtime') return { airtime: await freshCatalog(app, session, 'airtime', maxAgeMs), data: [] };
  if (kind === 'electricity') return { airtime: [], data: [], electricity: await freshCatalog(app, session, 'electricity', maxAgeMs) };
  if (kind === 'cable') return { airtime: [], data: [], cable: await freshCatalog(app, session, 'cable', maxAgeMs) };
  return { airtime: [], data: await freshCatalog(app, session, 'data', maxAgeMs) };
}

/** Checks every row of a file against `session`'s connection without creating a job. */
export async function validateFile(app: App, session: Session, reads: JobReads, input: FileCheckInput): Promise<BulkValidation> {
  const path = resolveFileRef(app, input.file);
  const { table } = await readSheet(path, input.sheet, input.kind);
  const { mapping } = chooseMapping(app.settings, input.kind, table.headers, input.mapping);
  const log = await recentLog(session.client, input.kind);
  const result = validate(
    table,
    mapping,
    input.kind,
    await catalogsFor(app, session, input.kind),
    recentLookupFor(reads, session.connection.profileId, input.kind, null, log.entries),
  );
  if (isVendingKind(input.kind)) await checkAccountsWithService(app, session, input.kind, result);
  // Counted as a draft of the file counts its items (`itemsFromValidation`): the same rows left out.
  const leftOut = leftOutRows(result);
  const rows: BulkLeftOutRow[] = result.valid
    .filter((v) => leftOut.has(v.row))
    .map((v) => {
      const why = leftOut.get(v.row) as LeftOut;
      const last = why.recent?.matches[why.recent.matches.length - 1];
      return {
        row: v.row,
        phone: v.phone,
        account: v.meter ?? v.smartcard ?? null,
        amountKobo: v.amountKobo,
        sameAsRow: why.sameAsRow,
        boughtRecently: last ? { at: last.at, reference: last.reference } : null,
        reason: leftOutText(why),
      };
    });
  return {
    rows: result.counts.rows,
    valid: result.counts.valid,
    invalid: result.counts.invalid,
    duplicates: rows.length,
    toBuy: result.counts.valid - rows.length,
    totalKobo: result.totalKobo - rows.reduce((sum, r) => sum + r.amountKobo, 0),
    leftOut: rows,
    errors: result.errors.map((e) => ({ row: e.row, field: e.field, message: e.message })),
    notes: [totalRowsNote(result)].filter((n): n is string => n !== null),
  };
}

/**
 * The invalid rows to keep, each with the phone and name its row of the file gave (as written),
 * so the results workbook says whose row was not bought.
 */
function invalidRowRecords(errors: readonly { row: number; field: string; message: string }[], table: SheetTable, mapping: ColumnMapping): InvalidRowRecord[] {
  const wanted = new Set(errors.map((e) => e.row));
  const people = new Map<number, { phone: string | null; name: string | null }>();
  const cell = (r: SheetRow, column: number | null) => {
    if (column === null) return null;
    const text = textFromCell(r.cells[column] ?? null).trim();
    return text === '' ? null : text;
  };
  for (const r of table.rows) if (wanted.has(r.row)) people.set(r.row, { phone: cell(r, mapping.phone), name: cell(r, mapping.name) });
  return errors.map((e) => ({ row: e.row, field: e.field, message: e.message, ...(people.get(e.row) ?? { phone: null, name: null }) }));
}

/** Reads and validates a file into a draft job of `session`'s connection (replacing the draft it was read into before, if any). */
export async function prepareDraft(
  app: App,
  session: Session,
  { reads, lifecycle }: Pick<JobParts, 'reads' | 'lifecycle'>,
  input: PrepareInput,
  settings: BulkSettingsView,
  signal?: AbortSignal,
): Promise<{ jobId: string; sheetNames: string[]; remembered: boolean }> {
  // Checked against this connection's catalog, log and jobs, and saved as its draft, or not at all.
  const path = resolveFileRef(app, input.file);
  const fileName = fileRefName(input.file);
  const { table, sheetNames } = await readSheet(
    path,
    input.sheet,
    input.kind,
    (rows) => app.events.emit('import.progress', { importId: fileName, done: rows, total: null, message: `Reading ${fileName}` }),
    signal,
  );
  const choice = chooseMapping(app.settings, input.kind, table.headers, input.mapping);
  const catalogs = await catalogsFor(app, session, input.kind);
  // A required column the headings did not reveal: the draft is kept (with no rows) so the
  // user can choose the column, rather than an error that leaves nothing to correct.
  const unmapped = missingFields(choice.mapping, input.kind).length > 0;
  const log = unmapped ? { entries: [], problem: null } : await recentLog(session.client, input.kind);
  const result = unmapped
    ? null
    : validate(table, choice.mapping, input.kind, catalogs, recentLookupFor(reads, session.connection.profileId, input.kind, input.replaceJobId ?? null, log.entries));
  const accounts = result && isVendingKind(input.kind) ? await checkAccountsWithService(app, session, input.kind, result) : null;
  const accountsNote = accounts?.note ?? null;
  // The raw rows are not needed once validated: let them go before the items are written, so
  // the 200,000-row file is not in memory three times over.
  const rowsTotal = result ? result.counts.rows : table.rows.length;
  const invalid = result ? invalidRowRecords(result.errors, table, choice.mapping) : [];
  table.rows = [];
  // Cancelled while the file was checked: nothing is written (the draft it replaces is kept).
  signal?.throwIfAborted();
  session.refuseIfSwitched('file');
  const connection = session.connection;
  if (input.replaceJobId) {
    const old = reads.job(input.replaceJobId);
    if (old && old.state === 'draft' && old.profile_id === connection.profileId) lifecycle.deleteJob(old.id);
  }
  const jobId = lifecycle.createJob(
    {
      kind: input.kind,
      profileId: connection.profileId,
      connectionKind: connection.kind,
      baseUrl: connection.baseUrl,
      fileName,
      fileHash: table.fileHash,
      sheetName: table.sheetName,
      headers: table.headers,
      mapping: choice.mapping,
      rowsTotal,
      batchSize: settings.batchSize,
      concurrency: settings.concurrency,
    },
    result ? itemsFromValidation(result, input.keepDuplicates, accounts?.names) : [],
    invalid,
  );
  const problem = [log.problem, accountsNote, result ? rowWarningsNote(result) : null, result ? totalRowsNote(result) : null].filter(Boolean).join(' ');
  if (problem) lifecycle.setJobMessage(jobId, problem);
  return { jobId, sheetNames, remembered: choice.remembered };
}
