/**
 * Messaging end to end in the real renderer, once for each form the service's messaging answers
 * can take (the sandbox's standard, alt and sparse shapes, and a reshaping proxy): contacts from
 * an XLSX into a new phonebook, a template approved on the sandbox clock, a bulk send with it
 * (confirmation with recipients and cost, then its status), and a one-time code confirmed with
 * the code read from the outbox.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { makeContacts, tempDir, writeContactsXlsx } from '../integration/messaging/contactsFiles';
import { ANSWER_FORMS } from '../support/testApp';
import { expect, test, saveScreen } from './support/fixtures';

// Every test has its own app, data folder and port, and its own screenshot names.
test.describe.configure({ mode: 'parallel' });

for (const form of ANSWER_FORMS) {
  test.describe(`messaging answers in the ${form.name} form`, () => {
    test.use({ appOptions: form.options });
    const suffix = form.name === 'standard' ? '' : `-${form.name.replace(/\s+/g, '-')}`;

    async function shot(page: Page, name: string): Promise<void> {
      await saveScreen(page, `messaging-${name}${suffix}.png`, { fullPage: true });
    }

    async function choose(page: Page, label: string, option: RegExp): Promise<void> {
      await page
        .getByRole('combobox', { name: label, exact: true })
        .or(page.getByRole('textbox', { name: label, exact: true }))
        .first()
        .click();
      await page.getByRole('option', { name: option }).click();
    }

    test('import contacts, create a template, send in bulk with it and see its status', async ({ page, vendesk }) => {
      const dir = tempDir();
      const file = await writeContactsXlsx(path.join(dir, 'field-staff.xlsx'), makeContacts(25), [['Wrong number', '0703']]);
      await vendesk.sandboxControl.setWallet(50_000);
      await page.goto(`${vendesk.shell?.origin}/#/messaging`);
      await expect(page.getByRole('heading', { name: 'Messaging', level: 1 })).toBeVisible();

      // Phonebook and contacts
      await page.getByRole('tab', { name: 'Phonebooks' }).click();
      await page.getByLabel('Name').fill('Field staff');
      await page.getByLabel('Description').fill('Drivers and site officers');
      await page.getByRole('button', { name: 'Create phonebook' }).click();
      await expect(page.getByRole('heading', { name: 'Import contacts into Field staff' })).toBeVisible();
      await page.locator('input[type=file]').setInputFiles(file);
      const preview = page.getByTestId('contacts-preview');
      await expect(preview).toContainText('25 new contacts will be added');
      await expect(preview).toContainText('Row 27: 0703 is not a Nigerian mobile number');
      await expect(preview.getByTestId('invalid-rows-what-to-do')).toHaveText(
        'These rows are left out. To add them, correct them in the file and import it again: the contacts already added are not added twice.',
      );
      await shot(page, 'phonebooks-preview');
      await page.getByRole('button', { name: 'Add 25 contacts' }).click();
      await expect(page.getByTestId('import-result')).toContainText('25 added');
      await expect(page.getByTestId('phonebook-contacts')).toContainText('25 contacts');
      await shot(page, 'phonebooks-imported');

      // Re-importing the same file adds nothing
      await page.locator('input[type=file]').setInputFiles(file);
      await expect(preview).toContainText('25 already in this phonebook');
      await expect(preview).toContainText('0 new contacts will be added');

      // Template with live validation
      await page.getByRole('tab', { name: 'Templates' }).click();
      await page.getByLabel('Name').fill('Allowance paid');
      await page.getByRole('combobox', { name: 'Use cases' }).fill('payroll');
      await page.keyboard.press('Enter');
      const body = page.getByTestId('template-body');
      await body.fill('Hello {{1}}, your allowance of {{3}} is paid.');
      await expect(page.getByText('{{2}} is missing')).toBeVisible();
      await expect(page.getByRole('button', { name: 'Create template' })).toBeDisabled();
      await body.fill('Hello {{2}}, your allowance of {{1}} is paid.');
      await expect(page.getByTestId('template-placeholders')).toContainText('{{1}}{{2}}');
      await page.getByLabel('Sample value for {{2}}').fill('Musa');
      await page.getByLabel('Sample value for {{1}}').fill('₦15,000');
      await expect(page.getByTestId('template-preview')).toHaveText('Hello Musa, your allowance of ₦15,000 is paid.');
      await shot(page, 'templates-create');
      await page.getByRole('button', { name: 'Create template' }).click();
      const row = page.getByTestId('template-row-allowance-paid');
      await expect(row.getByTestId('approval-NG')).toHaveText('NG · PENDING');
      await vendesk.sandboxControl.advanceClock(61);
      await page.getByRole('button', { name: 'Refresh' }).click();
      await expect(row.getByTestId('approval-NG')).toHaveText('NG · APPROVED');
      await shot(page, 'templates-approved');

      // Sender IDs: only approved ones can send
      await page.getByRole('tab', { name: 'Sender IDs' }).click();
      await expect(page.getByTestId('sender-ids')).toContainText('Not yet — waiting for approval');
      await shot(page, 'sender-ids');

      // Bulk send with the template
      await page.getByRole('tab', { name: 'Send', exact: true }).click();
      await page.getByText('A phonebook (bulk)').click();
      await choose(page, 'Phonebook', /Field staff/);
      await page.getByText('Use a template').click();
      await choose(page, 'Template', /Allowance paid/);
      await page.getByLabel('Value for {{1}}').fill('₦15,000');
      await page.getByLabel('Value for {{2}}').fill('team');
      await expect(page.getByTestId('send-preview')).toHaveText('Hello team, your allowance of ₦15,000 is paid.');
      await page.getByLabel('Also email a copy (₦1.00 per address)').check();
      await page.getByLabel('Email addresses').fill('finance@example.com');
      // The sparse form's phonebook list does not say how many contacts it holds: counted on review.
      await expect(page.getByTestId('send-estimate')).toHaveText(form.sparse ? 'Shown on review' : '₦101.00');
      await shot(page, 'send-form');
      const before = (await vendesk.call('account.balance', {})).balanceKobo;
      await page.getByRole('button', { name: 'Review and send…' }).click();
      await expect(page.getByTestId('confirm-recipients')).toHaveText('25');
      await expect(page.getByTestId('confirm-total')).toHaveText('₦101.00');
      await shot(page, 'send-confirm');
      await page.getByTestId('confirm-send').click();
      const sent = page.getByTestId('sent-message');
      await expect(sent).toContainText('25 recipients');
      expect(before - (await vendesk.call('account.balance', {})).balanceKobo).toBe(10_100);
      await shot(page, 'send-done');
      if (form.sparse) {
        // No reference in the answer: the card says so, and the message is found in History by its text.
        await expect(sent.getByTestId('message-reference')).toHaveText('Not given by the service');
        await expect(sent.getByTestId('service-notes')).toContainText('the cost shown is the quoted cost you confirmed');
        await expect(page.getByRole('button', { name: 'Check its status' })).toHaveCount(0);
        await page.getByRole('tab', { name: 'History & status' }).click();
        const reference = (await page.getByTestId('history-table').locator('tbody tr').first().locator('td').nth(1).textContent()) ?? '';
        expect(reference).toMatch(/^MSG/);
        await page.getByLabel('Message reference').fill(reference);
        await page.getByRole('button', { name: 'Check status' }).click();
      } else {
        await page.getByRole('button', { name: 'Check its status' }).click();
      }
      const status = page.getByTestId('status-lookup-result');
      await expect(status.getByTestId('message-status')).toContainText(/SENT|DELIVERED/);
      await vendesk.sandboxControl.advanceClock(6);
      await page.getByRole('button', { name: 'Check status' }).click();
      await expect(status.getByTestId('message-status')).toContainText('Delivered to the phones');
      await expect(page.getByTestId('history-table')).toContainText('Hello team, your allowance');
      await shot(page, 'history');
      fs.rmSync(dir, { recursive: true, force: true });
    });

    test('send a one-time code and confirm it with the code from the outbox; a reused code is refused', async ({ page, vendesk }) => {
      await page.goto(`${vendesk.shell?.origin}/#/messaging`);
      await page.getByRole('tab', { name: 'One-time codes' }).click();
      await page.getByLabel('Phone number').fill('0803 123 4567');
      await page.getByLabel('Digits').fill('8');
      await page.getByLabel('Valid for (seconds)').fill('120');
      await page.getByRole('button', { name: 'Send code' }).click();
      const reference = (await page.getByTestId('otp-reference').textContent()) ?? '';
      expect(reference).not.toBe('');
      await expect(page.getByTestId('otp-countdown')).toHaveText(/^[12]:\d\d$/);
      const outbox = await vendesk.sandboxControl.outbox();
      const code = outbox.find((e) => e.reference === reference)?.code ?? '';
      expect(code).toMatch(/^\d{8}$/);
      await page.getByRole('textbox', { name: 'Code' }).fill(code === '00000000' ? '11111111' : '00000000');
      await page.getByRole('button', { name: 'Confirm' }).click();
      await expect(page.getByTestId('otp-outcome')).toContainText('does not match');
      await page.getByRole('textbox', { name: 'Code' }).fill(code);
      await page.getByRole('button', { name: 'Confirm' }).click();
      await expect(page.getByTestId('otp-outcome')).toContainText('Confirmed');
      await shot(page, 'otp-confirmed');
      await page.getByRole('button', { name: 'Confirm' }).click();
      await expect(page.getByTestId('otp-outcome')).toContainText('already confirmed');
    });
  });
}
