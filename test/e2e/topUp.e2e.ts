/**
 * Airtime and data for one number through the real UI: check, confirm, receipt — the receipt's
 * reference and wallet cost are the service's own — and the same purchase again within 24 hours
 * only when the user says so.
 */
import { createBulkService } from '../../src/main/buying/bulkService';
import { sandboxLog, sandboxWalletKobo } from '../support/sandboxRecords';
import { expect, passTopUpSettlement, saveScreen, test } from './support/fixtures';

test('airtime and data for one number: checked, confirmed, bought once, with a receipt from the service’s records', async ({ page, vendesk }) => {
  const bulk = vendesk.app.service(createBulkService);
  bulk.timing = { ...bulk.timing, pollMs: 300, tickMs: 50 };
  const origin = vendesk.shell?.origin ?? '';
  const phone = '08031110022';
  // What the service logged for a number; once it holds `count` purchases, the service's clock moves
  // past the 5 s they stay PENDING (this test is about the receipt, not that wait).
  const logged = async (to: string) => (await sandboxLog(vendesk)).filter((e) => e.phone_number === to);
  const settled = (to: string, count: number) => passTopUpSettlement(vendesk.sandboxControl, async () => (await logged(to)).length, count);

  await page.goto(`${origin}/#/purchases`);
  await page.getByRole('tab', { name: 'Airtime and data' }).click();
  await page.getByLabel('Phone number').fill('0803 111 0022');
  await expect(page.getByText('MTN number (from its prefix)')).toBeVisible();
  await page.getByTestId('topup-amount-input').fill('1,500');
  await page.getByTestId('topup-check').click();
  const checked = page.getByTestId('topup-checked');
  await expect(checked).toContainText('Ready to buy');
  await expect(checked).toContainText('MTN airtime');
  await expect(checked).toContainText('₦1,500.00');
  await saveScreen(page, 'topup-form.png', { fullPage: true });

  await page.getByTestId('topup-review').click();
  const dialog = page.getByRole('dialog', { name: 'Confirm the airtime purchase' });
  await expect(dialog).toContainText(phone);
  await saveScreen(page, 'topup-confirm.png');
  const before = await sandboxWalletKobo(vendesk);
  await dialog.getByTestId('topup-buy').click();
  await settled(phone, 1);

  const receipt = page.getByTestId('topup-receipt');
  await expect(receipt.getByTestId('topup-state')).toHaveText('Successful');
  await expect(receipt.getByTestId('topup-status')).toContainText(`Delivered: ₦1,500.00 of MTN airtime to ${phone}.`);
  const entries = (await sandboxLog(vendesk)).filter((e) => e.phone_number === phone);
  expect(entries).toHaveLength(1);
  await expect(receipt.getByTestId('topup-reference')).toHaveText(entries[0].transaction_id);
  const paid = before - (await sandboxWalletKobo(vendesk));
  await expect(receipt.getByTestId('topup-cost')).toHaveText(`₦${(paid / 100).toLocaleString('en-NG', { minimumFractionDigits: 2 })}`);
  await expect(page.getByTestId('recent-topups')).toContainText(phone);
  await saveScreen(page, 'topup-receipt.png', { fullPage: true });

  // The same number and amount again: said, and bought only once the user ticks "Buy it again anyway".
  await page.getByTestId('buy-another').click();
  await page.getByLabel('Phone number').fill(phone);
  await page.getByTestId('topup-amount-input').fill('1500');
  await page.getByTestId('topup-check').click();
  await expect(page.getByTestId('topup-recent')).toContainText(`₦1,500.00 of airtime was already bought for ${phone} in the last 24 hours`);
  await expect(page.getByTestId('topup-review')).toBeDisabled();
  await saveScreen(page, 'topup-already-bought.png', { fullPage: true });
  await page.getByTestId('topup-again').check();
  await page.getByTestId('topup-review').click();
  await page.getByRole('dialog').getByTestId('topup-buy').click();
  await settled(phone, 2);
  await expect(page.getByTestId('topup-receipt').getByTestId('topup-state')).toHaveText('Successful');
  expect((await sandboxLog(vendesk)).filter((e) => e.phone_number === phone)).toHaveLength(2);

  // A data plan, chosen from the number's network.
  await page.getByTestId('buy-another').click();
  await page.getByTestId('topup-kind').getByText('Data').click();
  await page.getByLabel('Phone number').fill('08031110033');
  await page.getByTestId('topup-plan').click();
  await page.getByRole('option', { name: /MTN 1GB Weekly Plan - 7 days/ }).click();
  await page.getByTestId('topup-check').click();
  await expect(page.getByTestId('topup-checked')).toContainText('₦800.00');
  await page.getByTestId('topup-review').click();
  await page.getByRole('dialog', { name: 'Confirm the data purchase' }).getByTestId('topup-buy').click();
  await settled('08031110033', 1);
  const dataReceipt = page.getByTestId('topup-receipt');
  await expect(dataReceipt.getByTestId('topup-state')).toHaveText('Successful');
  await expect(dataReceipt).toContainText('MTN 1GB Weekly Plan - 7 days');
  await saveScreen(page, 'topup-data-receipt.png', { fullPage: true });
  const [dataEntry] = (await sandboxLog(vendesk)).filter((e) => e.phone_number === '08031110033');
  expect(dataEntry).toMatchObject({ type: 'DATA', status: 'SUCCESS' });
});
