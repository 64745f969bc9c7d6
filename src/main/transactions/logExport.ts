/**
 * Export of the filtered mirror to XLSX or CSV with the shared exporter: money as Naira numbers
 * (from kobo), times as real date-times, text neutralized against formula injection.
 *
 * What a column sums to is spend as every screen counts it: a FAILED purchase was refunded, so its
 * wallet cost is in the Refunded column, not in Cost, and it earned no commission (Commission is
 * empty for it; the log's figure for it is never summed). The workbook opens on a Summary sheet:
 * the filter and the period it was made with, when, on which connection, and the counts and totals
 * by status. A CSV holds the rows only (a file of one table has no room for a summary).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ExportedFile } from '../../shared/contract/files';
import type { LogFilter, LogSort, LogTotals } from '../../shared/contract/logs';
import type { AppPart } from '../appContext';
import { writeTableCsv, writeTableXlsx, type ExportColumn } from '../exports';
import { exportPath } from '../files';
import { iterateLogRows, logTimeSpan, logTotals } from './logQuery';
import { readCheckpoint } from './syncCheckpoint';

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
  { header: 'Refunded', kind: 'naira' },
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
      // Refunded: its wallet cost came back and no commission was earned; both stay out of their columns' sums.
      r.status === 'FAILED' ? null : r.costKobo,
      r.status === 'FAILED' ? null : r.commissionKobo,
      r.status === 'FAILED' ? r.costKobo : null,
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

export const LOG_SUMMARY_COLUMNS: ExportColumn[] = [
  { header: 'Item', kind: 'text', width: 46 },
  { header: 'Value', kind: 'text', width: 34 },
  { header: 'Day (Lagos)', kind: 'date' },
  { header: 'When (Lagos)', kind: 'datetime' },
  { header: 'Count', kind: 'integer' },
  { header: 'Face value', kind: 'naira' },
  { header: 'Wallet cost', kind: 'naira' },
  { header: 'Commission earned', kind: 'naira' },
  { header: 'Refunded', kind: 'naira' },
];

const SORTED: Record<LogSort, string> = {
  time_desc: 'time, newest first',
  time_asc: 'time, oldest first',
  amount_desc: 'amount, largest first',
  amount_asc: 'amount, smallest first',
};

/**
 * The Summary sheet of a Transactions workbook: what it was made from (connection, filter,
 * period, sort, last sync) and its rows' counts and totals by status, as number cells that the
 * Transactions sheet's columns add up to.
 */
function summaryRows(app: AppPart<'connection' | 'db'>, options: LogExportOptions, totals: LogTotals, madeAt: string): unknown[][] {
  const { filter } = options;
  const profileId = app.connection.profileId;
  const span = logTimeSpan(app.db, profileId, filter);
  const ofStatus = (status: 'SUCCESS' | 'PENDING'): LogTotals | null => (filter.status && filter.status !== status ? null : logTotals(app.db, profileId, { ...filter, status }));
  const statusRow = (label: string, t: LogTotals | null): unknown[] => [label, null, null, null, t?.count ?? 0, t?.amountKobo ?? 0, t?.costKobo ?? 0, t?.commissionKobo ?? 0, null];
  const chosen = (value: string | undefined, all: string) => (value ? value : all);
  const synced = readCheckpoint(app.db, profileId).lastFinishedAt;
  return [
    ['Made', `by vendesk, from the transactions on this computer`, null, madeAt],
    ['Connection', `${app.connection.kind.toUpperCase()} ${app.connection.profileName}`],
    ['Last synced with the service', synced ? null : 'never (only vendesk’s own purchases are here)', null, synced],
    ['Filter: status', chosen(filter.status, 'all')],
    ['Filter: type', chosen(filter.type, 'all')],
    ['Filter: network or provider', chosen(filter.network, 'all')],
    ['Filter: search', chosen(filter.search, 'none')],
    ['Period: from', filter.from ? 'this Lagos day' : 'no start day: from the first entry', filter.from ?? null, span.first],
    ['Period: to (inclusive)', filter.to ? 'this Lagos day' : 'no end day: to the last entry', filter.to ?? null, span.last],
    ['Sorted by', SORTED[options.sort]],
    ['Rows (transactions)', null, null, null, totals.count],
    statusRow('SUCCESS', ofStatus('SUCCESS')),
    statusRow('PENDING', ofStatus('PENDING')),
    ['FAILED (refunded)', null, null, null, totals.refunded.count, totals.refunded.amountKobo, null, null, totals.refunded.costKobo],
    ['Counted as spend: successful and pending', null, null, null, totals.count - totals.refunded.count, totals.amountKobo, totals.costKobo, totals.commissionKobo, null],
    ['Refunded, not counted: what the wallet got back', null, null, null, totals.refunded.count, totals.refunded.amountKobo, null, null, totals.refunded.costKobo],
    ['Face value: the log’s amount, what the customers received. Wallet cost: the log’s transaction_cost, what the wallet was charged.'],
    [
      'A FAILED purchase was refunded: on the Transactions sheet its wallet cost is in the Refunded column, not in Cost, and its Commission is empty (none was earned), so each column adds up to the line above.',
    ],
    ['Times and days are Lagos time (Africa/Lagos, WAT, UTC+1).'],
  ];
}

export async function exportLogs(app: AppPart<'connection' | 'dataDir' | 'db'>, options: LogExportOptions): Promise<ExportedFile & { totals: LogTotals }> {
  const profileId = app.connection.profileId;
  const totals = logTotals(app.db, profileId, options.filter);
  const file = options.outPath ? path.resolve(options.outPath) : exportPath(app, 'Transactions', options.format);
  const rows = exportRows(app, profileId, options.filter, options.sort);
  const progress = { signal: options.signal, onProgress: options.onProgress };
  const summary = options.format === 'xlsx' ? summaryRows(app, options, totals, new Date().toISOString()) : [];
  const period = options.format === 'xlsx' ? (options.period ?? []) : [];
  const periodSheet = { name: 'Period', columns: [{ header: 'What these rows cover', kind: 'text' as const, width: 110 }], rows: period.map((line) => [line]), autoFilter: false };
  const result =
    options.format === 'xlsx'
      ? await writeTableXlsx(
          file,
          [
            { name: 'Summary', columns: LOG_SUMMARY_COLUMNS, rows: summary, freezeHeader: false, autoFilter: false, printOnePageWide: true },
            { name: 'Transactions', columns: LOG_EXPORT_COLUMNS, rows },
            ...(period.length > 0 ? [periodSheet] : []),
          ],
          progress,
        )
      : await writeTableCsv(file, LOG_EXPORT_COLUMNS, rows, progress);
  // The Summary's and the Period sheet's lines are not transactions: `rows` counts those of the Transactions sheet.
  return { fileName: path.basename(file), path: file, bytes: result.bytes ?? fs.statSync(file).size, rows: result.rows - summary.length - period.length, totals };
}
