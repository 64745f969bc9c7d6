/** Steps shared by the reconciliation tests: buying through vendesk, syncing, exporting the vendor log. */
import fs from 'node:fs';
import path from 'node:path';
import { writeVendorExportCsv, type ExportEntry } from '../../../bench/generate/vendorExport';
import { EXCEPTION_CATEGORIES, type ReconcileCategory, type ReconcileRunView } from '../../../src/shared/contract/reconcile';
import type { LogEntry } from '../../../src/shared/wire';
import type { TestApp } from '../../support/testApp';
import { receiptOf } from '../../support/receiptOf';

let seq = 500;
/** A fresh meter number ending in `ending` (the sandbox's test numbers: 0000 pending, 9999 declined). */
export function meter(ending = '4321'): string {
  seq++;
  return `45${String(seq).padStart(5, '0')}${ending}`;
}

export const CUSTOMER_PHONE = '08031234567';

export async function buyElectricity(t: TestApp, account: string, naira = 2000) {
  return receiptOf(t.call('purchases.buyElectricity', { disco: 'IKEDC', meter: account, vendType: 'PREPAID', amountKobo: naira * 100, phone: CUSTOMER_PHONE }));
}

/** The whole vendor log, as the service lists it (every page). */
export async function vendorLog(t: TestApp): Promise<LogEntry[]> {
  const out: LogEntry[] = [];
  for (let page = 1; ; page++) {
    const p = await t.app.client().logEntries({ page, perPage: 100, status: 'all' });
    out.push(...p.Items);
    if (page >= p.TotalPages || p.Items.length === 0) return out;
  }
}

/**
 * Writes the vendor's export of the log as a CSV with the columns in another order and spelled
 * another way (mapped like any import); `edit` changes rows first, as a test "editing the export".
 */
export async function exportVendorLog(t: TestApp, edit?: (rows: ExportEntry[]) => ExportEntry[]): Promise<string> {
  let rows: ExportEntry[] = await vendorLog(t);
  if (edit) rows = edit(rows);
  const file = path.join(t.dataDir, `vendor-export-${Date.now()}.csv`);
  writeVendorExportCsv(file, rows, {
    columns: [
      'status',
      'amount',
      'phone_number',
      'transaction_id',
      'id',
      'transaction_cost',
      'commission',
      'type',
      'network',
      'description',
      'data_plan',
      'created_at',
      'updated_at',
      'time',
    ],
    headers: {
      transaction_id: 'Transaction ID',
      phone_number: 'Phone Number',
      transaction_cost: 'Transaction Cost',
      created_at: 'Created At',
      updated_at: 'Updated At',
      data_plan: 'Data Plan',
    },
  });
  return file;
}

export async function sync(t: TestApp): Promise<void> {
  await t.call('sync.run', {});
}

export function reconcile(t: TestApp, file: string): Promise<ReconcileRunView> {
  return t.call('reconcile.start', { file: { path: file } });
}

/** Every exception category with items (so a test sees that nothing else was reported). */
export function exceptions(run: ReconcileRunView): Partial<Record<ReconcileCategory, number>> {
  const out: Partial<Record<ReconcileCategory, number>> = {};
  for (const c of EXCEPTION_CATEGORIES) if (run.totals[c].count > 0) out[c] = run.totals[c].count;
  return out;
}

export function removeFile(file: string): void {
  fs.rmSync(file, { force: true });
}

/**
 * A purchase made outside this vendesk (another desktop, the vendor's portal): straight to the
 * service with the organisation's token, so vendesk's mirror and records know nothing of it.
 */
export async function buyElsewhere(t: TestApp, account: string, naira = 2000): Promise<{ reference: string }> {
  const answer = await fetch(`${t.sandbox.url}/purchaseElectricity`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${t.token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ amount: naira, meter: account, phone: CUSTOMER_PHONE, disco: 'IKEDC', vendType: 'PREPAID' }),
  });
  const body = (await answer.json()) as { requestReference: string; gatewayStatus: string };
  if (body.gatewayStatus !== '00') throw new Error(`the purchase outside vendesk was not completed: ${JSON.stringify(body)}`);
  return { reference: body.requestReference };
}
