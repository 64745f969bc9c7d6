import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxHandle } from '../../../src/sandbox';
import { startTestSandbox } from '../../support/testSandbox';
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
    sandbox = await startTestSandbox({ tokens: [token] });
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

  it('takes the global options before the command too, as git and kubectl do', async () => {
    const r = await vendesk(['--data-dir', dataDir, '--json', 'balance']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ currency: 'NGN', connection: 'sandbox' });
    const mixed = await vendesk(['--base-url', sandbox.url, 'balance', '--data-dir', dataDir, '--json'], { VENDESK_TOKEN: token });
    expect(JSON.parse(mixed.stdout)).toMatchObject({ connection: 'live' });
    const equals = await vendesk([`--data-dir=${dataDir}`, 'balance', '--json']);
    expect(equals.code).toBe(0);
  });

  it('names a mistake in one short message with exit 2, and says what was meant', async () => {
    const typo = await vendesk(['--data-dir', dataDir, 'synk']);
    expect(typo.code).toBe(2);
    expect(typo.stderr.trim().split('\n').length).toBeLessThanOrEqual(2);
    expect(typo.stderr).toContain("'synk' is not a vendesk command. Did you mean 'vendesk sync'?");
    const twoWords = await vendesk(['bulk', 'stats', 'J1']);
    expect(twoWords.stderr).toContain("Did you mean 'vendesk bulk status'?");
    const option = await vendesk(['balance', '--jsn', '--data-dir', dataDir]);
    expect(option.code).toBe(2);
    expect(option.stderr).toContain('Unknown option --jsn. Did you mean --json?');
    expect(option.stderr.trim().split('\n').length).toBeLessThanOrEqual(2);
    const missing = await vendesk(['balance', '--data-dir']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--data-dir needs a value');
    const asJson = await vendesk(['--json', 'synk']);
    expect(asJson.code).toBe(2);
    expect(JSON.parse(asJson.stdout)).toMatchObject({ error: { code: 'usage' } });
  });

  it('--profile picks a saved connection profile for one command, before or after it', async () => {
    const { createApp } = await import('../../../src/main/app');
    const app = await createApp({ dataDir, shell: 'test', tokenStore: undefined });
    const { dispatch } = await import('../../../src/main/dispatch');
    const saved = await dispatch(app, 'profiles.save', { name: 'Acme live', baseUrl: sandbox.url, token });
    await app.close();
    expect(saved.ok).toBe(true);
    const byName = await vendesk(['--profile', 'acme live', 'balance', '--json', '--data-dir', dataDir]);
    expect(byName.code).toBe(0);
    expect(JSON.parse(byName.stdout)).toMatchObject({ connection: 'live' });
    const after = await vendesk(['balance', '--data-dir', dataDir, '--json', '--profile', 'Acme live']);
    expect(JSON.parse(after.stdout)).toMatchObject({ connection: 'live' });
    // The saved active profile is unchanged: without --profile it is still the sandbox.
    expect(JSON.parse((await vendesk(['balance', '--json', '--data-dir', dataDir])).stdout)).toMatchObject({ connection: 'sandbox' });
    const unknown = await vendesk(['balance', '--json', '--data-dir', dataDir, '--profile', 'Nope']);
    expect(unknown.code).toBe(1);
    expect(JSON.parse(unknown.stdout).error.message).toContain('There is no connection profile "Nope"');
  });

  it('refuses --base-url without a token as a usage error', async () => {
    const r = await vendesk(['balance', '--data-dir', dataDir, '--base-url', sandbox.url]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('VENDESK_TOKEN');
  });
});
