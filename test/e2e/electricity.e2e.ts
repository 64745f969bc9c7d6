/**
 * Done-when of the pending loop, through the real UI: buy electricity for a meter ending 0000
 * (the sandbox answers "pending"), see it on the Pending page with a countdown, move the sandbox
 * clock (and vendesk's service clock) past 2 min 1 s, "Requery now", and read the token in the
 * receipt.
 */
import { createPendingScheduler, createServiceClock } from '../../src/main/pending';
import { expect, fillElectricityForm, test, saveScreen } from './support/fixtures';

test('an electricity purchase that goes pending is settled by requery and its token shows in the receipt', async ({ page, vendesk }) => {
  // The test moves the clocks itself; the automatic loop must not race it.
  vendesk.app.service(createPendingScheduler).pause();
  const origin = vendesk.shell?.origin ?? '';

  await page.goto(`${origin}/#/purchases`);
  await page.getByRole('tab', { name: /Electricity/ }).click();
  await fillElectricityForm(page, { meter: '45012340000', amount: '5000', phone: '0803 123 4567' });
  const customer = (await page.getByTestId('meter-name').textContent()) ?? '';
  await saveScreen(page, 'electricity-form.png', { fullPage: true });
  await page.getByTestId('electricity-review').click();
  await expect(page.getByRole('dialog', { name: 'Confirm the electricity purchase' })).toContainText(customer);
  await saveScreen(page, 'electricity-confirm.png');
  await page.getByTestId('electricity-buy').click();

  const receipt = page.getByTestId('purchase-receipt');
  await expect(receipt.getByTestId('receipt-state')).toHaveText('Pending');
  await expect(receipt.getByTestId('receipt-status')).toContainText('not confirmed yet');
  await saveScreen(page, 'electricity-pending-receipt.png', { fullPage: true });

  // The same purchase is refused while it is pending.
  await page.getByTestId('buy-another').click();
  await fillElectricityForm(page, { meter: '45012340000', amount: '5000', phone: '08031234567' });
  await page.getByTestId('electricity-review').click();
  await page.getByTestId('electricity-buy').click();
  await expect(page.getByRole('alert').filter({ hasText: 'is still pending' })).toContainText('Buying it again could charge twice');
  await saveScreen(page, 'electricity-duplicate-refused.png', { fullPage: true });

  await page.goto(`${origin}/#/pending`);
  await expect(page.getByRole('heading', { name: 'Pending', level: 1 })).toBeVisible();
  const row = page.getByTestId('pending-table').getByRole('row').filter({ hasText: '45012340000' });
  await expect(row.getByTestId('pending-state')).toHaveText('Pending');
  await expect(row.getByTestId('pending-countdown')).toContainText(/in [12]:\d\d/);
  // Pressable before the service answers: it then asks nothing and says when (requeryNow.e2e.ts).
  await expect(row.getByTestId('requery-now')).toBeEnabled();
  await expect(page.getByTestId('pending-count')).toHaveText('1');
  await saveScreen(page, 'pending-waiting.png', { fullPage: true });

  await vendesk.sandboxControl.advanceClock(125);
  vendesk.app.service(createServiceClock).advance(125_000);
  await expect(row.getByTestId('pending-countdown')).toHaveText('Due now');
  await expect(row.getByTestId('requery-now')).toBeEnabled();
  await saveScreen(page, 'pending-due.png', { fullPage: true });
  await row.getByTestId('requery-now').click();

  const settled = page.getByRole('dialog', { name: 'Receipt' }).getByTestId('purchase-receipt');
  await expect(settled.getByTestId('receipt-state')).toHaveText('Successful');
  await expect(settled.getByTestId('receipt-token')).toHaveText(/^\d{4}(-\d{4}){4}$/);
  await expect(settled.getByTestId('receipt-units')).toContainText('kWh');
  await expect(settled).toContainText(customer);
  await saveScreen(page, 'pending-settled-receipt.png', { fullPage: true });
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('pending-count')).toHaveText('0');
});
