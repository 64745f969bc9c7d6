/**
 * After a message is sent, its "Sent" card shows until the user starts the next one: the first
 * edit of the form clears it, so a result never sits beside a message it does not belong to. The
 * sent message stays in History. Once for each form of the service's messaging answers.
 */
import { ANSWER_FORMS } from '../support/testApp';
import { expect, test, saveScreen } from './support/fixtures';

// Every test has its own app, data folder and port, and its own screenshot names.
test.describe.configure({ mode: 'parallel' });

for (const form of ANSWER_FORMS) {
  test.describe(`messaging answers in the ${form.name} form`, () => {
    test.use({ appOptions: form.options });

    test('the Sent card goes as soon as the next message is written, and the sent one is in History', async ({ page, vendesk }) => {
      await vendesk.sandboxControl.setWallet(5_000);
      await page.goto(`${vendesk.shell?.origin}/#/messaging`);
      await page.getByRole('tab', { name: 'Send', exact: true }).click();
      await page.getByRole('textbox', { name: 'Phone number' }).fill('0803 123 4567');
      await page.getByRole('textbox', { name: 'Text' }).fill('Your March allowance is paid.');
      await page.getByRole('button', { name: 'Review and send…' }).click();
      await page.getByTestId('confirm-send').click();
      const sent = page.getByTestId('sent-message');
      await expect(sent).toContainText('Your March allowance is paid.');
      await expect(page.getByRole('textbox', { name: 'Text' })).toHaveValue('');

      // The next message: the phone number stays, the first keystroke of the text clears the card.
      await page.getByRole('textbox', { name: 'Text' }).pressSequentially('Y');
      await expect(sent).toHaveCount(0);
      await page.getByRole('textbox', { name: 'Text' }).fill('Your April allowance is paid.');
      await saveScreen(page, `messaging-next-message${form.name === 'standard' ? '' : `-${form.name.replace(/\s+/g, '-')}`}.png`, { fullPage: true });

      // Any other field clears it too.
      await page.getByRole('button', { name: 'Review and send…' }).click();
      await page.getByTestId('confirm-send').click();
      await expect(sent).toContainText('Your April allowance is paid.');
      await page.getByRole('textbox', { name: 'Phone number' }).fill('0803 123 4568');
      await expect(sent).toHaveCount(0);

      await page.getByRole('tab', { name: 'History' }).click();
      const history = page.getByTestId('history-table');
      await expect(history).toContainText('Your March allowance is paid.');
      await expect(history).toContainText('Your April allowance is paid.');
    });
  });
}
