/**
 * The general way of reading a vendor export: through the importer (`readSpreadsheet`), for XLSX
 * files and CSV files in other encodings than UTF-8.
 */
import { amountFromCell, assertMappingComplete, detectMapping, readSpreadsheet, textFromCell, type CellValue, type FieldKey } from '../imports';
import type { SheetRow } from '../imports/sheetTable';
import { STATUS_FAILED, statusCode } from './logColumns';
import {
  ColumnBuilder,
  costFromCell,
  detailFromCells,
  EXPORT_MAX_CELLS,
  idFromCell,
  IMPORTER_EXPORT_MAX_BYTES,
  IMPORTER_EXPORT_MAX_ROWS,
  timeFromCell,
  UNREADABLE_KEPT,
  unreadableError,
  unreadableMessage,
  type ReadExportOptions,
  type UnreadableExportRow,
  type VendorExport,
} from './vendorExportColumns';

export async function readThroughImporter(path: string, options: ReadExportOptions): Promise<VendorExport> {
  const table = await readSpreadsheet(path, {
    sheet: options.sheet,
    maxRows: IMPORTER_EXPORT_MAX_ROWS,
    maxBytes: IMPORTER_EXPORT_MAX_BYTES,
    maxCells: EXPORT_MAX_CELLS,
    signal: options.signal,
    onProgress: (rows) => options.onProgress?.(rows, null, null),
  });
  const mapping = detectMapping(table.headers, 'vendorLog');
  assertMappingComplete(mapping, 'vendorLog', table.headers);
  const rows: SheetRow[] = table.rows;
  const b = new ColumnBuilder(rows.length);
  const unreadable: UnreadableExportRow[] = [];
  let unreadableCount = 0;
  const col = (f: FieldKey) => mapping[f];
  const cellAt = (cells: CellValue[], f: FieldKey): CellValue => {
    const c = col(f);
    return c === null ? null : (cells[c] ?? null);
  };
  for (let r = 0; r < rows.length; r++) {
    const { cells, row } = rows[r];
    const amount = amountFromCell(cellAt(cells, 'amount'));
    const status = statusCode(textFromCell(cellAt(cells, 'status')));
    if (!amount.ok || status === 0) {
      unreadableCount++;
      if (unreadable.length < UNREADABLE_KEPT)
        unreadable.push({ row, message: unreadableMessage(row, amount.ok ? null : amount.reason, status === 0 ? textFromCell(cellAt(cells, 'status')) : null) });
      continue;
    }
    b.push(
      textFromCell(cellAt(cells, 'transactionId')),
      idFromCell(cellAt(cells, 'id')),
      amount.kobo,
      costFromCell(cellAt(cells, 'transactionCost')),
      status,
      timeFromCell(cellAt(cells, 'createdAt') ?? cellAt(cells, 'time')),
      status === STATUS_FAILED ? timeFromCell(cellAt(cells, 'updatedAt')) : NaN,
      r,
      row,
    );
  }
  if (b.length === 0 && rows.length > 0) throw unreadableError(rows.length);
  const where = b.where;
  return {
    columns: b.finish((i) => detailFromCells(rows[where[i]].cells, mapping, rows[where[i]].row)),
    format: table.format,
    fileHash: table.fileHash,
    sheetName: table.sheetName,
    headers: table.headers,
    mapping,
    unreadable,
    unreadableCount,
  };
}
