/**
 * Issue 13, finding 1 (High): a live token goes only to the address it was entered for. Each test
 * is the attack — point a saved profile at another server and make vendesk call — and checks that
 * the other server never receives the token.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/main';
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
    res.end(JSON.stringify({ gatewayStatus: '00', gatewayMessage: 'Successfully Processed', requestReference: 'X', data: { AccountName: 'Evil', GlobalBalance: [{ Balance: 1, Currency: 'NGN', AccountNumber: '1' }] } }));
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
