/**
 * Issue 38, finding 10: "Requery now" and "Check all now" are pressable as soon as a purchase waits,
 * as `vendesk requery` is usable at once. Before the service answers (2 min 1 s after the purchase)
 * pressing asks nothing — a tripwire fault at the service stays untouched — and the page says from
 * when it answers; once it answers, pressing asks at once, even while vendesk's own back-off would
 * wait, and the figures come from the service's answer (its log says SUCCESS).
 */
import { createPendingScheduler, createServiceClock } from '../../src/main/pending';
import { serviceLog } from '../support/serviceSpend';
import { expect, NARROW_SCREEN, pageSettled, saveScreen, SCREEN_SIZES, setTheme, test, watchLoads, WIDE_SCREEN } from './support/fixtures';
import { receiptOf } from '../support/receiptOf';

test('Requery now and Check all now ask at once when the service answers, and say when it will before then', async ({ page, vendesk }) => {
  test.setTimeout(180_000);
  watchLoads(page);
  vendesk.app.service(createPendingScheduler).pause();
  const token = await receiptOf(vendesk.call('purchases.buyElectricity', { disco: 'IKEDC', meter: '45000770000', vendType: 'PREPAID', amountKobo: 250_000, phone: '08031234567' }));
  const stuck = await receiptOf(vendesk.call('purchases.buyElectricity', { disco: 'IKEDC', meter: '45000772222', vendType: 'PREPAID', amountKobo: 260_000, phone: '08031234567' }));
  expect([token.state, stuck.state]).toEqual(['pending', 'pending']);

  await page.goto(`${vendesk.shell!.origin}/#/pending`);
  const rowOf = (meter: string) => page.getByTestId('pending-table').getByRole('row').filter({ hasText: meter });
  const first = rowOf('45000770000');
  await expect(first.getByTestId('pending-countdown')).toContainText(/in [12]:\d\d/);

  // A tripwire: the next requery the service receives fails. Nothing pressed before 2 min 1 s reaches it.
  await vendesk.sandboxControl.addFault({ path: '/requeryTransaction', status: 502, count: 1 });
  const requery = first.getByTestId('requery-now');
  await expect(requery).toBeEnabled();
  await requery.hover();
  await expect(page.getByRole('tooltip')).toContainText(
    /^The service answers a requery from 2 min 1 s after the purchase \(\d\d:\d\d\), in [12]:\d\d: vendesk asks it then by itself$/,
  );
  await requery.click();
  const outcome = page.getByTestId('requery-outcome');
  await expect(outcome).toContainText(
    /Not asked yet: the service answers a requery of this purchase from \d\d:\d\d, 2 min 1 s after the purchase\. vendesk asks it then by itself/,
  );
  await expect(first.getByTestId('pending-attempts')).toHaveText('0');

  const checkAll = page.getByTestId('check-all-now');
  await expect(checkAll).toHaveText('Check all now (2)');
  // Pressed in each theme (a theme is chosen by reloading the page), each look saved with its answer.
  for (const scheme of ['light', 'dark'] as const) {
    await setTheme(page, scheme);
    await checkAll.click();
    await expect(outcome).toContainText('Not asked yet: the service answers a requery of these 2 purchases from 2 min 1 s after each purchase');
    await pageSettled(page);
    for (const size of SCREEN_SIZES) {
      await page.setViewportSize(size);
      await saveScreen(page, `i38-pending-not-yet-${size.width}-${scheme}.png`, { fullPage: true });
    }
  }
  expect(await vendesk.sandboxControl.faults()).toEqual([expect.objectContaining({ path: '/requeryTransaction', remaining: 1 })]);
  await vendesk.sandboxControl.clearFaults();
  await setTheme(page, 'light');

  // The service answers from 2 min 1 s: both clocks move past it, and the buttons ask at once.
  await vendesk.sandboxControl.advanceClock(125);
  vendesk.app.service(createServiceClock).advance(125_000);
  await rowOf('45000772222').getByTestId('requery-now').click();
  await expect(rowOf('45000772222').getByTestId('pending-attempts')).toHaveText('1');
  // Still pending: vendesk's own next check is a minute away, but the service answers now.
  await expect(rowOf('45000772222').getByTestId('pending-countdown')).toContainText(/in [01]:\d\d/);
  await rowOf('45000772222').getByTestId('requery-now').hover();
  await expect(page.getByRole('tooltip')).toContainText(/^Ask the service now\. Checked 1 time and still pending/);
  await rowOf('45000772222').getByTestId('requery-now').click();
  await expect(rowOf('45000772222').getByTestId('pending-attempts')).toHaveText('2');

  await page.getByTestId('check-all-now').click();
  await expect(outcome).toContainText('Asked about 2 purchases: 1 succeeded, 1 still pending.');
  const reference = token.reference ?? 'none';
  const entry = (await serviceLog(vendesk)).find((e) => reference.includes(e.transaction_id) || e.transaction_id.includes(reference));
  expect(entry?.status).toBe('SUCCESS');
  await expect(page.getByTestId('pending-count')).toHaveText('1');
  await page.setViewportSize(WIDE_SCREEN);
  await saveScreen(page, 'i38-pending-asked-1440-light.png', { fullPage: true });
  // In a narrow window every row's buttons are in view, not past the table's edge.
  await page.setViewportSize(NARROW_SCREEN);
  const card = (await page.getByTestId('pending-table').locator('xpath=ancestor::div[contains(@class, "mantine-Card-root")][1]').boundingBox())!;
  const button = (await rowOf('45000772222').getByTestId('requery-now').boundingBox())!;
  expect(button.x + button.width, `the button ends at ${button.x + button.width} px, the card at ${card.x + card.width} px`).toBeLessThanOrEqual(card.x + card.width + 0.5);
  expect(card.x + card.width).toBeLessThanOrEqual(NARROW_SCREEN.width);
});
