/**
 * Issue 38, findings 1 and 6, in the browser window:
 * - a mirror filled by a sync of one day only: Transactions and the Dashboard say which days they
 *   leave out, with a button that reads them; once read, the notice goes and the totals are the
 *   service's own;
 * - the last sync failed (the service went away): the header says "Last sync failed …" with what
 *   the figures were read up to, never "Synced just now", and so does the Dashboard's chart line.
 * Days come from the sandbox's clock; screenshots of the failed header, light theme, at 1440 and
 * 1024 px, go to .tmp/screens.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { formatNaira } from '../../src/shared/money';
import { dayFirstText, shiftDay } from '../../src/shared/localDates';
import type { LogEntry } from '../../src/shared/wire';
import { sandboxLog } from '../support/sandboxRecords';
import { startTestApp } from '../support/testApp';
import { expect, lagosDay, NARROW_SCREEN, saveScreen, SCREENS_DIR, setTheme, test, WIDE_SCREEN } from './support/fixtures';

/** The header strip (and the page title under it), as a person sees it at this width. */
async function saveHeader(page: Page, name: string): Promise<void> {
  const width = page.viewportSize()?.width ?? 1440;
  fs.mkdirSync(SCREENS_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENS_DIR, name), animations: 'disabled', clip: { x: 0, y: 0, width, height: 140 } });
}

test('days the mirror has not read: Transactions and the Dashboard say which, and a button reads them', async ({ page }) => {
  const vendesk = await startTestApp({ seedHistory: 600, web: true });
  try {
    const shell = vendesk.shell!;
    const today = lagosDay((await vendesk.sandboxControl.clock()).now);
    const day = shiftDay(today, -10);
    // As the README's nightly recipe starts a fresh data folder: one day only.
    await vendesk.call('sync.run', { from: day, to: day });
    await page.goto(shell.openUrl);
    await page.goto(`${shell.origin}/#/transactions`);
    const notice = page.getByTestId('unread-days');
    await expect(notice).toContainText('The totals and rows of the whole log leave out the part of the log vendesk has not read');
    await expect(notice).toContainText('vendesk sync');

    const [from, to] = [shiftDay(today, -20), shiftDay(today, -2)];
    await page.getByTestId('filter-from').fill(dayFirstText(from));
    await page.getByTestId('filter-to').fill(dayFirstText(to));
    await page.getByTestId('filter-to').blur();
    await expect(notice).toHaveAttribute('data-missing-days', '18');
    await expect(notice).toContainText('These totals and rows leave out 18 days vendesk has not read from the service');
    await expect(notice).toContainText(`vendesk sync --from ${from} --to ${to}`);
    await saveScreen(page, 'transactions-unread-days.png', { fullPage: true });

    await page.getByTestId('unread-days-read').click();
    await expect(notice).toHaveCount(0, { timeout: 30_000 });
    const inRange = ((await sandboxLog(vendesk)) as unknown as LogEntry[]).filter((e) => {
      const d = lagosDay(e.created_at);
      return d >= from && d <= to;
    });
    const spentKobo = inRange.filter((e) => e.status !== 'FAILED').reduce((sum, e) => sum + Math.round(Number(e.amount.replace(/[^\d.]/g, '')) * 100), 0);
    await expect(page.getByTestId('totals-count')).toHaveText(inRange.length.toLocaleString('en-NG'));
    await expect(page.getByTestId('totals-amount')).toHaveText(formatNaira(spentKobo));

    // The Dashboard's month and 30 days: the days before the range were never read.
    await page.goto(`${shell.origin}/#/dashboard`);
    const dashboardNotice = page.getByTestId('unread-days');
    await expect(dashboardNotice).toContainText('Some of these figures leave out');
    await expect(page.getByTestId('spend-chart-incomplete')).toContainText('not read (see above)');
    await saveScreen(page, 'dashboard-unread-days.png', { fullPage: true });
    await page.getByTestId('unread-days-read').click();
    await expect(dashboardNotice).toHaveCount(0, { timeout: 30_000 });
    await expect(page.getByTestId('spend-chart-incomplete')).toHaveCount(0);
    await expect(page.getByTestId('spend-month-incomplete')).toHaveCount(0);
  } finally {
    await vendesk.close();
  }
});

test('the header and the chart tell a failed sync, never "Synced just now"', async ({ page, vendesk }) => {
  await setTheme(page, 'light');
  await page.goto(`${vendesk.shell!.origin}/#/transactions`);
  await page.getByRole('button', { name: 'Sync now' }).click();
  const badge = page.getByTestId('auto-sync');
  await expect(badge).toHaveText(/Synced just now/, { timeout: 20_000 });

  // The service goes away; Sync now cannot reach it.
  await vendesk.sandbox.close();
  await page.getByRole('button', { name: 'Sync now' }).click();
  await expect(page.getByTestId('sync-line')).toContainText('Sync stopped', { timeout: 30_000 });
  await expect(badge).toHaveText(/Last sync failed just now/);
  await expect(badge).not.toHaveText(/Synced/);
  await expect(badge).toHaveAttribute('data-failed', 'true');
  await expect(page.getByTestId('auto-sync-read-up-to')).toHaveText(/· data read up to \d{2}:\d{2}/);
  await badge.hover();
  const tooltip = page.getByRole('tooltip');
  await expect(tooltip).toContainText('could not be reached');
  await expect(tooltip).toContainText('The figures show the transactions read up to');
  await expect(tooltip).toContainText('Press Sync now on Transactions to try again.');

  for (const size of [WIDE_SCREEN, NARROW_SCREEN]) {
    await page.setViewportSize(size);
    await page.mouse.move(size.width / 2, size.height - 10);
    await expect(tooltip).toHaveCount(0);
    await expect(badge).toContainText('Last sync failed');
    await saveHeader(page, `header-sync-failed-${size.width}.png`);
  }
  // At 1024 px the header keeps the words; what was read up to is in the tooltip.
  await expect(page.getByTestId('auto-sync-read-up-to')).toBeHidden();

  // A reload still tells it (it is kept, not only in this tab's memory), and so does the Dashboard's chart line.
  await page.setViewportSize(WIDE_SCREEN);
  await page.goto(`${vendesk.shell!.origin}/#/dashboard`);
  await expect(badge).toHaveText(/Last sync failed/);
  await expect(page.getByTestId('last-sync')).toContainText(/last sync failed (just now|\d+ min ago) — showing what was read up to/);
  await expect(page.getByTestId('last-sync')).not.toContainText('last synced');
  await expect(page.getByTestId('sync-line')).toContainText('Last sync failed');
  await saveScreen(page, 'dashboard-sync-failed.png');
});
