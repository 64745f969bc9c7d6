/**
 * Issue 24, findings 8 and 12, in the window:
 * - a LIVE profile whose service does not answer shows "Not known — the service is not answering"
 *   on the Dashboard (wallet, today, week, month) instead of a bold ₦0.00, and the header's state
 *   is never cut, whatever the profile's name;
 * - Settings is split into sections: Profiles, Team, Sync, Account map, Data folder and Diagnostics (the
 *   service's answers folded), so "Add a live profile" and Team are reached without scrolling.
 * Screenshots of both, at 1440 and 1024 px, light and dark.
 */
import { startTestSandbox } from '../support/testSandbox';
import { expect, saveScreen, SCREEN_SIZES, setTheme, test } from './support/fixtures';

// Every test has its own app, data folder and port, and its own screenshot names.
test.describe.configure({ mode: 'parallel' });

const LIVE_TOKEN = 'e2e-unanswered-live-4c2d';

test('a LIVE profile that does not answer: "Not known" instead of ₦0.00, and the header says so in full', async ({ page, vendesk }) => {
  const live = await startTestSandbox({ tokens: [LIVE_TOKEN], accountName: 'Acme Live Ltd', initialBalanceNaira: 250_000 });
  const profile = await vendesk.call('profiles.save', { name: 'Acme Finance — production, head office', baseUrl: live.url, token: LIVE_TOKEN });
  await vendesk.call('profiles.activate', { id: profile.id, confirmLive: true });
  // The service stops answering before vendesk ever read its log.
  await live.close();
  for (const scheme of ['light', 'dark'] as const) {
    for (const size of SCREEN_SIZES) {
      await page.setViewportSize(size);
      await page.goto(`${vendesk.shell!.origin}/#/dashboard`);
      await setTheme(page, scheme);
      await expect(page.getByTestId('connection-badge')).toHaveText('LIVE');
      await expect(page.getByTestId('wallet-balance-not-known')).toHaveText('Not known — the service is not answering');
      for (const period of ['today', 'week', 'month']) {
        const card = page.getByTestId(`spend-${period}`);
        await expect(card.getByTestId(`spend-${period}-not-known`)).toHaveText('Not known — the service is not answering');
        await expect(card).not.toContainText('₦');
        await expect(card).not.toContainText('0 purchases');
      }
      // The daily chart's 30-day totals are not known either.
      await expect(page.getByTestId('spend-chart-not-known')).toContainText('Not known — the service is not answering');
      await expect(page.getByTestId('spend-chart-card')).not.toContainText('₦');
      const status = page.getByTestId('connection-status');
      await expect(status).toHaveAttribute('data-state', 'unreachable');
      await expect(status).toContainText('· service not answering');
      // Never cut: the state's words fit in their box (the profile's long name may be shortened).
      const state = status.getByText('· service not answering');
      expect(await state.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
      const box = await state.boundingBox();
      expect(box && box.x + box.width <= size.width).toBe(true);
      await saveScreen(page, `unanswered-live-dashboard-${scheme}-${size.width}.png`);
    }
  }
});

test('Settings is split into sections reached without scrolling; the service answers are folded', async ({ page, vendesk }) => {
  // Answers of every endpoint to show under Diagnostics (the Dashboard the window opened on syncs by itself).
  await vendesk.call('connection.doctor', {});
  for (const scheme of ['light', 'dark'] as const) {
    for (const size of SCREEN_SIZES) {
      await page.setViewportSize(size);
      await page.goto(`${vendesk.shell!.origin}/#/settings`);
      await setTheme(page, scheme);
      const tabs = ['Profiles', 'Team', 'Sync', 'Account map', 'Data folder', 'Diagnostics'];
      for (const name of tabs) await expect(page.getByRole('tab', { name })).toBeInViewport();
      // Profiles first: the list and "Add a live profile" are on the first screen at 1440, without scrolling past diagnostics.
      await expect(page.getByRole('tab', { name: 'Profiles' })).toHaveAttribute('aria-selected', 'true');
      await expect(page.getByTestId('service-answers')).toHaveCount(0);
      const add = page.getByRole('heading', { name: 'Add a live profile' });
      await expect(add).toBeVisible();
      if (size.width === 1440) await expect(add).toBeInViewport();
      const height = await page.evaluate(() => document.documentElement.scrollHeight);
      expect(height).toBeLessThan(size.height * 2);
      await saveScreen(page, `settings-profiles-${scheme}-${size.width}.png`);

      await page.getByRole('tab', { name: 'Team' }).click();
      await expect(page.getByRole('region', { name: 'Team' })).toBeInViewport();
      await saveScreen(page, `settings-team-${scheme}-${size.width}.png`);

      await page.getByRole('tab', { name: 'Data folder' }).click();
      await expect(page.getByTestId('data-dir')).toHaveText(vendesk.dataDir);
      expect(page.url()).toContain('#/settings?section=data');
      await page.reload();
      await expect(page.getByTestId('data-dir')).toHaveText(vendesk.dataDir);

      await page.getByRole('tab', { name: 'Diagnostics' }).click();
      const answers = page.getByTestId('service-answers');
      const toggle = answers.getByTestId('service-answers-toggle');
      await expect(toggle).toHaveText(/^Show the \d+ answers$/);
      await expect(answers.getByTestId('answer-accountBalance')).toHaveCount(0);
      await saveScreen(page, `settings-diagnostics-${scheme}-${size.width}.png`);
      await toggle.click();
      await expect(answers.getByTestId('answer-accountBalance').first()).toBeVisible();
      await expect(toggle).toHaveText('Hide the answers');
    }
  }
});
