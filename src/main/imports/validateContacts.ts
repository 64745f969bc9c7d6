/** Contact sheets (name, phone) for phonebooks: numbers normalized, repeats dropped. */
import { rowSentence } from './bulkRowReaders';
import { phoneFromCell, textFromCell } from './cellValues';
import { assertMappingComplete, type ColumnMapping } from './columnMapping';
import { mappedColumns, refuseHiddenCells } from './hiddenCells';
import type { SheetTable } from './sheetTable';
import type { InvalidRow } from './validateRows';

export interface ContactRow {
  row: number;
  name: string;
  phone: string;
}

export interface ContactDuplicate {
  row: number;
  phone: string;
  /** The row kept for this number. */
  firstRow: number;
  message: string;
}

export interface ContactValidation {
  valid: ContactRow[];
  invalid: InvalidRow[];
  /** Rows left out because an earlier row has the same number. */
  duplicates: ContactDuplicate[];
}

export function validateContactRows(table: SheetTable, mapping: ColumnMapping): ContactValidation {
  assertMappingComplete(mapping, 'contacts', table.headers);
  const phoneCol = mapping.phone as number;
  const nameCol = mapping.name;
  const valid: ContactRow[] = [];
  const invalid: InvalidRow[] = [];
  const duplicates: ContactDuplicate[] = [];
  const seen = new Map<string, number>();
  const readColumns = mappedColumns(mapping, 'contacts');
  for (const { row, cells } of table.rows) {
    const issues: InvalidRow['issues'] = [];
    // A cell holding a character a screen obeys or hides is not read at all (src/main/imports/hiddenCells.ts).
    if (!refuseHiddenCells(cells, readColumns, (field, text) => issues.push({ row, field, message: rowSentence(row, text) }))) {
      invalid.push({ row, issues });
      continue;
    }
    const phone = phoneFromCell(cells[phoneCol] ?? null);
    if (!phone.ok) {
      invalid.push({ row, issues: [{ row, field: 'phone', message: rowSentence(row, phone.reason) }] });
      continue;
    }
    const firstRow = seen.get(phone.phone);
    if (firstRow !== undefined) {
      duplicates.push({ row, phone: phone.phone, firstRow, message: `Row ${row}: ${phone.phone} is already on row ${firstRow}; it is added once` });
      continue;
    }
    seen.set(phone.phone, row);
    valid.push({ row, name: nameCol === null ? '' : textFromCell(cells[nameCol] ?? null), phone: phone.phone });
  }
  return { valid, invalid, duplicates };
}
