/**
 * Playwright fixture: `vendesk` is a running app (sandbox + services + web shell) and `page` is
 * already signed in to it through the one-time session URL.
 */
import { test as base, expect } from '@playwright/test';
import { startTestApp, type TestApp } from '../../support/testApp';

export const test = base.extend<{ vendesk: TestApp }>({
  vendesk: async ({ page }, use) => {
    const vendesk = await startTestApp({ web: true });
    const shell = vendesk.shell;
    if (!shell) throw new Error('web shell did not start');
    await page.goto(shell.openUrl);
    await use(vendesk);
    await vendesk.close();
  },
});

export { expect };
