/**
 * `vendesk sms send --contacts FILE --message TEXT` (issue 40): the preview on stderr, exit 3 and
 * nothing sent when rows have empty values, and a job of 120 personalised messages run by the real
 * CLI in a child process, killed with SIGKILL twice while it sends and resumed with `vendesk sms
 * resume`: the sandbox's outbox holds each recipient's own text exactly once, and its wallet lost
 * what the job says it charged.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messageJobShape, sheetPreviewShape } from '../../../src/cli/commands/personalisedMessageCommands';
import { sandboxWalletKobo } from '../../support/sandboxRecords';
import { SandboxControl } from '../../support/sandboxControl';
import { killWhen, runVendesk, spawnVendesk, untilSaid, type VendeskRun } from '../../support/vendeskProcess';
import { startTestSandbox, type TestSandbox } from '../../support/testSandbox';
import { tempDir } from './contactsFiles';

const TOKEN = 'personalised-sms-cli-org';
const TEXT = 'Hello {Name}, your {Month} data allowance of {Data allowance} has been sent.';
const MESSAGES = 120;
const phone = (i: number) => `0813${String(2_000_000 + i).slice(-7)}`;

describe('vendesk sms send --contacts', () => {
  let sandbox: TestSandbox;
  let dataDir: string;
  let control: SandboxControl;
  const vendesk = (args: string[]): [string[], { HOME: string; VENDESK_TOKEN: string }] => [
    [...args, '--data-dir', dataDir, '--base-url', sandbox.url, '--json'],
    { HOME: dataDir, VENDESK_TOKEN: TOKEN },
  ];
  const sms = async () => (await control.outbox()).filter((o) => o.channel === 'sms');

  beforeAll(async () => {
    sandbox = await startTestSandbox({ tokens: [TOKEN] });
    control = new SandboxControl(sandbox.url, TOKEN);
    dataDir = tempDir();
  });
  afterAll(async () => {
    await sandbox?.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('--dry-run prints the preview; a row with an empty value exits 3 naming it, and nothing is sent', async () => {
    const file = path.join(dataDir, 'allowances.csv');
    fs.writeFileSync(file, 'Name,Phone,Data allowance,Month\nAda Obi,08031234501,2GB,November\nMusa Bello,08031234502,,November\n');
    const dry = await runVendesk(...vendesk(['sms', 'send', '--contacts', file, '--message', TEXT, '--dry-run']));
    expect(dry.code, dry.stderr).toBe(0);
    const { preview } = JSON.parse(dry.stdout) as { preview: unknown };
    expect(sheetPreviewShape.parse(preview)).toMatchObject({
      messages: 1,
      cost: 4,
      sample: [{ row: 2, phone: '08031234501', text: 'Hello Ada Obi, your November data allowance of 2GB has been sent.', pages: 1 }],
      incomplete: [{ row: 3, phone: '08031234502', empty: ['Data allowance'] }],
    });

    const refused = await runVendesk(...vendesk(['sms', 'send', '--contacts', file, '--message', TEXT, '--sender', 'VENDESK']));
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain('Row 3 ({Data allowance})');
    expect(refused.stderr).toContain('Nothing was sent');
    expect(await sms()).toEqual([]);

    const mistake = await runVendesk(...vendesk(['sms', 'send', '--contacts', file, '--to', '08031234501', '--message', TEXT, '--sender', 'VENDESK']));
    expect(mistake.code).toBe(2);
  });

  it('killed with SIGKILL while it sends and resumed twice, each recipient gets their message exactly once', { timeout: 240_000 }, async () => {
    const file = path.join(dataDir, 'december.csv');
    const rows = Array.from({ length: MESSAGES }, (_, i) => `Staff ${i + 1},${phone(i)},${(i % 5) + 1}GB,December`);
    fs.writeFileSync(file, ['Name,Phone,Data allowance,Month', ...rows].join('\n') + '\n');
    await control.setWallet(100_000);
    const before = await sandboxWalletKobo({ sandbox, token: TOKEN });
    let caughtSending = 0;
    const killAt = async (run: VendeskRun, atLeast: number) => {
      const outcome = await killWhen(run, async () => (await sms()).length >= atLeast);
      const db = new Database(path.join(dataDir, 'vendesk.db'), { readonly: true });
      caughtSending += (db.prepare("SELECT count(*) AS n FROM messaging_sends WHERE job_id IS NOT NULL AND state = 'sending'").get() as { n: number }).n;
      db.close();
      return outcome;
    };

    const first = spawnVendesk(...vendesk(['sms', 'send', '--contacts', file, '--message', TEXT, '--sender', 'VENDESK']));
    await untilSaid(first, () => /Job of messages \d+/.test(first.stderr), 'the job number');
    const jobId = /Job of messages (\d+)/.exec(first.stderr)?.[1] as string;
    const kills = [await killAt(first, 25)];
    // A message killed before its request arrived is absent from the history; the service's clock moved on
    // 2½ minutes lets the resumed run trust that silence at once (it reads the clock from the service's answers).
    await control.advanceClock(150);
    const second = spawnVendesk(...vendesk(['sms', 'resume', jobId]));
    kills.push(await killAt(second, 70));
    expect(kills).toEqual(['killed', 'killed']);
    await control.advanceClock(150);

    const last = await runVendesk(...vendesk(['sms', 'resume', jobId]));
    expect(last.code, last.stderr).toBe(0);
    const job = messageJobShape.parse(JSON.parse(last.stdout));
    expect(job).toMatchObject({ state: 'completed', messages: MESSAGES, counts: { sent: MESSAGES, queued: 0, uncertain: 0, sending: 0, failed: 0 } });

    const outbox = await sms();
    const perPhone = new Map<string, string[]>();
    for (const o of outbox) perPhone.set(o.to, [...(perPhone.get(o.to) ?? []), o.body]);
    const twice = [...perPhone].filter(([, bodies]) => bodies.length > 1);
    expect(twice, 'sent twice').toEqual([]);
    for (let i = 0; i < MESSAGES; i++) {
      expect(perPhone.get(phone(i)), `row ${i + 2}`).toEqual([`Hello Staff ${i + 1}, your December data allowance of ${(i % 5) + 1}GB has been sent.`]);
    }
    // What the wallet lost is what the job says it charged: ₦4 a message.
    const lost = before - (await sandboxWalletKobo({ sandbox, token: TOKEN }));
    expect(lost).toBe(MESSAGES * 400);
    expect(job.charged).toBe(lost / 100);
    console.info(`kills: ${kills.join(', ')}; messages caught sending: ${caughtSending}`);
  });
});
