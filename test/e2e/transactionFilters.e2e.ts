/**
 * The Transactions filters of a connection with history (a seeded sandbox, synced): the Network
 * filter offers every disco and cable provider the log holds, SHOWMAX included; choosing one shows
 * only its rows, as many as the sandbox's own log has; From after To clears the figures and the
 * table and says, in a sentence, what to do.
 */
import { reversedDatesMessage } from '../../src/shared/contract/logs';
import { wireTextToKobo } from '../../src/shared/money';
import { sandboxLog } from '../support/sandboxRecords';
import { startTestApp } from '../support/testApp';
import { expect, test, saveScreen } from './support/fixtures';

test('the Network filter offers what the log holds, each choice shows only its rows, and reversed dates clear the figures', async ({ page }) => {
  const vendesk = await startTestApp({ seedHistory: 400, web: true });
  try {
    const shell = vendesk.shell;
    if (!shell) throw new Error('web shell did not start');
    const log = await sandboxLog(vendesk);
    const rowsOf = (network: string) => log.filter((e) => e.network === network);
    const discos = [...new Set(log.filter((e) => e.type.toUpperCase() === 'ELECTRICITY').map((e) => e.network))];
    // The seeded history must hold what this test is about.
    expect(discos.length).toBeGreaterThan(3);
    expect(rowsOf('SHOWMAX').length).toBeGreaterThan(0);
    // A disco the old fixed list (IKEDC, EKEDC, AEDC) did not offer, with the most rows.
    const disco = discos.filter((d) => !['IKEDC', 'EKEDC', 'AEDC'].includes(d)).sort((a, b) => rowsOf(b).length - rowsOf(a).length)[0];

    await page.goto(shell.openUrl);
    await page.goto(`${shell.origin}/#/transactions`);
    await page.getByRole('button', { name: 'Sync now' }).click();
    await expect(page.getByTestId('totals-count')).toHaveText(String(log.length), { timeout: 20_000 });

    await page.getByTestId('filter-network').click();
    const listbox = page.getByRole('listbox');
    for (const d of discos) await expect(listbox.getByRole('option', { name: d, exact: true })).toBeVisible();
    await expect(listbox.getByRole('option', { name: 'SHOWMAX', exact: true })).toBeVisible();
    await expect(listbox.getByRole('option', { name: 'STARTIMES', exact: true })).toBeVisible();
    await saveScreen(page, 'transactions-network-filter.png', { fullPage: true });

    for (const network of [disco, 'SHOWMAX']) {
      if (!(await listbox.isVisible())) await page.getByTestId('filter-network').click();
      await listbox.getByRole('option', { name: network, exact: true }).click();
      const theirs = rowsOf(network);
      await expect(page.getByTestId('totals-count')).toHaveText(String(theirs.length));
      // The face value of what left the wallet: failed entries were refunded and are shown apart.
      const amount = theirs.filter((e) => e.status !== 'FAILED').reduce((sum, e) => sum + (wireTextToKobo(e.amount) ?? NaN), 0);
      await expect(page.getByTestId('totals-amount')).toHaveText(`₦${(amount / 100).toLocaleString('en-NG', { minimumFractionDigits: 2 })}`);
      // The totals can land before the table's window re-renders: wait until every row shown is
      // one of this network's (at least one, at most as many as the log has).
      const shown = page.getByTestId('tx-row');
      await expect
        .poll(async () => {
          const texts = await shown.allInnerTexts();
          if (texts.length === 0 || texts.length > theirs.length) return `showing ${texts.length} rows`;
          const other = texts.find(
            (t) =>
              !t
                .split('\n')
                .map((s) => s.trim())
                .includes(network),
          );
          return other === undefined ? 'only theirs' : `a row of another network: ${other.replace(/\s+/g, ' ')}`;
        })
        .toBe('only theirs');
    }
    await saveScreen(page, 'transactions-showmax.png', { fullPage: true });

    // Dates are typed day first, with or without separators: 01112026 is 1 November 2026.
    await page.getByTestId('filter-from').fill('20/11/2026');
    await page.getByTestId('filter-to').fill('01112026');
    await page.getByTestId('filter-to').blur();
    await expect(page.getByTestId('filter-to')).toHaveValue('01/11/2026');
    await expect(page.getByTestId('filter-problem')).toContainText(reversedDatesMessage('2026-11-20', '2026-11-01'));
    await expect(page.getByTestId('filter-problem')).toContainText('The From date 20 Nov 2026 is after the To date 1 Nov 2026. Swap them');
    for (const id of ['totals-count', 'totals-amount', 'totals-cost', 'totals-commission']) await expect(page.getByTestId(id)).toHaveText('—');
    await expect(page.getByTestId('tx-row')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Export to Excel' })).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Export CSV' })).toBeDisabled();
    await saveScreen(page, 'transactions-reversed-dates.png', { fullPage: true });

    // Swapped, the figures come back for the filter in force.
    await page.getByTestId('filter-from').fill('01/11/2026');
    await page.getByTestId('filter-to').fill('20/11/2026');
    await expect(page.getByTestId('filter-problem')).toHaveCount(0);
    await expect(page.getByTestId('totals-count')).not.toHaveText('—');
  } finally {
    await vendesk.close();
  }
});
