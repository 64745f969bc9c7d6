import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxHandle } from '../../../src/sandbox';
import { startTestSandbox } from '../../support/testSandbox';
import { AppError } from '../../../src/shared/appError';
import { startTestApp, type TestApp } from '../../support/testApp';

describe('connection profiles and the live token', () => {
  let t: TestApp;
  let live: SandboxHandle;
  const token = 'live-token-3c9d1f7e2a';

  beforeAll(async () => {
    live = await startTestSandbox({ tokens: [token], accountName: 'Acme Finance Ltd' });
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
    await live.close();
  });

  function filesContaining(dir: string, needle: string): string[] {
    const found: string[] = [];
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, entry.name);
      if (entry.isDirectory()) found.push(...filesContaining(p, needle));
      else if (fs.readFileSync(p).includes(needle)) found.push(path.relative(t.dataDir, p));
    }
    return found;
  }

  it('keeps the token only in its owner-only file, never in the database or any answer', async () => {
    const saved = await t.call('profiles.save', { name: 'Acme live', baseUrl: live.url, token });
    expect(saved).toMatchObject({ name: 'Acme live', kind: 'live', hasToken: true, active: false });
    expect(JSON.stringify(await t.call('profiles.list', {}))).not.toContain(token);
    const tokenFile = path.join(t.dataDir, 'tokens', `${saved.id}.token`);
    expect(fs.statSync(tokenFile).mode & 0o777).toBe(0o600);
    expect(filesContaining(t.dataDir, token)).toEqual([path.relative(t.dataDir, tokenFile)]);
  });

  it('switches to a LIVE profile only when the switch is confirmed', async () => {
    const profile = (await t.call('profiles.list', {})).find((p) => p.name === 'Acme live')!;
    const error = await t.call('profiles.activate', { id: profile.id }).catch((e: unknown) => e);
    expect((error as AppError).code).toBe('live_confirmation_needed');
    expect((error as AppError).message).toContain('real money');
    expect((await t.call('app.info', {})).connection.kind).not.toBe('live');
  });

  it('connects to a live profile and shows it as LIVE', async () => {
    const profile = (await t.call('profiles.list', {})).find((p) => p.name === 'Acme live');
    const connection = await t.call('profiles.activate', { id: profile!.id, confirmLive: true });
    expect(connection).toMatchObject({ kind: 'live', profileName: 'Acme live', baseUrl: live.url });
    const balance = await t.call('account.balance', {});
    expect(balance.accountName).toBe('Acme Finance Ltd');
    expect((await t.call('app.info', {})).connection.kind).toBe('live');
  });

  it('refuses a token file other users can read', async () => {
    const profile = (await t.call('profiles.list', {})).find((p) => p.name === 'Acme live')!;
    const tokenFile = path.join(t.dataDir, 'tokens', `${profile.id}.token`);
    fs.chmodSync(tokenFile, 0o644);
    const error = await t.call('profiles.activate', { id: profile.id, confirmLive: true }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).message).toContain('can be read by other users');
    expect((error as AppError).hint).toContain('chmod 600');
    fs.chmodSync(tokenFile, 0o600);
  });

  it('reports a refused token without showing it', async () => {
    const wrong = 'wrong-token-88e1b0c4d2';
    const saved = await t.call('profiles.save', { name: 'Typo', baseUrl: live.url, token: wrong });
    await t.call('profiles.activate', { id: saved.id, confirmLive: true });
    const error = (await t.call('account.balance', {}).catch((e: unknown) => e)) as AppError;
    expect(error).toBeInstanceOf(AppError);
    expect(`${error.message} ${error.hint ?? ''}`).not.toContain(wrong);
  });

  it('deleting the profile in use removes its token and falls back to the built-in sandbox', async () => {
    const typo = (await t.call('profiles.list', {})).find((p) => p.name === 'Typo')!;
    await t.call('profiles.delete', { id: typo.id });
    expect(fs.existsSync(path.join(t.dataDir, 'tokens', `${typo.id}.token`))).toBe(false);
    const info = await t.call('app.info', {});
    expect(info.connection).toMatchObject({ kind: 'sandbox', profileId: 'sandbox' });
    expect((await t.call('account.balance', {})).balanceKobo).toBeGreaterThan(0);
  });
});
