/** Reads one sheet of a CSV or XLSX file into a {@link SheetTable}. */
import { openSpreadsheet } from './inspectSpreadsheet';
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_ROWS } from './importError';
import { readCsv } from './readCsv';
import { readXlsx } from './readXlsx';
import type { ReadSpreadsheetOptions, SheetTable } from './sheetTable';

export async function readSpreadsheet(path: string, options: ReadSpreadsheetOptions = {}): Promise<SheetTable> {
  options.signal?.throwIfAborted();
  const opened = await openSpreadsheet(path, options.maxBytes ?? DEFAULT_MAX_BYTES);
  const maxRows = options.maxRows ?? DEFAULT_MAX_ROWS;
  return opened.format === 'xlsx' ? readXlsx(path, opened, options, maxRows) : readCsv(path, opened, options, maxRows);
}
