/**
 * The team database password in the Electron shell: sealed with safeStorage like the API token
 * (the Electron runtime cannot run here, so a fake safeStorage stands in for the keychain), through
 * a real join to a real PostgreSQL. The web shell and the CLI keep the 0600 file (teamWorkspace.test.ts).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../../../src/main/app';
import { dispatch } from '../../../src/main/dispatch';
import { sealedTeamPasswordStore } from '../../../src/main/shell/teamPasswordStore';
import { FileTokenStore } from '../../../src/main/store/tokenStore';
import { startSandbox, type SandboxHandle } from '../../../src/sandbox';
import { fakeSafeStorage } from '../../support/fakeSafeStorage';
import { startPostgresCluster, type PostgresCluster } from '../../support/postgresCluster';

const TOKEN = 'team-password-store-org';
let cluster: PostgresCluster;
let sandbox: SandboxHandle;
let password = '';
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-team-pw-'));
const opened: App[] = [];

async function electronApp(dir: string, backend: string): Promise<App> {
  const app = await createApp({
    dataDir: dir,
    shell: 'electron',
    connection: { baseUrl: sandbox.url, token: TOKEN, kind: 'live' },
    teamPasswordStore: sealedTeamPasswordStore(dir, fakeSafeStorage(backend), 'linux'),
  });
  opened.push(app);
  return app;
}

function folder(name: string): string {
  const dir = path.join(root, name);
  fs.mkdirSync(dir);
  return dir;
}

const url = () => `postgres://ada@127.0.0.1:${cluster.port}/postgres`;

/** Every file under the folder that holds this text. */
function filesHolding(dir: string, text: string): string[] {
  return (fs.readdirSync(dir, { recursive: true }) as string[]).map((f) => path.join(dir, f)).filter((f) => fs.statSync(f).isFile() && fs.readFileSync(f).includes(text));
}

beforeAll(async () => {
  cluster = await startPostgresCluster();
  sandbox = await startSandbox({ port: 0, tokens: [TOKEN], quiet: true });
  const setup = await createApp({ dataDir: folder('setup'), shell: 'test', connection: { baseUrl: sandbox.url, token: TOKEN, kind: 'live' } });
  expect(await dispatch(setup, 'team.join', { url: `postgres://${cluster.superuser}@127.0.0.1:${cluster.port}/postgres`, password: cluster.superuserPassword })).toMatchObject({
    ok: true,
  });
  await setup.close();
  password = await cluster.createLogin('ada', ['vendesk_preparer']);
}, 120_000);

afterEach(async () => {
  for (const app of opened.splice(0)) await app.close();
  delete process.env.VENDESK_TEAM_PASSWORD;
});

afterAll(async () => {
  await sandbox?.close();
  await cluster?.stop();
  fs.rmSync(root, { recursive: true, force: true });
});

describe('the team password in the Electron shell', () => {
  it('is sealed in the keychain, never in clear in the data folder, and used again after a restart', async () => {
    const dir = folder('keyring');
    const app = await electronApp(dir, 'gnome_libsecret');
    expect(await dispatch(app, 'team.join', { url: url(), password })).toMatchObject({ ok: true, value: { joined: true, roles: ['preparer'] } });
    await app.close();
    expect(filesHolding(dir, password)).toEqual([]);
    expect(fs.existsSync(path.join(dir, 'team', 'password.token'))).toBe(false);
    expect(fs.existsSync(path.join(dir, 'team', 'password.sealed.json'))).toBe(true);
    const again = await electronApp(dir, 'gnome_libsecret');
    expect(await dispatch(again, 'team.status', {})).toMatchObject({ ok: true, value: { joined: true, roles: ['preparer'], problem: null } });
  });

  it('without a keyring refuses to keep it — before anything is written — and says to use VENDESK_TEAM_PASSWORD', async () => {
    const dir = folder('no-keyring');
    const app = await electronApp(dir, 'basic_text');
    const joins = async () => (await cluster.superQuery<{ n: number }>("SELECT count(*)::int AS n FROM vendesk.audit_trail WHERE action = 'join' AND actor = 'ada'")).rows[0].n;
    const before = await joins();
    const r = await dispatch(app, 'team.join', { url: url(), password });
    expect(r).toMatchObject({ ok: false, error: { code: 'no_keyring' } });
    if (!r.ok) {
      expect(r.error.message).toContain('team database password');
      expect(r.error.hint).toContain('VENDESK_TEAM_PASSWORD');
    }
    expect(await joins()).toBe(before);
    expect(await dispatch(app, 'team.status', {})).toMatchObject({ ok: true, value: { joined: false } });
    expect(filesHolding(dir, password)).toEqual([]);

    // Given in VENDESK_TEAM_PASSWORD instead, it joins and keeps nothing on disk.
    process.env.VENDESK_TEAM_PASSWORD = password;
    expect(await dispatch(app, 'team.join', { url: url(), password })).toMatchObject({ ok: true, value: { joined: true } });
    expect(filesHolding(dir, password)).toEqual([]);
  });

  it('moves a password an earlier vendesk kept in the file into the keychain, and deletes the file', async () => {
    const dir = folder('earlier');
    const first = await createApp({ dataDir: dir, shell: 'test', connection: { baseUrl: sandbox.url, token: TOKEN, kind: 'live' } });
    expect(await dispatch(first, 'team.join', { url: url(), password })).toMatchObject({ ok: true });
    await first.close();
    expect(new FileTokenStore(path.join(dir, 'team')).get('password')).toBe(password);
    const app = await electronApp(dir, 'kwallet5');
    expect(await dispatch(app, 'team.status', {})).toMatchObject({ ok: true, value: { joined: true, roles: ['preparer'], problem: null } });
    expect(fs.existsSync(path.join(dir, 'team', 'password.token'))).toBe(false);
    expect(filesHolding(dir, password)).toEqual([]);
  });
});
