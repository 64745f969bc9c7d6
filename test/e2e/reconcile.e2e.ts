/**
 * Done-when of reconciliation, through the real UI: reconcile a vendor export (one entry left
 * out, one amount edited, one purchase made elsewhere after the mirror's sync, one pending), see the
 * summary cards and the roll-forward, drill down into a category, requery the pending one, and
 * export the workbook — whose numbers equal the screen's.
 */
import path from 'node:path';
import ExcelJS from 'exceljs';
import { createPendingScheduler } from '../../src/main/pending';
import { CATEGORY_LABELS, RECONCILE_CATEGORIES } from '../../src/shared/contract/reconcile';
import { formatNaira } from '../../src/shared/money';
import { buyElsewhere, exportVendorLog } from '../integration/reconcile/reconcileHelpers';
import { expect, test, saveScreen } from './support/fixtures';

const electricity = (vendesk: Parameters<typeof exportVendorLog>[0], meter: string, naira: number) =>
  vendesk.call('purchases.buyElectricity', { disco: 'IKEDC', meter, vendType: 'PREPAID', amountKobo: naira * 100, phone: '08031234567' });

test('reconcile an export, drill down, and export a workbook whose numbers equal the screen', async ({ page, vendesk }) => {
  vendesk.app.service(createPendingScheduler).pause();
  const origin = vendesk.shell?.origin ?? '';
  await vendesk.call('sync.run', {}); // opening balance snapshot
  for (let i = 0; i < 12; i++) await electricity(vendesk, `4500012${String(i).padStart(4, '3')}`, 1000 + i * 250);
  await electricity(vendesk, '45000990000', 2000); // pending
  await vendesk.call('sync.run', {}); // mirror + closing snapshot
  await buyElsewhere(vendesk, '45000881234', 7000); // made elsewhere after the sync: missing locally
  const file = await exportVendorLog(vendesk, (rows) => rows.filter((_, i) => i !== 5).map((r, i) => (i === 7 ? { ...r, amount: 'NGN 9,999.00' } : r)));

  await page.goto(`${origin}/#/reconcile`);
  await expect(page.getByText('No reconciliation yet')).toBeVisible();
  await saveScreen(page, 'reconcile-empty.png', { fullPage: true });
  await page.locator('input[type="file"]').setInputFiles(file);
  await page.getByRole('button', { name: 'Reconcile', exact: true }).click();

  await expect(page.getByTestId('count-matched')).toHaveText('10');
  await expect(page.getByTestId('count-missingLocally')).toHaveText('1');
  await expect(page.getByTestId('count-missingInExport')).toHaveText('1');
  await expect(page.getByTestId('count-amountMismatch')).toHaveText('1');
  await expect(page.getByTestId('count-pending')).toHaveText('1');
  for (const c of ['statusMismatch', 'lostSubmissions', 'duplicateCharges', 'missingRefunds']) await expect(page.getByTestId(`count-${c}`)).toHaveText('0');
  await expect(page.getByTestId('unexplained')).toContainText('₦0.00');
  await saveScreen(page, 'reconcile-summary.png', { fullPage: true });

  // Drill down: the edited amount, with both figures side by side.
  await page.getByTestId('card-amountMismatch').click();
  const table = page.getByRole('table', { name: 'amountMismatch items' });
  await expect(table.getByRole('row')).toHaveCount(2);
  await expect(table).toContainText('₦9,999.00');
  await page.getByTestId('card-matched').click();
  await expect(page.getByRole('table', { name: 'matched items' })).toContainText('transaction id');
  await page.getByTestId('card-missingInExport').click();
  await page.getByRole('table', { name: 'missingInExport items' }).getByRole('checkbox').first().check();
  await page.getByRole('button', { name: /Mark 1 resolved/ }).click();
  await page.getByLabel('Note').fill('Vendor confirmed the export was cut short');
  await page.getByRole('button', { name: 'Mark resolved', exact: true }).click();
  await expect(page.getByRole('table', { name: 'missingInExport items' })).toContainText('resolved');
  await expect(page.getByRole('dialog')).toBeHidden();
  await saveScreen(page, 'reconcile-drilldown.png', { fullPage: true });

  // Requery all pending: too early for the service (2 min 1 s), and the screen says so.
  await page.getByRole('button', { name: 'Requery all pending (1)' }).click();
  await expect(page.getByText('Requeried 1 pending item(s)')).toBeVisible();

  // Read what the screen shows, then export.
  const screen = new Map<string, { count: number; amount: string }>();
  for (const c of RECONCILE_CATEGORIES) {
    screen.set(c, { count: Number((await page.getByTestId(`count-${c}`).textContent())?.replace(/,/g, '')), amount: (await page.getByTestId(`amount-${c}`).textContent()) ?? '' });
  }
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export report (Excel)' }).click();
  const saved = path.join(vendesk.dataDir, 'downloaded.xlsx');
  await (await download).saveAs(saved);

  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(saved);
  const summary = workbook.getWorksheet('Summary');
  expect(summary).toBeDefined();
  const found = new Map<string, { count: number; amount: number }>();
  summary?.eachRow((row) => {
    if (row.getCell(1).value === 'Categories') found.set(String(row.getCell(2).value), { count: Number(row.getCell(3).value), amount: Number(row.getCell(4).value) });
  });
  for (const c of RECONCILE_CATEGORIES) {
    const s = screen.get(c);
    const w = found.get(CATEGORY_LABELS[c]);
    expect(w?.count, c).toBe(s?.count);
    expect(formatNaira(Math.round((w?.amount ?? NaN) * 100)), c).toBe(s?.amount);
  }
  expect(workbook.worksheets.map((w) => w.name)).toEqual(['Summary', 'Matched', 'Missing locally', 'Missing in export', 'Amount mismatch', 'Pending']);
  expect(workbook.getWorksheet('Missing in export')?.getRow(2).getCell(21).value).toBe('Vendor confirmed the export was cut short');

  // The run is in the history and reopens.
  await expect(page.getByRole('table', { name: 'Reconciliation runs' })).toContainText('export');
});
