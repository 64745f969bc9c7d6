/**
 * The recipients list (docs/cost-centres.md): phone numbers, meters and smartcards with the name and
 * cost centre their purchases are charged to, for the log entries vendesk did not make (or made
 * without a cost centre). Imported from a spreadsheet whose columns are found by their headings
 * (Phone, Meter number, Smartcard number, Name, Cost centre / Department / Dept / Unit), checked
 * like a bulk sheet's, and written all or nothing: a file with a bad row changes nothing and names
 * every bad row. A row replaces the rule of the same phone, meter or smartcard.
 */
import path from 'node:path';
import { AppError } from '../../shared/appError';
import type { Db } from '../store/database';
import type { RecipientsImportView } from '../../shared/contract/costCentres';
import { readCostCentre } from '../../shared/costCentre';
import { accountNumberFromCell, phoneFromCell, textFromCell } from '../imports/cellValues';
import { detectMapping, assertMappingComplete } from '../imports/columnMapping';
import { mappedColumns, refuseHiddenCells } from '../imports/hiddenCells';
import { rowSentence } from '../imports/bulkRowReaders';
import { importFailure } from '../buying/prepareJob';
import { inspectSpreadsheet } from '../imports/inspectSpreadsheet';
import { readFirstTable } from '../imports/readSpreadsheet';
import type { CellValue } from '../imports/sheetTable';

export type RecipientsImport = RecipientsImportView;

interface Rule {
  kind: 'phone' | 'meter' | 'smartcard';
  identifier: string;
  name: string;
  costCentre: string;
}

const cell = (cells: readonly CellValue[], column: number | null): CellValue => (column === null ? null : (cells[column] ?? null));

/** Reads `file` and writes its rules into the list, or refuses it naming every bad row (nothing written). */
export async function importRecipients(db: Db, file: string, at: string): Promise<RecipientsImport> {
  let table;
  try {
    table = await readFirstTable(file, (await inspectSpreadsheet(file)).sheetNames);
  } catch (error) {
    return importFailure(error);
  }
  const col = detectMapping(table.headers, 'recipients');
  try {
    assertMappingComplete(col, 'recipients', table.headers);
  } catch (error) {
    return importFailure(error);
  }
  if (col.phone === null && col.meter === null && col.smartcard === null) {
    throw new AppError(
      'import_missing_column',
      'The file has no Phone, Meter number or Smartcard number column.',
      'Add a column with the phone number, meter or smartcard each cost centre applies to, then import again.',
    );
  }
  const readColumns = mappedColumns(col, 'recipients');
  const rules: Rule[] = [];
  const problems: string[] = [];
  for (const { row, cells } of table.rows) {
    const refuse = (_field: string, text: string) => problems.push(rowSentence(row, text));
    if (!refuseHiddenCells(cells as CellValue[], readColumns, refuse)) continue;
    const centre = readCostCentre(textFromCell(cell(cells, col.costCentre)));
    if (!centre.ok) refuse('costCentre', centre.reason);
    else if (centre.value === null) refuse('costCentre', 'the cost centre is empty; type the department its purchases are charged to');
    const name = textFromCell(cell(cells, col.name)).replace(/\s+/g, ' ').trim();
    const found: Rule[] = [];
    if (col.phone !== null && textFromCell(cell(cells, col.phone)) !== '') {
      const phone = phoneFromCell(cell(cells, col.phone));
      if (phone.ok) found.push({ kind: 'phone', identifier: phone.phone, name, costCentre: '' });
      else refuse('phone', phone.reason);
    }
    for (const kind of ['meter', 'smartcard'] as const) {
      const column = col[kind];
      if (column === null || textFromCell(cell(cells, column)) === '') continue;
      const account = accountNumberFromCell(cell(cells, column), kind === 'meter' ? 'meter number' : 'smartcard number');
      if (account.ok) found.push({ kind, identifier: account.value, name, costCentre: '' });
      else refuse(kind, account.reason);
    }
    if (found.length === 0 && problems.length === 0) refuse('phone', 'the row names no phone number, meter or smartcard');
    if (centre.ok && centre.value) for (const r of found) rules.push({ ...r, costCentre: centre.value });
  }
  if (problems.length > 0) {
    const shown = problems.slice(0, 20).join(' ');
    throw new AppError(
      'invalid_rows',
      `${problems.length} problem(s) in ${path.basename(file)}; nothing was imported. ${shown}${problems.length > 20 ? ` (and ${problems.length - 20} more)` : ''}`,
      'Correct those rows in the spreadsheet, then import it again.',
    );
  }
  const exists = db.prepare('SELECT 1 FROM recipients WHERE kind = ? AND identifier = ?');
  const write = db.prepare(
    `INSERT INTO recipients (kind, identifier, name, cost_centre, source, updated_at) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (kind, identifier) DO UPDATE SET name = excluded.name, cost_centre = excluded.cost_centre, source = excluded.source, updated_at = excluded.updated_at`,
  );
  let replaced = 0;
  db.transaction(() => {
    for (const r of rules) {
      if (exists.get(r.kind, r.identifier)) replaced++;
      write.run(r.kind, r.identifier, r.name, r.costCentre, path.basename(file), at);
    }
  })();
  const count = (kind: Rule['kind']) => rules.filter((r) => r.kind === kind).length;
  return { file: path.basename(file), rows: table.rows.length, phones: count('phone'), meters: count('meter'), smartcards: count('smartcard'), replaced };
}
