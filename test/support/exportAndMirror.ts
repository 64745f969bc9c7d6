/**
 * A vendor export CSV and a mirror made from the same generated log with planned differences
 * (bench/generate/vendorExport.ts): the export written to `dir/<name>.csv`, the mirror filled into
 * a fresh database `dir/<name>.db` for profile `p`. The caller closes the database.
 */
import path from 'node:path';
import { fillMirror, planDiscrepancies, writeVendorExportCsv, type Discrepancies, type ExportEntry } from '../../bench/generate/vendorExport';
import type { LogEntry } from '../../src/shared/wire';
import { openDatabase, type Db } from '../../src/main/store/database';

/** No planted difference: every row of the export is in the mirror as it is. */
export const NO_DIFFERENCES: Discrepancies = { missingLocally: 0, missingInExport: 0, amountMismatch: 0, statusMismatch: 0, pending: 0, byId: 0, byPhoneAmountTime: 0 };

export function exportAndMirror(dir: string, name: string, entries: readonly LogEntry[], plan: Discrepancies): { csv: string; db: Db; exported: ExportEntry[] } {
  const { exported, mirror } = planDiscrepancies(entries, plan);
  const csv = path.join(dir, `${name}.csv`);
  writeVendorExportCsv(csv, exported);
  const db = openDatabase(path.join(dir, `${name}.db`));
  fillMirror(db, 'p', mirror);
  return { csv, db, exported };
}
