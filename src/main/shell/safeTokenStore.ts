/**
 * Live tokens in the Electron shell: encrypted with the OS keychain through safeStorage, and only
 * where that is a real keyring (./keyringVerdict.ts). Electron's safeStorage is passed in, so the
 * store runs under tests with a fake one.
 */
import fs from 'node:fs';
import { AppError } from '../../shared/appError';
import type { AppErrorShape } from '../../shared/contract/define';
import type { TokenStore } from '../store/tokenStore';
import { keyringVerdict, type KeyringProbe } from './keyringVerdict';

/** The part of Electron's safeStorage the store uses. */
export interface SafeStorageApi extends KeyringProbe {
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
}

type Sealed = Record<string, string>;

export class SafeStorageTokenStore implements TokenStore {
  constructor(
    private readonly file: string,
    private readonly safeStorage: SafeStorageApi,
    private readonly platform: NodeJS.Platform = process.platform,
  ) {}

  private read(): Sealed {
    try {
      return JSON.parse(fs.readFileSync(this.file, 'utf8')) as Sealed;
    } catch {
      return {};
    }
  }

  private write(sealed: Sealed): void {
    fs.writeFileSync(this.file, JSON.stringify(sealed), { mode: 0o600 });
  }

  refusal(): AppErrorShape | null {
    const verdict = keyringVerdict(this.safeStorage, this.platform);
    return verdict.ok ? null : verdict.refusal;
  }

  /**
   * A token sealed before the keyring went away (or by another keyring) cannot be trusted or
   * opened: the profile then shows as having no token, and Settings says why.
   */
  get(profileId: string): string | null {
    const sealed = this.read()[profileId];
    if (!sealed || this.refusal()) return null;
    try {
      return this.safeStorage.decryptString(Buffer.from(sealed, 'base64'));
    } catch {
      return null;
    }
  }

  set(profileId: string, token: string): void {
    const refusal = this.refusal();
    if (refusal) throw AppError.fromShape(refusal);
    const sealed = this.read();
    sealed[profileId] = this.safeStorage.encryptString(token).toString('base64');
    this.write(sealed);
  }

  delete(profileId: string): void {
    const sealed = this.read();
    delete sealed[profileId];
    this.write(sealed);
  }
}
