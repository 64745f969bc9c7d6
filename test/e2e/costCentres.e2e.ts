/**
 * Issue 41's cost centres in the browser window: a single airtime purchase given its cost centre on
 * the form keeps it; Transactions filters by cost centre with totals equal to the sandbox's own log
 * for it; the Dashboard splits the month by cost centre, adding up to its Spent this month
 * purchases; the Change cost centre dialog records a change (who, when, from what) and, once the
 * purchase's month is closed, says the change is an adjustment of the next open month; Settings →
 * Account map names what a month's journal lacks until it is mapped. Screenshots, light and dark,
 * at 1440 and 1024 px, go to .tmp/screens; every state shown is scanned by axe.
 */
import type { Page } from '@playwright/test';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { formatNaira } from '../../src/shared/money';
import { monthLabel } from '../../src/shared/months';
import { importRecipients } from '../../src/main/costCentres/recipients';
import { createPendingScheduler } from '../../src/main/pending';
import { advanceClocks, toNextMonth } from '../support/serviceClocks';
import { serviceLog, serviceSpend } from '../support/serviceSpend';
import { violations } from './support/axe';
import { expect, pageSettled, passTopUpSettlement, reviewAirtime, saveEveryLook, test, watchLoads } from './support/fixtures';

const LAGOS_MS = 3_600_000;
const SALES = '08031110001'; // bought in the window with the cost centre Sales
const OPS = '08052220003'; // bought with none; the recipients list says Ops
const LOOSE = '08063330005'; // bought with none, on no list: Unassigned

/** Every look of the page (both themes, both sizes), `show` bringing it back to the state to show after each reload, its loads over. */
async function screens(page: Page, name: string, show: () => Promise<void>): Promise<void> {
  await saveEveryLook(page, `i41-${name}`, async () => {
    await show();
    await pageSettled(page);
  });
}

async function noViolations(page: Page, what: string, within?: string): Promise<void> {
  await pageSettled(page);
  expect(await violations(page, within), what).toEqual([]);
}

/** Chooses the cost centre filter; the choices arrive with the page, so it is chosen again until the field shows it (choosing the chosen one would clear it). */
async function chooseCostCentre(page: Page, centre: string): Promise<void> {
  const field = page.getByRole('combobox', { name: 'Cost centre' });
  await expect(async () => {
    if ((await field.inputValue()) === centre) return;
    await field.click();
    await page.getByRole('option', { name: centre, exact: true }).click({ timeout: 5_000 });
    await expect(field).toHaveValue(centre, { timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
}

test('cost centres in the window: kept from the purchase form, a Transactions filter and totals, the Dashboard by cost centre, the change dialog and the account map', async ({
  page,
  vendesk,
}) => {
  test.setTimeout(300_000);
  watchLoads(page);
  vendesk.app.service(createPendingScheduler).pause();
  // Both clocks to 01:00 Lagos on the first of next month: a month holding only this test's purchases.
  const { month, next, nextStartMs } = await toNextMonth(vendesk);
  const list = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'recipients-')), 'recipients.csv');
  fs.writeFileSync(list, `Phone,Cost centre\n${OPS},Ops\n`);
  // The web shell names only uploaded files: the list is imported through the service, as the CLI's `recipients import` does.
  // Awaited, so the list is in before the purchase; its record stamp plays no part in matching (a fixed instant).
  expect(await importRecipients(vendesk.app.db, list, '2026-11-29T09:00:00.000Z')).toMatchObject({ rows: 1, phones: 1 });

  // A single airtime purchase, its cost centre typed on the form (suggested from the list in use).
  const origin = vendesk.shell!.origin;
  await page.goto(`${origin}/#/purchases`);
  await page.getByRole('tab', { name: 'Airtime and data' }).click();
  await page.getByTestId('cost-centre-input').fill('Sales');
  await reviewAirtime(page, { phone: SALES, amount: '100' });
  await expect(page.getByTestId('confirm-cost-centre')).toHaveText('Sales');
  await page.getByTestId('topup-buy').click();
  await expect(page.getByTestId('buy-another')).toBeVisible({ timeout: 60_000 });
  await vendesk.call('purchases.buyTopUp', { kind: 'airtime', phone: OPS, amountKobo: 20_000 });
  await vendesk.call('purchases.buyTopUp', { kind: 'airtime', phone: LOOSE, amountKobo: 30_000 });
  await passTopUpSettlement(vendesk.sandboxControl, async () => (await serviceLog(vendesk)).length, 3);
  await vendesk.call('sync.run', {});
  const log = await serviceLog(vendesk);
  const ofPhone = (phone: string) => serviceSpend(log, (e) => e.phone_number === phone && e.status !== 'FAILED');

  // Transactions, filtered by Sales: the totals are the service's for that purchase, every row says Sales.
  await page.goto(`${origin}/#/transactions`);
  await chooseCostCentre(page, 'Sales');
  const sales = ofPhone(SALES);
  await expect(page.getByTestId('totals-count')).toHaveText(String(sales.purchases));
  await expect(page.getByTestId('totals-amount')).toHaveText(formatNaira(sales.faceKobo));
  await expect(page.getByTestId('totals-cost')).toHaveText(formatNaira(sales.costKobo));
  await expect(page.getByTestId('tx-cost-centre')).toHaveText(['Sales']);
  // Unassigned is always a choice: the purchase on no list, and nothing else of this month.
  await chooseCostCentre(page, 'Unassigned');
  await expect(page.getByTestId('totals-amount')).toHaveText(formatNaira(ofPhone(LOOSE).faceKobo));
  await chooseCostCentre(page, 'Sales');
  await expect(page.getByTestId('totals-count')).toHaveText('1');
  await noViolations(page, 'Transactions filtered by a cost centre');
  await screens(page, 'transactions-cost-centre', async () => {
    await page.goto(`${origin}/#/transactions`);
    await chooseCostCentre(page, 'Sales');
    await expect(page.getByTestId('tx-cost-centre')).toHaveText(['Sales']);
  });

  // The Dashboard: this month by cost centre, each line the service's, all of them the Spent this month purchases.
  await page.goto(`${origin}/#/dashboard`);
  const breakdown = page.getByTestId('cost-centre-breakdown');
  await expect(breakdown.getByTestId('cost-centre-share')).toHaveCount(3);
  const expectedRows = [
    ['Ops', ofPhone(OPS)],
    ['Sales', sales],
    ['Unassigned', ofPhone(LOOSE)],
  ] as const;
  for (const [i, [centre, spend]] of expectedRows.entries()) {
    await expect(breakdown.getByTestId('cost-centre-share').nth(i).getByRole('cell')).toHaveText([
      centre,
      String(spend.purchases),
      formatNaira(spend.faceKobo),
      formatNaira(spend.costKobo),
    ]);
  }
  const month3 = serviceSpend(log, (e) => e.status !== 'FAILED');
  await expect(breakdown.getByTestId('cost-centre-total').getByRole('cell')).toHaveText(['All cost centres', '3', formatNaira(month3.faceKobo), formatNaira(month3.costKobo)]);
  await expect(page.getByTestId('spend-month-purchases')).toContainText(formatNaira(month3.costKobo));
  await noViolations(page, 'the Dashboard with its cost centres');
  await screens(page, 'dashboard-cost-centres', async () => {
    await page.goto(`${origin}/#/dashboard`);
    await expect(breakdown.getByTestId('cost-centre-share')).toHaveCount(3);
  });

  // The change dialog, from the row's details: the current one, no history yet, then a change recorded.
  const openDialog = async () => {
    await page.goto(`${origin}/#/transactions`);
    await page.reload(); // a fresh page: no details panel left open from before
    await page.getByTestId('filter-search').fill(SALES);
    await expect(page.getByTestId('tx-row')).toHaveCount(1);
    await page.getByTestId('tx-row').click();
    await page.getByTestId('tx-change-cost-centre').click();
    await expect(page.getByTestId('cost-centre-dialog')).toBeVisible();
  };
  await openDialog();
  await expect(page.getByTestId('cost-centre-current')).toHaveText('Sales');
  await expect(page.getByTestId('cost-centre-month')).toHaveText(`${monthLabel(month)} (open)`);
  await expect(page.getByTestId('cost-centre-history-empty')).toBeVisible();
  await expect(page.getByTestId('cost-centre-closed-month')).toHaveCount(0);
  await page.getByTestId('cost-centre-new').fill('Marketing');
  await page.getByTestId('cost-centre-save').click();
  await expect(page.getByTestId('cost-centre-saved')).toHaveText('Changed from Sales to Marketing.');
  await expect(page.getByTestId('cost-centre-current')).toHaveText('Marketing');
  await expect(page.getByTestId('cost-centre-history').locator('tbody tr')).toHaveCount(1);
  await expect(page.getByTestId('cost-centre-history').locator('tbody tr td').nth(2)).toHaveText('Sales');
  await expect(page.getByTestId('cost-centre-history').locator('tbody tr td').nth(3)).toHaveText('Marketing');
  await page.getByTestId('cost-centre-close').click();
  // The detail, read again, says where the row's spend is charged now.
  await expect(page.getByTestId('tx-detail')).toContainText('Marketing (kept on the purchase)');

  // The month closes; the dialog now says a change is an adjustment of the next open month.
  await advanceClocks(vendesk, Math.ceil((nextStartMs + LAGOS_MS - Date.parse((await vendesk.sandboxControl.clock()).now)) / 1000));
  await vendesk.call('monthEnd.close', { month });
  await openDialog();
  await expect(page.getByTestId('cost-centre-month')).toHaveText(`${monthLabel(month)} (closed)`);
  await expect(page.getByTestId('cost-centre-closed-month')).toContainText(`counted as an adjustment in ${monthLabel(next)}, the next open month`);
  await noViolations(page, 'the Change cost centre dialog of a closed month', '[role="dialog"]:has([data-testid="cost-centre-dialog"])');
  await screens(page, 'change-cost-centre-dialog', openDialog);
  await page.getByTestId('cost-centre-new').fill('Sales');
  await page.getByTestId('cost-centre-save').click();
  await expect(page.getByTestId('cost-centre-saved')).toHaveText(
    `Changed from Marketing to Sales. ${monthLabel(month)} is closed: the change is counted as an adjustment in ${monthLabel(next)}.`,
  );
  await expect(page.getByTestId('cost-centre-history').locator('tbody tr')).toHaveCount(2);
  expect((await vendesk.call('monthEnd.summary', { month: next })).summary.adjustments.entries).toBe(1);

  // Settings → Account map: the closed month's journal lacks every account, named; mapped, nothing is missing.
  const openMap = async () => {
    await page.goto(`${origin}/#/settings?section=accounts`);
    await page.getByTestId('account-map-month').click();
    await page.getByRole('option', { name: new RegExp(`^${monthLabel(month)}`) }).click();
    await page.getByTestId('account-map-check').click();
  };
  await openMap();
  const unmapped = page.getByTestId('account-map-unmapped');
  await expect(unmapped.getByRole('listitem')).toHaveText(['AIRTIME / Marketing', 'AIRTIME / Ops', 'AIRTIME / Unassigned', 'commission earned', 'the prepaid wallet']);
  await vendesk.call('accounts.set', { kind: 'wallet', account: '1200' });
  await vendesk.call('accounts.set', { kind: 'commission', account: '4100' });
  // One added in the window: airtime of every cost centre.
  await page.getByTestId('account-map-cost-centre').fill('*');
  await page.getByTestId('account-map-account').fill('6100');
  await page.getByTestId('account-map-save').click();
  await expect(page.getByTestId('account-map-row')).toHaveCount(3);
  await expect(page.getByTestId('account-map-row').nth(2).getByRole('cell').nth(3)).toHaveText('6100');
  await expect(page.getByTestId('account-map-check-ok')).toContainText(`Every line of ${monthLabel(month)}’s journal`);
  expect(await vendesk.call('accounts.list', {})).toContainEqual({ kind: 'expense', type: 'AIRTIME', costCentre: '*', account: '6100' });
  await page.getByRole('button', { name: 'Remove the account for Expense AIRTIME *' }).click();
  await expect(page.getByTestId('account-map-row')).toHaveCount(2);
  await expect(unmapped.getByRole('listitem')).toHaveText(['AIRTIME / Marketing', 'AIRTIME / Ops', 'AIRTIME / Unassigned']);
  await noViolations(page, 'Settings → Account map');
  await screens(page, 'settings-account-map', async () => {
    await openMap();
    await expect(unmapped.getByRole('listitem')).toHaveCount(3);
  });
});
