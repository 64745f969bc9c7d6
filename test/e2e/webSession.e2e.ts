/**
 * The web shell's session is bound to the tab that opened vendesk's link: another web site on
 * another 127.0.0.1 port (browsers share cookies across ports) gets nothing it can use, a reload
 * keeps working, and a tab without the link gets one clear page that says what to do.
 */
import { expect, saveScreen, test } from './support/fixtures';
import { startOtherLocalSite } from './support/otherLocalSite';

const SIGN_IN_HEADING = 'Open vendesk from the link it printed in the terminal';

test('another local web site receives and reads nothing that opens the vendesk API', async ({ page, context, vendesk }) => {
  const shell = vendesk.shell!;
  const site = await startOtherLocalSite();
  try {
    await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
    // The app is in use (calls made, the event stream open) before the user wanders off.
    await expect(page.getByTestId('connection-badge')).toHaveText('SANDBOX');

    // 1. The user follows a link from the vendesk tab to the other site (Referer, same tab).
    await page.evaluate((href) => {
      const a = document.createElement('a');
      a.href = href;
      a.textContent = 'elsewhere';
      document.body.appendChild(a);
      a.click();
    }, site.pageUrl(shell.origin));
    await expect.poll(() => site.reports.length).toBe(1);

    // 2. vendesk open in one tab, the other site in another tab of the same browser.
    const vendeskTab = await context.newPage();
    await vendeskTab.goto(shell.openUrl);
    await expect(vendeskTab.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
    const otherTab = await context.newPage();
    await otherTab.goto(site.pageUrl(shell.origin));
    await expect.poll(() => site.reports.length).toBe(2);

    // The other site's own attempt to call the API got nothing.
    for (const report of site.reports) expect(report.apiCall).not.toMatch(/^200/);

    const seen = site.everythingSeen();
    expect(seen.length).toBeGreaterThan(10);
    for (const text of seen) expect(text).not.toContain(shell.secret);

    // Replay everything it saw against the API, as curl would, with our Host and a forged Origin.
    const cookieHeaders = site.requests.map((r) => r.headers.cookie).filter((c): c is string => !!c);
    const attempts: { label: string; url: string; headers: Record<string, string> }[] = [];
    for (const value of seen) {
      const url = `${shell.origin}/api/app.info`;
      attempts.push({ label: `header ${value}`, url, headers: { 'X-Vendesk-Session': value } });
      attempts.push({ label: `bearer ${value}`, url, headers: { Authorization: `Bearer ${value}` } });
      attempts.push({ label: `cookie vendesk_session=${value}`, url, headers: { Cookie: `vendesk_session=${value}` } });
      attempts.push({ label: `query ${value}`, url: `${url}?session=${encodeURIComponent(value)}`, headers: {} });
    }
    for (const cookie of cookieHeaders) attempts.push({ label: `cookie ${cookie}`, url: `${shell.origin}/api/app.info`, headers: { Cookie: cookie } });
    const call = (url: string, headers: Record<string, string>) =>
      fetch(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Origin: shell.origin, 'Sec-Fetch-Site': 'same-origin', ...headers },
        body: '{}',
      });
    const answered: string[] = [];
    for (const attempt of attempts) {
      const response = await call(attempt.url, attempt.headers);
      await response.body?.cancel();
      if (response.status !== 401 && response.status !== 403) answered.push(`${attempt.label} → ${response.status}`);
    }
    expect(answered).toEqual([]);

    // The same replay with the real secret is answered: the refusals above are the credential's doing.
    const real = await call(`${shell.origin}/api/app.info`, { 'X-Vendesk-Session': shell.secret });
    expect(real.status).toBe(200);
  } finally {
    await site.close();
  }
});

test('a reload keeps the tab signed in; a tab opened without the link shows what to do, nothing live', async ({ page, context, vendesk }) => {
  const shell = vendesk.shell!;
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  expect(page.url()).not.toContain(shell.secret);
  await page.goto(`${shell.origin}/#/settings?section=data`);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
  await expect(page.getByTestId('data-dir')).toHaveText(vendesk.dataDir);

  const fresh = await context.newPage();
  await fresh.goto(`${shell.origin}/#/transactions`);
  await expect(fresh.getByRole('heading', { name: SIGN_IN_HEADING })).toBeVisible();
  await expect(fresh.getByText(`${shell.origin}/#session=`, { exact: false })).toBeVisible();
  // Nothing that looks live: no navigation, no wallet, no buttons, no error boxes.
  await expect(fresh.getByRole('navigation')).toHaveCount(0);
  await expect(fresh.getByRole('button')).toHaveCount(0);
  await expect(fresh.getByRole('alert')).toHaveCount(0);
  await expect(fresh.getByTestId('connection-badge')).toHaveCount(0);
  await saveScreen(fresh, 'sign-in-needed.png');
});

test('a link from an earlier run of vendesk is refused with the same clear page and leaves the address bar', async ({ context, vendesk }) => {
  const shell = vendesk.shell!;
  const stale = 'c0ffee'.repeat(10) + 'c0ff';
  const page = await context.newPage();
  await page.goto(`${shell.origin}/#session=${stale}`);
  await expect(page.getByRole('heading', { name: SIGN_IN_HEADING })).toBeVisible();
  await expect(page.getByText('from an earlier run of vendesk')).toBeVisible();
  expect(page.url()).not.toContain(stale);
  await expect(page.getByRole('navigation')).toHaveCount(0);
  await saveScreen(page, 'sign-in-stale-link.png');
  // The printed link, pasted into the same tab (only the #fragment changes), signs it in.
  await page.goto(shell.openUrl);
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
});

test('a link works once: after the tab signs in, the link left in the browser history no longer signs anything in (issue 23, item 14)', async ({ context, vendesk }) => {
  const shell = vendesk.shell!;
  const link = shell.openUrl;
  const code = link.slice(link.indexOf('#session=') + '#session='.length);
  const tab = await context.newPage();
  await tab.goto(link);
  await expect(tab.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  expect(tab.url()).not.toContain(code);
  // A reload keeps the tab signed in (the session is held by the tab, not the link).
  await tab.reload();
  await expect(tab.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();

  // The attack: the link as the browser's history recorded it, opened again in another tab.
  const replay = await context.newPage();
  await replay.goto(link);
  await expect(replay.getByRole('heading', { name: SIGN_IN_HEADING })).toBeVisible();
  await expect(replay.getByText('a link that has already been used')).toBeVisible();
  expect(replay.url()).not.toContain(code);
  await expect(replay.getByRole('navigation')).toHaveCount(0);
  await saveScreen(replay, 'sign-in-used-link.png');
  // …and the code does not open the API either, wherever it is put.
  const asSession = await fetch(`${shell.origin}/api/app.info`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Vendesk-Session': code }, body: '{}' });
  expect(asSession.status).toBe(401);
  // The signed-in tab is untouched by the refused replay.
  await tab.reload();
  await expect(tab.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
});
