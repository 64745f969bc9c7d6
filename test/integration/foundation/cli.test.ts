import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type SandboxHandle } from '../../../src/sandbox';
import { runVendesk } from '../../support/vendeskProcess';

function vendesk(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return runVendesk(args, { HOME: process.env.HOME ?? os.tmpdir(), ...env });
}

describe('vendesk CLI', () => {
  let dataDir: string;
  let sandbox: SandboxHandle;
  const token = 'cli-test-token-7f3a9c';

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-cli-'));
    sandbox = await startSandbox({ port: 0, tokens: [token], quiet: true });
  });
  afterAll(async () => {
    await sandbox.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('prints help listing the commands, exit 0', async () => {
    const r = await vendesk(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('balance');
    expect(r.stdout).toContain('sandbox');
    expect(r.stdout).toContain('--data-dir');
  });

  it('exits 2 for an unknown command or option', async () => {
    expect((await vendesk(['frobnicate'])).code).toBe(2);
    const bad = await vendesk(['balance', '--nope', '--data-dir', dataDir]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('Unknown option --nope');
  });

  it('uses the embedded sandbox by default, keeping its state in the data folder', async () => {
    const first = await vendesk(['balance', '--json', '--data-dir', dataDir]);
    expect(first.code).toBe(0);
    const doc = JSON.parse(first.stdout) as { balance: number; currency: string; connection: string };
    expect(doc.currency).toBe('NGN');
    expect(doc.connection).toBe('sandbox');
    expect(typeof doc.balance).toBe('number');
    expect(fs.existsSync(path.join(dataDir, 'sandbox.db'))).toBe(true);
    const second = await vendesk(['balance', '--json'], { VENDESK_DATA_DIR: dataDir });
    expect(JSON.parse(second.stdout)).toMatchObject({ balance: doc.balance });
  });

  it('talks to another service with --base-url and VENDESK_TOKEN', async () => {
    const r = await vendesk(['balance', '--json', '--data-dir', dataDir, '--base-url', sandbox.url], { VENDESK_TOKEN: token });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ currency: 'NGN', connection: 'live' });
  });

  it('reports a refused token without ever printing it', async () => {
    const secret = 'wrong-token-5d1e2b9f';
    const r = await vendesk(['balance', '--json', '--data-dir', dataDir, '--base-url', sandbox.url], { VENDESK_TOKEN: secret });
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.stdout) as { error: { message: string } };
    expect(doc.error.message.length).toBeGreaterThan(10);
    expect(r.stdout + r.stderr).not.toContain(secret);
  });

  it('refuses --base-url without a token as a usage error', async () => {
    const r = await vendesk(['balance', '--data-dir', dataDir, '--base-url', sandbox.url]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('VENDESK_TOKEN');
  });
});
