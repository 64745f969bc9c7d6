/**
 * The summaries around vendesk's own purchases, as a finance officer sees them (issue 24): right
 * after buying (no sync), the Dashboard's "Spent today" and the Transactions totals hold the
 * purchases, the refunded one stated apart; the bulk preview estimates the wallet charge. Each
 * page is saved at 1440 and 1024 px wide, light and dark, to be looked at.
 */
import ExcelJS from 'exceljs';
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import { formatNaira } from '../../src/shared/money';
import { serviceLog, serviceSpend } from '../support/serviceSpend';
import type { TestApp } from '../support/testApp';
import { test, expect, lagosDay, passTopUpSettlement, saveEveryLook, saveScreen, setTheme, WIDE_SCREEN } from './support/fixtures';

// Every test has its own app, data folder and port, and its own screenshot names.
test.describe.configure({ mode: 'parallel' });

test.use({ appOptions: { seedHistory: 120 } });

/**
 * Buys airtime as the window does (the call waits for the service's outcome); once the service has
 * logged it, its clock moves past the 5 s accepted airtime stays PENDING: this file is about the
 * figures, not that wait.
 */
async function buyAirtime(vendesk: TestApp, phone: string, amountKobo: number): Promise<void> {
  const logged = async () => (await serviceLog(vendesk)).length;
  const before = await logged();
  const buying = vendesk.call('purchases.buyTopUp', { kind: 'airtime', phone, amountKobo, repeat: false });
  buying.catch(() => undefined); // its failure is thrown below, where it is awaited
  await passTopUpSettlement(vendesk.sandboxControl, logged, before + 1);
  await buying;
}

test('spend follows each purchase at once, refunds apart, in Lagos days; the bulk preview estimates the wallet charge', async ({ page, vendesk }) => {
  test.setTimeout(180_000);
  await vendesk.call('sync.run', {});
  await buyAirtime(vendesk, '08031110001', 150_000);
  await buyAirtime(vendesk, '08031239999', 50_000); // FAILED: refunded

  // Today on the service's own clock, the one the Dashboard reads (not this computer's).
  const today = lagosDay((await vendesk.sandboxControl.clock()).now);
  const log = await serviceLog(vendesk);
  const spent = serviceSpend(log, (e) => e.status !== 'FAILED' && lagosDay(e.created_at) === today);
  const refunded = serviceSpend(log, (e) => e.status === 'FAILED' && lagosDay(e.created_at) === today);

  await page.goto(`${vendesk.shell?.origin}/#/dashboard`);
  await expect(page.getByTestId('spend-today-cost')).toHaveText(formatNaira(spent.costKobo));
  await expect(page.getByTestId('spend-today-refunded')).toContainText(`refunded ${formatNaira(refunded.costKobo)}`);
  await expect(page.getByTestId('spend-today')).toContainText('Lagos day');
  await saveEveryLook(page, 'issue24-dashboard', () => expect(page.getByTestId('spend-today-cost')).toHaveText(formatNaira(spent.costKobo)));

  await page.goto(`${vendesk.shell?.origin}/#/transactions`);
  await setTheme(page, 'light');
  const all = serviceSpend(log, (e) => e.status !== 'FAILED');
  const allRefunded = serviceSpend(log, (e) => e.status === 'FAILED');
  await expect(page.getByTestId('totals-cost')).toHaveText(formatNaira(all.costKobo));
  await expect(page.getByTestId('totals-refunded')).toHaveText(formatNaira(allRefunded.costKobo));
  await expect(page.getByText(`Refunded (${allRefunded.purchases}), not counted`)).toBeVisible();
  await saveEveryLook(page, 'issue24-transactions', () => expect(page.getByTestId('totals-cost')).toHaveText(formatNaira(all.costKobo)));
  // A refunded row's detail: charged, then refunded; no commission earned.
  await setTheme(page, 'light');
  await page.setViewportSize(WIDE_SCREEN);
  await page.getByText('08031239999').first().click();
  await expect(page.getByTestId('tx-detail')).toContainText('Charged, then refunded');
  await saveScreen(page, 'issue24-failed-detail-1440-light.png');
  await page.keyboard.press('Escape');

  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-shots-')), 'Staff airtime.xlsx');
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Staff');
  ws.addRow(['Name', 'Phone', 'Network', 'Amount']);
  for (let i = 0; i < 6; i++) ws.addRow([`Staff ${i + 1}`, `0803456${String(1000 + i)}`, 'MTN', 2500]);
  await wb.xlsx.writeFile(file);
  for (const scheme of ['light', 'dark'] as const) {
    await page.goto(`${vendesk.shell?.origin}/#/purchases`);
    await setTheme(page, scheme);
    await page.locator('input[type=file]').setInputFiles(file);
    await expect(page.getByTestId('preview-expected-cost')).toContainText('Face value ₦15,000.00');
    await expect(page.getByTestId('preview-wallet-after')).toContainText('estimate');
    await saveScreen(page, `issue24-bulk-preview-1440-${scheme}.png`);
  }
});

test('a purchase at 00:30 in Lagos stays in that day’s From/To filter, shown at 00:30', async ({ page, vendesk }) => {
  // The service's clock to the next 23:30 UTC: 00:30 of the next day in Lagos.
  const DAY = 86_400_000;
  const now = Date.parse((await vendesk.sandboxControl.clock()).now);
  let target = Math.floor(now / DAY) * DAY + 23.5 * 3_600_000;
  if (target <= now + 60_000) target += DAY;
  await vendesk.sandboxControl.advanceClock(Math.ceil((target - now) / 1000) + 5);
  await buyAirtime(vendesk, '08031230001', 150_000);
  const entry = (await serviceLog(vendesk)).find((e) => e.phone_number === '08031230001');
  expect(entry?.created_at.slice(11, 16)).toBe('23:30');
  const lagos = new Date(target + DAY).toISOString().slice(0, 10);
  const typed = `${lagos.slice(8, 10)}/${lagos.slice(5, 7)}/${lagos.slice(0, 4)}`;

  await page.goto(`${vendesk.shell?.origin}/#/transactions`);
  await page.getByTestId('filter-from').fill(typed);
  await page.getByTestId('filter-to').fill(typed);
  await page.getByTestId('filter-to').blur();
  await expect(page.getByTestId('totals-count')).toHaveText('1');
  await expect(page.getByTestId('tx-row')).toHaveCount(1);
  await expect(page.getByTestId('tx-row')).toContainText(', 00:30');
  await saveScreen(page, 'issue24-transactions-lagos-day-filter.png');
});
