/**
 * A reconciliation run as an Excel workbook (Summary, then one sheet per non-empty category) or
 * one category as CSV, through the one exporter (frozen header, filters, Naira format, widths,
 * formula injection neutralized). The Summary holds the parameters, the inputs' hashes, every
 * category's count and total, and the wallet roll-forward, so the workbook stands on its own.
 */
import path from 'node:path';
import { CATEGORY_LABELS, CATEGORY_SHORT_LABELS, RECONCILE_CATEGORIES, rollForwardLines, UNEXPLAINED_MEANING, type ReconcileCategory, type ReconcileItemView, type ReconcileRunView } from '../../shared/contract/reconcile';
import type { ExportedFile } from '../../shared/contract/files';
import { AppError } from '../../shared/appError';
import { writeTableCsv, writeTableXlsx, type ExportColumn, type ExportSheet } from '../exports';
import type { Db } from '../store/database';
import { allItems, runView } from '../reconcile/reconcileRunStore';

export const SUMMARY_COLUMNS: ExportColumn[] = [
  { header: 'Section', kind: 'text', width: 22 },
  { header: 'Item', kind: 'text', width: 48 },
  { header: 'Count', kind: 'integer', width: 12 },
  { header: 'Amount (₦)', kind: 'naira', width: 20 },
  { header: 'Value', kind: 'text', width: 70 },
  /** When the run was made and when the wallet readings were taken: real date-times, not text. */
  { header: 'When (Lagos)', kind: 'datetime', width: 22 },
];

/** The columns of an items sheet and what each holds. */
const ITEM_FIELDS: (ExportColumn & { value: (i: ReconcileItemView) => unknown })[] = [
  { header: 'Export row', kind: 'integer', value: (i) => i.exportRow },
  { header: 'Transaction id', kind: 'text', value: (i) => i.transactionId },
  { header: 'Log id', kind: 'integer', value: (i) => i.logId },
  { header: 'Created (Lagos)', kind: 'datetime', value: (i) => i.createdAt },
  { header: 'Phone', kind: 'text', width: 14, value: (i) => i.phone },
  { header: 'Type', kind: 'text', value: (i) => i.type },
  { header: 'Product', kind: 'text', value: (i) => i.product },
  { header: 'Network', kind: 'text', value: (i) => i.network },
  { header: 'Amount (₦)', kind: 'naira', value: (i) => i.amountKobo },
  { header: 'Export amount (₦)', kind: 'naira', value: (i) => i.exportAmountKobo },
  { header: 'Mirror amount (₦)', kind: 'naira', value: (i) => i.mirrorAmountKobo },
  { header: 'Export cost (₦)', kind: 'naira', value: (i) => i.exportCostKobo },
  { header: 'Mirror cost (₦)', kind: 'naira', value: (i) => i.mirrorCostKobo },
  { header: 'Export status', kind: 'text', value: (i) => i.exportStatus },
  { header: 'Mirror status', kind: 'text', value: (i) => i.mirrorStatus },
  { header: 'Match rule', kind: 'text', value: (i) => i.rule },
  { header: 'vendesk record', kind: 'text', value: (i) => i.localRef },
  { header: 'vendesk state', kind: 'text', value: (i) => i.localState },
  { header: 'What it means / what to do', kind: 'text', width: 60, value: (i) => i.detail },
  { header: 'Resolved at (Lagos)', kind: 'datetime', value: (i) => i.resolvedAt },
  { header: 'Resolution note', kind: 'text', width: 40, value: (i) => i.resolutionNote },
  { header: 'Requery', kind: 'text', value: (i) => i.requeryStatus },
];

export const ITEM_COLUMNS: ExportColumn[] = ITEM_FIELDS.map(({ value: _value, ...column }) => column);

export function itemRow(i: ReconcileItemView): unknown[] {
  return ITEM_FIELDS.map((f) => f.value(i));
}

/** The Summary sheet's rows: [section, item, count, amount kobo, value]. */
export function summaryRows(run: ReconcileRunView): unknown[][] {
  const p = run.parameters;
  const inp = run.inputs;
  const rows: unknown[][] = [
    ['Run', 'Run id', null, null, run.id],
    ['Run', 'Made at', null, null, null, run.createdAt],
    ['Parameters', 'From', null, null, p.from],
    ['Parameters', 'To (inclusive)', null, null, p.to],
    ['Parameters', 'Phone + amount + time window (minutes)', p.matchWindowMinutes, null, null],
    ['Parameters', 'Duplicate charge window (minutes)', p.duplicateWindowMinutes, null, null],
  ];
  if (inp) {
    rows.push(
      ['Inputs', `Export file (${inp.fileFormat.toUpperCase()})`, inp.exportRows, null, inp.fileName],
      ['Inputs', 'Export SHA-256', null, null, inp.fileHash],
      ['Inputs', 'Export rows outside the range (left out)', inp.exportRowsOutsideRange, null, null],
      ['Inputs', 'Export rows that could not be read', inp.exportRowsUnreadable, null, inp.exportRowsUnreadable > 0 ? 'listed at the end of this sheet' : null],
      ['Inputs', 'Local mirror entries in the range', inp.mirrorRows, null, inp.mirrorSource],
      ['Inputs', 'Mirror fingerprint (SHA-256)', null, null, inp.mirrorHash],
      ['Inputs', 'vendesk purchases considered', inp.localSubmissions, null, inp.localHash],
      ['Inputs', 'Balance snapshots fingerprint', null, null, inp.snapshotsHash],
    );
  }
  for (const c of RECONCILE_CATEGORIES) {
    const t = run.totals[c];
    const resolved = run.resolved[c] ?? 0;
    rows.push(['Categories', CATEGORY_LABELS[c], t.count, t.amountKobo, resolved > 0 ? `${resolved} resolved` : null]);
  }
  rows.push(
    ['Matched by rule', 'transaction_id', run.matchedByRule.transaction_id, null, null],
    ['Matched by rule', 'id', run.matchedByRule.id, null, null],
    ['Matched by rule', 'phone + amount + time', run.matchedByRule.phone_amount_time, null, null],
  );
  const rf = run.rollForward;
  if (rf?.available) {
    for (const l of rollForwardLines(rf)) {
      const note = l.label === 'Unexplained difference' ? (rf.unexplainedKobo === 0 ? 'none' : UNEXPLAINED_MEANING) : null;
      rows.push(['Wallet roll-forward', l.label, null, l.kobo, note, l.at]);
    }
    if (rf.placedByBalance > 0) rows.push(['Wallet roll-forward', 'Placed by the balance', rf.placedByBalance, null, 'movements in the same second as a balance reading, placed the way the balances agree']);
  } else {
    rows.push(['Wallet roll-forward', 'Not available', null, null, rf?.note ?? 'No wallet balance readings in the range']);
  }
  for (const u of run.unreadable) rows.push(['Unreadable rows', `Row ${u.row}`, null, null, u.message]);
  return rows;
}

function requireDone(run: ReconcileRunView): void {
  if (run.state !== 'done') {
    throw new AppError('run_not_done', `This run is ${run.state}; only finished runs can be exported.`, 'Reconcile again, then export the new run.');
  }
}

export async function writeReconcileWorkbook(db: Db, runId: string, file: string): Promise<{ rows: number; bytes: number; sheets: string[] }> {
  const run = runView(db, runId);
  requireDone(run);
  const sheets: ExportSheet[] = [{ name: 'Summary', columns: SUMMARY_COLUMNS, rows: summaryRows(run), printOnePageWide: true }];
  for (const c of RECONCILE_CATEGORIES) {
    if (run.totals[c].count === 0) continue;
    sheets.push({ name: CATEGORY_SHORT_LABELS[c], columns: ITEM_COLUMNS, rows: mapRows(allItems(db, runId, c)) });
  }
  const result = await writeTableXlsx(file, sheets);
  return { ...result, sheets: sheets.map((s) => s.name) };
}

function* mapRows(items: Iterable<ReconcileItemView>): Generator<unknown[]> {
  for (const i of items) yield itemRow(i);
}

export async function writeCategoryCsv(db: Db, runId: string, category: ReconcileCategory, file: string): Promise<{ rows: number; bytes: number }> {
  const run = runView(db, runId);
  requireDone(run);
  return writeTableCsv(file, ITEM_COLUMNS, mapRows(allItems(db, runId, category)));
}

export function exported(file: string, result: { rows: number; bytes: number }): ExportedFile {
  return { fileName: path.basename(file), path: file, bytes: result.bytes, rows: result.rows };
}
