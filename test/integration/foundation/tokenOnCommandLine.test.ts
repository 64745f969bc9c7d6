/**
 * Security: a token typed on a command line is seen by other users (process list), kept in shell
 * history, and written by `npm run` to ~/.npm/_logs. The CLI warns when it happens (one line on
 * stderr, so --json stdout stays one document), and the standalone sandbox takes its tokens from
 * a file or the environment so nobody has to.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxHandle } from '../../../src/sandbox';
import { startSandboxProcess, startTestSandbox, type SandboxProcess } from '../../support/testSandbox';
import { runVendesk, type VendeskRun } from '../../support/vendeskProcess';

describe('a token on the command line', () => {
  let home = '';
  let sandbox: SandboxHandle;
  const token = 'cmdline-token-4b8e1d2a9c';

  beforeAll(async () => {
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-token-cli-'));
    sandbox = await startTestSandbox({ tokens: [token] });
  });
  afterAll(async () => {
    await sandbox.close();
    fs.rmSync(home, { recursive: true, force: true });
  });

  it('--token works, with one line of warning on stderr that names the safer way, and --json stdout intact', async () => {
    const r = await runVendesk(['balance', '--json', '--data-dir', path.join(home, 'data'), '--base-url', sandbox.url, '--token', token], { HOME: home });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ currency: 'NGN', connection: 'live' });
    expect(r.stderr.trimEnd().split('\n')).toEqual([
      "Warning: --token on the command line can be seen by other users of this computer and is kept in shell history and npm's logs; use VENDESK_TOKEN in the environment instead.",
    ]);
    expect(r.stderr).not.toContain(token);
  });

  it('VENDESK_TOKEN in the environment gives no warning', async () => {
    const r = await runVendesk(['balance', '--json', '--data-dir', path.join(home, 'data'), '--base-url', sandbox.url], { HOME: home, VENDESK_TOKEN: token });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
  });
});

describe('the standalone sandbox takes its tokens without a command line', () => {
  let dir = '';
  const running: SandboxProcess[] = [];
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-sandbox-tokens-'));
  });
  afterAll(async () => {
    await Promise.all(running.map((sandbox) => sandbox.stop('SIGKILL')));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function start(args: string[], env: Record<string, string> = {}): Promise<{ run: VendeskRun; url: string }> {
    const sandbox = await startSandboxProcess(['--quiet', ...args], { env: { HOME: dir, ...env } });
    running.push(sandbox);
    return { run: sandbox.run, url: sandbox.url };
  }

  const status = async (url: string, bearer: string) => (await fetch(`${url}/AirtimeList`, { headers: { Authorization: `Bearer ${bearer}` } })).status;

  async function stop(run: VendeskRun): Promise<number> {
    run.child.kill('SIGINT');
    return run.closed;
  }

  it('--token-file: every token of the file (one a line, # comments) is an organisation; others are refused', async () => {
    const file = path.join(dir, 'tokens.txt');
    fs.writeFileSync(file, '# sandbox organisations\nfile-token-one\n\nfile-token-two  # the second\n', { mode: 0o600 });
    const { run, url } = await start(['--token-file', file]);
    expect(await status(url, 'file-token-one')).toBe(200);
    expect(await status(url, 'file-token-two')).toBe(200);
    expect(await status(url, 'the-second')).toBe(401);
    expect(run.stderr).toBe('');
    expect(await stop(run)).toBe(0);
  });

  it('VENDESK_SANDBOX_TOKENS: tokens separated by commas or spaces', async () => {
    const { run, url } = await start([], { VENDESK_SANDBOX_TOKENS: 'env-token-one, env-token-two' });
    expect(await status(url, 'env-token-one')).toBe(200);
    expect(await status(url, 'env-token-two')).toBe(200);
    expect(await status(url, 'env-token-three')).toBe(401);
    expect(await stop(run)).toBe(0);
  });

  it('--token still works, and warns towards the file or the variable', async () => {
    const { run, url } = await start(['--token', 'typed-token']);
    expect(await status(url, 'typed-token')).toBe(200);
    expect(run.stderr).toContain('Warning: --token on the command line can be seen by other users of this computer');
    expect(run.stderr).toContain('use --token-file FILE or VENDESK_SANDBOX_TOKENS instead');
    expect(await stop(run)).toBe(0);
  });

  it('an unreadable token file is a usage error that says so', async () => {
    const r = await runVendesk(['sandbox', '--port', '0', '--token-file', path.join(dir, 'missing.txt')], { HOME: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--token-file ${path.join(dir, 'missing.txt')} cannot be read (ENOENT)`);
  });
});
