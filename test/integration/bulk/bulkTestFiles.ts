/**
 * Spreadsheets for the bulk tests, written to a temporary folder as CSV; the sandbox's log read
 * back; and the CLI tests' sandbox, data folder and `vendesk` runs.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { createApp, type App } from '../../../src/main/app';
import { createBulkService } from '../../../src/main/buying/bulkService';
import { startTestSandbox, type TestSandbox } from '../../support/testSandbox';
import type { BulkJobView, BulkSettingsView } from '../../../src/shared/contract/bulk';
import { startTestApp, type TestApp, type TestAppOptions } from '../../support/testApp';
import { runVendesk, spawnVendesk, type VendeskRun } from '../../support/vendeskProcess';
import { FAST_RETRY } from '../api/sandboxHarness';

export function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-bulk-'));
}

export function writeCsv(dir: string, name: string, rows: (string | number)[][]): string {
  const file = path.join(dir, name);
  const text = rows.map((r) => r.map((c) => (/[",\n]/.test(String(c)) ? `"${String(c).replace(/"/g, '""')}"` : String(c))).join(',')).join('\n');
  fs.writeFileSync(file, `${text}\n`);
  return file;
}

/** A distinct valid MTN number per index: 0803 + 7 digits. */
export function mtnPhone(i: number): string {
  return `0803${String(1_000_000 + i).slice(-7)}`;
}

export function airtimeRows(count: number, amountNaira = 100, offset = 0): (string | number)[][] {
  const rows: (string | number)[][] = [['Name', 'Phone', 'Network', 'Amount']];
  for (let i = 0; i < count; i++) rows.push([`Staff ${i + 1}`, mtnPhone(i + offset), 'MTN', amountNaira]);
  return rows;
}

/** Jobs of this app run on a short clock: polls, ticks, backoffs and holds in tenths of a second. */
export function fastJobs(app: App): void {
  const bulk = app.service(createBulkService);
  bulk.timing = { ...bulk.timing, pollMs: 300, tickMs: 50, backoffBaseMs: 200, holdBaseMs: 500 };
}

/** A vendesk for job tests: fast jobs that wait 30 s for outcomes and trust the log's silence after 1 s. */
export async function startBulkTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const t = await startTestApp(options);
  fastJobs(t.app);
  await t.call('bulk.settings.set', { outcomeWaitSeconds: 30, uncertainSafeDelaySeconds: 1 });
  return t;
}

/**
 * For a test that is not about the service's own waits: the sandbox settles accepted airtime/data
 * after 0.5 s instead of 5 s. A test about an item still in progress (a 429 while the same phone
 * and amount is not final) keeps the 5 s.
 */
export const QUICK_SETTLEMENT = { creditDelayMs: 500 } satisfies TestAppOptions;

/**
 * For a test that is not about the client's backoff either: its retries of a 503 come 10–40 ms
 * apart instead of 0.5–1 s (still 3 tries). A test whose 503s are the window in which it changes
 * something (the wallet, the cap, a pause) keeps the client's own delays.
 */
export const QUICK_SERVICE: TestAppOptions = { ...QUICK_SETTLEMENT, clientRetry: FAST_RETRY };

/**
 * The bulk path suites' app and folder: `start(options)` in a `beforeEach` makes them (a fresh
 * `startBulkTestApp` and a temporary folder), both removed after each test; `prepareAirtime`
 * prepares an airtime job from CSV rows written into the folder.
 */
export function bulkPathRun() {
  const run = {
    t: undefined as unknown as TestApp,
    dir: '',
    async start(options: TestAppOptions = {}): Promise<void> {
      run.t = await startBulkTestApp(options);
      run.dir = tempDir();
    },
    prepareAirtime(rows: (string | number)[][], name = 'sheet.csv', keepDuplicates = false) {
      const file = writeCsv(run.dir, name, rows);
      return run.t.call('bulk.prepare', { file: { path: file }, kind: 'airtime', keepDuplicates });
    },
  };
  afterEach(async () => {
    await run.t.close();
    fs.rmSync(run.dir, { recursive: true, force: true });
  });
  return run;
}

/** For each test of the file: a fresh `startBulkTestApp` and a temporary folder, both removed after the test. */
export function bulkTestEach(options: TestAppOptions = {}): { t: TestApp; dir: string } {
  const current = {} as { t: TestApp; dir: string };
  beforeEach(async () => {
    current.t = await startBulkTestApp(options);
    current.dir = tempDir();
  });
  afterEach(async () => {
    await current.t.close();
    fs.rmSync(current.dir, { recursive: true, force: true });
  });
  return current;
}

export async function waitForJob(t: TestApp, jobId: string, until: (j: BulkJobView) => boolean, timeoutMs = 60_000): Promise<BulkJobView> {
  const start = Date.now();
  for (;;) {
    const j = await t.call('bulk.status', { jobId });
    if (until(j)) return j;
    if (Date.now() - start > timeoutMs) throw new Error(`job ${jobId} did not reach the expected state: ${JSON.stringify(j)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

export { allLogEntries, type LogRow } from '../../support/serviceLogEntries';

/** Job settings for the CLI's fault tests: small batches so kills land mid-run, a short safe delay so no test waits 2 minutes. */
export const QUICK_CLI_JOBS: Partial<BulkSettingsView> = { batchSize: 5, concurrency: 2, uncertainSafeDelaySeconds: 1, outcomeWaitSeconds: 30 };

export interface CliSandbox {
  sandbox: TestSandbox;
  /** The CLI's data folder (and HOME). */
  dataDir: string;
}

/**
 * A sandbox that knows only `token`, and a data folder for the CLI. With `jobSettings`, a vendesk
 * on a LIVE connection first saves them as the folder's bulk settings.
 */
export async function startCliSandbox(token: string, jobSettings?: Partial<BulkSettingsView>): Promise<CliSandbox> {
  const sandbox = await startTestSandbox({ tokens: [token] });
  const dataDir = tempDir();
  if (jobSettings) {
    const app = await createApp({ dataDir, shell: 'test', connection: { baseUrl: sandbox.url, token, kind: 'live' } });
    app.settings.set('bulk.settings', jobSettings);
    await app.close();
  }
  return { sandbox, dataDir };
}

export async function stopCliSandbox({ sandbox, dataDir }: { sandbox: Pick<TestSandbox, 'close'>; dataDir: string }): Promise<void> {
  await sandbox.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

function cliCall(token: string, args: string[], dataDir: string, baseUrl: string): [string[], { HOME: string; VENDESK_TOKEN: string }] {
  return [[...args, '--data-dir', dataDir, '--base-url', baseUrl, '--json'], { HOME: dataDir, VENDESK_TOKEN: token }];
}

/** `vendesk ARGS --data-dir DIR --base-url URL --json` as `token`'s organisation, running. */
export function spawnBulkCli(token: string, args: string[], dataDir: string, baseUrl: string): VendeskRun {
  return spawnVendesk(...cliCall(token, args, dataDir, baseUrl));
}

/** The same, run to the end. */
export function runBulkCli(token: string, args: string[], dataDir: string, baseUrl: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return runVendesk(...cliCall(token, args, dataDir, baseUrl));
}

/** What `vendesk bulk validate --json` prints. */
export interface BulkValidateJson {
  rows: number;
  valid: number;
  invalid: number;
  duplicates: number;
  toBuy: number;
  totalAmount: number;
  leftOut: {
    row: number;
    phone: string;
    account: string | null;
    amount: number;
    sameAsRow: number | null;
    boughtRecently: { at: string; reference: string | null } | null;
    reason: string;
  }[];
  errors: { row: number; field: string; message: string }[];
}
