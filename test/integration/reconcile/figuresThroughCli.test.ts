/**
 * Issue 12 through the command line, as a script would run it, against a standalone sandbox whose
 * clock is hours ahead of this computer's: every figure is checked against the sandbox's own log
 * and wallet, never against vendesk's numbers.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeVendorExportCsv } from '../../../bench/generate/vendorExport';
import { runCli } from '../../../src/cli/main';
import { startTestSandbox, type TestSandbox } from '../../support/testSandbox';
import type { LogEntry, PageObject } from '../../../src/shared/wire';

const TOKEN = 'figures-cli-org-5f1c';
const OTHER_TOKEN = 'figures-cli-other-9ab2';
const PHONE = '08031234567';

interface Run {
  code: number;
  json: Record<string, unknown>;
  stderr: string;
}

describe('figures of one connection, through the CLI, with the service clock 3 hours ahead', () => {
  let sandbox: TestSandbox;
  let other: TestSandbox;
  let dataDir: string;

  async function cli(args: string[], baseUrl = sandbox.url, token = TOKEN): Promise<Run> {
    let stdout = '';
    let stderr = '';
    const code = await runCli([...args, '--base-url', baseUrl, '--data-dir', dataDir, '--json'], {
      stdout: (s) => (stdout += s),
      stderr: (s) => (stderr += s),
      env: { VENDESK_TOKEN: token },
    });
    return { code, json: stdout ? (JSON.parse(stdout) as Record<string, unknown>) : {}, stderr };
  }

  /** The service's own wallet, in kobo. */
  async function serviceWalletKobo(): Promise<number> {
    const r = await fetch(`${sandbox.url}/accountBalance`, { headers: { Authorization: `Bearer ${TOKEN}` } });
    const body = (await r.json()) as { data: { GlobalBalance: { Balance: number }[] } };
    return Math.round(body.data.GlobalBalance[0].Balance * 100);
  }

  /** The service's own log, every page. */
  async function serviceLog(): Promise<LogEntry[]> {
    const out: LogEntry[] = [];
    for (let page = 1; ; page++) {
      const r = await fetch(`${sandbox.url}/logEntries?page=${page}&perPage=100&status=all`, { headers: { Authorization: `Bearer ${TOKEN}` } });
      const data = ((await r.json()) as { data: PageObject<LogEntry> }).data;
      out.push(...data.Items);
      if (page >= data.TotalPages || data.Items.length === 0) return out;
    }
  }

  beforeAll(async () => {
    sandbox = await startTestSandbox({ tokens: [TOKEN] });
    other = await startTestSandbox({ tokens: [OTHER_TOKEN] });
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-figures-'));
    await sandbox.control(TOKEN).advanceClock(3 * 3600);
    await sandbox.control(TOKEN).setWallet(100_000);
  });
  afterAll(async () => {
    await sandbox.close();
    await other.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps a pending purchase to its own connection: another service and the built-in sandbox never list or requery it', async () => {
    const bought = await cli(['buy', 'electricity', '--disco', 'IKEDC', '--meter', '45000110000', '--type', 'PREPAID', '--amount', '1500', '--phone', PHONE, '--yes']);
    expect(bought.code).toBe(0);
    expect(bought.json.state).toBe('pending');
    const mine = await cli(['pending']);
    expect((mine.json.items as { id: string }[]).map((i) => i.id)).toContain(bought.json.id);
    const elsewhere = await cli(['pending'], other.url, OTHER_TOKEN);
    expect(elsewhere.json).toMatchObject({ count: 0, items: [] });
    // The same data folder on the built-in sandbox: nothing of the connection above.
    let stdout = '';
    await runCli(['pending', '--data-dir', dataDir, '--json'], { stdout: (s) => (stdout += s), stderr: () => undefined, env: {} });
    expect(JSON.parse(stdout)).toMatchObject({ count: 0 });
    // `requery` on the other connection checks nothing of it, so the other service is never asked.
    const requeried = await cli(['requery'], other.url, OTHER_TOKEN);
    expect(requeried.json).toMatchObject({ checked: 0 });
    // Settle it on its own service (after the 2-minute rule), for the figures below.
    await sandbox.control(TOKEN).advanceClock(125);
    const settled = await cli(['requery']);
    expect(settled.json).toMatchObject({ checked: 1, success: 1 });
  });

  it('explains every kobo the wallet moved when only vendesk moved it: purchases, a refund after requery and its own messages', async () => {
    const opening = await cli(['sync']);
    expect(opening.code).toBe(0);
    const walletBefore = await serviceWalletKobo();

    const paid = await cli(['buy', 'electricity', '--disco', 'IKEDC', '--meter', '45000121234', '--type', 'PREPAID', '--amount', '2000', '--phone', PHONE, '--yes']);
    expect(paid.json.state).toBe('success');
    const failing = await cli(['buy', 'electricity', '--disco', 'IKEDC', '--meter', '45000131111', '--type', 'PREPAID', '--amount', '2500', '--phone', PHONE, '--yes']);
    expect(failing.json.state).toBe('pending');
    // Another purchase before the failing one settles moves the wallet too.
    const cable = await cli(['buy', 'cable', '--provider', 'GOTV', '--smartcard', '7000141234', '--bouquet', 'gotv-smallie', '--phone', PHONE, '--yes']);
    expect(cable.json.state).toBe('success');
    // vendesk's own messages: 11 SMS pages (10 + 1) and a one-time code with an email copy.
    const long = 'Your vendesk statement is ready. '.repeat(60).slice(0, 1600);
    for (const text of [long, 'Thank you.']) {
      const sms = await cli(['sms', 'send', '--to', PHONE, '--sender', 'VENDESK', '--message', text]);
      expect(sms.code).toBe(0);
    }
    const otp = await cli(['otp', 'send', '--to', PHONE, '--sender', 'VENDESK', '--email', 'finance@example.com']);
    expect(otp.code).toBe(0);

    await sandbox.control(TOKEN).advanceClock(125);
    const requeried = await cli(['requery']);
    const settled = (requeried.json.items as { id: string; state: string; refund: string }[]).find((i) => i.id === failing.json.id);
    expect(settled).toMatchObject({ state: 'failed', refund: 'confirmed' });
    const closing = await cli(['sync']);
    expect(closing.code).toBe(0);

    // The service's own records.
    const walletAfter = await serviceWalletKobo();
    const log = await serviceLog();
    const mineInLog = log.filter((e) => [paid.json.reference, failing.json.reference, cable.json.reference].includes(e.transaction_id));
    expect(mineInLog.map((e) => e.status).sort()).toEqual(['FAILED', 'SUCCESS', 'SUCCESS']);
    const vendingCostKobo = mineInLog.filter((e) => e.status === 'SUCCESS').reduce((s, e) => s + Math.round(e.transaction_cost * 100), 0);
    const messagingKobo = walletBefore - walletAfter - vendingCostKobo;
    expect(messagingKobo).toBe(11 * 400 + 400 + 100);

    const file = path.join(dataDir, 'vendor-export.csv');
    writeVendorExportCsv(file, log);
    const run = await cli(['reconcile', file]);
    expect(run.code).toBe(0);
    expect(run.json.missingRefunds).toMatchObject({ count: 0 });
    expect(run.json.unexplainedBalance).toBe(0);
    const rf = run.json.rollForward as Record<string, number | string | boolean | null>;
    expect(rf.available).toBe(true);
    expect(rf.messagingCharges).toBe(messagingKobo / 100);
    expect(rf.unexplained).toBe(0);
    expect(rf.difference).toBe(0);
    // The opening and closing readings are placed on the service's clock, hours ahead of this computer's.
    expect(Date.parse(String(rf.closingAt))).toBeGreaterThan(Date.now() + 2 * 3600_000);
    expect(rf.refunds).toBe(Math.round(mineInLog.find((e) => e.status === 'FAILED')!.transaction_cost * 100) / 100);
  });
});
