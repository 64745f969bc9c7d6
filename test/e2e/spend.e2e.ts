/**
 * Spend end to end, in the light theme: the Dashboard's spend shows the face value and the wallet
 * cost the service logged, and the Transactions page's "Spend report…" writes the workbook, says
 * where it went with both totals, and the downloaded workbook holds them as numbers.
 */
import ExcelJS from 'exceljs';
import { dayFirstText } from '../../src/shared/localDates';
import { formatNaira } from '../../src/shared/money';
import { serviceLog, serviceSpend } from '../support/serviceSpend';
import { test, expect, lagosDay, saveScreen } from './support/fixtures';
import { receiptOf } from '../support/receiptOf';

test('the dashboard shows face value and wallet cost, and the spend report is one button away', async ({ page, vendesk }) => {
  const client = vendesk.app.client();
  const mtn = (await client.airtimeCatalog()).find((p) => p.network === 'MTN');
  if (!mtn) throw new Error('no MTN airtime in the sandbox catalog');
  const phones: [string, number][] = [
    ['08031110001', 1500],
    ['08031110002', 2700],
    ['08031239999', 500],
  ];
  await client.purchaseAirtime(
    phones.map(([phoneNumber, amount]) => ({ phoneNumber, amount, network: 'MTN', productCode: mtn.productCode, operator: mtn.operator, region: mtn.region })),
  );
  await receiptOf(vendesk.call('purchases.buyElectricity', { disco: 'IKEDC', meter: '45011112345', vendType: 'PREPAID', amountKobo: 5_200_50, phone: '08031234567' }));
  await vendesk.sandboxControl.advanceClock(6);

  await page.goto(vendesk.shell!.origin + '/#/dashboard');
  await page.getByRole('button', { name: 'Sync now' }).first().click();
  // "Today" is the Lagos day (UTC+1): an entry's day is its time plus an hour.
  // Today on the service's own clock, the one the Dashboard reads (not this computer's).
  const today = lagosDay((await vendesk.sandboxControl.clock()).now);
  const log = await serviceLog(vendesk);
  const spentToday = serviceSpend(log, (e) => (e.status === 'SUCCESS' || e.status === 'PENDING') && lagosDay(e.created_at) === today);
  expect(spentToday.purchases).toBe(3);
  await expect(page.getByTestId('spend-today-face')).toHaveText(formatNaira(spentToday.faceKobo));
  await expect(page.getByTestId('spend-today-cost')).toHaveText(formatNaira(spentToday.costKobo));
  await expect(page.getByTestId('spend-30-days')).toContainText(`Face value ${formatNaira(spentToday.faceKobo)}`);
  await expect(page.getByTestId('spend-30-days')).toContainText(`Wallet cost ${formatNaira(spentToday.costKobo)}`);
  await expect(page.getByTestId('spend-chart')).toBeVisible();
  await saveScreen(page, 'dashboard-spend.png', { fullPage: true });
  await page.getByTestId('spend-chart-measure').getByText('Wallet cost').click();
  await saveScreen(page, 'dashboard-spend-wallet-cost.png', { fullPage: true });

  await page.goto(vendesk.shell!.origin + '/#/transactions');
  await expect(page.getByTestId('totals-count')).toHaveText('4');
  await expect(page.getByRole('button', { name: 'Spend report…' })).toBeVisible();
  await saveScreen(page, 'transactions-spend-report-button.png');

  await page.getByRole('button', { name: 'Spend report…' }).click();
  const monthStart = `${today.slice(0, 8)}01`;
  // Shown day first, as they are typed.
  await expect(page.getByTestId('spend-report-from')).toHaveValue(dayFirstText(monthStart));
  await expect(page.getByTestId('spend-report-to')).toHaveValue(dayFirstText(today));
  const downloadPromise = page.waitForEvent('download');
  await page.getByTestId('spend-report-write').click();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toMatch(/^Spend .*\.xlsx$/);

  // What left the wallet: successful and pending purchases of the Lagos days; the failed one was refunded and is not counted.
  const successful = serviceSpend(log, (e) => e.status !== 'FAILED' && lagosDay(e.created_at) >= monthStart && lagosDay(e.created_at) <= today);
  await expect(page.getByTestId('spend-report-totals')).toHaveText(`Face value ${formatNaira(successful.faceKobo)} · Wallet cost ${formatNaira(successful.costKobo)}`);
  await expect(page.getByTestId('spend-report-path')).toContainText(download.suggestedFilename());
  await saveScreen(page, 'transactions-spend-report-written.png');

  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(await download.path());
  const summary = workbook.getWorksheet('Summary');
  expect(summary?.getCell('A4').value).toBe('Successful and pending purchases');
  expect(summary?.getCell('C4').value).toBe(successful.purchases);
  expect(summary?.getCell('D4').value).toBe(successful.faceKobo / 100);
  expect(summary?.getCell('E4').value).toBe(successful.costKobo / 100);
  expect(summary?.getCell('D4').numFmt).toContain('₦');

  // The days the report proposes are the service's, not this computer's: once the service's clock
  // is in another month (and vendesk has heard from it), "this month" is that month.
  await page.getByRole('dialog').getByRole('button', { name: 'Close', exact: true }).last().click();
  await vendesk.sandboxControl.advanceClock(40 * 86_400);
  await vendesk.call('account.balance', {});
  const later = lagosDay((await vendesk.sandboxControl.clock()).now);
  expect(later.slice(0, 7)).not.toBe(today.slice(0, 7));
  await page.getByRole('button', { name: 'Spend report…' }).click();
  await expect(page.getByTestId('spend-report-from')).toHaveValue(dayFirstText(`${later.slice(0, 8)}01`));
  await expect(page.getByTestId('spend-report-to')).toHaveValue(dayFirstText(later));
});
