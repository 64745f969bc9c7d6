/**
 * The Dashboard's Pending purchases card counts airtime for one number waiting for its answer as
 * well as an electricity token, and says where each is followed.
 */
import { createBulkService } from '../../src/main/buying/bulkService';
import { sandboxLog } from '../support/sandboxRecords';
import { expect, saveScreen, test } from './support/fixtures';
import { receiptOf } from '../support/receiptOf';

// The service keeps airtime in progress for 10 minutes of its clock, which no one moves here.
test.use({ appOptions: { creditDelayMs: 600_000 } });

test('Pending purchases counts a pending token and a pending top-up, and says where each is followed', async ({ page, vendesk }) => {
  const origin = vendesk.shell?.origin ?? '';
  const bulk = vendesk.app.service(createBulkService);
  bulk.timing = { ...bulk.timing, pollMs: 300, tickMs: 50 };
  await vendesk.call('bulk.settings.set', { outcomeWaitSeconds: 0 });
  const token = await receiptOf(vendesk.call('purchases.buyElectricity', { disco: 'IKEDC', meter: '45012340000', vendType: 'PREPAID', amountKobo: 150_000, phone: '08031234567' }));
  const topUp = await receiptOf(vendesk.call('purchases.buyTopUp', { kind: 'airtime', phone: '08031110033', amountKobo: 20_000 }));
  expect([token.state, topUp.state]).toEqual(['pending', 'pending']);
  expect((await sandboxLog(vendesk)).filter((e) => e.status === 'PENDING')).toHaveLength(2);

  await page.goto(`${origin}/#/`);
  await expect(page.getByTestId('pending-count')).toContainText('Pending purchases2');
  await expect(page.getByText('Waiting for a final answer: 1 electricity or cable (see Pending), 1 airtime or data (see Purchases)')).toBeVisible();
  await saveScreen(page, 'dashboard-pending.png', { fullPage: true });
});
