/** Live tokens in the Electron shell: encrypted with the OS keychain through safeStorage. */
import { safeStorage } from 'electron';
import fs from 'node:fs';
import { AppError } from '../../shared/appError';
import type { TokenStore } from '../store/tokenStore';

type Sealed = Record<string, string>;

export class SafeStorageTokenStore implements TokenStore {
  constructor(private readonly file: string) {}

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

  get(profileId: string): string | null {
    const sealed = this.read()[profileId];
    if (!sealed) return null;
    return safeStorage.decryptString(Buffer.from(sealed, 'base64'));
  }

  set(profileId: string, token: string): void {
    if (!safeStorage.isEncryptionAvailable()) {
      throw new AppError('no_keychain', 'This computer offers no secure storage for the token.', 'Set VENDESK_TOKEN instead, or enable the system keychain.');
    }
    const sealed = this.read();
    sealed[profileId] = safeStorage.encryptString(token).toString('base64');
    this.write(sealed);
  }

  delete(profileId: string): void {
    const sealed = this.read();
    delete sealed[profileId];
    this.write(sealed);
  }
}
