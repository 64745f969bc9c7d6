import { formatNaira } from '../../src/shared/money';
import { expect, saveScreen, test } from './support/fixtures';

// Every test has its own app, data folder and port, and its own screenshot names.
test.describe.configure({ mode: 'parallel' });

const PAGES = ['Dashboard', 'Purchases', 'Transactions', 'Pending', 'Reconcile', 'Messaging', 'Catalog', 'Settings', 'Approvals'];

test('opens on the dashboard with the sandbox wallet balance and the SANDBOX badge', async ({ page, vendesk }) => {
  const balance = await vendesk.call('account.balance', {});
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  await expect(page.getByTestId('wallet-balance')).toContainText(formatNaira(balance.balanceKobo));
  await expect(page.getByTestId('connection-badge')).toHaveText('SANDBOX');
  // The session secret was taken into this tab's storage: it is no longer in the address bar.
  expect(page.url()).not.toContain('session=');
  expect(page.url()).not.toContain(vendesk.shell!.secret);
});

test('every page is reachable from the navigation and by keyboard', async ({ page, vendesk }) => {
  void vendesk;
  const nav = page.getByRole('navigation', { name: 'Pages' });
  for (const name of PAGES) {
    await nav.getByRole('link', { name: new RegExp(`^${name}`) }).click();
    await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
    await expect(page.getByTestId('connection-badge')).toHaveText('SANDBOX');
  }
  await page.keyboard.press('Alt+3');
  await expect(page.getByRole('heading', { name: 'Transactions', level: 1 })).toBeVisible();
  await page.keyboard.press('Alt+1');
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
});

test("a page's code loads with the page: the dashboard paints without the other pages' code", async ({ page, vendesk }) => {
  void vendesk;
  const scripts = () =>
    page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .map((e) => e.name)
        .filter((n) => n.endsWith('.js')),
    );
  await expect(page.getByTestId('wallet-balance')).toBeVisible();
  const first = await scripts();
  expect(
    first.some((n) => /DashboardPage-[\w-]+\.js$/.test(n)),
    first.join('\n'),
  ).toBe(true);
  expect(
    first.some((n) => /(TransactionsPage|MessagingPage|SettingsPage)-[\w-]+\.js$/.test(n)),
    first.join('\n'),
  ).toBe(false);
  await page
    .getByRole('navigation', { name: 'Pages' })
    .getByRole('link', { name: /^Transactions/ })
    .click();
  await expect(page.getByRole('heading', { name: 'Transactions', level: 1 })).toBeVisible();
  expect((await scripts()).some((n) => /TransactionsPage-[\w-]+\.js$/.test(n))).toBe(true);
  await saveScreen(page, 'transactions-after-lazy-load.png');
});

test('settings show the data folder and switch between light and dark themes', async ({ page, vendesk }) => {
  await page.goto(`${vendesk.shell?.origin}/#/settings`);
  await page.getByRole('tab', { name: 'Data folder' }).click();
  await expect(page.getByTestId('data-dir')).toHaveText(vendesk.dataDir);
  await page.getByRole('tab', { name: 'Profiles' }).click();
  await expect(page.getByRole('cell', { name: 'Test sandbox' }).or(page.getByText('Sandbox (built in)'))).toBeVisible();
  const html = page.locator('html');
  const before = await html.getAttribute('data-mantine-color-scheme');
  await page.getByRole('button', { name: /Switch to (dark|light) theme/ }).click();
  await expect(html).not.toHaveAttribute('data-mantine-color-scheme', before ?? '');
});

test('a live profile without a valid address is refused with a message saying what to fix', async ({ page, vendesk }) => {
  await page.goto(`${vendesk.shell?.origin}/#/settings`);
  await page.getByLabel('Name').fill('Production');
  await page.getByLabel('Service address').fill('not a url');
  await page.getByRole('button', { name: 'Save profile' }).click();
  await expect(page.getByRole('alert')).toContainText('Enter the service address as a full URL');
});
