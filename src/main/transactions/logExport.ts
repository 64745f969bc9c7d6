/**
 * Export of the filtered mirror to XLSX or CSV with the shared exporter: money as Naira numbers
 * (from kobo), times as real date-times, text neutralized against formula injection.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ExportedFile } from '../../shared/contract/files';
import type { LogFilter, LogSort, LogTotals } from '../../shared/contract/logs';
import type { AppPart } from '../appContext';
import { writeTableCsv, writeTableXlsx, type ExportColumn } from '../exports';
import { exportPath } from '../files';
import { iterateLogRows, logTotals } from './logQuery';

export const LOG_EXPORT_COLUMNS: ExportColumn[] = [
  { header: 'Time (Lagos)', kind: 'datetime' },
  { header: 'Log id', kind: 'integer' },
  { header: 'Transaction id', kind: 'text' },
  { header: 'Partner reference', kind: 'text' },
  { header: 'Phone number', kind: 'text' },
  { header: 'Type', kind: 'text' },
  { header: 'Network', kind: 'text' },
  { header: 'Operator', kind: 'text' },
  { header: 'Region', kind: 'text' },
  { header: 'Description', kind: 'text' },
  { header: 'Data plan', kind: 'text' },
  { header: 'Status', kind: 'text' },
  { header: 'Amount', kind: 'naira' },
  { header: 'Cost', kind: 'naira' },
  { header: 'Commission', kind: 'naira' },
  { header: 'Updated (Lagos)', kind: 'datetime' },
];

function* exportRows(app: AppPart<'db'>, profileId: string, filter: LogFilter, sort: LogSort): Generator<unknown[]> {
  for (const r of iterateLogRows(app.db, profileId, filter, sort)) {
    yield [
      r.createdAt,
      r.id,
      r.transactionId,
      r.partnerReference,
      r.phoneNumber,
      r.type,
      r.network,
      r.operator,
      r.region,
      r.description,
      r.dataPlan,
      r.status,
      r.amountKobo,
      r.costKobo,
      r.commissionKobo,
      r.updatedAt,
    ];
  }
}

export interface LogExportOptions {
  filter: LogFilter;
  sort: LogSort;
  format: 'xlsx' | 'csv';
  /** Where to write (CLI `--out`); a new file in the exports folder when absent. */
  outPath?: string;
  /** The workbook's Period sheet: the days the rows cover and what the mirror held of them (xlsx only). */
  period?: string[];
  signal?: AbortSignal;
  onProgress?(rows: number): void;
}

export async function exportLogs(app: AppPart<'connection' | 'dataDir' | 'db'>, options: LogExportOptions): Promise<ExportedFile & { totals: LogTotals }> {
  const profileId = app.connection.profileId;
  const totals = logTotals(app.db, profileId, options.filter);
  const file = options.outPath ? path.resolve(options.outPath) : exportPath(app, 'Transactions', options.format);
  const rows = exportRows(app, profileId, options.filter, options.sort);
  const period = options.format === 'xlsx' ? (options.period ?? []) : [];
  const periodSheet = { name: 'Period', columns: [{ header: 'What these rows cover', kind: 'text' as const, width: 110 }], rows: period.map((line) => [line]), autoFilter: false };
  const result =
    options.format === 'xlsx'
      ? await writeTableXlsx(file, [{ name: 'Transactions', columns: LOG_EXPORT_COLUMNS, rows }, ...(period.length > 0 ? [periodSheet] : [])], {
          signal: options.signal,
          onProgress: options.onProgress,
        })
      : await writeTableCsv(file, LOG_EXPORT_COLUMNS, rows, { signal: options.signal, onProgress: options.onProgress });
  // The writer counts the Period sheet's lines too: the entries are the rest.
  return { fileName: path.basename(file), path: file, bytes: result.bytes ?? fs.statSync(file).size, rows: result.rows - period.length, totals };
}
