import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { KEYRING_BACKENDS, keyringVerdict } from '../../../src/main/shell/keyringVerdict';
import { SafeStorageTokenStore } from '../../../src/main/shell/safeTokenStore';
import { EnvFirstTokenStore } from '../../../src/main/store/tokenStore';
import { fakeSafeStorage } from '../../support/fakeSafeStorage';

describe('keyringVerdict', () => {
  it.each(['basic_text', 'unknown', 'some_future_backend', ''])('refuses Linux backend %j, which is no keyring, with a message that says how to get one', (backend) => {
    const verdict = keyringVerdict(fakeSafeStorage(backend), 'linux');
    expect(verdict.ok).toBe(false);
    if (verdict.ok) return;
    expect(verdict.refusal.code).toBe('no_keyring');
    expect(verdict.refusal.hint).toContain('GNOME Keyring');
    expect(verdict.refusal.hint).toContain('KDE Wallet');
    expect(verdict.refusal.hint).toContain('VENDESK_TOKEN');
  });

  it.each(KEYRING_BACKENDS)('accepts the Linux keyring backend %s', (backend) => {
    expect(keyringVerdict(fakeSafeStorage(backend), 'linux')).toEqual({ ok: true });
  });

  it('refuses a keyring backend that says encryption is not available', () => {
    expect(keyringVerdict(fakeSafeStorage('gnome_libsecret', false), 'linux').ok).toBe(false);
  });

  it('on macOS and Windows asks only whether the keychain is available (the backend is a Linux notion)', () => {
    expect(keyringVerdict(fakeSafeStorage('unknown'), 'darwin')).toEqual({ ok: true });
    expect(keyringVerdict(fakeSafeStorage('unknown'), 'win32')).toEqual({ ok: true });
    const refused = keyringVerdict(fakeSafeStorage('unknown', false), 'darwin');
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.refusal.hint).toContain('VENDESK_TOKEN');
  });
});

describe('SafeStorageTokenStore', () => {
  const dirs: string[] = [];
  const tokensFile = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-tokens-'));
    dirs.push(dir);
    return path.join(dir, 'tokens.json');
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('without a keyring refuses to store the token and writes nothing to disk', () => {
    const file = tokensFile();
    const store = new SafeStorageTokenStore(file, fakeSafeStorage('basic_text'), 'linux');
    expect(() => store.set('live-1', 'tok-secret-123')).toThrow(/no keyring/);
    expect(fs.existsSync(file)).toBe(false);
    expect(store.refusal()?.code).toBe('no_keyring');
  });

  it('with a keyring stores the token sealed (never in clear) and reads it back', () => {
    const file = tokensFile();
    const store = new SafeStorageTokenStore(file, fakeSafeStorage('gnome_libsecret'), 'linux');
    expect(store.refusal()).toBeNull();
    store.set('live-1', 'tok-secret-123');
    expect(fs.readFileSync(file, 'utf8')).not.toContain('tok-secret-123');
    expect(store.get('live-1')).toBe('tok-secret-123');
  });

  it('does not use a token sealed before the keyring went away, and one it cannot open does not stop the app', () => {
    const file = tokensFile();
    new SafeStorageTokenStore(file, fakeSafeStorage('kwallet5'), 'linux').set('live-1', 'tok-secret-123');
    expect(new SafeStorageTokenStore(file, fakeSafeStorage('basic_text'), 'linux').get('live-1')).toBeNull();
    fs.writeFileSync(file, JSON.stringify({ 'live-1': Buffer.from('sealed by another keyring').toString('base64') }));
    expect(new SafeStorageTokenStore(file, fakeSafeStorage('kwallet5'), 'linux').get('live-1')).toBeNull();
  });

  it('VENDESK_TOKEN still reaches a live profile where there is no keyring, and the refusal is still reported', () => {
    const store = new EnvFirstTokenStore(new SafeStorageTokenStore(tokensFile(), fakeSafeStorage('basic_text'), 'linux'), 'tok-from-env', 'https://vending.example.ng');
    expect(store.get('live-1', 'https://vending.example.ng/')).toBe('tok-from-env');
    expect(store.refusal()?.code).toBe('no_keyring');
    // …at the address it was given with only (VENDESK_BASE_URL), never at another or with none.
    expect(store.get('live-2', 'https://elsewhere.example.ng')).toBeNull();
    expect(store.get('live-1')).toBeNull();
    expect(
      new EnvFirstTokenStore(new SafeStorageTokenStore(tokensFile(), fakeSafeStorage('basic_text'), 'linux'), 'tok-from-env', undefined).get(
        'live-1',
        'https://vending.example.ng',
      ),
    ).toBeNull();
  });
});
