/**
 * The desktop app on Linux without a keyring (Electron's safeStorage on its `basic_text` fallback):
 * the token is never stored, and Settings says so where the token would be entered. The real token
 * store runs here with a fake safeStorage, behind the same renderer.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SafeStorageTokenStore } from '../../src/main/shell/safeTokenStore';
import { SESSION_HEADER } from '../../src/shared/webSession';
import { fakeSafeStorage } from '../support/fakeSafeStorage';
import { startTestApp } from '../support/testApp';
import { expect, saveScreen, test } from './support/fixtures';

test('without a keyring Settings says how to get one instead of asking for the token, and no token is stored', async ({ browser }) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-keyring-'));
  const tokensFile = path.join(dir, 'tokens.json');
  const vendesk = await startTestApp({ web: true, tokenStore: new SafeStorageTokenStore(tokensFile, fakeSafeStorage('basic_text'), 'linux') });
  const page = await browser.newPage();
  try {
    await page.goto(vendesk.shell!.openUrl);
    await page.goto(`${vendesk.shell!.origin}/#/settings`);
    const refusal = page.getByTestId('token-refusal');
    await expect(refusal).toContainText('The API token cannot be saved on this computer');
    await expect(refusal).toContainText('This computer has no keyring');
    await expect(refusal).toContainText('GNOME Keyring (the gnome-keyring package) or KDE Wallet');
    await expect(refusal).toContainText('VENDESK_TOKEN');
    await expect(page.getByLabel('API token', { exact: true })).toHaveCount(0);

    // The profile itself is saved (its token can come from VENDESK_TOKEN), and says why it has none.
    await page.getByLabel('Name').fill('Production');
    await page.getByLabel('Service address').fill('https://vending.example.ng');
    await page.getByRole('button', { name: 'Save profile' }).click();
    await expect(page.getByRole('row', { name: /Production/ })).toContainText('Missing — this computer cannot store it (see below)');
    await saveScreen(page, 'settings-no-keyring.png', { fullPage: true });

    // A caller that skips the page and sends a token anyway is refused, and nothing reaches the disk.
    const sent = await page.evaluate(
      async (secretHeader) => {
        const response = await fetch('/api/profiles.save', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', ...secretHeader },
          body: JSON.stringify({ name: 'Production 2', baseUrl: 'https://vending.example.ng', token: 'tok-live-should-not-be-stored' }),
        });
        return { status: response.status, body: await response.text() };
      },
      { [SESSION_HEADER]: vendesk.shell!.secret },
    );
    expect(sent.status).toBe(422);
    expect(sent.body).toContain('no_keyring');
    expect(sent.body).not.toContain('tok-live-should-not-be-stored');
    expect(fs.existsSync(tokensFile) ? fs.readFileSync(tokensFile, 'utf8') : '').not.toContain('tok-live');
    expect((await vendesk.call('profiles.list', {})).map((p) => p.name)).not.toContain('Production 2');
  } finally {
    await page.close();
    await vendesk.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
