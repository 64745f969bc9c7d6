/**
 * Issue 13, finding 1 (High): a live token goes only to the address it was entered for. Each test
 * is the attack — point a saved profile at another server and make vendesk call — and checks that
 * the other server never receives the token.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/main';
import { createApp, type App } from '../../../src/main/app';
import { dispatch } from '../../../src/main/dispatch';
import { AppError } from '../../../src/shared/appError';
import type { SandboxHandle } from '../../../src/sandbox';
import { startTestSandbox } from '../../support/testSandbox';
import { refusal } from '../../support/refusal';
import { startTestApp, type TestApp } from '../../support/testApp';

const TOKEN = 'bound-live-token-31c9e07a';

/** A server that keeps every Authorization header it is sent (what an attacker would read). */
async function startCatcher(): Promise<{ url: string; heard: string[]; close: () => Promise<void> }> {
  const heard: string[] = [];
  const server = http.createServer((req, res) => {
    heard.push(req.headers.authorization ?? '');
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(
      JSON.stringify({
        gatewayStatus: '00',
        gatewayMessage: 'Successfully Processed',
        requestReference: 'X',
        data: { AccountName: 'Evil', GlobalBalance: [{ Balance: 1, Currency: 'NGN', AccountNumber: '1' }] },
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    heard,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('a live token is bound to the address it was entered for', () => {
  let t: TestApp;
  let live: SandboxHandle;
  let catcher: Awaited<ReturnType<typeof startCatcher>>;

  beforeAll(async () => {
    live = await startTestSandbox({ tokens: [TOKEN] });
    t = await startTestApp();
  });
  afterEach(async () => {
    await catcher?.close();
  });
  afterAll(async () => {
    await t.close();
    await live.close();
  });

  it('changing the address of a profile clears its token: the new address never receives it', async () => {
    catcher = await startCatcher();
    const saved = await t.call('profiles.save', { name: 'Acme', baseUrl: live.url, token: TOKEN });
    expect(saved.hasToken).toBe(true);
    const moved = await t.call('profiles.save', { id: saved.id, name: 'Acme', baseUrl: catcher.url });
    expect(moved).toMatchObject({ hasToken: false, tokenCleared: true });
    const error = await refusal(t.call('profiles.activate', { id: saved.id, confirmLive: true }));
    expect(error.code).toBe('token_missing');
    expect(catcher.heard).toEqual([]);
    // Entering the token again for the new address is the way back.
    const again = await t.call('profiles.save', { id: saved.id, name: 'Acme', baseUrl: live.url, token: TOKEN });
    expect(again).toMatchObject({ hasToken: true, tokenCleared: false });
  });

  it('a profile whose address was changed behind vendesk’s back (in its database) does not send the stored token there', async () => {
    catcher = await startCatcher();
    const saved = await t.call('profiles.save', { name: 'Tampered', baseUrl: live.url, token: TOKEN });
    t.app.db.prepare('UPDATE profiles SET base_url = ? WHERE id = ?').run(catcher.url, saved.id);
    const error = await refusal(t.call('profiles.activate', { id: saved.id, confirmLive: true }));
    expect(error.code).toBe('token_missing');
    expect(error.message).toContain('changed since its token was entered');
    expect(catcher.heard).toEqual([]);
    expect((await t.call('profiles.list', {})).find((p) => p.id === saved.id)?.hasToken).toBe(false);
  });

  it('refuses a plain http:// address other than this computer, and warns about a local one', async () => {
    const remote = await refusal(t.call('profiles.save', { name: 'Plain', baseUrl: 'http://vending.example.ng', token: TOKEN }));
    expect(remote.code).toBe('invalid_input');
    expect(remote.message).toContain('must start with https://');
    expect((await t.call('profiles.list', {})).some((p) => p.name === 'Plain')).toBe(false);
    const local = await t.call('profiles.save', { name: 'Local proxy', baseUrl: live.url, token: TOKEN });
    expect(local.warning).toMatch(/Plain http:\/\/ on this computer/);
    const secure = await t.call('profiles.save', { name: 'Real', baseUrl: 'https://vending.example.ng', token: TOKEN });
    expect(secure.warning).toBeNull();
  });

  it('the command line refuses to send a token to a plain http:// address elsewhere', async () => {
    let stdout = '';
    const code = await runCli(['balance', '--base-url', 'http://vending.example.ng', '--data-dir', t.dataDir, '--json'], {
      stdout: (s) => (stdout += s),
      stderr: () => undefined,
      env: { VENDESK_TOKEN: TOKEN },
    });
    expect(code).not.toBe(0);
    expect(JSON.parse(stdout).error.message).toContain('must start with https://');
    expect(stdout).not.toContain(TOKEN);
  });
});

/**
 * Issue 23, item 12: `VENDESK_TOKEN` is bound to the address it is given with (VENDESK_BASE_URL or
 * --base-url). A live profile anywhere else — new, or with its address changed — gets no token.
 */
describe('VENDESK_TOKEN goes only to the address it is given with', () => {
  let live: SandboxHandle;
  let catcher: Awaited<ReturnType<typeof startCatcher>>;
  let dataDir: string;
  let app: App | null = null;

  beforeAll(async () => {
    live = await startTestSandbox({ tokens: [TOKEN] });
  });
  afterEach(async () => {
    if (app) await app.close();
    app = null;
    await catcher?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  afterAll(async () => {
    await live.close();
  });

  /** vendesk as the desktop app or browser window starts it, with this environment. */
  async function open(env: NodeJS.ProcessEnv): Promise<App> {
    app = await createApp({ dataDir, shell: 'test', env, sandboxSeedHistory: 0 });
    return app;
  }
  async function call<T>(a: App, name: string, input: unknown): Promise<T> {
    const result = await dispatch(a, name as never, input as never);
    if (!result.ok) throw AppError.fromShape(result.error);
    return result.value as T;
  }
  const cli = async (args: string[], env: NodeJS.ProcessEnv) => {
    let stdout = '';
    let stderr = '';
    const code = await runCli([...args, '--data-dir', dataDir, '--json'], { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), env });
    return { code, stdout, stderr };
  };

  it('a new live profile at another address gets no token (hasToken false) and is sent no Authorization header', async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-envtoken-'));
    catcher = await startCatcher();
    const a = await open({ VENDESK_TOKEN: TOKEN, VENDESK_BASE_URL: live.url });
    // The documented way without a keyring still works: a profile at that address uses the token.
    const own = await call<{ id: string; hasToken: boolean }>(a, 'profiles.save', { name: 'Acme', baseUrl: `${live.url}/` });
    expect(own.hasToken).toBe(true);
    await call(a, 'profiles.activate', { id: own.id, confirmLive: true });
    expect(await call<{ accountName: string }>(a, 'account.balance', {})).toMatchObject({ accountName: expect.any(String) });

    // The attack: a new profile pointed at another server, saved without a token.
    const evil = await call<{ id: string; hasToken: boolean }>(a, 'profiles.save', { name: 'Evil', baseUrl: catcher.url });
    expect(evil.hasToken).toBe(false);
    const error = await refusal(call(a, 'profiles.activate', { id: evil.id, confirmLive: true }));
    expect(error.code).toBe('token_missing');
    expect(error.message).toContain(`VENDESK_TOKEN is given for ${live.url} only, so it was not sent to ${catcher.url}`);
    expect(error.message).not.toContain(TOKEN);
    expect(catcher.heard).toEqual([]);
  });

  it('without VENDESK_BASE_URL the token is sent nowhere, and the message says what to set', async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-envtoken-'));
    catcher = await startCatcher();
    const a = await open({ VENDESK_TOKEN: TOKEN });
    const evil = await call<{ id: string; hasToken: boolean }>(a, 'profiles.save', { name: 'Evil', baseUrl: catcher.url });
    expect(evil.hasToken).toBe(false);
    const error = await refusal(call(a, 'profiles.activate', { id: evil.id, confirmLive: true }));
    expect(error.message).toContain('VENDESK_TOKEN is set without VENDESK_BASE_URL, so vendesk sends it nowhere');
    expect(error.hint).toContain('VENDESK_BASE_URL');
    expect(catcher.heard).toEqual([]);
  });

  it('through the command line, a profile whose address changed does not receive the token', async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-envtoken-'));
    catcher = await startCatcher();
    const env = { VENDESK_TOKEN: TOKEN, VENDESK_BASE_URL: live.url };
    const a = await open(env);
    const saved = await call<{ id: string }>(a, 'profiles.save', { name: 'Acme', baseUrl: live.url });
    await a.close();
    app = null;
    const before = await cli(['--profile', 'Acme', 'balance'], env);
    expect(before.code).toBe(0);

    // Its address is changed (in the window), then the same command runs with the same environment.
    const b = await open(env);
    await call(b, 'profiles.save', { id: saved.id, name: 'Acme', baseUrl: catcher.url });
    await b.close();
    app = null;
    const after = await cli(['--profile', 'Acme', 'balance'], env);
    expect(after.code).toBe(1);
    expect(JSON.parse(after.stdout).error).toMatchObject({ code: 'token_missing' });
    expect(after.stdout + after.stderr).not.toContain(TOKEN);
    // Nor with the token alone in the environment.
    expect((await cli(['--profile', 'Acme', 'balance'], { VENDESK_TOKEN: TOKEN })).code).toBe(1);
    expect(catcher.heard).toEqual([]);
  });
});
