/**
 * A cable TV subscription through the real UI: pick the provider, check the smartcard, choose a
 * bouquet (its price is the amount), confirm, and read the receipt. Then a smartcard the sandbox
 * declines (ending 9999): the receipt says it failed and that the wallet was refunded.
 */
import { expect, test, saveScreen } from './support/fixtures';

test('a cable TV subscription is bought after the smartcard check, and a declined one says the wallet was refunded', async ({ page, vendesk }) => {
  const origin = vendesk.shell?.origin ?? '';
  await page.goto(`${origin}/#/purchases`);
  await page.getByRole('tab', { name: /Cable/ }).click();

  const checkSmartcard = async (smartcard: string) => {
    await page.getByRole('combobox', { name: 'Provider' }).click();
    await page.getByRole('option', { name: 'DSTV', exact: true }).click();
    await page.getByLabel('Smartcard / IUC number').fill(smartcard);
    await page.getByRole('button', { name: 'Check smartcard' }).click();
    await expect(page.getByTestId('smartcard-name')).not.toBeEmpty();
    return (await page.getByTestId('smartcard-name').textContent()) ?? '';
  };
  const chooseBouquetAndReview = async () => {
    await page.getByRole('combobox', { name: 'Bouquet' }).click();
    const option = page.getByRole('option').first();
    const label = (await option.textContent()) ?? '';
    await option.click();
    await page.getByLabel('Customer phone').fill('+234 803 123 4567');
    await page.getByTestId('cable-review').click();
    return label;
  };

  // Nothing can be bought before the smartcard is checked.
  await expect(page.getByTestId('cable-review')).toHaveCount(0);
  const customer = await checkSmartcard('7012345678');
  const bouquet = await chooseBouquetAndReview();
  const [bouquetName, price] = bouquet.split(' — ');
  const confirm = page.getByRole('dialog', { name: 'Confirm the cable TV purchase' });
  await expect(confirm).toContainText(customer);
  await expect(confirm).toContainText(bouquetName);
  await expect(confirm).toContainText(price);
  await expect(confirm).toContainText('08031234567');
  await saveScreen(page, 'cable-confirm.png');
  await page.getByTestId('cable-buy').click();
  await expect(confirm).toBeHidden();

  const receipt = page.getByTestId('purchase-receipt');
  await expect(receipt.getByTestId('receipt-state')).toHaveText('Successful');
  await expect(receipt.getByTestId('receipt-status')).toContainText(`Paid: ${bouquetName} (${price}) for smartcard 7012345678`);
  await expect(receipt).toContainText(customer);
  await saveScreen(page, 'cable-receipt.png', { fullPage: true });

  // A smartcard the provider declines: the wallet is debited and refunded, and the receipt says so.
  await page.getByTestId('buy-another').click();
  await checkSmartcard('7012349999');
  await chooseBouquetAndReview();
  await page.getByTestId('cable-buy').click();
  await expect(confirm).toBeHidden();
  await expect(receipt.getByTestId('receipt-state')).toHaveText('Failed');
  await expect(receipt.getByTestId('receipt-status')).toContainText('smartcard 7012349999 could not be renewed');
  await expect(receipt.getByTestId('receipt-refund')).toContainText('Refunded: the service records this purchase as FAILED');
  await expect(receipt.getByTestId('receipt-status')).toContainText('Check the smartcard number');
  await saveScreen(page, 'cable-declined-receipt.png', { fullPage: true });
});
