import { defineConfig } from '@playwright/test';
import { chromiumExecutable } from './test/e2e/support/chromium';

/**
 * End-to-end tests drive the real renderer through the web shell in Debian's Chromium
 * (no browser download). Each test starts its own app (its own data folder, sandbox and, where a
 * file needs one, PostgreSQL cluster, each on a free 127.0.0.1 port) and saves its screenshots
 * under names of its own, so two workers (the two cores) run two files at once. A file's tests
 * run one after another unless the file says they are independent
 * (`test.describe.configure({ mode: 'parallel' })`).
 */
/**
 * Files whose tests run one after another for longest (a team database shared by the file's steps;
 * a million-row mirror) are handed out first, so the many short files fill the other worker
 * meanwhile and neither worker is left alone with a long file at the end.
 */
const LONG_FIRST = ['**/teamApprovals.e2e.ts', '**/transactionsDeep.e2e.ts'];

export default defineConfig({
  testDir: 'test/e2e',
  testMatch: '**/*.e2e.ts',
  fullyParallel: false,
  workers: 2,
  retries: 0,
  timeout: 90_000,
  expect: { timeout: 15_000 },
  reporter: [['list']],
  outputDir: 'test-results',
  projects: [
    { name: 'long first', testMatch: LONG_FIRST },
    { name: 'e2e', testIgnore: LONG_FIRST },
  ],
  use: {
    headless: true,
    viewport: { width: 1400, height: 900 },
    launchOptions: {
      executablePath: chromiumExecutable(),
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-dev-shm-usage'],
    },
    trace: 'off',
    screenshot: 'only-on-failure',
  },
});
