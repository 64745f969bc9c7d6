/**
 * Issue 12, findings 1 and 8, as a new user would try it in the window: purchases on the sandbox
 * show at once on the Dashboard (no Sync), then "Use this profile" on a LIVE profile asks first,
 * the header says LIVE and that the service answers, and nothing of the sandbox shows on the
 * Dashboard, Purchases or Pending pages. Every figure is checked against the services' own records.
 */
import type { SandboxHandle } from '../../src/sandbox';
import { startTestSandbox } from '../support/testSandbox';
import { formatNaira } from '../../src/shared/money';
import { createPendingScheduler } from '../../src/main/pending';
import { serviceLog, serviceSpend } from '../support/serviceSpend';
import { expect, fillElectricityForm, lagosDay, saveScreen, test } from './support/fixtures';
import { lagosDayWithRoom } from '../support/serviceClocks';
import { receiptOf } from '../support/receiptOf';

const LIVE_TOKEN = 'e2e-live-org-6b1f';

test('purchases on the sandbox show at once; a LIVE profile, once confirmed, shows nothing of them', async ({ page, vendesk }) => {
  vendesk.app.service(createPendingScheduler).pause();
  let live: SandboxHandle | null = await startTestSandbox({ tokens: [LIVE_TOKEN], accountName: 'Acme Live Ltd', initialBalanceNaira: 250_000 });
  try {
    const origin = vendesk.shell!.origin;
    // "Today" is the Lagos day (UTC+1) on the service's own clock, the one the Dashboard reads (not
    // this computer's), taken before the purchases, away from midnight, so that they are all today.
    const today = await lagosDayWithRoom(vendesk);
    // A first sync, as a new user's Dashboard does by itself; then purchases made in the window.
    await vendesk.call('sync.run', {});
    await receiptOf(vendesk.call('purchases.buyElectricity', { disco: 'IKEDC', meter: '45012340000', vendType: 'PREPAID', amountKobo: 400_000, phone: '08031234567' }));
    await page.goto(`${origin}/#/purchases`);
    await page.getByRole('tab', { name: /Electricity/ }).click();
    await fillElectricityForm(page, { meter: '45012341234', amount: '7500', phone: '08031234567' });
    await page.getByTestId('electricity-review').click();
    await page.getByTestId('electricity-buy').click();
    await expect(page.getByTestId('purchase-receipt').getByTestId('receipt-state')).toHaveText('Successful');

    // The Dashboard shows today's spend with both purchases, without a Sync: the service's log says what.
    await page.goto(`${origin}/#/dashboard`);
    const spent = serviceSpend(await serviceLog(vendesk), (e) => (e.status === 'SUCCESS' || e.status === 'PENDING') && lagosDay(e.created_at) === today);
    expect(spent.purchases).toBe(2);
    await expect(page.getByTestId('spend-today-face')).toHaveText(formatNaira(spent.faceKobo));
    await expect(page.getByTestId('spend-today-cost')).toHaveText(formatNaira(spent.costKobo));
    await expect(page.getByTestId('connection-badge')).toHaveText('SANDBOX');
    await expect(page.getByTestId('connection-status')).toHaveAttribute('data-state', 'up');
    await saveScreen(page, 'connections-sandbox-dashboard.png', { fullPage: true });
    await page.goto(`${origin}/#/pending`);
    await expect(page.getByTestId('pending-table').getByRole('row').filter({ hasText: '45012340000' })).toBeVisible();
    await saveScreen(page, 'connections-sandbox-pending.png', { fullPage: true });

    // Settings: a live profile on this computer's loopback is accepted with a warning.
    await page.goto(`${origin}/#/settings`);
    await page.getByLabel('Name').fill('Acme live');
    await page.getByLabel('Service address').fill(live.url);
    await expect(page.getByText(/Plain http:\/\/ on this computer/).first()).toBeVisible();
    await page.getByLabel('API token').fill(LIVE_TOKEN);
    await page.getByRole('button', { name: 'Save profile' }).click();
    const row = page.getByRole('row').filter({ hasText: 'Acme live' });
    await expect(row.getByTestId('profile-warning')).toContainText('Plain http://');
    await row.getByRole('button', { name: 'Use this profile' }).click();
    const confirm = page.getByRole('dialog', { name: 'Switch to a LIVE connection?' });
    await expect(confirm).toContainText('real money');
    await saveScreen(page, 'connections-confirm-live.png');
    await confirm.getByTestId('confirm-live-switch').click();
    await expect(page.getByTestId('connection-badge')).toHaveText('LIVE');
    await expect(page.getByTestId('connection-status')).toHaveAttribute('data-state', 'up');
    await expect(page.getByTestId('connection-status')).toContainText('Acme live');
    await saveScreen(page, 'connections-live-settings.png', { fullPage: true });

    // Nothing of the sandbox under the live connection: its own wallet, no spend, nothing pending.
    await page.goto(`${origin}/#/dashboard`);
    await expect(page.getByTestId('wallet-balance')).toContainText(formatNaira(250_000_00));
    await expect(page.getByTestId('spend-today-face')).toHaveText(formatNaira(0));
    await expect(page.getByTestId('spend-today-cost')).toHaveText(formatNaira(0));
    await expect(page.getByTestId('pending-count')).toContainText('Nothing waiting for an answer');
    await saveScreen(page, 'connections-live-dashboard.png', { fullPage: true });
    await page.goto(`${origin}/#/pending`);
    await expect(page.getByTestId('pending-table').getByRole('row').filter({ hasText: '45012340000' })).toHaveCount(0);
    await saveScreen(page, 'connections-live-pending.png', { fullPage: true });
    await page.goto(`${origin}/#/purchases`);
    await page.getByRole('tab', { name: /Electricity/ }).click();
    await expect(page.getByText('45012341234')).toHaveCount(0);
    await saveScreen(page, 'connections-live-purchases.png', { fullPage: true });
  } finally {
    await live?.close();
    live = null;
  }
});
