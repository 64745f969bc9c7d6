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

const holdsNoTable = (error: unknown) => isImportError(error) && (error.code === 'no_header' || error.code === 'empty');

/** Whether a sheet holds a table (a header row): only its first rows are read. */
async function holdsTable(path: string, sheet: string, signal?: AbortSignal): Promise<boolean> {
  try {
    await readSpreadsheet(path, { sheet, maxRows: 1, signal });
    return true;
  } catch (error) {
    if (isImportError(error) && error.code === 'too_many_rows') return true;
    if (holdsNoTable(error)) return false;
    throw error;
  }
}

/**
 * The sheet a person means when they name none: the first that has a header row (a workbook often
 * opens on a notes or cover sheet). Null when no sheet has one (reading the first then says why).
 * For a sheet picker before anything is read (`bulk.inspect`); to read, use readFirstTable.
 */
export async function firstSheetWithTable(path: string, sheetNames: readonly string[], signal?: AbortSignal): Promise<string | null> {
  // One sheet: nothing to choose, and nothing is read twice (reading it says what is wrong, if anything).
  if (sheetNames.length <= 1) return sheetNames[0] ?? null;
  for (const name of sheetNames) if (await holdsTable(path, name, signal)) return name;
  return null;
}

/**
 * Reads the sheet a person means when they name none: the first that holds a table. The first
 * sheet is read in full (the usual case costs one read); only when it holds no table (a notes or
 * cover sheet) are the next ones tried. When none holds one, the first sheet's error is thrown.
 */
export async function readFirstTable(path: string, sheetNames: readonly string[], options: Omit<ReadSpreadsheetOptions, 'sheet'> = {}): Promise<SheetTable> {
  try {
    return await readSpreadsheet(path, options);
  } catch (error) {
    if (!holdsNoTable(error)) throw error;
    for (const other of sheetNames.slice(1)) {
      const table = await readSpreadsheet(path, { ...options, sheet: other }).catch((e: unknown) => (holdsNoTable(e) ? null : Promise.reject(e)));
      if (table) return table;
    }
    throw error;
  }
}
