/**
 * What a user sees when vendesk is switched to another connection while a purchase is being
 * prepared: it is refused, says nothing was bought and what to do, and nothing is bought at either
 * service.
 */
import { teamGate } from '../../src/main/buying/teamGate';
import { holdMethod } from '../support/heldAnswer';
import { sandboxLog } from '../support/sandboxRecords';
import { startTestSandbox } from '../support/testSandbox';
import { until } from '../support/until';
import { expect, reviewAirtime, saveScreen, test } from './support/fixtures';

test('a top-up switched to another connection while it is prepared is refused with what to do, and bought nowhere', async ({ page, vendesk }) => {
  const other = await startTestSandbox({ tokens: ['connection-changed-b'] });
  try {
    const origin = vendesk.shell?.origin ?? '';
    const b = await vendesk.call('profiles.save', { name: 'Head office', baseUrl: other.url, token: 'connection-changed-b' });
    const phone = '08031110044';
    await page.goto(`${origin}/#/purchases`);
    await reviewAirtime(page, { phone, amount: '1,500' });
    // The approval check answers slowly (a slow team database); the connection is switched meanwhile.
    const gate = holdMethod(vendesk.app.service(teamGate), 'single');
    await page.getByRole('dialog', { name: 'Confirm the airtime purchase' }).getByTestId('topup-buy').click();
    await until(() => gate.asked, 'the approval check of the purchase');
    await vendesk.call('profiles.activate', { id: b.id, confirmLive: true });
    gate.release();

    const alert = page.getByRole('alert').filter({ hasText: 'The connection changed' });
    await expect(alert).toContainText('The connection changed while the purchase was being prepared. Nothing was bought.');
    await expect(alert).toContainText('Check the connection shown at the top, then buy again.');
    // What was checked on the other connection (its wallet) is no longer shown: check again here.
    await expect(page.getByTestId('topup-checked')).toHaveCount(0);
    await expect(page.getByTestId('topup-review')).toHaveCount(0);
    await saveScreen(page, 'topup-connection-changed.png', { fullPage: true });
    expect((await sandboxLog(vendesk)).filter((e) => e.phone_number === phone)).toEqual([]);
    const atOther = await fetch(`${other.url}/logEntries?page=1&perPage=100`, { headers: { Authorization: 'Bearer connection-changed-b' } });
    expect(((await atOther.json()) as { data: { Items: unknown[] } }).data.Items).toEqual([]);
  } finally {
    await other.close();
  }
});
