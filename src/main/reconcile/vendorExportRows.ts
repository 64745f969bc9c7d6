/**
 * Reads a vendor-exported transaction log (CSV or XLSX, the spec's log-entry columns in any
 * order and spelling) into `LogColumns` (logColumns.ts), through the one importer: its file checks, its
 * header detection and column mapping (`vendorLog`), and its cell parsing.
 *
 * A vendor export can hold a million rows, which the importer's general path (papaparse, one
 * array of cells per row) reads in several seconds. So a UTF-8 CSV takes a fast path
 * (`readExportCsvBytes`); XLSX files and other encodings go through `readSpreadsheet` unchanged
 * (`readExportWithImporter`). What both produce is in `vendorExportColumns`.
 */
import { detectEncoding } from '../imports';
import { openSpreadsheet } from '../imports/inspectSpreadsheet';
import { readCsvFast } from './readExportCsvBytes';
import { readThroughImporter } from './readExportWithImporter';
import { EXPORT_MAX_BYTES, type ReadExportOptions, type VendorExport } from './vendorExportColumns';

export { EXPORT_MAX_BYTES, EXPORT_MAX_CELLS, EXPORT_MAX_ROWS, type ReadExportOptions, type UnreadableExportRow, type VendorExport } from './vendorExportColumns';

export async function readVendorExport(path: string, options: ReadExportOptions = {}): Promise<VendorExport> {
  options.signal?.throwIfAborted();
  const opened = await openSpreadsheet(path, EXPORT_MAX_BYTES);
  if (opened.format === 'csv') {
    const encoding = detectEncoding(opened.sample);
    if (encoding.encoding === 'utf-8') return readCsvFast(path, encoding.bomLength, options);
  }
  return readThroughImporter(path, options);
}
