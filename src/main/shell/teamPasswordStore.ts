/**
 * Where the team database password is kept, chosen like the API token's store:
 * - in the Electron shell, sealed with the OS keychain through safeStorage
 *   (`<data folder>/team/password.sealed.json`), and only where that is a real keyring
 *   (./keyringVerdict.ts) — without one, saving it is refused with a message that says how to
 *   give it instead (`VENDESK_TEAM_PASSWORD`);
 * - in the web shell and the CLI, `<data folder>/team/password.token`, readable only by its owner.
 * A password an earlier vendesk kept in the file is moved into the keychain (and the file
 * deleted) the first time the Electron shell reads it with a keyring.
 * Electron's safeStorage is passed in, so the choice runs under tests with a fake one.
 */
import path from 'node:path';
import { AppError } from '../../shared/appError';
import type { AppErrorShape } from '../../shared/contract/define';
import { privateDir } from '../privateFiles';
import { FileTokenStore, type TokenStore } from '../store/tokenStore';
import { SafeStorageTokenStore, type SafeStorageApi } from './safeTokenStore';

class SealedTeamPasswordStore implements TokenStore {
  private readonly sealed: SafeStorageTokenStore;
  private readonly legacy: FileTokenStore;

  constructor(
    private readonly dir: string,
    safeStorage: SafeStorageApi,
    platform: NodeJS.Platform,
  ) {
    this.sealed = new SafeStorageTokenStore(path.join(dir, 'password.sealed.json'), safeStorage, platform);
    this.legacy = new FileTokenStore(dir);
  }

  refusal(): AppErrorShape | null {
    const refusal = this.sealed.refusal();
    if (!refusal) return null;
    return {
      ...refusal,
      message: refusal.message.replace('the API token', 'the team database password'),
      hint: 'Install and unlock a keyring (GNOME Keyring or KDE Wallet, or the system keychain) and restart vendesk; or start vendesk with the password in the VENDESK_TEAM_PASSWORD environment variable instead of saving it.',
    };
  }

  get(id: string): string | null {
    const kept = this.sealed.get(id);
    if (kept !== null || this.refusal()) return kept;
    const earlier = this.legacy.get(id);
    if (earlier === null) return null;
    this.set(id, earlier);
    this.legacy.delete(id);
    return earlier;
  }

  set(id: string, password: string): void {
    const refusal = this.refusal();
    if (refusal) throw AppError.fromShape(refusal);
    privateDir(this.dir);
    this.sealed.set(id, password);
  }

  delete(id: string): void {
    privateDir(this.dir);
    this.sealed.delete(id);
    this.legacy.delete(id);
  }
}

/** The Electron shell's store (safeStorage); every other shell keeps the 0600 file (app.ts). */
export function sealedTeamPasswordStore(dataDir: string, safeStorage: SafeStorageApi, platform: NodeJS.Platform = process.platform): TokenStore {
  return new SealedTeamPasswordStore(path.join(dataDir, 'team'), safeStorage, platform);
}
