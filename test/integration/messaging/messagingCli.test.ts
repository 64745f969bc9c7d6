/**
 * `vendesk phonebook|contacts|template|sms|otp` against the sandbox, in process, each with --json,
 * once for each form of the messaging answers (the sandbox started with --shapes' option, or a
 * reshaping proxy in front of it).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/main';
import { startTestSandbox, type TestSandbox } from '../../support/testSandbox';
import { startReshapingProxy, type ReshapingProxy } from '../../support/reshapingProxy';
import { ANSWER_FORMS } from '../../support/testApp';
import { makeContacts, writeContactsCsv } from './contactsFiles';

describe.each(ANSWER_FORMS)('messaging CLI, answers in the $name form', (form) => {
  let sandbox: TestSandbox;
  let proxy: ReshapingProxy | null = null;
  let dataDir: string;
  const token = 'cli-messaging-token-41c2';

  async function vendesk(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string; json: unknown }> {
    let stdout = '';
    let stderr = '';
    const code = await runCli([...argv, '--data-dir', dataDir], {
      stdout: (t) => (stdout += t + '\n'),
      stderr: (t) => (stderr += t + '\n'),
      env: { VENDESK_BASE_URL: proxy?.url ?? sandbox.url, VENDESK_TOKEN: token },
    });
    let json: unknown = null;
    if (argv.includes('--json')) json = JSON.parse(stdout);
    return { code, stdout, stderr, json };
  }

  beforeAll(async () => {
    sandbox = await startTestSandbox({ tokens: [token], ...(form.options.shapes ? { shapes: form.options.shapes } : {}) });
    if (form.options.reshapingProxy) proxy = await startReshapingProxy(sandbox.url);
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-cli-msg-'));
  });
  afterAll(async () => {
    await proxy?.close();
    await sandbox.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  describe('commands', () => {
    it('creates a phonebook, imports contacts by phonebook name (exit 3 for invalid rows), sends in bulk and shows the status', async () => {
      const created = await vendesk('phonebook', 'create', 'Branch managers', '--description', 'Lagos', '--json');
      expect(created.code).toBe(0);
      const pb = created.json as { id: number };

      const file = writeContactsCsv(path.join(dataDir, 'managers.csv'), makeContacts(30), ['Broken,12345']);
      const imported = await vendesk('contacts', 'import', file, '--phonebook', 'branch managers');
      expect(imported.code).toBe(3);
      expect(imported.stdout).toMatch(/Added:\s+30/);
      expect(imported.stdout).toMatch(/Row 32: 12345 is not a Nigerian mobile number/);
      const again = await vendesk('contacts', 'import', file, '--phonebook', String(pb.id), '--json');
      expect(again.json).toMatchObject({ added: 0, skipped: 30, invalidCount: 1 });

      const list = await vendesk('phonebook', 'list');
      expect(list.stdout).toMatch(form.sparse ? /Branch managers\s+not given by the service/ : /Branch managers\s+30/);

      const dry = await vendesk('sms', 'send', '--phonebook', String(pb.id), '--message', 'Close at 3pm today', '--dry-run', '--json');
      expect(dry.json).toMatchObject({ dryRun: true, quote: { recipients: 30, totalCost: 30 * 4 } });

      const sent = await vendesk('sms', 'send', '--phonebook', String(pb.id), '--sender', 'VENDESK', '--message', 'Close at 3pm today', '--email', 'hq@example.com', '--json');
      expect(sent.code).toBe(0);
      const msg = sent.json as { reference: string | null; totalCost: number; recipientCount: number };
      expect(msg).toMatchObject({ recipientCount: 30, totalCost: 30 * 4 + 1 });
      expect(sent.stderr).toMatch(/30 recipient\(s\) × 1 page\(s\) × ₦4 \+ 1 email copy × ₦1 = ₦121\.00/);

      const history = await vendesk('sms', 'history', '--search', 'Close at 3pm', '--json');
      const listed = (history.json as { items: { reference: string }[] }).items[0].reference;
      // The sparse form's answer to a send gives no reference: vendesk says so, and History has it.
      if (form.sparse) {
        expect(msg.reference).toBeNull();
        expect((sent.json as { notes: string[] }).notes.join(' ')).toMatch(/did not give this message's reference/);
      } else expect(listed).toBe(msg.reference);
      const status = await vendesk('sms', 'status', listed);
      expect(status.stdout).toContain(`Reference: ${listed}`);
    });

    it('creates a template without --use-case: the service needs none', async () => {
      const created = await vendesk('template', 'create', '--name', 'Closing time', '--body', 'Office closes at {{1}}.', '--json');
      expect(created.code).toBe(0);
      expect(created.json).toMatchObject({ name: 'Closing time', indexes: ['1'], useCases: [] });
      expect((await vendesk('template', 'list')).stdout).toMatch(/Closing time/);
    });

    it('creates a template, lists it as PENDING, sends with it once approved', async () => {
      const created = await vendesk('template', 'create', '--name', 'Pay alert', '--body', 'Hi {{1}}, {{2}} paid.', '--use-case', 'payroll', '--json');
      const tpl = created.json as { id: string; indexes: string[]; state: string };
      expect(tpl).toMatchObject({ indexes: ['1', '2'], state: 'PENDING' });
      const gap = await vendesk('template', 'create', '--name', 'Bad', '--body', 'Hi {{2}}', '--use-case', 'x', '--json');
      expect(gap.code).toBe(1);
      expect((gap.json as { error: { message: string } }).error.message).toMatch(/\{\{1\}\} is missing/);

      const early = await vendesk('sms', 'send', '--to', '08031234567', '--sender', 'VENDESK', '--template', tpl.id, '--values', 'Ada,₦5000');
      expect(early.code).toBe(1);
      expect(early.stderr).toMatch(/not approved/);
      await sandbox.control(token).advanceClock(61);
      expect((await vendesk('template', 'list')).stdout).toMatch(/Pay alert\s+APPROVED/);
      const sent = await vendesk('sms', 'send', '--to', '08031234567', '--sender', 'VENDESK', '--template', tpl.id, '--value', 'Ada', '--value', '₦5,000', '--json');
      expect((sent.json as { body: string }).body).toBe('Hi Ada, ₦5,000 paid.');
    });

    it('sends and confirms a one-time code; usage errors exit 2', async () => {
      const sent = await vendesk('otp', 'send', '--to', '08031234567', '--sender', 'VENDESK', '--digits', '6', '--seconds', '120', '--json');
      const ref = (sent.json as { reference: string }).reference;
      const outbox = await sandbox.control(token).outbox();
      const code = outbox.find((e) => e.reference === ref)?.code ?? '';
      const ok = await vendesk('otp', 'confirm', ref, code);
      expect(ok.code).toBe(0);
      expect(ok.stdout).toContain(`Confirmed: ${ref}`);
      const reused = await vendesk('otp', 'confirm', ref, code, '--json');
      expect(reused.code).toBe(1);
      expect((reused.json as { error: { code: string } }).error.code).toBe('otp_used');
      expect((await vendesk('sms', 'send', '--sender', 'VENDESK', '--message', 'x')).code).toBe(2);
      expect((await vendesk('sms', 'senders')).stdout).toMatch(/PROMOTXT\s+PENDING\s+no/);
    });
  });
});
