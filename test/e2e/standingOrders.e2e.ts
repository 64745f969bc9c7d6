/**
 * The Standing orders page end to end: an order made from a spreadsheet in the window (the bulk
 * import, the creator's one confirmation with the per-run total), the sandbox's clock moved to
 * its day, the run bought once and its bulk job opened from the order; then the next run missed
 * beyond its grace period waits with Run now, and Run now buys it. Figures are checked against the
 * service's own log. The page, with an order, a run and a waiting run, passes the accessibility
 * scan and is saved light and dark at 1440 and 1024 px.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { daysFromTo, formatDay, shiftDay } from '../../src/shared/localDates';
import { serviceLog } from '../support/serviceSpend';
import { violations } from './support/axe';
import { expect, lagosDay, passTopUpSettlement, saveScreen, SCREEN_SIZES, setTheme, test } from './support/fixtures';

const DAY_SECONDS = 86_400;

/** The staff allowance sheet as a finance officer keeps it: three lines, ₦3,500 in all. */
function allowanceSheet(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-standing-e2e-'));
  const file = path.join(dir, 'Staff airtime allowance.csv');
  fs.writeFileSync(file, ['Name,Phone,Amount', 'Adaeze Okafor,08031234501,1000', 'Bola Ade,08031234502,500', 'Chinedu Eze,08031234503,2000', ''].join('\n'));
  return file;
}

test('an order made from a sheet runs on its day, links its job, and a run missed beyond grace waits with Run now', async ({ page, vendesk }) => {
  test.setTimeout(240_000);
  const control = vendesk.sandboxControl;
  const today = lagosDay((await control.clock()).now);
  // Monthly, three days from today on the service's clock; bought on the day even on a weekend.
  const firstDue = shiftDay(today, 3);
  const dayOfMonth = Number(firstDue.slice(8));

  await page.goto(`${vendesk.shell!.origin}/#/standing`);
  await expect(page.getByRole('heading', { name: 'Standing orders', level: 1 })).toBeVisible();
  await expect(page.getByText('No standing order yet.')).toBeVisible();
  await page.getByRole('button', { name: 'New standing order' }).click();
  await page.getByRole('textbox', { name: 'Name' }).fill('Staff airtime allowance');
  await page.getByRole('textbox', { name: 'Day of the month' }).fill(String(dayOfMonth));
  await page.getByRole('combobox', { name: 'When the day is a Saturday or Sunday' }).click();
  await page.getByRole('option', { name: 'Buy on the day itself' }).click();
  await page.locator('input[type=file]').setInputFiles(allowanceSheet());

  // The creator's one confirmation: the rows and the total of each run, the first date.
  await expect(page.getByRole('heading', { name: 'Confirm the standing order “Staff airtime allowance”' })).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('draft-per-run')).toContainText('₦3,500.00');
  await expect(page.getByTestId('draft-sentence')).toContainText('3');
  await expect(page.getByText(formatDay(firstDue)).first()).toBeVisible();
  await saveScreen(page, 'standing-confirm-light-1440.png', { fullPage: true });
  await page.getByRole('button', { name: 'Confirm: ₦3,500.00 each run' }).click();

  // The order: active, its next run on its day, nothing bought yet.
  await expect(page.getByTestId('order-state')).toHaveText('Active');
  await expect(page.getByTestId('order-next')).toContainText(formatDay(firstDue));
  await expect(page.getByTestId('order-per-run')).toContainText('₦3,500.00');
  expect(await serviceLog(vendesk)).toHaveLength(0);

  // The service's clock reaches the order's day: the run is bought, once.
  await control.advanceClock(3 * DAY_SECONDS);
  await page.getByRole('button', { name: 'Back to the orders' }).click();
  await page.getByRole('button', { name: 'Run what is due now' }).click();
  await expect(page.getByTestId('run-due-summary')).toContainText(`Staff airtime allowance, ${formatDay(firstDue)}`);
  await passTopUpSettlement(control, async () => (await serviceLog(vendesk)).length, 3);
  const bought = await serviceLog(vendesk);
  expect(bought.map((e) => e.phone_number.slice(-4)).sort()).toEqual(['4501', '4502', '4503']);

  // Its job is linked from the order's last run, and opens with the three rows bought.
  const row = page.getByTestId('order-row').filter({ hasText: 'Staff airtime allowance' });
  await expect(row).toContainText(formatDay(firstDue));
  await row.getByTestId('run-job-link').click();
  await expect(page.getByTestId('job-state')).toHaveText('Finished', { timeout: 60_000 });
  await expect(page.getByTestId('count-success')).toContainText('3');
  await page.getByRole('button', { name: 'Back to the standing orders' }).click();

  // The next run falls while nobody runs vendesk, and its grace period (3 days) passes too.
  const next = (await vendesk.call('standing.list', {}))[0]!.next!.dueDay;
  expect(next > firstDue).toBe(true);
  const now = lagosDay((await control.clock()).now);
  await control.advanceClock((daysFromTo(now, next) - 1 + 4) * DAY_SECONDS);
  await page.getByRole('button', { name: 'Run what is due now' }).click();
  const waiting = page.getByTestId('waiting-occurrence').filter({ hasText: formatDay(next) });
  await expect(waiting).toBeVisible();
  await expect(waiting).toContainText('Missed');
  // Nothing was bought for it: it waits for a person.
  expect(await serviceLog(vendesk)).toHaveLength(3);

  // The page as a finance officer sees it, in both themes and both sizes: no accessibility problem.
  for (const scheme of ['light', 'dark'] as const) {
    for (const size of SCREEN_SIZES) {
      await page.setViewportSize(size);
      await setTheme(page, scheme);
      await expect(page.getByTestId('waiting-occurrence').filter({ hasText: formatDay(next) })).toBeVisible();
      await expect(page.getByTestId('order-row')).toHaveCount(1);
      await saveScreen(page, `standing-page-${scheme}-${size.width}.png`, { fullPage: true });
      expect(await violations(page)).toEqual([]);
    }
  }

  // Run now: the missed run is bought, once, and it is the order's last run with its job.
  await page
    .getByTestId('waiting-occurrence')
    .filter({ hasText: formatDay(next) })
    .getByRole('button', { name: 'Run now' })
    .click();
  await expect(page.getByTestId('waiting-occurrence')).toHaveCount(0);
  await passTopUpSettlement(control, async () => (await serviceLog(vendesk)).length, 6);
  await expect(row).toContainText(formatDay(next));
  await page.getByRole('button', { name: 'Open the standing order Staff airtime allowance' }).click();
  await expect(page.getByTestId('run-row')).toHaveCount(2);
  await expect(
    page
      .getByTestId('run-row')
      .filter({ hasText: formatDay(next) })
      .getByTestId('run-job-link'),
  ).toBeVisible();
  await saveScreen(page, 'standing-order-dark-1024.png', { fullPage: true });
  expect(await violations(page)).toEqual([]);
});
