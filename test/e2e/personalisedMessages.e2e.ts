/**
 * The Send message tab with a contacts sheet (issue 40): the text's {Column heading} placeholders
 * shown against the sheet's columns, each first message as it will be sent with its pages and
 * charge, the rows left out and why; sent as a job whose charge is what the sandbox's wallet lost,
 * and each recipient's own text in the sandbox's outbox once. Screenshots of the preview in both
 * themes at 1440 and 1024 px.
 */
import fs from 'node:fs';
import path from 'node:path';
import { sandboxWalletKobo } from '../support/sandboxRecords';
import { tempDir } from '../integration/messaging/contactsFiles';
import { expect, pageSettled, saveScreen, SCREEN_SIZES, setTheme, test, watchLoads } from './support/fixtures';

const TEXT = 'Hello {Name}, your November data allowance of {Data allowance} has been sent. Call {Desk} with questions.';

test('a contacts sheet with placeholders: the preview of each message and its charge, then sent once each', async ({ page, vendesk }) => {
  const file = path.join(tempDir(), 'november allowances.csv');
  fs.writeFileSync(
    file,
    [
      'Name,Phone Number,Data allowance,Desk',
      'Adaeze Okafor,08031234501,2GB,Finance desk 0700 111 2222',
      'Musa Bello,08031234502,1.5GB,Finance desk 0700 111 2222',
      'Chioma Eze,08031234503,,Finance desk 0700 111 2222',
      'Tunde Adeyemi,0803123,1GB,Finance desk 0700 111 2222',
      'Ngozi Umeh,08031234506,10GB,Finance desk 0700 111 2222',
    ].join('\n') + '\n',
  );
  await vendesk.sandboxControl.setWallet(50_000);
  const origin = vendesk.shell!.origin;
  watchLoads(page);
  await page.goto(`${origin}/#/messaging`);
  // The sheet and the text, chosen again after each reload (a change of theme reloads the page).
  const fillSheet = async () => {
    await page.getByText('A contacts sheet', { exact: true }).click();
    await page.locator('input[type=file]').setInputFiles(file);
    await page.getByRole('textbox', { name: 'Text', exact: true }).fill(TEXT);
    await expect(page.getByTestId('sheet-total')).toHaveText('₦12.00');
  };
  await fillSheet();

  const preview = page.getByTestId('sheet-preview');
  await expect(preview).toContainText('{Data allowance} → “Data allowance”');
  const sample = page.getByTestId('sheet-sample');
  await expect(sample).toContainText('Hello Adaeze Okafor, your November data allowance of 2GB has been sent. Call Finance desk 0700 111 2222 with questions.');
  await expect(sample.getByRole('row')).toHaveCount(4);
  await expect(page.getByTestId('sheet-incomplete')).toContainText('Row 4 (08031234503): {Data allowance} empty');
  await expect(page.getByTestId('sheet-invalid')).toContainText('Row 5');
  await expect(page.getByTestId('sheet-total')).toHaveText('₦12.00');
  await expect(page.getByTestId('sheet-review')).toBeDisabled();

  for (const scheme of ['light', 'dark'] as const) {
    await setTheme(page, scheme);
    await fillSheet();
    for (const size of SCREEN_SIZES) {
      await page.setViewportSize(size);
      await pageSettled(page);
      await saveScreen(page, `i40-send-sheet-${size.width}-${scheme}.png`, { fullPage: true });
    }
  }

  await page.getByLabel(/Leave out the 1 row with an empty value/).check();
  await page.getByLabel(/Leave out the 1 row that cannot be sent/).check();
  const before = await sandboxWalletKobo(vendesk);
  await page.getByTestId('sheet-review').click();
  await expect(page.getByTestId('sheet-confirm-total')).toHaveText('₦12.00 from the wallet');
  await page.getByTestId('sheet-confirm-send').click();
  await expect(page.getByTestId('sheet-job')).toContainText('Sent');
  await expect(page.getByTestId('sheet-job-charged')).toContainText('Charged ₦12.00 of ₦12.00 estimated');
  expect(before - (await sandboxWalletKobo(vendesk))).toBe(1200);
  const sms = (await vendesk.sandboxControl.outbox()).filter((o) => o.channel === 'sms');
  expect(sms.map((o) => o.to).sort()).toEqual(['08031234501', '08031234502', '08031234506']);
  expect(sms.find((o) => o.to === '08031234506')?.body).toBe(
    'Hello Ngozi Umeh, your November data allowance of 10GB has been sent. Call Finance desk 0700 111 2222 with questions.',
  );
});
