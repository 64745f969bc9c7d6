import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxHandle } from '../../../src/sandbox';
import { ROOT } from '../../support/testApp';
import { runVendesk } from '../../support/vendeskProcess';
import { airtimeRows, allLogEntries, runBulkCli, startCliSandbox, stopCliSandbox, writeCsv, type BulkValidateJson } from './bulkTestFiles';

const TOKEN = 'bulk-cli-org';
const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'imports');

const vendesk = (args: string[], dataDir: string, baseUrl: string) => runBulkCli(TOKEN, args, dataDir, baseUrl);

describe('vendesk bulk', () => {
  let sandbox: SandboxHandle;
  let dataDir: string;

  beforeAll(async () => {
    ({ sandbox, dataDir } = await startCliSandbox(TOKEN));
  });
  afterAll(() => stopCliSandbox({ sandbox, dataDir }));

  it('validate: one JSON document, rows numbered as the spreadsheet shows them, amounts in Naira, exit 3 on invalid rows', async () => {
    const r = await vendesk(['bulk', 'validate', path.join(FIXTURES, 'libreoffice-airtime.xlsx'), '--kind', 'airtime'], dataDir, sandbox.url);
    expect(r.code, r.stderr).toBe(3);
    const out = JSON.parse(r.stdout) as BulkValidateJson;
    // Row 12 buys what row 4 buys: left out, as the window leaves it out; the total is what would be bought.
    expect(out).toMatchObject({ rows: 10, valid: 7, invalid: 3, duplicates: 1, toBuy: 6, totalAmount: 5200 });
    expect(out.leftOut).toMatchObject([{ row: 12, sameAsRow: 4 }]);
    expect([...new Set(out.errors.map((e) => e.row))]).toEqual([8, 9, 13]);
    expect(out.errors.find((e) => e.row === 13)).toMatchObject({ field: 'amount', message: expect.stringMatching(/^Row 13: .*below/) });
  });

  it('validate: a LibreOffice sheet ending in a TOTAL row (=SUM) is all valid; the total row is skipped with a note, not listed invalid', async () => {
    const r = await vendesk(['bulk', 'validate', path.join(FIXTURES, 'libreoffice-airtime-total.xlsx'), '--kind', 'airtime'], dataDir, sandbox.url);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      rows: 3,
      valid: 3,
      invalid: 0,
      duplicates: 0,
      toBuy: 3,
      totalAmount: 3000,
      leftOut: [],
      errors: [],
      notes: ["Row 6 (“TOTAL”) is the sheet's total, not a purchase, so it is not bought; the ₦3,000.00 it states is what the valid rows above it add up to."],
    });
  });

  it('validate without --json: each invalid row in one sentence, then what to do about them on the command line', async () => {
    const r = await runVendesk(['bulk', 'validate', path.join(FIXTURES, 'libreoffice-airtime.csv'), '--kind', 'airtime', '--data-dir', dataDir, '--base-url', sandbox.url], {
      HOME: dataDir,
      VENDESK_TOKEN: TOKEN,
    });
    expect(r.code, r.stderr).toBe(3);
    const lines = r.stdout.trim().split('\n');
    expect(lines.filter((l) => /^ {2}Row \d+: /.test(l)).length).toBeGreaterThan(0);
    for (const l of lines.filter((x) => /^ {2}Row \d+: /.test(x))) expect(l).not.toMatch(/\.;|exclude/);
    // What to do is said once, on stderr, beside the failure (where a cron job's log keeps it).
    expect(r.stderr).toContain('Correct them in the file and check it again, or buy the valid rows only with bulk submit --skip-invalid.');
  });

  it('validate: exit 0 when every row is valid', async () => {
    const file = writeCsv(dataDir, 'ok.csv', airtimeRows(3, 200));
    const r = await vendesk(['bulk', 'validate', file, '--kind', 'airtime'], dataDir, sandbox.url);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ rows: 3, valid: 3, invalid: 0, totalAmount: 600, errors: [], notes: [] });
  });

  it('submit refuses a file with invalid rows (exit 3) and a LIVE job without the typed total; then buys, and status repeats the result', async () => {
    const bad = await vendesk(['bulk', 'submit', path.join(FIXTURES, 'libreoffice-airtime.csv'), '--kind', 'airtime', '--yes'], dataDir, sandbox.url);
    expect(bad.code).toBe(3);
    expect(JSON.parse(bad.stdout).error.message).toMatch(/row\(s\) are invalid; nothing was bought/);

    const file = writeCsv(dataDir, 'ok2.csv', airtimeRows(4, 150, 50));
    const noYes = await vendesk(['bulk', 'submit', file, '--kind', 'airtime'], dataDir, sandbox.url);
    expect(noYes.code).toBe(2);
    const untyped = await vendesk(['bulk', 'submit', file, '--kind', 'airtime', '--yes'], dataDir, sandbox.url);
    expect(untyped.code).toBe(1);
    expect(JSON.parse(untyped.stdout).error.message).toMatch(/LIVE connection.*Type the job total \(₦600\.00\)/);
    const capped = await vendesk(['bulk', 'submit', file, '--kind', 'airtime', '--yes', '--confirm-total', '600', '--max-total', '500'], dataDir, sandbox.url);
    expect(capped.code).toBe(1);
    expect(JSON.parse(capped.stdout).error.message).toMatch(/above the maximum you allowed \(₦500\.00\)/);
    expect(await allLogEntries(sandbox.url, TOKEN)).toHaveLength(0);

    const ok = await vendesk(['bulk', 'submit', file, '--kind', 'airtime', '--yes', '--confirm-total', '600'], dataDir, sandbox.url);
    expect(ok.code, ok.stderr).toBe(0);
    const summary = JSON.parse(ok.stdout) as Record<string, unknown>;
    expect(summary).toMatchObject({ items: 4, accepted: 4, rejected: 0, success: 4, failed: 0, pending: 0, uncertain: 0, totalCharged: 600 });
    const status = await vendesk(['bulk', 'status', String(summary.jobId)], dataDir, sandbox.url);
    expect(JSON.parse(status.stdout)).toEqual(summary);
  });

  it('submit prints a progress line only when it says something new, while the job waits seconds for its outcomes', async () => {
    // The sandbox keeps an accepted top-up pending for 5 s: the job waits for its outcomes.
    const file = writeCsv(dataDir, 'progress.csv', airtimeRows(3, 200, 70));
    const r = await vendesk(['bulk', 'submit', file, '--kind', 'airtime', '--yes', '--confirm-total', '600'], dataDir, sandbox.url);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ items: 3, success: 3 });
    const lines = r.stderr.split('\n').filter((l) => /item\(s\) answered/.test(l));
    expect(lines.length).toBeGreaterThan(0);
    expect(
      lines.filter((l, i) => i > 0 && l === lines[i - 1]),
      r.stderr,
    ).toEqual([]);
    expect(lines[lines.length - 1]).toMatch(/^3\/3 item\(s\) answered — /);
  });
});
