/**
 * Transactions end to end: purchases at the sandbox, a sync from the page, a filter, a search by
 * part of a phone number, and an export to XLSX whose rows and totals equal what the screen shows.
 */
import fs from 'node:fs';
import ExcelJS from 'exceljs';
import { test, expect, saveScreen } from './support/fixtures';

const PHONES = ['08031110001', '08031110002', '08052220003', '08031239999', '08064440005'];

test('sync, filter, search by part of a phone number, and export what the screen shows', async ({ page, vendesk }) => {
  const client = vendesk.app.client();
  const mtn = (await client.airtimeCatalog()).find((p) => p.network === 'MTN');
  if (!mtn) throw new Error('no MTN airtime in the sandbox catalog');
  await client.purchaseAirtime(
    PHONES.map((phoneNumber, i) => ({ phoneNumber, amount: 100 * (i + 1), network: 'MTN', productCode: mtn.productCode, operator: mtn.operator, region: mtn.region })),
  );
  await vendesk.sandboxControl.advanceClock(6);

  await page.goto(vendesk.shell!.origin + '/#/transactions');
  await page.getByRole('button', { name: 'Sync now' }).click();
  await expect(page.getByTestId('totals-count')).toHaveText('5', { timeout: 15_000 });
  await expect(page.getByTestId('tx-row')).toHaveCount(5);
  await fs.promises.mkdir('.tmp/screens', { recursive: true });
  await saveScreen(page, 'transactions.png', { fullPage: true });

  // Filter: successful only (the number ending 9999 failed and was refunded).
  await page.getByTestId('filter-status').click();
  await page.getByRole('option', { name: 'Successful' }).click();
  await expect(page.getByTestId('totals-count')).toHaveText('4');

  // Search by part of a phone number.
  await page.getByTestId('filter-search').fill('311100');
  await expect(page.getByTestId('totals-count')).toHaveText('2');
  await expect(page.getByTestId('tx-row')).toHaveCount(2);
  await expect(page.getByTestId('totals-amount')).toHaveText('₦300.00');
  const screenPhones = (await page.getByTestId('tx-row').allInnerTexts()).map((t) => /0\d{10}/.exec(t)?.[0]).sort();

  await page.getByTestId('tx-row').first().click();
  await expect(page.getByTestId('tx-detail')).toContainText('Partner reference');
  await saveScreen(page, 'transactions-detail.png', { fullPage: true });
  await page.keyboard.press('Escape');

  const downloadPromise = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export to Excel' }).click();
  const download = await downloadPromise;
  const file = await download.path();
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(file);
  // The workbook opens on its Summary; the rows are on the Transactions sheet; the Period sheet says what they cover.
  expect(workbook.worksheets.map((w) => w.name)).toEqual(['Summary', 'Transactions', 'Period']);
  expect(String(workbook.getWorksheet('Period')?.getRow(2).getCell(1).value)).toMatch(/^Period: /);
  const sheet = workbook.getWorksheet('Transactions');
  if (!sheet) throw new Error('no Transactions sheet');
  const headers = (sheet.getRow(1).values as unknown[]).slice(1);
  const phoneCol = headers.indexOf('Phone number') + 1;
  const amountCol = headers.indexOf('Amount') + 1;
  const rows = [] as { phone: string; amount: number }[];
  sheet.eachRow((row, n) => {
    if (n > 1) rows.push({ phone: String(row.getCell(phoneCol).value), amount: Number(row.getCell(amountCol).value) });
  });
  expect(rows.map((r) => r.phone).sort()).toEqual(screenPhones);
  expect(rows.reduce((sum, r) => sum + r.amount, 0)).toBe(300);
  expect(sheet.getRow(2).getCell(amountCol).numFmt).toContain('₦');

  await page.goto(vendesk.shell!.origin + '/#/dashboard');
  await expect(page.getByTestId('wallet-balance')).toContainText('₦');
  await expect(page.getByTestId('spend-today')).toContainText('₦');
  await saveScreen(page, 'dashboard.png', { fullPage: true });
  await page.goto(vendesk.shell!.origin + '/#/catalog');
  await expect(page.getByText('Product code').first()).toBeVisible();
  await saveScreen(page, 'catalog.png', { fullPage: true });
});
