/**
 * Playwright fixture: `vendesk` is a running app (sandbox + services + web shell) and `page` is
 * already signed in to it through the one-time session URL.
 */
import fs from 'node:fs';
import path from 'node:path';
import { test as base, expect, type Page } from '@playwright/test';
import { startTestApp, type TestApp, type TestAppOptions } from '../../support/testApp';

export const test = base.extend<{ vendesk: TestApp; appOptions: TestAppOptions }>({
  /** Options of the app under test, such as the form of the messaging answers: `test.use({ appOptions: form.options })`. */
  appOptions: [{}, { option: true }],
  vendesk: async ({ page, appOptions }, use) => {
    const vendesk = await startTestApp({ ...appOptions, web: true });
    const shell = vendesk.shell;
    if (!shell) throw new Error('web shell did not start');
    await page.goto(shell.openUrl);
    await use(vendesk);
    await vendesk.close();
  },
});

export { expect };

/** Where the end-to-end tests leave their screenshots, to look at after a run. */
export const SCREENS_DIR = path.resolve(__dirname, '..', '..', '..', '.tmp', 'screens');

/**
 * Saves a screenshot of the page as `.tmp/screens/<name>`. Transitions are run to their end first,
 * so a dialog that is opening or closing is shown as the user sees it a moment later.
 */
export async function saveScreen(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  fs.mkdirSync(SCREENS_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENS_DIR, name), animations: 'disabled', ...options });
}

/**
 * On the Purchases page's Electricity tab: chooses Ikeja Electric, checks the meter, and fills the
 * amount and phone (nothing is bought until the caller reviews and confirms).
 */
export async function fillElectricityForm(page: Page, form: { meter: string; amount: string; phone: string }): Promise<void> {
  await page.getByRole('combobox', { name: 'Electricity company (disco)' }).click();
  await page.getByRole('option', { name: /Ikeja Electric \(IKEDC\)/ }).click();
  await page.getByLabel('Meter number').fill(form.meter);
  await page.getByRole('button', { name: 'Check meter' }).click();
  await expect(page.getByTestId('meter-name')).not.toBeEmpty();
  await page.getByLabel('Amount (₦)').fill(form.amount);
  await page.getByLabel('Customer phone').fill(form.phone);
}

/** The two window sizes every page is checked and saved at: a laptop's full screen and a narrow window. */
export const WIDE_SCREEN = { width: 1440, height: 900 };
export const NARROW_SCREEN = { width: 1024, height: 700 };
export const SCREEN_SIZES = [WIDE_SCREEN, NARROW_SCREEN];

/** Chooses the colour scheme as the header's switch stores it, reloads, and waits until the page is drawn in it. */
export async function setTheme(page: Page, scheme: 'light' | 'dark'): Promise<void> {
  await page.evaluate((s) => localStorage.setItem('vendesk-color-scheme', s), scheme);
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
}
