/**
 * Money boxes keep what was typed and refuse what they cannot read exactly: each bad form typed
 * into the electricity amount box shows its sentence, stays as typed, and buys nothing; a good
 * form buys exactly that amount, as the sandbox's own log and wallet show. The bulk caps use the
 * same box.
 */
import { sandboxLog, sandboxWalletKobo } from '../support/sandboxRecords';
import { nairaToKobo } from '../../src/shared/money';
import { expect, test, saveScreen } from './support/fixtures';

const METER = '45012341234';

const REFUSED: [typed: string, sentence: RegExp][] = [
  ['1e5', /Type the amount in full, like 100,000: vendesk does not read exponents such as 1e5\./],
  ['5k', /Type the amount in full, like 5,000 or 2,500,000: vendesk does not read 5k\./],
  ['5.000,00', /Use a point for kobo and commas between thousands, like 5,000\.00 \(not 5\.000,00\)\./],
  ['-5000', /An amount cannot be negative: type it without the minus sign, like 5,000\./],
  ['5000.555', /An amount has at most two digits after the point \(kobo\), like 5,000\.50\./],
  ['50,00', /Use a point for kobo and commas between thousands/],
  ['5,00,000', /Commas go between groups of three digits, like 5,000 or 1,250,000\.50\./],
  ['0', /Enter an amount above ₦0\./],
];

test('the electricity amount box refuses what it cannot read, keeps what was typed, and buys exactly what it can', async ({ page, vendesk }) => {
  const origin = vendesk.shell?.origin ?? '';
  await page.goto(`${origin}/#/purchases`);
  await page.getByRole('tab', { name: /Electricity/ }).click();
  await page.getByRole('combobox', { name: 'Electricity company (disco)' }).click();
  await page.getByRole('option', { name: /Ikeja Electric \(IKEDC\)/ }).click();
  await page.getByLabel('Meter number').fill(METER);
  await page.getByRole('button', { name: 'Check meter' }).click();
  await expect(page.getByTestId('meter-name')).not.toBeEmpty();
  await page.getByLabel('Customer phone').fill('08031234567');

  const amount = page.getByLabel('Amount (₦)');
  const review = page.getByTestId('electricity-review');
  const logBefore = (await sandboxLog(vendesk)).length;
  const walletBefore = await sandboxWalletKobo(vendesk);

  for (const [typed, sentence] of REFUSED) {
    await amount.fill(typed);
    await amount.blur();
    await expect(page.getByText(sentence)).toBeVisible();
    await expect(amount).toHaveValue(typed);
    await expect(amount).toHaveAttribute('aria-invalid', 'true');
    await expect(review).toBeDisabled();
    await expect(review).toHaveText('Review purchase');
    if (typed === '1e5') await saveScreen(page, 'money-electricity-refused.png', { fullPage: true });
  }
  // The message also comes when the user pauses without leaving the box.
  await amount.focus();
  await amount.fill('5k');
  await expect(page.getByText(/does not read 5k/)).toBeVisible();
  expect((await sandboxLog(vendesk)).length).toBe(logBefore);
  expect(await sandboxWalletKobo(vendesk)).toBe(walletBefore);

  await amount.fill('₦5,000.50');
  await amount.blur();
  await expect(amount).toHaveValue('₦5,000.50');
  await expect(amount).not.toHaveAttribute('aria-invalid', 'true');
  await expect(review).toHaveText('Review purchase of ₦5,000.50');
  await review.click();
  const dialog = page.getByRole('dialog', { name: 'Confirm the electricity purchase' });
  await expect(dialog).toContainText('₦5,000.50');
  await page.getByTestId('electricity-buy').click();
  await expect(page.getByTestId('purchase-receipt').getByTestId('receipt-state')).toHaveText('Successful');

  const bought = (await sandboxLog(vendesk)).filter((e) => e.description.includes(METER));
  expect(bought.map((e) => e.amount)).toEqual(['NGN 5,000.50']);
  const charged = (bought[0] as unknown as { transaction_cost: number }).transaction_cost;
  expect(walletBefore - (await sandboxWalletKobo(vendesk))).toBe(nairaToKobo(charged));
});

test('the bulk caps use the same box: 0 and 5k are refused, not turned into "no cap" or ₦5', async ({ page, vendesk }) => {
  await page.goto(`${vendesk.shell?.origin}/#/purchases`);
  await page.getByRole('button', { name: 'Limits for bulk jobs' }).click();
  const perJob = page.getByLabel('Cap per job (₦)');
  const save = page.getByRole('button', { name: 'Save limits' });
  await perJob.fill('0');
  await perJob.blur();
  await expect(page.getByText('Enter an amount above ₦0.')).toBeVisible();
  await expect(save).toBeDisabled();
  await perJob.fill('5k');
  await perJob.blur();
  await expect(page.getByText(/does not read 5k/)).toBeVisible();
  await expect(save).toBeDisabled();
  await saveScreen(page, 'money-bulk-cap-refused.png', { fullPage: true });
  await perJob.fill('25,000');
  await save.click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toContainText('Per job: ₦25,000.00; per day: no cap.');
  expect((await vendesk.call('bulk.settings.get', {})).capPerJobKobo).toBe(2_500_000);
});
