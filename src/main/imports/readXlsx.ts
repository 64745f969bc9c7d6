/**
 * XLSX reading with exceljs's streaming WorkbookReader: one worksheet (the user's choice, else
 * the first visible one), formula cells give their cached result, rich text and hyperlinks give
 * their text. The zip was checked by inspectSpreadsheet; here each part exceljs will inflate is
 * first proved to expand to no more than it declares, so a lying zip bomb cannot get through.
 */
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import ExcelJS from 'exceljs';
import { hashFile, emptyFileError, type OpenedSpreadsheet, type WorksheetPart } from './inspectSpreadsheet';
import { ImportError } from './importError';
import { TableBuilder, type CellValue, type ReadSpreadsheetOptions, type SheetTable } from './sheetTable';
import { MAX_TOTAL_UNCOMPRESSED, verifyZipEntry, zipRecordsStream, type ZipEntry } from './zipDirectory';

const MAX_SHARED_STRINGS_BYTES = 512 * 1024 * 1024;

/** Workbook parts exceljs's streaming reader uses before it can parse a worksheet as it streams. */
const PARTS_BEFORE_SHEETS = ['xl/_rels/workbook.xml.rels', 'xl/workbook.xml', 'xl/styles.xml', 'xl/sharedStrings.xml'];

export function chooseWorksheet(worksheets: readonly WorksheetPart[], wanted: string | undefined): WorksheetPart {
  if (wanted !== undefined) {
    const found = worksheets.find((s) => s.name === wanted) ?? worksheets.find((s) => s.name.trim().toLowerCase() === wanted.trim().toLowerCase());
    if (!found) {
      throw new ImportError(
        'no_sheet',
        `The workbook has no sheet named "${wanted}". Its sheets are: ${worksheets.map((s) => `"${s.name}"`).join(', ')}. Choose one of these.`,
      );
    }
    return found;
  }
  return worksheets.find((s) => !s.hidden) ?? worksheets[0];
}

async function verifyParts(path: string, opened: OpenedSpreadsheet): Promise<void> {
  const handle = await open(path, 'r');
  try {
    for (const entry of opened.zipEntries) {
      const name = entry.name;
      if (name === 'xl/sharedStrings.xml' || name === 'xl/styles.xml') await verifyZipEntry(path, handle, entry, MAX_SHARED_STRINGS_BYTES);
      else if (name.startsWith('xl/worksheets/') || name === 'xl/workbook.xml' || name.endsWith('.rels')) await verifyZipEntry(path, handle, entry, MAX_TOTAL_UNCOMPRESSED);
    }
  } finally {
    await handle.close();
  }
}

/** exceljs cell values, reduced to what an import needs. */
export function cellFromExcel(value: unknown): CellValue {
  if (value === null || value === undefined) return null;
  switch (typeof value) {
    case 'string':
      return value === '' ? null : value;
    case 'number':
      return Number.isNaN(value) ? null : value;
    case 'boolean':
      return value;
    case 'object': {
      if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value;
      const v = value as {
        result?: unknown;
        formula?: unknown;
        sharedFormula?: unknown;
        richText?: { text?: unknown }[];
        text?: unknown;
        error?: unknown;
      };
      if ('formula' in v || 'sharedFormula' in v || 'result' in v) return cellFromExcel(v.result);
      if (Array.isArray(v.richText)) return cellFromExcel(v.richText.map((r) => (typeof r.text === 'string' ? r.text : '')).join(''));
      if (typeof v.error === 'string') return v.error;
      if ('text' in v) return cellFromExcel(v.text);
      return null;
    }
    default:
      return null;
  }
}

interface WorksheetIdentity {
  name?: string;
  id?: number | string;
}

export async function readXlsx(path: string, opened: OpenedSpreadsheet, options: ReadSpreadsheetOptions, maxRows: number): Promise<SheetTable> {
  const { signal, onProgress } = options;
  const sheet = chooseWorksheet(opened.worksheets, options.sheet);
  const sheetFileNumber = /sheet(\d+)\.xml$/.exec(sheet.part)?.[1];
  const [fileHash] = await Promise.all([hashFile(path), verifyParts(path, opened)]);
  signal?.throwIfAborted();

  // Only the parts exceljs reads for this sheet, shared strings before the sheet, so the sheet
  // streams straight into the parser; the whole file as it is when the sheet's part is not found.
  const byName = new Map(opened.zipEntries.map((e) => [e.name, e]));
  const sheetEntry = byName.get(sheet.part);
  const stream = sheetEntry
    ? zipRecordsStream(
        path,
        [...PARTS_BEFORE_SHEETS.map((name) => byName.get(name)).filter((e): e is ZipEntry => e !== undefined), sheetEntry],
      )
    : createReadStream(path, { highWaterMark: 1 << 20 });
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(stream, {
    worksheets: 'emit',
    sharedStrings: 'cache',
    styles: 'cache',
    hyperlinks: 'ignore',
    entries: 'ignore',
  });
  const builder = new TableBuilder(maxRows);
  let found = false;
  try {
    for await (const worksheet of reader) {
      const identity = worksheet as unknown as WorksheetIdentity;
      const isWanted = identity.name !== undefined ? identity.name === sheet.name : String(identity.id) === sheetFileNumber;
      if (!isWanted) continue;
      found = true;
      let sinceProgress = 0;
      for await (const row of worksheet) {
        const values = row.values as unknown[];
        const cells: CellValue[] = new Array(values.length > 0 ? values.length - 1 : 0);
        for (let c = 1; c < values.length; c++) cells[c - 1] = cellFromExcel(values[c]);
        builder.add(row.number, cells);
        if (++sinceProgress === 2000) {
          sinceProgress = 0;
          signal?.throwIfAborted();
          onProgress?.(builder.rowsRead);
        }
      }
      break;
    }
  } catch (error) {
    if (error instanceof ImportError || (signal?.aborted && error === signal.reason)) throw error;
    if (error instanceof Error && error.name === 'AbortError') throw error;
    throw new ImportError(
      'corrupt',
      `The workbook could not be read (${error instanceof Error ? error.message : String(error)}). Open it in Excel or LibreOffice, save it again as .xlsx (or CSV), and import the new file.`,
      { cause: error },
    );
  } finally {
    stream.destroy();
  }
  if (!found) throw new ImportError('corrupt', `The sheet "${sheet.name}" is listed in the workbook but its data is missing. Open the file in Excel or LibreOffice, save it again, and import the new file.`);
  onProgress?.(builder.rowsRead);
  const { headerRow, headers, rows } = builder.finish(() =>
    opened.worksheets.length > 1 ? new ImportError('empty', `The sheet "${sheet.name}" is empty. Choose the sheet that holds the data (this workbook has: ${opened.worksheets.map((s) => `"${s.name}"`).join(', ')}).`) : emptyFileError(),
  );
  return { format: 'xlsx', sheetName: sheet.name, fileHash, headerRow, headers, rows };
}
