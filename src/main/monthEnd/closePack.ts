/**
 * The close pack of a month: one workbook, written with the one exporter (exceljs's streaming
 * WorkbookWriter), every figure a number or a date cell, each sheet stating its period in Lagos
 * days on its first line.
 *
 * Sheets: Summary (the month's days and state, the wallet rolled forward — opening reading,
 * purchases by type, SMS, refunds, closing reading, unexplained — and the month's totals); Spend by
 * cost centre and type (with the adjustments of closed months as lines of their own); the
 * reconciliation against the vendor's export when one is given (its summary and every category but
 * the matched); purchases still pending at month end; refunds of the month; the adjustments entry
 * by entry; in a team, the approvals behind the month's spend.
 */
import { rollForwardLines, RECONCILE_CATEGORIES, CATEGORY_SHORT_LABELS, UNEXPLAINED_MEANING, type ReconcileRunView } from '../../shared/contract/reconcile';
import type { MirrorCoverage } from '../../shared/contract/logs';
import { periodNotes } from '../../shared/coverageText';
import { writeTableXlsx, type ExportColumn, type ExportResult, type ExportSheet } from '../exports';
import type { Db } from '../store/database';
import { allItems } from '../reconcile/reconcileRunStore';
import { ITEM_COLUMNS, itemRow, SUMMARY_COLUMNS, summaryRows } from '../reports/reconcileWorkbook';
import { approvalsSheet, type MonthApprovals } from './approvalsSheet';
import { adjustmentEntries, monthEntries, monthQuery, totalOf, type AdjustmentEntry, type MonthEntry, type MonthFigures } from './monthFigures';

export interface ClosePackInput {
  figures: MonthFigures;
  coverage: MirrorCoverage | null;
  reconciliation: ReconcileRunView | null;
  /** Null: not a team workspace (no sheet). */
  approvals: MonthApprovals | null;
}

export const CLOSE_SUMMARY_COLUMNS: ExportColumn[] = [
  { header: 'Item', kind: 'text', width: 60 },
  { header: 'Day (Lagos)', kind: 'date' },
  { header: 'Count', kind: 'integer' },
  { header: 'Amount (₦)', kind: 'naira', width: 18 },
  { header: 'Face value (₦)', kind: 'naira', width: 18 },
  { header: 'Commission (₦)', kind: 'naira', width: 18 },
  { header: 'When (Lagos)', kind: 'datetime' },
  { header: 'Note', kind: 'text', width: 70 },
];

const FIGURES: ExportColumn[] = [
  { header: 'Purchases', kind: 'integer' },
  { header: 'Face value (₦)', kind: 'naira' },
  { header: 'Wallet cost (₦)', kind: 'naira' },
  { header: 'Commission (₦)', kind: 'naira' },
];

const ENTRY_COLUMNS: ExportColumn[] = [
  { header: 'Log id', kind: 'integer' },
  { header: 'Transaction id', kind: 'text' },
  { header: 'Created (Lagos)', kind: 'datetime' },
  { header: 'Updated (Lagos)', kind: 'datetime' },
  { header: 'Phone', kind: 'text', width: 14 },
  { header: 'Type', kind: 'text' },
  { header: 'Network', kind: 'text' },
  { header: 'Cost centre', kind: 'text' },
  { header: 'Status', kind: 'text' },
  { header: 'Face value (₦)', kind: 'naira' },
  { header: 'Wallet cost (₦)', kind: 'naira' },
  { header: 'Commission (₦)', kind: 'naira' },
];

const entryRow = (e: MonthEntry): unknown[] => [
  e.logId,
  e.transactionId,
  e.createdAt,
  e.updatedAt,
  e.phone,
  e.type,
  e.network,
  e.costCentre,
  e.status,
  e.faceKobo,
  e.costKobo,
  e.commissionKobo,
];

const ADJUSTMENT_COLUMNS: ExportColumn[] = [
  { header: 'Month it belonged to', kind: 'text' },
  { header: 'What changed', kind: 'text', width: 50 },
  { header: 'Was (status)', kind: 'text' },
  { header: 'Was (cost centre)', kind: 'text' },
  ...ENTRY_COLUMNS,
];

function whatChanged(a: AdjustmentEntry): string {
  const parts: string[] = [];
  if (a.wasStatus !== a.status) {
    if (a.status === 'FAILED') parts.push(`failed after ${a.wasMonth} was closed: refunded, taken out of spend here`);
    else if (a.wasStatus === 'PENDING') parts.push(`settled ${a.status} after ${a.wasMonth} was closed (it was counted there as pending)`);
    else parts.push(`status ${a.wasStatus} → ${a.status} after ${a.wasMonth} was closed`);
  }
  if (a.wasCostCentre !== a.costCentre) parts.push(`cost centre ${a.wasCostCentre} → ${a.costCentre} after ${a.wasMonth} was closed`);
  return parts.join('; ');
}

export function periodCaption(f: MonthFigures, what: string): string {
  return `${what} — ${f.month}: ${f.from} to ${f.to} inclusive (Lagos days, Africa/Lagos, UTC+1)${f.closed ? `; closed ${f.closed.serviceClosedAt.slice(0, 10)} by ${f.closed.closedBy}` : '; open: read from the mirror now'}`;
}

/** The Summary's rows, in CLOSE_SUMMARY_COLUMNS. */
export function closeSummaryRows(input: ClosePackInput): unknown[][] {
  const f = input.figures;
  const rows: unknown[][] = [
    ['First day of the month', f.from],
    ['Last day of the month (the journal’s date)', f.to],
    f.closed
      ? [
          'State: closed',
          null,
          null,
          null,
          null,
          null,
          f.closed.closedAt,
          `Closed by ${f.closed.closedBy}; these figures are what the close kept. Later changes are adjustments of the next open month.`,
        ]
      : ['State: open', null, null, null, null, null, null, 'Read from the mirror now; changes to entries of closed months are counted here as adjustments.'],
  ];
  const byType = new Map<string, { purchases: number; faceKobo: number; costKobo: number; commissionKobo: number }>();
  for (const l of f.spend) {
    const t = byType.get(l.type) ?? { purchases: 0, faceKobo: 0, costKobo: 0, commissionKobo: 0 };
    t.purchases += l.purchases;
    t.faceKobo += l.faceKobo;
    t.costKobo += l.costKobo;
    t.commissionKobo += l.commissionKobo;
    byType.set(l.type, t);
  }
  const total = totalOf(f.spend);
  const adj = totalOf(f.adjustments);
  rows.push(['Purchases of the month by type (successful and pending): wallet cost, face value, commission']);
  for (const [type, t] of [...byType.entries()].sort()) rows.push([`Purchases: ${type}`, null, t.purchases, t.costKobo, t.faceKobo, t.commissionKobo]);
  rows.push(['Purchases: all types', null, total.purchases, total.costKobo, total.faceKobo, total.commissionKobo]);
  rows.push([`Of which still pending at month end${f.closed ? ' (at the close)' : ''}`, null, f.pending.count, f.pending.costKobo, f.pending.faceKobo, null]);
  rows.push(['SMS charges: vendesk’s messaging (SMS, e-mail copies, one-time codes), messages and cost', null, f.messaging.messages, f.messaging.costKobo]);
  if (f.messaging.uncertain.sends > 0)
    rows.push([
      'Messages whose answer was lost, not counted (they may not have been charged): sends and quoted cost',
      null,
      f.messaging.uncertain.sends,
      f.messaging.uncertain.quotedKobo,
    ]);
  rows.push(['Refunds: failed purchases of the month (debited and refunded, not spend)', null, f.refunds.count, f.refunds.costKobo, f.refunds.faceKobo]);
  rows.push([
    'Adjustments of closed months counted in this month (net spend change)',
    null,
    f.adjustmentCount,
    adj.costKobo,
    adj.faceKobo,
    adj.commissionKobo,
    null,
    f.adjustmentCount > 0 ? 'Entry by entry on the Adjustments sheet' : 'none',
  ]);
  if (f.adjustmentRefunds.count !== 0) rows.push(['Of which refunds that arrived after their month was closed', null, f.adjustmentRefunds.count, f.adjustmentRefunds.costKobo]);
  rows.push([
    'Spend to post: purchases, adjustments and SMS (wallet cost)',
    null,
    null,
    total.costKobo + adj.costKobo + f.messaging.costKobo,
    total.faceKobo + adj.faceKobo,
    total.commissionKobo + adj.commissionKobo,
  ]);
  rows.push(['Wallet between the balance readings around the month (rolled forward)']);
  const rf = f.wallet;
  if (rf.available) {
    for (const l of rollForwardLines(rf))
      rows.push([l.label, null, null, l.kobo, null, null, l.at, l.label === 'Unexplained difference' ? (rf.unexplainedKobo === 0 ? 'none' : UNEXPLAINED_MEANING) : null]);
    rows.push(['Top-ups', null, null, null, null, null, null, 'The service lists no top-ups: a top-up between the readings is in the unexplained difference above.']);
  } else {
    rows.push(['Wallet roll-forward not available', null, null, null, null, null, null, rf.note ?? 'No wallet balance readings around the month']);
  }
  rows.push(['Days are Lagos days (Africa/Lagos, UTC+1); the service’s UTC times are converted. Face value: what the customers received; wallet cost: what the wallet paid.']);
  if (input.coverage) for (const note of periodNotes(input.coverage)) rows.push([`Period: ${note}`]);
  return rows;
}

function* spendRows(f: MonthFigures): Generator<unknown[]> {
  for (const l of f.spend) yield [l.costCentre, l.type, 'Purchases of the month', l.purchases, l.faceKobo, l.costKobo, l.commissionKobo];
  for (const l of f.adjustments) yield [l.costCentre, l.type, 'Adjustment of a closed month', l.purchases, l.faceKobo, l.costKobo, l.commissionKobo];
  const t = totalOf([...f.spend, ...f.adjustments]);
  yield ['All cost centres', 'All types', 'Total', t.purchases, t.faceKobo, t.costKobo, t.commissionKobo];
}

function* mapRows<T>(items: Iterable<T>, row: (item: T) => unknown[]): Generator<unknown[]> {
  for (const item of items) yield row(item);
}

export async function writeClosePack(
  db: Db,
  profileId: string,
  input: ClosePackInput,
  file: string,
  options: { signal?: AbortSignal } = {},
): Promise<ExportResult & { sheets: string[] }> {
  const f = input.figures;
  const q = monthQuery(db, profileId, f.month);
  const closed = f.closed !== null;
  const sheets: ExportSheet[] = [
    {
      name: 'Summary',
      caption: periodCaption(f, 'Close pack'),
      columns: CLOSE_SUMMARY_COLUMNS,
      rows: closeSummaryRows(input),
      freezeHeader: false,
      autoFilter: false,
      printOnePageWide: true,
    },
    {
      name: 'By cost centre and type',
      caption: periodCaption(f, 'Spend by cost centre and type'),
      columns: [{ header: 'Cost centre', kind: 'text' }, { header: 'Type', kind: 'text' }, { header: 'Counted as', kind: 'text' }, ...FIGURES],
      rows: spendRows(f),
    },
  ];
  const run = input.reconciliation;
  if (run) {
    sheets.push({
      name: 'Reconciliation',
      caption: periodCaption(f, 'Reconciliation against the vendor’s export'),
      columns: SUMMARY_COLUMNS,
      rows: summaryRows(run),
      printOnePageWide: true,
    });
    for (const c of RECONCILE_CATEGORIES) {
      if (c === 'matched' || run.totals[c].count === 0) continue;
      sheets.push({
        name: `Rec ${CATEGORY_SHORT_LABELS[c]}`,
        caption: periodCaption(f, `Reconciliation: ${CATEGORY_SHORT_LABELS[c]}`),
        columns: ITEM_COLUMNS,
        rows: mapRows(allItems(db, run.id, c), itemRow),
      });
    }
  }
  sheets.push(
    {
      name: 'Pending at month end',
      caption: periodCaption(f, 'Purchases still pending at month end'),
      columns: ENTRY_COLUMNS,
      rows: mapRows(monthEntries(db, q, closed, 'pending'), entryRow),
    },
    {
      name: 'Refunds',
      caption: periodCaption(f, 'Refunds of the month: failed purchases, debited and refunded'),
      columns: ENTRY_COLUMNS,
      rows: mapRows(monthEntries(db, q, closed, 'failed'), entryRow),
    },
    {
      name: 'Adjustments',
      caption: periodCaption(f, 'Adjustments: entries of closed months that changed, counted in this month'),
      columns: ADJUSTMENT_COLUMNS,
      rows: mapRows(adjustmentEntries(db, q, closed), (a) => [a.wasMonth, whatChanged(a), a.wasStatus, a.wasCostCentre, ...entryRow(a)]),
    },
  );
  if (input.approvals) sheets.push(approvalsSheet(f, input.approvals, periodCaption));
  const result = await writeTableXlsx(file, sheets, options);
  return { ...result, sheets: sheets.map((s) => s.name) };
}
