/**
 * Issue 38 in the window, checked against the service's own records where there is a record:
 * - 8: the Airtime and data tab's outage notice names the catalog that failed, and an electricity
 *   list the service cannot give does not reach that tab;
 * - 12: a template is created without a use case (the service takes none), the form saying what
 *   use cases are for;
 * - 13: after a template SMS is sent the form does not ask for its placeholders' values; the bulk
 *   Buy button is the green of every primary action; the recent purchases say the same thing when
 *   empty; a template downloads under its kind's name, without a time stamp.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { FAST_RETRY } from '../integration/api/sandboxHarness';
import { expect, pageSettled, saveScreen, SCREEN_SIZES, setTheme, test, watchLoads } from './support/fixtures';

// Every test has its own app, data folder and port, and its own screenshot names.
test.describe.configure({ mode: 'parallel' });

/** The page in both themes at both sizes, each saved as `i38-<name>-<width>-<theme>.png` once `ready` holds (a theme is chosen by reloading). */
async function saveEveryLook(page: Page, name: string, ready: () => Promise<void>): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await setTheme(page, scheme);
    await ready();
    await pageSettled(page);
    await page.evaluate(() => window.scrollTo(0, 0));
    for (const size of SCREEN_SIZES) {
      await page.setViewportSize(size);
      await saveScreen(page, `i38-${name}-${size.width}-${scheme}.png`, { fullPage: true });
    }
  }
}

test.describe('the Airtime and data tab', () => {
  // The client's retries of a 503 are not what this is about: tenths of a second.
  test.use({ appOptions: { clientRetry: FAST_RETRY } });

  test('its outage notice names the catalog that failed; the electricity list failing does not reach it', async ({ page, vendesk }) => {
    watchLoads(page);
    await vendesk.sandboxControl.addFault({ path: '/AirtimeList', status: 503, count: 200 });
    await vendesk.sandboxControl.addFault({ path: '/ElectricityList', status: 503, count: 200 });
    await page.goto(`${vendesk.shell!.origin}/#/purchases`);
    const open = async () => {
      await page.getByRole('tab', { name: 'Airtime and data' }).click();
      const notice = page.getByRole('alert').filter({ hasText: 'The airtime and data catalogs could not be read' });
      await expect(notice).toContainText('The airtime catalog');
      await expect(notice).not.toContainText(/electricity/i);
    };
    await open();
    await saveEveryLook(page, 'airtime-outage', open);

    // The airtime list answers again; the electricity list still does not: the tab works, with no notice.
    await vendesk.sandboxControl.clearFaults();
    await vendesk.sandboxControl.addFault({ path: '/ElectricityList', status: 503, count: 200 });
    await page.reload();
    await page.getByRole('tab', { name: 'Airtime and data' }).click();
    await page.getByLabel('Phone number').fill('08031234567');
    await page.getByTestId('topup-amount-input').fill('500');
    await page.getByTestId('topup-check').click();
    await expect(page.getByTestId('topup-checked')).toContainText('Ready to buy');
    await expect(page.getByText(/catalogs? could not be read/)).toHaveCount(0);
    // The list the tab did not need was never asked for: the service still holds all of its faults.
    expect(await vendesk.sandboxControl.faults()).toEqual([expect.objectContaining({ path: '/ElectricityList', remaining: 200 })]);
  });
});

test('a template is created without a use case, the form saying what use cases are for', async ({ page, vendesk }) => {
  watchLoads(page);
  await page.goto(`${vendesk.shell!.origin}/#/messaging`);
  const fill = async () => {
    await page.getByRole('tab', { name: 'Templates' }).click();
    await page.getByLabel('Name').fill('Closing time');
    await page.getByTestId('template-body').fill('The office closes at {{1}} today.');
    await page.getByLabel('Sample value for {{1}}').fill('3pm');
    await expect(page.getByTestId('template-preview')).toHaveText('The office closes at 3pm today.');
  };
  await fill();
  const useCases = page.getByRole('combobox', { name: 'Use cases (optional)' });
  await expect(useCases).toBeVisible();
  await expect(page.getByText('What the messages are for, such as payroll or alerts')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Create template' })).toBeEnabled();
  await saveEveryLook(page, 'template-form', fill);

  await page.getByRole('button', { name: 'Create template' }).click();
  const row = page.getByTestId('template-row-closing-time');
  await expect(row).toContainText('no use case');
  // The service's own list holds it, with no use case.
  const answer = await fetch(`${vendesk.sandbox.url}/getTemplates`, { headers: { Authorization: `Bearer ${vendesk.token}` } });
  const listed = ((await answer.json()) as { data: { name: string; useCase: string }[] }).data.find((t) => t.name === 'Closing time');
  expect(listed).toMatchObject({ useCase: '' });
});

test('after a template SMS is sent, the form no longer asks for its values: it says how to write the next one', async ({ page, vendesk }) => {
  await vendesk.sandboxControl.setWallet(5_000);
  const template = await vendesk.call('messaging.templates.create', { name: 'Allowance paid', body: 'Hello {{1}}, your allowance is paid.' });
  await vendesk.sandboxControl.advanceClock(61); // the sandbox approves a template 60 s after it is made
  await page.goto(`${vendesk.shell!.origin}/#/messaging`);
  await page.getByRole('tab', { name: 'Send', exact: true }).click();
  await page.getByRole('textbox', { name: 'Phone number' }).fill('08031234567');
  await page.getByText('Use a template').click();
  await page
    .getByRole('combobox', { name: 'Template', exact: true })
    .or(page.getByRole('textbox', { name: 'Template', exact: true }))
    .first()
    .click();
  await page.getByRole('option', { name: /Allowance paid/ }).click();
  await page.getByLabel('Value for {{1}}').fill('Musa');
  await page.getByRole('button', { name: 'Review and send…' }).click();
  await page.getByTestId('confirm-send').click();
  await expect(page.getByTestId('sent-message')).toContainText('Hello Musa, your allowance is paid.');
  await expect(page.getByText('Fill in a value for every placeholder of the template.')).toHaveCount(0);
  await expect(page.getByText('To send, first:')).toHaveCount(0);
  await expect(page.getByTestId('send-next')).toHaveText('Sent (below). Change anything in the form to write the next message.');
  // The service sent it: its outbox has the message.
  expect((await vendesk.sandboxControl.outbox()).some((m) => m.body === 'Hello Musa, your allowance is paid.')).toBe(true);
  expect(template.indexes).toEqual(['1']);
  await saveScreen(page, 'i38-sms-sent-1440-light.png', { fullPage: true });

  // The next message begun: the list of what is missing is back.
  await page.getByLabel('Value for {{1}}').fill('A');
  await page.getByLabel('Value for {{1}}').fill('');
  await expect(page.getByText('Fill in a value for every placeholder of the template.')).toBeVisible();
});

test('bulk: Buy is the green of every primary action; a template downloads under its kind’s name; the recent purchases say the same when empty', async ({ page, vendesk }) => {
  await page.goto(`${vendesk.shell!.origin}/#/purchases`);
  // Empty recent lists read alike on every tab.
  for (const tab of [/Electricity/, /Cable TV/, /Airtime and data/]) {
    await page.getByRole('tab', { name: tab }).click();
    await expect(page.getByTestId('recent-none')).toHaveText('None yet on this connection.');
  }

  await page.getByRole('tab', { name: 'Bulk purchases', exact: true }).click();
  for (let i = 0; i < 2; i++) {
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download the airtime template (.xlsx)' }).click();
    expect((await download).suggestedFilename()).toBe('vendesk airtime template.xlsx');
  }

  const file = path.join(vendesk.dataDir, 'December airtime.csv');
  fs.writeFileSync(file, 'Phone,Amount\n08031110001,500\n08031110002,700\n');
  await page.locator('input[type=file]').setInputFiles(file);
  const buy = page.getByRole('button', { name: 'Buy 2 for ₦1,200.00' });
  await expect(buy).toBeEnabled();
  const primary = await page.evaluate(() => {
    const probe = document.createElement('div');
    probe.style.backgroundColor = 'var(--mantine-primary-color-filled)';
    document.body.appendChild(probe);
    const colour = getComputedStyle(probe).backgroundColor;
    probe.remove();
    return colour;
  });
  expect(await buy.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(primary);
  // Green (the theme's teal), not the blue it was.
  const [r, g, b] = (primary.match(/\d+/g) ?? []).map(Number);
  expect(g, primary).toBeGreaterThan(Math.max(r, b));
  await saveScreen(page, 'i38-bulk-buy-1440-light.png', { fullPage: true });
});

test("bulk: a LibreOffice sheet's TOTAL row is not listed as invalid; the preview says it was skipped and that it agrees", async ({ page, vendesk }) => {
  watchLoads(page);
  const file = path.join(vendesk.dataDir, 'Staff airtime with total.xlsx');
  fs.copyFileSync(path.join(__dirname, '..', 'fixtures', 'imports', 'libreoffice-airtime-total.xlsx'), file);
  await page.goto(`${vendesk.shell!.origin}/#/purchases`);
  const upload = async () => {
    await page.locator('input[type=file]').setInputFiles(file);
    await expect(
      page.getByText("Row 6 (“TOTAL”) is the sheet's total, not a purchase, so it is not bought; the ₦3,000.00 it states is what the valid rows above it add up to."),
    ).toBeVisible();
    await expect(page.getByText('0 invalid, 0 left out')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Buy 3 for ₦3,000.00' })).toBeEnabled();
  };
  await upload();
  // The preview's figures are whole at both sizes (the wallet's ₦1,000,000.00 was cut at 1024 px):
  // measured once the preview is shown, not while the page is still loading.
  for (const size of SCREEN_SIZES) {
    await page.setViewportSize(size);
    const cards = await page.locator('.figure-card').all();
    expect(cards.length, 'the preview shows its figure cards').toBeGreaterThan(0);
    for (const card of cards) {
      const fit = await card.locator('.money').evaluate((el) => ({ text: el.textContent, scroll: el.scrollWidth, client: el.clientWidth }));
      expect(fit.scroll, `"${fit.text}" at ${size.width} px`).toBeLessThanOrEqual(fit.client);
    }
  }
  await saveEveryLook(page, 'bulk-total-row', upload);
});
