/**
 * The results of a job as a spreadsheet, through the one exporter: XLSX with a summary sheet and
 * an items sheet, or CSV with the items.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { BulkJobView } from '../../shared/contract/bulk';
import type { ExportedFile } from '../../shared/contract/files';
import type { App } from '../app';
import { writeTableCsv, writeTableXlsx, type ExportColumn } from '../exports';
import { exportFileName, exportsDir } from '../files';
import type { ItemRow, JobRow, JobStore } from './jobStore';
import { isVendingKind, type BulkJobKind, type ItemState } from './jobStates';

/** What each state means, in the words of the results file. */
export const STATE_LABEL: Record<ItemState, string> = {
  excluded: 'Left out (not bought)',
  queued: 'Not sent yet',
  held: 'Held (same purchase in progress)',
  sending: 'Being sent',
  accepted: 'Accepted, outcome not known yet',
  rejected: 'Rejected (not charged)',
  uncertain: 'Uncertain (check before buying again)',
  success: 'Successful',
  failed: 'Failed (refunded)',
  pending: 'Pending at the service',
  cancelled: 'Cancelled (not bought)',
};

const ITEM_COLUMNS: ExportColumn[] = [
  { header: 'Row', kind: 'integer' },
  { header: 'Phone', kind: 'text' },
  { header: 'Name', kind: 'text' },
  { header: 'Your reference', kind: 'text' },
  { header: 'Network', kind: 'text' },
  { header: 'Product', kind: 'text' },
  { header: 'Amount', kind: 'naira' },
  { header: 'Outcome', kind: 'text' },
  { header: 'Service reference', kind: 'text' },
  { header: 'Reason', kind: 'text' },
  { header: 'How it was settled', kind: 'text' },
  { header: 'Attempts', kind: 'integer' },
  { header: 'Last update', kind: 'datetime' },
];

/** Electricity and cable: the meter or smartcard, what was bought, and the token and units of prepaid meters. */
function vendingColumns(kind: 'electricity' | 'cable'): ExportColumn[] {
  return [
    { header: 'Row', kind: 'integer' },
    { header: kind === 'electricity' ? 'Meter number' : 'Smartcard number', kind: 'text' },
    { header: kind === 'electricity' ? 'Disco' : 'Provider', kind: 'text' },
    { header: kind === 'electricity' ? 'Meter type' : 'Bouquet', kind: 'text' },
    { header: 'Phone', kind: 'text' },
    { header: 'Name', kind: 'text' },
    { header: 'Your reference', kind: 'text' },
    { header: 'Amount', kind: 'naira' },
    { header: 'Outcome', kind: 'text' },
    { header: 'Token', kind: 'text' },
    { header: 'Units (kWh)', kind: 'text' },
    { header: 'Service reference', kind: 'text' },
    { header: 'Reason', kind: 'text' },
    { header: 'How it was settled', kind: 'text' },
    { header: 'Purchase id', kind: 'text' },
    { header: 'Last update', kind: 'datetime' },
  ];
}

/** Every item of a job in row order, read a page at a time so a 100k-row job is never all in memory. */
function* allItems(store: JobStore, jobId: string): Generator<ItemRow> {
  const pageSize = 2000;
  for (let offset = 0; ; offset += pageSize) {
    const items = store.items(jobId, { offset, limit: pageSize });
    yield* items;
    if (items.length < pageSize) return;
  }
}

function* vendingRows(store: JobStore, jobId: string, kind: 'electricity' | 'cable'): Generator<unknown[]> {
  for (const i of allItems(store, jobId)) {
    yield [
      i.row_number,
      i.account ?? '',
      i.network,
      kind === 'electricity' ? (i.vend_type ?? '') : i.description || i.product_code,
      i.phone,
      i.name,
      i.note,
      i.amount_kobo,
      STATE_LABEL[i.state],
      i.token ?? '',
      i.units === null || i.units === undefined ? '' : String(i.units),
      i.reference ?? '',
      i.reason ?? '',
      i.settled_by ?? '',
      i.purchase_id ?? '',
      i.updated_at,
    ];
  }
}

const KIND_LABEL: Record<BulkJobKind, string> = { airtime: 'Airtime', data: 'Data', electricity: 'Electricity', cable: 'Cable TV' };

function* itemRows(store: JobStore, jobId: string): Generator<unknown[]> {
  for (const i of allItems(store, jobId)) {
    yield [
      i.row_number,
      i.phone,
      i.name,
      i.note,
      i.network,
      i.description || i.product_code,
      i.amount_kobo,
      STATE_LABEL[i.state],
      i.reference ?? '',
      i.reason ?? '',
      i.settled_by ?? '',
      i.attempts,
      i.updated_at,
    ];
  }
}

export async function exportJobResults(app: App, store: JobStore, job: JobRow, view: BulkJobView, format: 'xlsx' | 'csv'): Promise<ExportedFile> {
  const base = `Bulk ${job.kind} results ${path.parse(job.file_name).name}`;
  const file = path.join(exportsDir(app), exportFileName(base, format));
  let rows: number;
  const vending = isVendingKind(job.kind) ? job.kind : null;
  const columns = vending ? vendingColumns(vending) : ITEM_COLUMNS;
  const items = () => (vending ? vendingRows(store, job.id, vending) : itemRows(store, job.id));
  if (format === 'csv') {
    rows = (await writeTableCsv(file, columns, items())).rows;
  } else {
    const c = view.counts;
    const summary: unknown[][] = [
      ['File', job.file_name],
      ['Sheet', job.sheet_name ?? ''],
      ['Kind', KIND_LABEL[job.kind]],
      ['Connection', job.connection_kind.toUpperCase()],
      ['Job id', job.id],
      ['Job state', job.state],
      ['Confirmed at', job.confirmed_at ?? ''],
      ['Finished at', job.finished_at ?? ''],
      ['Rows in file', String(job.rows_total)],
      ['Invalid rows (not bought)', String(job.invalid_count)],
      ['Items to buy', String(view.items)],
      ['Successful', String(c.success)],
      ['Failed (refunded)', String(c.failed)],
      ['Pending at the service', String(c.pending + c.accepted)],
      ['Rejected (not charged)', String(c.rejected)],
      ['Uncertain', String(c.uncertain + c.sending)],
      ['Cancelled or not sent', String(c.cancelled + c.queued + c.held)],
      ['Left out (duplicates)', String(c.excluded)],
      ['Job total (₦)', (view.totalKobo / 100).toFixed(2)],
      ['Charged (₦)', (view.chargedKobo / 100).toFixed(2)],
      ['Refunded (₦)', (view.refundedKobo / 100).toFixed(2)],
      ['Note', job.message ?? ''],
    ];
    rows = (
      await writeTableXlsx(file, [
        { name: 'Summary', columns: [{ header: 'What', kind: 'text' }, { header: 'Value', kind: 'text' }], rows: summary, autoFilter: false },
        { name: 'Items', columns, rows: items() },
      ])
    ).rows;
  }
  return { fileName: path.basename(file), path: file, bytes: fs.statSync(file).size, rows };
}
