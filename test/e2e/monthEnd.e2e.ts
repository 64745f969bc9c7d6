/**
 * Issue 41 in the browser window: the Month-end page shows last month's spend by cost centre as the
 * sandbox's own log has it, closes the month (the badge says who closed it) and writes the close
 * pack. Screenshots, light and dark, at 1440 and 1024 px, go to .tmp/screens.
 */
import { formatNaira } from '../../src/shared/money';
import type { LogEntry } from '../../src/shared/wire';
import { allLogEntries } from '../support/serviceLogEntries';
import { expect, NARROW_SCREEN, saveScreen, setTheme, test, WIDE_SCREEN } from './support/fixtures';

const LAGOS_MS = 3_600_000;

test.use({ appOptions: { seedHistory: 400 } });

test('the Month-end page shows last month by cost centre, closes it, and writes its close pack', async ({ page, vendesk }) => {
  // Last month in Lagos days, on the sandbox's clock.
  const now = new Date(Date.parse((await vendesk.sandboxControl.clock()).now) + LAGOS_MS);
  const start = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1) - LAGOS_MS;
  const end = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1) - LAGOS_MS;
  const month = new Date(start + LAGOS_MS).toISOString().slice(0, 7);
  const log = (await allLogEntries(vendesk.sandbox.url, vendesk.token)) as unknown as LogEntry[];
  const spentKobo = log
    .filter((e) => (e.status === 'SUCCESS' || e.status === 'PENDING') && Date.parse(e.created_at) >= start && Date.parse(e.created_at) < end)
    .reduce((s, e) => s + Math.round(e.transaction_cost * 100), 0);

  await page.goto(vendesk.shell!.origin + '/#/month-end');
  await page.getByTestId('month-end-month').click();
  await page.getByRole('option', { name: new RegExp(`^${month}`) }).click();
  await expect(page.getByTestId('month-end-spend')).toHaveText(formatNaira(spentKobo), { timeout: 60_000 });
  await expect(page.getByTestId('month-end-state')).toHaveText('Open');
  await expect(page.getByTestId('month-end-by-centre')).toContainText('Unassigned');

  await page.getByTestId('month-end-close').click();
  await page.getByTestId('month-end-close-confirm').click();
  await expect(page.getByTestId('month-end-state')).toContainText('Closed by');
  await page.getByTestId('month-end-pack').click();
  await expect(page.getByTestId('month-end-done')).toContainText('Close pack written');

  for (const scheme of ['light', 'dark'] as const) {
    await setTheme(page, scheme);
    for (const size of [WIDE_SCREEN, NARROW_SCREEN]) {
      await page.setViewportSize(size);
      await page.getByTestId('month-end-month').click();
      await page.getByRole('option', { name: new RegExp(`^${month}`) }).click();
      await expect(page.getByTestId('month-end-state')).toContainText('Closed by');
      await saveScreen(page, `month-end-${scheme}-${size.width}.png`, { fullPage: true });
    }
  }
});
