/**
 * A million-row mirror in the browser: the Transactions table is dragged to its last row in a few
 * quick steps, and no frame on the way shows a row still loading or an empty table.
 */
import { warmPositionIndex } from '../../src/main/transactions/logPositionIndex';
import { upsertLogEntriesInTransaction } from '../../src/main/transactions/logStore';
import { generateLogEntries } from '../../bench/generate/logEntries';
import type { ParsedLogEntry } from '../../src/main/api/parseLogEntry';
import { test, expect, saveScreen } from './support/fixtures';

const ROWS = 1_000_000;

test('scrolls to the last of a million rows with no blank frame', async ({ page, vendesk }) => {
  test.setTimeout(300_000);
  const profileId = vendesk.app.connection.profileId;
  let batch: ParsedLogEntry[] = [];
  let oldest: ParsedLogEntry | null = null;
  for (const entry of generateLogEntries(ROWS, 1_000_000)) {
    batch.push(entry);
    oldest = entry;
    if (batch.length === 20_000) {
      upsertLogEntriesInTransaction(vendesk.app.db, profileId, batch, new Date().toISOString());
      batch = [];
    }
  }
  if (batch.length > 0) upsertLogEntriesInTransaction(vendesk.app.db, profileId, batch, new Date().toISOString());
  // What the open app does after each sync: the table's position index is ready before the page opens.
  await warmPositionIndex(vendesk.app.db, profileId);

  await page.goto(vendesk.shell!.origin + '/#/transactions');
  await expect(page.getByTestId('totals-count')).toHaveText('1,000,000', { timeout: 60_000 });
  await expect(page.getByTestId('tx-row').first()).toBeVisible();

  // Every animation frame from now on: is a row still loading, or is the table empty?
  await page.evaluate(() => {
    const w = window as unknown as { frames_: number; blank_: number };
    w.frames_ = 0;
    w.blank_ = 0;
    const tick = () => {
      const table = document.querySelector('[data-testid="transactions-table"]');
      w.frames_ += 1;
      if (!table || table.querySelectorAll('[data-testid="tx-row-loading"]').length > 0 || table.querySelectorAll('[data-testid="tx-row"]').length === 0) w.blank_ += 1;
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });

  const table = page.getByTestId('transactions-table');
  // A quick drag of the scrollbar: ten jumps two frames apart (counted, not timed: a busy machine
  // draws fewer frames a second), then the bottom.
  for (let k = 1; k <= 10; k++) {
    await table.evaluate(
      (el, f) =>
        new Promise<void>((drawn) => {
          el.scrollTop = (el.scrollHeight - el.clientHeight) * f;
          requestAnimationFrame(() => requestAnimationFrame(() => drawn()));
        }),
      k / 10,
    );
  }
  // Row 1 of the grid is its column headings, so the last transaction is row ROWS + 1.
  const last = page.locator(`[aria-rowindex="${ROWS + 1}"]`);
  await expect(last).toBeVisible();
  await expect(last).toContainText(oldest!.transactionId);
  await expect(page.getByTestId('table-position')).toContainText('of 1,000,000');
  // The frames counted so far, once more than ten were drawn: polled, not a fixed 200 ms, since a
  // busy machine draws fewer frames a second (the table keeps its last complete view until new
  // rows arrive, so a slow machine shows no loading row either; it only draws more slowly).
  const frameCount = () => page.evaluate(() => (window as unknown as { frames_: number }).frames_);
  await expect.poll(frameCount, { timeout: 30_000 }).toBeGreaterThan(10);
  const seen = await page.evaluate(() => {
    const w = window as unknown as { frames_: number; blank_: number };
    return { frames: w.frames_, blank: w.blank_ };
  });
  expect(seen.frames).toBeGreaterThan(10);
  expect(seen.blank, `${seen.blank} of ${seen.frames} frames showed a row loading or no rows`).toBe(0);
  await saveScreen(page, 'transactions-bottom-1m.png', { fullPage: true });
});
