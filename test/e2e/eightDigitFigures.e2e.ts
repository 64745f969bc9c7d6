/**
 * Issue 38, finding 7: a finance officer's month runs into eight digits of Naira (₦12,345,678.90),
 * and at 1024 px the Transactions totals and the Dashboard's cards must still show every figure
 * whole, in both themes. The figures come from purchases bought through the sandbox, and each is
 * checked against the service's own log before its box is measured: a figure is "not cut" when its
 * element is as wide as its text (scrollWidth ≤ clientWidth) and lies inside its card.
 */
import type { Locator, Page } from '@playwright/test';
import { formatNaira } from '../../src/shared/money';
import { createPendingScheduler } from '../../src/main/pending';
import { receiptOf } from '../support/receiptOf';
import { serviceLog, serviceSpend } from '../support/serviceSpend';
import { expect, lagosDay, NARROW_SCREEN, pageSettled, saveScreen, SCREEN_SIZES, setTheme, test, watchLoads } from './support/fixtures';

/** Twenty-four ₦500,000 tokens (the disco's most) and one of ₦345,678.90: ₦12,345,678.90 face value. */
const AMOUNTS_KOBO = [...Array.from({ length: 24 }, () => 50_000_000), 34_567_890];

/** How a figure sits in its card: cut when its text is wider than its box, or its box leaves the card. */
async function fitOf(figure: Locator, card: Locator): Promise<{ text: string; cut: boolean; why: string }> {
  const text = (await figure.textContent()) ?? '';
  const inner = await figure.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
  const box = (await figure.boundingBox())!;
  const frame = (await card.boundingBox())!;
  const outside = box.x < frame.x - 0.5 || box.x + box.width > frame.x + frame.width + 0.5;
  const wider = inner.scroll > inner.client;
  return {
    text,
    cut: wider || outside,
    why: `"${text}": text ${inner.scroll} px in a box of ${inner.client} px; box ${box.x.toFixed(0)}–${(box.x + box.width).toFixed(0)} in a card ${frame.x.toFixed(0)}–${(frame.x + frame.width).toFixed(0)}`,
  };
}

async function expectWhole(page: Page, figureTestId: string, cardOf: (figure: Locator) => Locator): Promise<void> {
  const figure = page.getByTestId(figureTestId);
  const fit = await fitOf(figure, cardOf(figure));
  expect(fit.cut, fit.why).toBe(false);
}

/**
 * The 30-day chart's labels: today's is there, and the days between two labels are the same all
 * along the axis (never 26 Nov, then 29 Nov, then 1 Dec).
 */
async function expectEvenDayLabels(page: Page, today: string): Promise<void> {
  const short = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });
  const days = Array.from({ length: 30 }, (_, i) => short.format(new Date(Date.parse(`${today}T00:00:00Z`) - (29 - i) * 86_400_000)));
  const ticks = page.locator('.recharts-xAxis-tick-labels .recharts-cartesian-axis-tick-value');
  await expect(ticks.last()).toHaveText(days[29]);
  const shown = (await ticks.allTextContents()).map((t) => days.indexOf(t.trim()));
  expect(shown.length, `labels ${shown.join(', ')}`).toBeGreaterThanOrEqual(5);
  expect(shown, 'every label is a day of the chart').not.toContain(-1);
  const steps = new Set(shown.slice(1).map((d, i) => d - shown[i]));
  expect([...steps], `days between labels: ${(await ticks.allTextContents()).join(', ')}`).toHaveLength(1);
}

/** The chart's amounts (its y axis) are whole: every label lies inside the chart, none cut at its left edge. */
async function expectAxisAmountsWhole(page: Page): Promise<void> {
  const chart = (await page.locator('.recharts-surface').first().boundingBox())!;
  const labels = page.locator('.recharts-yAxis-tick-labels .recharts-cartesian-axis-tick-value');
  await expect(labels.last()).toHaveText(/^₦[\d,]+$/);
  for (const label of await labels.all()) {
    const box = (await label.boundingBox())!;
    expect(box.x, `"${await label.textContent()}" starts ${(chart.x - box.x).toFixed(0)} px left of the chart`).toBeGreaterThanOrEqual(chart.x - 0.5);
  }
}

test('eight-digit totals are never cut at 1024 px: Transactions and the Dashboard, light and dark', async ({ page, vendesk }) => {
  test.setTimeout(240_000);
  watchLoads(page);
  vendesk.app.service(createPendingScheduler).pause();
  await vendesk.sandboxControl.setWallet(20_000_000);
  const today = lagosDay((await vendesk.sandboxControl.clock()).now);
  for (const [i, amountKobo] of AMOUNTS_KOBO.entries()) {
    const bought = await receiptOf(
      vendesk.call('purchases.buyElectricity', { disco: 'IKEDC', meter: `450077${String(i + 10).padStart(5, '0')}`, vendType: 'PREPAID', amountKobo, phone: '08031234567' }),
    );
    expect(bought.state).toBe('success');
  }
  await vendesk.call('sync.run', {});

  // The figures, as the service's own log states them.
  const log = await serviceLog(vendesk);
  const spent = serviceSpend(log, (e) => e.status !== 'FAILED');
  expect(spent.faceKobo).toBe(1_234_567_890);
  const month = serviceSpend(log, (e) => e.status !== 'FAILED' && lagosDay(e.created_at).slice(0, 7) === today.slice(0, 7));

  const origin = vendesk.shell!.origin;
  for (const scheme of ['light', 'dark'] as const) {
    for (const size of SCREEN_SIZES) {
      await page.setViewportSize(size);
      await page.goto(`${origin}/#/transactions`);
      await setTheme(page, scheme);
      await expect(page.getByTestId('totals-amount')).toHaveText('₦12,345,678.90');
      await expect(page.getByTestId('totals-cost')).toHaveText(formatNaira(spent.costKobo));
      await pageSettled(page);
      for (const id of ['totals-count', 'totals-amount', 'totals-cost', 'totals-commission', 'totals-refunded'])
        await expectWhole(page, id, (f) => f.locator('xpath=ancestor::div[contains(@class, "mantine-Card-root")][1]'));
      // Every card's label is whole too ("Refunded (0), not counted").
      for (const label of await page.getByTestId('totals').locator('.mantine-Card-root > p:first-child').all()) {
        expect(await label.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
      }
      await saveScreen(page, `i38-transactions-${size.width}-${scheme}.png`);

      await page.goto(`${origin}/#/dashboard`);
      await expect(page.getByTestId('spend-month-face')).toHaveText(formatNaira(month.faceKobo));
      await expect(page.getByTestId('spend-month-cost')).toHaveText(formatNaira(month.costKobo));
      await pageSettled(page);
      for (const id of ['spend-today-face', 'spend-today-cost', 'spend-week-face', 'spend-week-cost', 'spend-month-face', 'spend-month-cost', 'wallet-balance-figure'])
        await expectWhole(page, id, (f) => f.locator('xpath=ancestor::div[contains(@class, "mantine-Card-root")][1]'));
      await expectEvenDayLabels(page, today);
      await expectAxisAmountsWhole(page);
      await saveScreen(page, `i38-dashboard-${size.width}-${scheme}.png`, { fullPage: true });
    }
  }
  // The narrow window is the one the finding is about: its screenshots are the ones to look at.
  expect(NARROW_SCREEN.width).toBe(1024);
});
