/**
 * The header says what the automatic sync is doing, beside the connection: the first sync coming,
 * syncing, synced a moment ago, and — paused when the service cannot be reached — that the last
 * sync failed (with why, and when it tries again).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { autoSync, startAutoSync } from '../../src/main/transactions/autoSync';
import { test, expect, SCREENS_DIR } from './support/fixtures';

/** The header and the page title below it. */
async function saveHeader(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENS_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENS_DIR, name), animations: 'disabled', clip: { x: 0, y: 0, width: 1400, height: 130 } });
}

test('the header shows the automatic sync: syncing, synced, and paused while the service is unreachable', async ({ page, vendesk }) => {
  await page.goto(vendesk.shell!.origin + '/#/transactions');
  const badge = page.getByTestId('auto-sync');
  // The test app does not sync by itself until its shell starts the schedule, as the desktop and browser shells do.
  await expect(badge).toContainText(/Not synced yet|Synced/);
  await expect(badge).toHaveAttribute('data-state', 'off');

  startAutoSync(vendesk.app);
  await expect(badge).toHaveAttribute('data-state', /waiting|running/);
  await expect(badge).toHaveText(/Synced just now/, { timeout: 20_000 });
  await expect(badge).toHaveAttribute('data-state', 'waiting');
  await badge.hover();
  await expect(page.getByRole('tooltip')).toContainText('Syncs by itself every 5 min; next at');
  await saveHeader(page, 'header-auto-sync.png');

  // The service goes away: the next sync cannot reach it and the header says so.
  await vendesk.sandbox.close();
  autoSync(vendesk.app).syncSoon(0);
  // Paused after a failure: the header says the sync failed (issue 38: never "Synced" over a failure).
  await expect(badge).toHaveText(/Last sync failed/, { timeout: 30_000 });
  await expect(badge).toHaveAttribute('data-state', 'paused');
  await expect(badge).toHaveAttribute('data-failed', 'true');
  await badge.hover();
  await expect(page.getByRole('tooltip')).toContainText('could not be reached');
  await expect(page.getByRole('tooltip')).toContainText('vendesk tries again by itself at');
  await saveHeader(page, 'header-auto-sync-paused.png');
});
