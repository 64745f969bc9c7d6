/**
 * Keyboard only: the bulk, electricity and reconcile flows walked with Tab, arrows, typing and
 * Enter — no click. A file is chosen with the browser's own picker (which a test cannot drive), so
 * the file input is given its file; everything after that is keys. Plus what the window now shows
 * that a keyboard user needs: the sandbox outbox's one-time code, and a sent message opened from
 * the history.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { createPendingScheduler } from '../../src/main/pending';
import { formatNaira } from '../../src/shared/money';
import { exportVendorLog } from '../integration/reconcile/reconcileHelpers';
import { serviceLog } from '../support/serviceSpend';
import { expect, passTopUpSettlement, saveScreen, test } from './support/fixtures';
import { receiptOf } from '../support/receiptOf';

// Every test has its own app, data folder and port, and its own screenshot names.
test.describe.configure({ mode: 'parallel' });

/** Presses Tab (or Shift+Tab) until `target` has the focus; fails if it is not reached. */
async function tabTo(page: Page, target: Locator, options: { back?: boolean; max?: number } = {}): Promise<void> {
  const max = options.max ?? 80;
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === document.activeElement || el.contains(document.activeElement)).catch(() => false)) return;
    await page.keyboard.press(options.back ? 'Shift+Tab' : 'Tab');
  }
  await expect(target, `not reached with ${max} presses of Tab`).toBeFocused();
}

/**
 * Chooses an option of a searchable Mantine select by keyboard, as a keyboard user does: types
 * part of its name (`search`), which leaves that one option in the list, moves to it with
 * ArrowDown and takes it with Enter. The list may still be arriving from the service, or be drawn
 * again while the keys are pressed (a busy machine), which leaves Enter with nothing highlighted:
 * the keys are pressed again until the select holds the option (polled for, with a generous
 * deadline). With one option left, a list drawn again cannot move the highlight to another.
 */
async function chooseByKeys(page: Page, select: Locator, search: string, option: RegExp): Promise<void> {
  await tabTo(page, select);
  await expect(async () => {
    await expect(select).toBeFocused();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type(search);
    await expect(page.getByRole('option')).toHaveCount(1, { timeout: 5_000 });
    await expect(page.getByRole('option', { name: option })).toBeVisible();
    if ((await page.locator('[data-combobox-selected]').count()) === 0) await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect(select).toHaveValue(option, { timeout: 2_000 });
  }).toPass({ timeout: 45_000 });
}

test('an electricity purchase by keyboard only', async ({ page, vendesk }) => {
  await page.goto(`${vendesk.shell!.origin}/#/purchases`);
  // Tabs are one stop of Tab (the open one); the arrow keys move between them.
  await tabTo(page, page.getByRole('tab', { name: 'Bulk purchases', exact: true }));
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('tab', { name: 'Electricity', exact: true })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('tab', { name: 'Electricity', exact: true })).toHaveAttribute('aria-selected', 'true');
  await chooseByKeys(page, page.getByRole('combobox', { name: 'Electricity company (disco)' }), 'Ikeja', /Ikeja Electric/);
  await tabTo(page, page.getByLabel('Meter number'));
  await page.keyboard.type('45012345678');
  await tabTo(page, page.getByRole('button', { name: 'Check meter' }));
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('meter-name')).not.toBeEmpty();
  const customer = (await page.getByTestId('meter-name').textContent()) ?? '';
  await tabTo(page, page.getByLabel('Amount (₦)'));
  await page.keyboard.type('2500');
  await tabTo(page, page.getByLabel('Customer phone'));
  await page.keyboard.type('08031234567');
  await tabTo(page, page.getByTestId('electricity-review'));
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Confirm the electricity purchase' });
  await expect(dialog).toContainText(customer);
  await expect(dialog.getByRole('button', { name: 'Close' })).toBeVisible();
  await tabTo(page, page.getByTestId('electricity-buy'));
  await page.keyboard.press('Enter');
  const receipt = page.getByTestId('purchase-receipt');
  await expect(receipt.getByTestId('receipt-state')).toHaveText('Successful');
  await expect(receipt).toContainText(formatNaira(250_000));
  // The receipt's date is day first, as in Nigeria.
  await expect(receipt).toContainText(/\d{1,2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sept?|Oct|Nov|Dec) \d{4}\b/);
  await saveScreen(page, 'keyboard-electricity-receipt.png', { fullPage: true });
});

test('a bulk job confirmed and opened again by keyboard only', async ({ page, vendesk }) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-keys-'));
  const file = path.join(dir, 'Staff airtime.csv');
  fs.writeFileSync(file, 'Name,Phone,Amount\nAda,08031110001,100\nBayo,08031110002,200\nChi,08031110003,300\n');
  await page.goto(`${vendesk.shell!.origin}/#/purchases`);
  await expect(page.getByRole('tab', { name: 'Bulk purchases', exact: true })).toHaveAttribute('aria-selected', 'true');
  await page.locator('input[type=file]').setInputFiles(file);
  const buy = page.getByRole('button', { name: `Buy 3 for ${formatNaira(60_000)}` });
  await expect(buy).toBeEnabled();
  // Before buying, the preview lists what will be bought, row by row.
  await tabTo(page, page.getByRole('button', { name: /What will be bought/ }));
  await page.keyboard.press('Enter');
  const list = page.getByRole('table', { name: 'What will be bought' });
  for (const text of ['Ada', '08031110001', 'Bayo', '08031110002', 'Chi', formatNaira(30_000)]) await expect(list).toContainText(text);
  await saveScreen(page, 'bulk-preview-what-will-be-bought.png', { fullPage: true });
  await tabTo(page, buy);
  await page.keyboard.press('Enter');
  // The three rows accepted, the service's clock moves past the 5 s they stay PENDING.
  await passTopUpSettlement(vendesk.sandboxControl, async () => (await serviceLog(vendesk)).length, 3);
  await expect(page.getByTestId('job-state')).toHaveText('Finished', { timeout: 60_000 });
  await tabTo(page, page.getByRole('button', { name: 'Back to jobs' }), { back: true });
  await page.keyboard.press('Enter');

  // The job's row is reached with Tab and opened with Enter.
  const open = page.getByRole('button', { name: 'Open the job Staff airtime.csv' });
  await page.getByRole('tab', { name: 'Bulk purchases', exact: true }).focus();
  await tabTo(page, open);
  await saveScreen(page, 'keyboard-bulk-job-focused.png', { fullPage: true });
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('job-state')).toHaveText('Finished');
  await expect(page.getByTestId('count-success')).toContainText('3');
});

test('a reconciliation by keyboard only; its file can be cleared by a named button', async ({ page, vendesk }) => {
  vendesk.app.service(createPendingScheduler).pause();
  await vendesk.call('sync.run', {});
  for (let i = 0; i < 3; i++)
    await receiptOf(
      vendesk.call('purchases.buyElectricity', { disco: 'IKEDC', meter: `4500012000${i}`, vendType: 'PREPAID', amountKobo: 100_000 + i * 100, phone: '08031234567' }),
    );
  await vendesk.call('sync.run', {});
  const file = await exportVendorLog(vendesk, (rows) => rows);

  await page.goto(`${vendesk.shell!.origin}/#/reconcile`);
  await page.locator('input[type="file"]').setInputFiles(file);
  const clear = page.getByRole('button', { name: 'Clear the chosen file' });
  await expect(clear).toBeVisible();
  // Dates typed day first: 01112026 is 1 November 2026.
  const from = page.getByLabel('From');
  await tabTo(page, from);
  await page.keyboard.type('01112026');
  await expect(page.getByText('1 Nov 2026')).toBeVisible();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Backspace');
  await tabTo(page, page.getByRole('button', { name: 'Reconcile', exact: true }));
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('count-matched')).not.toHaveText('0', { timeout: 30_000 });
  const matched = (await page.getByTestId('count-matched').textContent()) ?? '';

  // A finished run is opened again from the history by keyboard.
  await page.goto(`${vendesk.shell!.origin}/#/dashboard`);
  await page.goto(`${vendesk.shell!.origin}/#/reconcile`);
  const run = page.getByRole('button', { name: /^Open the run of / });
  await tabTo(page, run);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('count-matched')).toHaveText(matched);
  await tabTo(page, page.getByTestId('card-matched'));
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('card-matched')).toHaveAttribute('aria-pressed', 'true');
  await saveScreen(page, 'keyboard-reconcile-run.png', { fullPage: true });
});

test('the sandbox outbox shows the one-time code that was "sent", and it confirms', async ({ page, vendesk }) => {
  await page.goto(`${vendesk.shell!.origin}/#/messaging`);
  await page.getByRole('tab', { name: 'One-time codes', exact: true }).click();
  const outbox = page.getByTestId('sandbox-outbox');
  await expect(outbox).toContainText('SANDBOX');
  await page.getByLabel('Phone number').fill('08031234567');
  await page.getByRole('button', { name: 'Send code', exact: true }).click();
  const code = outbox.getByTestId('outbox-code').first();
  await expect(code).toHaveText(/^\d{6,}$/);
  // The code in the outbox is the one the sandbox keeps for this number.
  const kept = await vendesk.sandboxControl.outbox();
  const sent = kept.filter((e) => e.code).at(-1);
  await expect(code).toHaveText(sent!.code!);
  await page.getByLabel('Code', { exact: true }).fill(sent!.code!);
  await page
    .getByTestId('otp-confirm')
    .getByRole('button', { name: /^Confirm/ })
    .click();
  await expect(page.getByTestId('otp-outcome')).toContainText('Confirmed');
  await saveScreen(page, 'messaging-otp-sandbox-outbox.png', { fullPage: true });
});
