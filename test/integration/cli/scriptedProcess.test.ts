/**
 * vendesk as a nightly script runs it: the real `vendesk` in a child process with the global
 * options first (`vendesk --data-dir D --base-url U --json COMMAND …`), against a standalone
 * sandbox with history. Figures are checked against the sandbox's own log. Also the exit codes
 * a script relies on for a bulk job that waits for someone: paused, interrupted, needing
 * attention — and `vendesk sandbox` and `vendesk web` themselves, both ways round.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeVendorExportCsv } from '../../../bench/generate/vendorExport';
import { createApp } from '../../../src/main/app';
import { createBulkService } from '../../../src/main/buying/bulkService';
import { newItem } from '../../../src/main/buying/jobRows';
import { startTestSandbox, type TestSandbox } from '../../support/testSandbox';
import { wireTextToKobo } from '../../../src/shared/money';
import type { LogEntry, PageObject } from '../../../src/shared/wire';
import { ROOT } from '../../support/testApp';
import { killWhen, runVendesk, spawnVendesk, untilSaid } from '../../support/vendeskProcess';
import { QUICK_CLI_JOBS, airtimeRows, mtnPhone, writeCsv } from '../bulk/bulkTestFiles';
import { runInProcess } from './cliHarness';

const TOKEN = 'nightly-script-org-51a0';
const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'imports');

let sandbox: TestSandbox;
let dataDir: string;

const globals = () => ['--data-dir', dataDir, '--base-url', sandbox.url, '--json'];
/** The real CLI, global options first, as cron would run it. */
const vendesk = (...args: string[]) => runVendesk([...globals(), ...args], { HOME: dataDir, VENDESK_TOKEN: TOKEN });
/** The same in this process, where a test needs no real process. */
const inProcess = (...args: string[]) => runInProcess([...globals(), ...args], { VENDESK_TOKEN: TOKEN });

async function serviceLog(query = ''): Promise<LogEntry[]> {
  const out: LogEntry[] = [];
  for (let page = 1; ; page++) {
    const r = await fetch(`${sandbox.url}/logEntries?page=${page}&perPage=100&status=all${query}`, { headers: { Authorization: `Bearer ${TOKEN}` } });
    const data = ((await r.json()) as { data: PageObject<LogEntry> }).data;
    out.push(...data.Items);
    if (page >= data.TotalPages || data.Items.length === 0) return out;
  }
}

beforeAll(async () => {
  sandbox = await startTestSandbox({ tokens: [TOKEN], seedHistory: 300 });
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-nightly-'));
  await sandbox.control(TOKEN).setWallet(1_000_000);
  // Small batches and a short safe delay, so a kill lands mid-job and nothing waits 2 minutes.
  const app = await createApp({ dataDir, shell: 'test', connection: { baseUrl: sandbox.url, token: TOKEN, kind: 'live' } });
  app.settings.set('bulk.settings', QUICK_CLI_JOBS);
  await app.close();
});
afterAll(async () => {
  await sandbox.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('a nightly script, global options first', () => {
  it('syncs the log, then searches it: the same entries the service holds', async () => {
    const sync = await vendesk('sync');
    expect(sync.code, sync.stderr).toBe(0);
    const log = await serviceLog();
    expect(JSON.parse(sync.stdout)).toMatchObject({ fetched: log.length, inserted: log.length });
    const phone = log[0].phone_number;
    const search = await vendesk('logs', '--search', phone, '--limit', '1000');
    expect(search.code, search.stderr).toBe(0);
    const found = JSON.parse(search.stdout) as { total: number; amount: number; entries: { transactionId: string }[] };
    const expected = log.filter((e) => e.phone_number.includes(phone));
    expect(found.total).toBe(expected.length);
    expect(found.entries.map((e) => e.transactionId).sort()).toEqual(expected.map((e) => e.transaction_id).sort());
    expect(Math.round(found.amount * 100)).toBe(expected.reduce((s, e) => s + (wireTextToKobo(e.amount) ?? NaN), 0));
  });

  it('validates real-world spreadsheets (LibreOffice XLSX and CSV, airtime and data): exit 3 and every bad row named', async () => {
    for (const [file, kind] of [
      ['libreoffice-airtime.xlsx', 'airtime'],
      ['libreoffice-airtime.csv', 'airtime'],
      ['libreoffice-data.xlsx', 'data'],
    ] as const) {
      const r = await vendesk('bulk', 'validate', path.join(FIXTURES, file), '--kind', kind);
      expect(r.code, `${file}: ${r.stderr}`).toBe(3);
      const out = JSON.parse(r.stdout) as { rows: number; valid: number; invalid: number; errors: { row: number; message: string }[] };
      expect(out.valid + out.invalid, file).toBe(out.rows);
      expect(out.errors.length, file).toBeGreaterThan(0);
      for (const e of out.errors) expect(e.message, file).toMatch(new RegExp(`^Row ${e.row}: `));
    }
    const airtime = JSON.parse((await vendesk('bulk', 'validate', path.join(FIXTURES, 'libreoffice-airtime.xlsx'), '--kind', 'airtime')).stdout);
    expect(airtime).toMatchObject({ rows: 10, valid: 7, invalid: 3, duplicates: 1, toBuy: 6, totalAmount: 5200 });
  });

  it('reconciles the vendor export: every row of the service matched, the vendor-only row named', async () => {
    const log = await serviceLog();
    const file = path.join(dataDir, 'vendor export.csv');
    writeVendorExportCsv(file, [...log, { ...log[0], id: '', transaction_id: 'VENDOR-ONLY-9', phone_number: '08059990001' }]);
    const r = await vendesk('reconcile', file, '--out', path.join(dataDir, 'reconciliation.xlsx'));
    expect(r.code, r.stderr).toBe(0);
    const run = JSON.parse(r.stdout) as { runId: string; matched: { count: number }; missingLocally: { count: number } };
    expect(run.matched.count).toBe(log.length);
    expect(run.missingLocally.count).toBe(1);
    expect(fs.statSync(path.join(dataDir, 'reconciliation.xlsx')).size).toBeGreaterThan(0);
    const items = JSON.parse((await vendesk('reconcile', 'items', run.runId, '--category', 'missingLocally')).stdout) as { items: { seq: number; transactionId: string }[] };
    expect(items.items.map((i) => i.transactionId)).toEqual(['VENDOR-ONLY-9']);
    const resolved = await vendesk('reconcile', 'resolve', run.runId, String(items.items[0].seq), '--note', 'vendor test entry, ticket 77');
    expect(JSON.parse(resolved.stdout)).toMatchObject({ resolved: 1 });
  });
});

describe('exit codes of a bulk job that waits for someone', () => {
  it('a job left running by a vendesk that was killed is "interrupted" (exit 1) until resumed (exit 0), and nothing is bought twice', { timeout: 120_000 }, async () => {
    const count = 60;
    const file = writeCsv(dataDir, 'interrupted.csv', airtimeRows(count, 100, 2000));
    const run = spawnVendesk([...globals(), 'bulk', 'submit', file, '--kind', 'airtime', '--yes', '--confirm-total', String(count * 100)], { HOME: dataDir, VENDESK_TOKEN: TOKEN });
    const phones = new Set(Array.from({ length: count }, (_, i) => mtnPhone(2000 + i)));
    const bought = async () => (await serviceLog()).filter((e) => phones.has(e.phone_number)).length;
    expect(await killWhen(run, async () => (await bought()) >= 10)).toBe('killed');
    const jobId = /Job ([0-9a-f-]{36})/.exec(run.stderr)?.[1] ?? '';
    expect(jobId).not.toBe('');

    const status = await vendesk('bulk', 'status', jobId);
    expect(status.code).toBe(1);
    expect(JSON.parse(status.stdout)).toMatchObject({ jobId, state: 'interrupted', message: expect.stringMatching(/^vendesk stopped while this job was running/) });
    const listed = JSON.parse((await vendesk('bulk', 'list')).stdout) as { jobId: string; state: string }[];
    expect(listed.find((j) => j.jobId === jobId)?.state).toBe('interrupted');

    const resumed = await vendesk('bulk', 'resume', jobId);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ state: 'completed', success: count });
    const log = (await serviceLog()).filter((e) => phones.has(e.phone_number));
    expect(log).toHaveLength(count);
    expect(new Set(log.map((e) => e.phone_number)).size).toBe(count);
  });

  it('a paused job exits 1 for submit and status, and 0 once resumed to the end', async () => {
    const file = writeCsv(dataDir, 'paused.csv', airtimeRows(4, 100, 3000));
    await sandbox.control(TOKEN).addFault({ path: '/purchaseAirtime', status: 401, count: 1 });
    const submit = await inProcess('bulk', 'submit', file, '--kind', 'airtime', '--yes', '--confirm-total', '400');
    expect(submit.code).toBe(1);
    const job = JSON.parse(submit.stdout) as { jobId: string; state: string; message: string };
    expect(job.state).toBe('paused');
    expect(job.message).toMatch(/^Paused: The service refused vendesk's API token/);
    const status = await inProcess('bulk', 'status', job.jobId);
    expect(status.code).toBe(1);
    expect(JSON.parse(status.stdout)).toMatchObject({ state: 'paused' });
    const resumed = await inProcess('bulk', 'resume', job.jobId);
    expect(resumed.code).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ state: 'completed', success: 4 });
  });

  it('a job with items to settle by hand (needs attention) exits 1 for status', async () => {
    const app = await createApp({ dataDir, shell: 'test', connection: { baseUrl: sandbox.url, token: TOKEN, kind: 'live' } });
    const { lifecycle, moves } = app.service(createBulkService);
    const c = app.connection;
    const item = newItem({ rowNumber: 2, phone: mtnPhone(4000), network: 'MTN', productCode: 'MTN-VTU', description: '', amountKobo: 100_00 });
    const job = { kind: 'airtime', profileId: c.profileId, connectionKind: c.kind, baseUrl: c.baseUrl, fileName: 'attention.csv', fileHash: '', sheetName: null } as const;
    const jobId = lifecycle.createJob({ ...job, headers: [], mapping: {}, rowsTotal: 1, batchSize: 1, concurrency: 1 }, [item], []);
    // What a job whose uncertain item the log could not settle looks like, moved along the state
    // tables as its run moves it (the runner's own words): this test is about what `status` says
    // of such a job, not how the runner gets there.
    const lease = { pid: process.pid, leaseMs: 60_000 };
    lifecycle.confirm(lifecycle.draftToConfirm(jobId, c).job, c, { batchSize: 1, concurrency: 1 }, lease);
    // When it was sent does not matter to what `status` says of it: a fixed instant.
    moves.markSending(jobId, [1], Date.parse('2026-11-02T09:00:00.000Z'));
    moves.uncertain(jobId, [1], 'The purchase request ended with an unexpected error');
    lifecycle.finishRun(
      jobId,
      lease.pid,
      'needs_attention',
      '1 item(s) may or may not have been bought and the log could not settle them. Check each one and mark it bought or not bought.',
    );
    await app.close();
    const status = await inProcess('bulk', 'status', jobId);
    expect(status.code).toBe(1);
    expect(JSON.parse(status.stdout)).toMatchObject({ state: 'needs_attention', uncertain: 1 });
  });
});

describe('vendesk sandbox, both ways round', () => {
  for (const order of ['first', 'last'] as const) {
    it(`prints one JSON document when stopped, with --json ${order}`, async () => {
      const args = ['sandbox', '--port', '0', '--any-token'];
      const run = spawnVendesk(order === 'first' ? ['--json', ...args] : [...args, '--json'], { HOME: dataDir });
      await untilSaid(run, () => run.stderr.includes('listening on'), 'that it was listening');
      const url = /listening on (http:\/\/\S+)/.exec(run.stderr)?.[1] ?? '';
      expect(url, run.stderr).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect((await fetch(`${url}/accountBalance`, { headers: { Authorization: 'Bearer anyone' } })).status).toBe(200);
      run.child.kill('SIGINT');
      expect(await run.closed).toBe(0);
      expect(JSON.parse(run.stdout)).toEqual({ stopped: true });
    }, 90_000); // a start on a busy machine may take most of untilSaid's minute
  }
});

describe('vendesk web, both ways round', () => {
  for (const order of ['first', 'last'] as const) {
    it(`serves the window on 127.0.0.1 until SIGTERM, then prints one JSON document, with --json ${order}`, async () => {
      const webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-web-'));
      const args = ['web', '--port', '0', '--data-dir', webDir];
      const run = spawnVendesk(order === 'first' ? ['--json', ...args] : [...args, '--json'], { HOME: webDir });
      await untilSaid(run, () => run.stderr.includes('Press Ctrl-C'), 'its address');
      const link = /(http:\/\/127\.0\.0\.1:\d+)\/#session=\w+/.exec(run.stderr);
      expect(link, run.stderr).not.toBeNull();
      const page = await fetch(`${link?.[1]}/`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<div id="root">');
      // The app's operations need the session the link carries: without it, refused.
      expect((await fetch(`${link?.[1]}/api/account.balance`, { method: 'POST', body: '{}' })).status).toBeGreaterThanOrEqual(400);
      run.child.kill('SIGTERM');
      expect(await run.closed).toBe(0);
      expect(JSON.parse(run.stdout)).toEqual({ stopped: true });
      fs.rmSync(webDir, { recursive: true, force: true });
    }, 90_000); // a start on a busy machine may take most of untilSaid's minute
  }
});
