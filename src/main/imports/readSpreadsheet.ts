/** Reads one sheet of a CSV or XLSX file into a {@link SheetTable}. */
import { openSpreadsheet } from './inspectSpreadsheet';
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_ROWS, isImportError } from './importError';
import { readCsv } from './readCsv';
import { readXlsx } from './readXlsx';
import type { ReadSpreadsheetOptions, SheetTable } from './sheetTable';

export async function readSpreadsheet(path: string, options: ReadSpreadsheetOptions = {}): Promise<SheetTable> {
  options.signal?.throwIfAborted();
  const opened = await openSpreadsheet(path, options.maxBytes ?? DEFAULT_MAX_BYTES);
  const maxRows = options.maxRows ?? DEFAULT_MAX_ROWS;
  return opened.format === 'xlsx' ? readXlsx(path, opened, options, maxRows) : readCsv(path, opened, options, maxRows);
}

/** Whether a sheet holds a table (a header row): only its first rows are read. */
async function holdsTable(path: string, sheet: string, signal?: AbortSignal): Promise<boolean> {
  try {
    await readSpreadsheet(path, { sheet, maxRows: 1, signal });
    return true;
  } catch (error) {
    if (isImportError(error) && error.code === 'too_many_rows') return true;
    if (isImportError(error) && (error.code === 'no_header' || error.code === 'empty')) return false;
    throw error;
  }
}

/**
 * The sheet a person means when they name none: the first that has a header row (a workbook often
 * opens on a notes or cover sheet). Null when no sheet has one (reading the first then says why).
 */
export async function firstSheetWithTable(path: string, sheetNames: readonly string[], signal?: AbortSignal): Promise<string | null> {
  for (const name of sheetNames) if (await holdsTable(path, name, signal)) return name;
  return null;
}
