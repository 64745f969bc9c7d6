/**
 * The results of a job as a spreadsheet, through the one exporter: XLSX with a *Summary* sheet
 * (counts, face value and wallet cost as numbers) and an *Items* sheet, or CSV with the items.
 * The items are one row per data row of the spreadsheet, in file order, bought or not: each
 * valid row with its outcome, each invalid row with why it was not bought.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { BulkJobView, BulkMoney } from '../../shared/contract/bulk';
import { addMoney } from '../../shared/bulkMoney';
import type { ExportedFile } from '../../shared/contract/files';
import type { AppPart } from '../appContext';
import { writeTableCsv, writeTableXlsx, type ExportColumn } from '../exports';
import { exportPath } from '../files';
import type { JobReads } from './jobReads';
import type { ItemRow, JobRow, StateFigures } from './jobRows';
import { isVendingKind, type BulkJobKind, type ItemState } from './jobStates';

/** What each state means, in the words of the results file. */
export const STATE_LABEL: Record<ItemState, string> = {
  excluded: 'Left out: duplicate (not bought)',
  queued: 'Not sent yet',
  held: 'Held (same purchase in progress)',
  sending: 'Being sent',
  accepted: 'Accepted, outcome not known yet',
  rejected: 'Rejected (not charged)',
  uncertain: 'Uncertain (check before buying again)',
  success: 'Successful',
  failed: 'Failed (refunded)',
  pending: 'Pending at the service',
  cancelled: 'Not bought (never sent)',
};

/** A row of the file that was not valid: not bought. */
export const INVALID_LABEL = 'Invalid (not bought)';

const ITEM_COLUMNS: ExportColumn[] = [
  { header: 'Row', kind: 'integer' },
  { header: 'Phone', kind: 'text' },
  { header: 'Name', kind: 'text' },
  { header: 'Your reference', kind: 'text' },
  { header: 'Network', kind: 'text' },
  { header: 'Product', kind: 'text' },
  { header: 'Amount (face value)', kind: 'naira' },
  { header: 'Wallet cost', kind: 'naira' },
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
    { header: 'Amount (face value)', kind: 'naira' },
    { header: 'Wallet cost', kind: 'naira' },
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

const PAGE = 2000;

/** Every item of a job in row order, read a page at a time so a 100k-row job is never all in memory. */
function* allItems(reads: JobReads, jobId: string): Generator<ItemRow> {
  for (let offset = 0; ; offset += PAGE) {
    const items = reads.items(jobId, { offset, limit: PAGE });
    yield* items;
    if (items.length < PAGE) return;
  }
}

/** A row of the file that was not valid, with the phone and name it gave (as written; '' when not known). */
interface InvalidRow {
  row: number;
  reason: string;
  phone: string;
  name: string;
}

/** Every invalid row of a job in row order, its issues joined. */
function* allInvalidRows(reads: JobReads, jobId: string): Generator<InvalidRow> {
  let current: { row: number; reasons: string[]; phone: string; name: string } | null = null;
  for (let offset = 0; ; offset += PAGE) {
    const issues = reads.invalidRows(jobId, offset, PAGE);
    for (const issue of issues) {
      if (current && current.row === issue.row) {
        current.reasons.push(issue.message);
        continue;
      }
      if (current) yield { row: current.row, reason: current.reasons.join('; '), phone: current.phone, name: current.name };
      current = { row: issue.row, reasons: [issue.message], phone: issue.phone ?? '', name: issue.name ?? '' };
    }
    if (issues.length < PAGE) break;
  }
  if (current) yield { row: current.row, reason: current.reasons.join('; '), phone: current.phone, name: current.name };
}

/** The items and the invalid rows of a job merged in file order (both come sorted by row). */
function* fileRows(reads: JobReads, jobId: string): Generator<{ item: ItemRow } | { invalid: InvalidRow }> {
  const invalid = allInvalidRows(reads, jobId);
  let next = invalid.next();
  for (const item of allItems(reads, jobId)) {
    while (!next.done && next.value.row < item.row_number) {
      yield { invalid: next.value };
      next = invalid.next();
    }
    yield { item };
  }
  while (!next.done) {
    yield { invalid: next.value };
    next = invalid.next();
  }
}

/** Why an item was not bought or how it ended, in the file's words. */
function itemReason(i: ItemRow): string {
  return i.reason ?? (i.state === 'excluded' ? (i.duplicate_of ?? '') : '');
}

function* vendingRows(reads: JobReads, jobId: string, kind: 'electricity' | 'cable'): Generator<unknown[]> {
  for (const r of fileRows(reads, jobId)) {
    if ('invalid' in r) {
      yield [r.invalid.row, '', '', '', r.invalid.phone, r.invalid.name, '', null, null, INVALID_LABEL, '', '', '', r.invalid.reason, '', '', null];
      continue;
    }
    const i = r.item;
    yield [
      i.row_number,
      i.account ?? '',
      i.network,
      kind === 'electricity' ? (i.vend_type ?? '') : i.description || i.product_code,
      i.phone,
      i.name,
      i.note,
      i.amount_kobo,
      i.cost_kobo,
      STATE_LABEL[i.state],
      i.token ?? '',
      i.units === null || i.units === undefined ? '' : String(i.units),
      i.reference ?? '',
      itemReason(i),
      i.settled_by ?? '',
      i.purchase_id ?? '',
      i.updated_at,
    ];
  }
}

const KIND_LABEL: Record<BulkJobKind, string> = { airtime: 'Airtime', data: 'Data', electricity: 'Electricity', cable: 'Cable TV' };

function* itemRows(reads: JobReads, jobId: string): Generator<unknown[]> {
  for (const r of fileRows(reads, jobId)) {
    if ('invalid' in r) {
      yield [r.invalid.row, r.invalid.phone, r.invalid.name, '', '', '', null, null, INVALID_LABEL, '', r.invalid.reason, '', null, null];
      continue;
    }
    const i = r.item;
    yield [
      i.row_number,
      i.phone,
      i.name,
      i.note,
      i.network,
      i.description || i.product_code,
      i.amount_kobo,
      i.cost_kobo,
      STATE_LABEL[i.state],
      i.reference ?? '',
      itemReason(i),
      i.settled_by ?? '',
      i.attempts,
      i.updated_at,
    ];
  }
}

const SUMMARY_COLUMNS: ExportColumn[] = [
  { header: 'What', kind: 'text' },
  { header: 'Value', kind: 'text' },
  { header: 'Items', kind: 'integer' },
  { header: 'Face value', kind: 'naira' },
  { header: 'Wallet cost', kind: 'naira' },
  { header: 'Wallet cost known for (items)', kind: 'integer' },
  /** When the job was confirmed and finished: real date-times, not text. */
  { header: 'When', kind: 'datetime' },
];

/** A summary line of money: the wallet cost is left empty while no item's cost is known, never 0. */
function moneyLine(what: string, m: BulkMoney, note = ''): unknown[] {
  return [what, note, m.count, m.faceKobo, m.costKnown === 0 && m.count > 0 ? null : m.costKobo, m.costKnown];
}

/** A summary line of items that were not charged: count and face value. */
function countLine(what: string, count: number, faceKobo: number | null = null): unknown[] {
  return [what, '', count, faceKobo, null, null];
}

function summaryRows(job: JobRow, view: BulkJobView, figures: Record<ItemState, StateFigures>): unknown[][] {
  const money = (...states: ItemState[]): BulkMoney => addMoney(...states.map((state) => figures[state]));
  const count = (what: string, ...states: ItemState[]) => {
    const m = money(...states);
    return countLine(what, m.count, m.faceKobo);
  };
  return [
    ['File', job.file_name],
    ['Sheet', job.sheet_name ?? ''],
    ['Kind', KIND_LABEL[job.kind]],
    ['Connection', job.connection_kind.toUpperCase()],
    ['Job id', job.id],
    ['Job state', job.state],
    ['Confirmed at', '', null, null, null, null, job.confirmed_at],
    ['Finished at', '', null, null, null, null, job.finished_at],
    countLine('Rows in the file', job.rows_total),
    countLine('Invalid rows (not bought)', job.invalid_count),
    countLine('Items to buy', view.items, view.totalKobo),
    moneyLine('Bought (successful and pending)', view.bought, "Face value: the rows' amounts. Wallet cost: what the wallet was charged."),
    moneyLine('Successful', money('success')),
    moneyLine('Pending at the service', money('accepted', 'pending'), 'Charged; refunded if it fails.'),
    moneyLine('Failed (refunded)', view.refunded, 'Charged, then refunded by the service.'),
    count('Rejected (not charged)', 'rejected'),
    moneyLine('Maybe bought (uncertain)', view.maybeBought, 'Sent, no answer yet: may have been charged. Not in Bought until the log settles it.'),
    count('Not bought (never sent)', 'cancelled'),
    count('Not sent yet', 'queued', 'held'),
    count('Left out (duplicates)', 'excluded'),
    ['Note', job.message ?? ''],
  ];
}

export async function exportJobResults(app: AppPart<'dataDir'>, reads: JobReads, job: JobRow, view: BulkJobView, format: 'xlsx' | 'csv'): Promise<ExportedFile> {
  const base = `Bulk ${job.kind} results ${path.parse(job.file_name).name}`;
  const file = exportPath(app, base, format);
  const vending = isVendingKind(job.kind) ? job.kind : null;
  const columns = vending ? vendingColumns(vending) : ITEM_COLUMNS;
  const items = () => (vending ? vendingRows(reads, job.id, vending) : itemRows(reads, job.id));
  const written =
    format === 'csv'
      ? await writeTableCsv(file, columns, items())
      : await writeTableXlsx(file, [
          { name: 'Summary', columns: SUMMARY_COLUMNS, rows: summaryRows(job, view, reads.figures(job.id)), autoFilter: false },
          { name: 'Items', columns, rows: items() },
        ]);
  return { fileName: path.basename(file), path: file, bytes: fs.statSync(file).size, rows: written.rows };
}
