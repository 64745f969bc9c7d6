/**
 * Every page and tab of the window, light and dark, at 1024×700 and 1440×900: an axe-core scan with
 * WCAG 2.0–2.2 A/AA and axe's best practices that must report no violation at any impact (one
 * level-one heading a page, headings in order, no empty table heading, …), and a screenshot of
 * each under .tmp/screens/ to look at.
 * The app has history (a synced mirror, a bulk job, a reconcile run) so tables show real rows.
 * Each look (theme × size) is two tests, the work pages and the messaging and settings pages, each
 * with an app of its own, so that the workers share them (the file's tests run in parallel).
 */
import { violations } from './support/axe';
import { expect, NARROW_SCREEN, pageSettled, saveScreen, SCREEN_SIZES, setTheme, test, watchLoads } from './support/fixtures';

test.use({ appOptions: { seedHistory: 60 } });
// Every test has its own app, data folder and port, and its own screenshot names.
test.describe.configure({ mode: 'parallel' });

interface View {
  name: string;
  path: string;
  heading: string;
  tab?: string;
}

const VIEWS: View[] = [
  // The work pages.
  { name: 'dashboard', path: 'dashboard', heading: 'Dashboard' },
  { name: 'purchases-bulk', path: 'purchases', heading: 'Purchases', tab: 'Bulk purchases' },
  { name: 'purchases-topup', path: 'purchases', heading: 'Purchases', tab: 'Airtime and data' },
  { name: 'purchases-electricity', path: 'purchases', heading: 'Purchases', tab: 'Electricity' },
  { name: 'purchases-cable', path: 'purchases', heading: 'Purchases', tab: 'Cable TV' },
  { name: 'transactions', path: 'transactions', heading: 'Transactions' },
  { name: 'pending', path: 'pending', heading: 'Pending' },
  { name: 'reconcile', path: 'reconcile', heading: 'Reconcile' },
  { name: 'catalog', path: 'catalog', heading: 'Catalog' },
  { name: 'approvals', path: 'approvals', heading: 'Approvals' },
  { name: 'standing', path: 'standing', heading: 'Standing orders' },
  // The messaging and settings pages.
  { name: 'messaging-send', path: 'messaging', heading: 'Messaging', tab: 'Send' },
  { name: 'messaging-phonebooks', path: 'messaging', heading: 'Messaging', tab: 'Phonebooks' },
  { name: 'messaging-templates', path: 'messaging', heading: 'Messaging', tab: 'Templates' },
  { name: 'messaging-senders', path: 'messaging', heading: 'Messaging', tab: 'Sender IDs' },
  { name: 'messaging-history', path: 'messaging', heading: 'Messaging', tab: 'History & status' },
  { name: 'messaging-otp', path: 'messaging', heading: 'Messaging', tab: 'One-time codes' },
  { name: 'settings-profiles', path: 'settings', heading: 'Settings', tab: 'Profiles' },
  { name: 'settings-team', path: 'settings', heading: 'Settings', tab: 'Team' },
  { name: 'settings-sync', path: 'settings', heading: 'Settings', tab: 'Sync' },
  { name: 'settings-accounts', path: 'settings', heading: 'Settings', tab: 'Account map' },
  { name: 'settings-data', path: 'settings', heading: 'Settings', tab: 'Data folder' },
  { name: 'settings-diagnostics', path: 'settings', heading: 'Settings', tab: 'Diagnostics' },
];

/** The views in two halves of about the same work: every view is in exactly one. */
const GROUPS: { name: string; views: View[] }[] = [
  { name: 'every work page', views: VIEWS.filter((v) => !/^(messaging|settings)-/.test(v.name)) },
  { name: 'every messaging and settings page', views: VIEWS.filter((v) => /^(messaging|settings)-/.test(v.name)) },
];

for (const scheme of ['light', 'dark'] as const) {
  for (const size of SCREEN_SIZES) {
    for (const group of GROUPS) {
      test(`${group.name} at ${size.width}×${size.height} in the ${scheme} theme has no accessibility problem`, async ({ page, vendesk }) => {
        // A hang guard, not a speed target: each view is loaded, settled, saved and scanned on a busy machine.
        test.setTimeout(group.views.length * 30_000);
        watchLoads(page);
        // History to show: the mirror synced, so Transactions, Dashboard and Reconcile have rows.
        await vendesk.call('sync.run', {});
        await page.setViewportSize(size);
        await setTheme(page, scheme);
        const found: string[] = [];
        for (const view of group.views) {
          await page.goto(`${vendesk.shell!.origin}/#/${view.path}`);
          await expect(page.getByRole('heading', { name: view.heading, level: 1 })).toBeVisible();
          // Exactly one level-one heading: the page's title.
          await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
          if (view.tab) {
            await page.getByRole('tab', { name: view.tab, exact: true }).click();
            await expect(page.getByRole('tab', { name: view.tab, exact: true })).toHaveAttribute('aria-selected', 'true');
          }
          // Let the page's first loads settle (their loaders are not what a user reads).
          await pageSettled(page);
          await saveScreen(page, `a11y-${view.name}-${scheme}-${size.width}.png`);
          found.push(...(await violations(page)).map((line) => `${view.name}: ${line}`));
        }
        expect(found, found.join('\n')).toEqual([]);
      });
    }
  }
}

test('the page of a tab opened without the link is one clear page, readable in both themes', async ({ browser, vendesk }) => {
  for (const scheme of ['light', 'dark'] as const) {
    const context = await browser.newContext({ viewport: NARROW_SCREEN });
    await context.addInitScript((s) => localStorage.setItem('vendesk-color-scheme', s), scheme);
    const page = await context.newPage();
    await page.goto(`${vendesk.shell!.origin}/`);
    await expect(page.getByRole('heading', { name: 'Open vendesk from the link it printed in the terminal' })).toBeVisible();
    // One page: no alerts stacked on it, nothing that looks live.
    await expect(page.getByRole('alert')).toHaveCount(0);
    await expect(page.getByRole('button')).toHaveCount(0);
    await expect(page.getByRole('navigation')).toHaveCount(0);
    await saveScreen(page, `a11y-sign-in-needed-${scheme}-1024.png`);
    expect(await violations(page)).toEqual([]);
    await context.close();
  }
});
