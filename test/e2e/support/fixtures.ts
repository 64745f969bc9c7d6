/**
 * Playwright fixture: `vendesk` is a running app (sandbox + services + web shell) and `page` is
 * already signed in to it through the one-time session URL.
 */
import fs from 'node:fs';
import path from 'node:path';
import { test as base, expect, type Page, type Request } from '@playwright/test';
import type { SandboxControl } from '../../support/sandboxControl';
import { startTestApp, type TestApp, type TestAppOptions } from '../../support/testApp';

export const test = base.extend<{ vendesk: TestApp; appOptions: TestAppOptions }>({
  /** Options of the app under test, such as the form of the messaging answers: `test.use({ appOptions: form.options })`. */
  appOptions: [{}, { option: true }],
  vendesk: async ({ page, appOptions }, use) => {
    const vendesk = await startTestApp({ ...appOptions, web: true });
    const shell = vendesk.shell;
    if (!shell) throw new Error('web shell did not start');
    await page.goto(shell.openUrl);
    // Signed in means the link's one-time code was traded for the session secret, which the tab
    // keeps in sessionStorage. Wait for that state: a test that navigates at once (or keeps the
    // app's process busy, as loading a million rows does) would otherwise leave the exchange
    // unfinished on a busy machine, and the tab would show "open the link vendesk printed".
    await page.waitForFunction(() => window.sessionStorage.getItem('vendesk.session') !== null, undefined, { timeout: 60_000 });
    await use(vendesk);
    await vendesk.close();
  },
});

export { expect };

/** Where the end-to-end tests leave their screenshots, to look at after a run. */
export const SCREENS_DIR = path.resolve(__dirname, '..', '..', '..', '.tmp', 'screens');

/**
 * Saves a screenshot of the page as `.tmp/screens/<name>`. Transitions are run to their end first,
 * so a dialog that is opening or closing is shown as the user sees it a moment later.
 */
export async function saveScreen(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  fs.mkdirSync(SCREENS_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENS_DIR, name), animations: 'disabled', ...options });
}

/**
 * On the Purchases page's Electricity tab: chooses Ikeja Electric, checks the meter, and fills the
 * amount and phone (nothing is bought until the caller reviews and confirms).
 */
export async function fillElectricityForm(page: Page, form: { meter: string; amount: string; phone: string }): Promise<void> {
  await page.getByRole('combobox', { name: 'Electricity company (disco)' }).click();
  await page.getByRole('option', { name: /Ikeja Electric \(IKEDC\)/ }).click();
  await page.getByLabel('Meter number').fill(form.meter);
  await page.getByRole('button', { name: 'Check meter' }).click();
  await expect(page.getByTestId('meter-name')).not.toBeEmpty();
  await page.getByLabel('Amount (₦)').fill(form.amount);
  await page.getByLabel('Customer phone').fill(form.phone);
}

/**
 * On the Purchases page: opens the Airtime and data tab, enters the number and the amount, checks,
 * and opens the review (nothing is bought until the caller confirms).
 */
export async function reviewAirtime(page: Page, form: { phone: string; amount: string }): Promise<void> {
  await page.getByRole('tab', { name: 'Airtime and data' }).click();
  await page.getByLabel('Phone number').fill(form.phone);
  await page.getByTestId('topup-amount-input').fill(form.amount);
  await page.getByTestId('topup-check').click();
  await expect(page.getByTestId('topup-checked')).toContainText('Ready to buy');
  await page.getByTestId('topup-review').click();
}

/** The two window sizes every page is checked and saved at: a laptop's full screen and a narrow window. */
export const WIDE_SCREEN = { width: 1440, height: 900 };
export const NARROW_SCREEN = { width: 1024, height: 700 };
export const SCREEN_SIZES = [WIDE_SCREEN, NARROW_SCREEN];

/** The page in both themes at both sizes, each saved as `<name>-<width>-<theme>.png` once `ready` (which may bring the page back to the state to show) holds. */
export async function saveEveryLook(page: Page, name: string, ready: () => Promise<void>): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await setTheme(page, scheme);
    for (const size of SCREEN_SIZES) {
      await page.setViewportSize(size);
      await ready();
      await saveScreen(page, `${name}-${size.width}-${scheme}.png`, { fullPage: true });
    }
  }
}

/** Chooses the colour scheme as the header's switch stores it, reloads, and waits until the page is drawn in it. */
export async function setTheme(page: Page, scheme: 'light' | 'dark'): Promise<void> {
  await page.evaluate((s) => localStorage.setItem('vendesk-color-scheme', s), scheme);
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
}

/** The requests a watched page has open (the event stream, open for good, is not counted), and how many it started. */
const loads = new WeakMap<Page, { open: Set<Request>; started: number }>();

/**
 * Starts following the page's requests, so that `pageSettled` can tell when its loads are over.
 * Call it before the page loads what is to be waited for (at the start of the test).
 */
export function watchLoads(page: Page): void {
  if (loads.has(page)) return;
  const state = { open: new Set<Request>(), started: 0 };
  loads.set(page, state);
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/events') return;
    state.open.add(request);
    state.started += 1;
  });
  const over = (request: Request) => state.open.delete(request);
  page.on('requestfinished', over);
  page.on('requestfailed', over);
}

/**
 * Waits until the page's first loads are over, as a user reading it sees it: no request open, and
 * no loader, skeleton or busy button drawn two frames on — twice in a row with no request started
 * in between (a load that starts another once drawn is waited for too). Polled with a generous
 * deadline: a busy machine only takes longer. The page must be watched (`watchLoads`).
 */
export async function pageSettled(page: Page): Promise<void> {
  const state = loads.get(page);
  if (!state) throw new Error('pageSettled needs watchLoads(page) first');
  const busyDrawn = () =>
    page.evaluate(
      () =>
        new Promise<boolean>((resolve) =>
          requestAnimationFrame(() => requestAnimationFrame(() => resolve(document.querySelector('.mantine-Loader-root, .mantine-Skeleton-root, [data-loading]') !== null))),
        ),
    );
  let quietAt = -1;
  await expect
    .poll(
      async () => {
        const started = state.started;
        const quiet = state.open.size === 0 && !(await busyDrawn()) && state.open.size === 0 && state.started === started;
        const settled = quiet && quietAt === started;
        quietAt = quiet ? started : -1;
        return settled;
      },
      { message: 'the page still loads (a request open, or a loader drawn)', timeout: 60_000, intervals: [100] },
    )
    .toBe(true);
}

const HOUR_MS = 3_600_000;

/** The Lagos day (UTC+1), `YYYY-MM-DD`, of a moment the service speaks of (an ISO time or epoch ms). */
export function lagosDay(at: string | number): string {
  return new Date(new Date(at).getTime() + HOUR_MS).toISOString().slice(0, 10);
}

/**
 * Once the service has accepted `expected` airtime or data purchases (`accepted` counts them in its
 * log, polled), its clock moves past the 5 s in which accepted airtime and data stay PENDING: a
 * test that is not about that wait does not spend it in real time.
 */
export async function passTopUpSettlement(control: SandboxControl, accepted: () => Promise<number>, expected: number): Promise<void> {
  await expect.poll(accepted, { timeout: 60_000 }).toBe(expected);
  await control.advanceClock(6);
}
