import { _electron as electron, expect, test } from '@playwright/test';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(__dirname, '..', '..');
const electronDir = path.join(root, 'node_modules', 'electron');
const runtimeInstalled = fs.existsSync(path.join(electronDir, 'path.txt')) && fs.existsSync(path.join(electronDir, 'dist'));

test.describe('Electron shell', () => {
  // The one allowed skip: the Electron runtime cannot be downloaded on machines without access to
  // its release host (npm's allowScripts denies its install script). Everything else runs here.
  test.skip(!runtimeInstalled, 'Electron runtime is not installed on this machine (its download is unreachable); the web-shell tests cover the same renderer and contract.');

  test('opens the app window on the dashboard with the SANDBOX badge', async () => {
    const userData = fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-electron-'));
    const app = await electron.launch({ args: [root, `--user-data-dir=${userData}`], cwd: root });
    try {
      const win = await app.firstWindow();
      await expect(win.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
      await expect(win.getByTestId('connection-badge')).toHaveText('SANDBOX');
      const isolated = await win.evaluate(() => typeof (window as unknown as { require?: unknown }).require === 'undefined');
      expect(isolated).toBe(true);
    } finally {
      await app.close();
      fs.rmSync(userData, { recursive: true, force: true });
    }
  });
});
