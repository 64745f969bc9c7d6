/**
 * Where a live profile's API token is kept. The token never appears in logs, errors or any
 * other file. Electron encrypts it with safeStorage (src/main/shell/safeTokenStore.ts); the web
 * shell and the CLI read `VENDESK_TOKEN` or a file that only its owner can read.
 */
import fs from 'node:fs';
import path from 'node:path';
import { AppError } from '../../shared/appError';
import { normalizeBaseUrl } from '../../shared/baseUrl';
import type { AppErrorShape } from '../../shared/contract/define';
import { privateDir, writePrivateFile } from '../privateFiles';

export interface TokenStore {
  /**
   * The profile's token. `address` is the profile's service address: a store that binds a token
   * to one address (the environment's, below) answers for that address only, and for none when
   * it is not given.
   */
  get(profileId: string, address?: string | null): string | null;
  set(profileId: string, token: string): void;
  delete(profileId: string): void;
  /** Why this store will not keep a token on this computer (null or absent: it will). */
  refusal?(): AppErrorShape | null;
  /** Why a token this store holds is not given to `address` (null: nothing held back). */
  withheldFrom?(address: string): string | null;
}

/** One file per profile in `<dataDir>/tokens/`, mode 0600; refused when others can read it. */
export class FileTokenStore implements TokenStore {
  constructor(private readonly dir: string) {}

  private file(profileId: string): string {
    return path.join(this.dir, `${profileId.replace(/[^a-zA-Z0-9_-]/g, '_')}.token`);
  }

  get(profileId: string): string | null {
    const file = this.file(profileId);
    let stat: fs.Stats;
    try {
      stat = fs.statSync(file);
    } catch {
      return null;
    }
    if (process.platform !== 'win32' && (stat.mode & 0o077) !== 0) {
      throw new AppError('token_file_exposed', `The token file ${file} can be read by other users, so vendesk will not use it.`, `Run: chmod 600 "${file}"`);
    }
    const token = fs.readFileSync(file, 'utf8').trim();
    return token === '' ? null : token;
  }

  set(profileId: string, token: string): void {
    privateDir(this.dir);
    writePrivateFile(this.file(profileId), token);
  }

  delete(profileId: string): void {
    fs.rmSync(this.file(profileId), { force: true });
  }
}

/**
 * `VENDESK_TOKEN` wins over the stored token, for scripted runs and for Linux without a keyring —
 * but only at the address it is given with (`VENDESK_BASE_URL`, or the CLI's `--base-url`). A
 * live profile at any other address gets nothing from the environment (issue 23, item 12): a new
 * or edited profile pointed elsewhere never receives it. Without an address, it goes nowhere.
 */
export class EnvFirstTokenStore implements TokenStore {
  private readonly address: string | null;
  constructor(
    private readonly inner: TokenStore,
    private readonly envToken: string | undefined,
    envAddress: string | undefined,
  ) {
    this.address = envAddress ? normalizeBaseUrl(envAddress) : null;
  }
  get(profileId: string, address?: string | null): string | null {
    if (profileId !== 'sandbox' && this.envToken && this.address !== null && address && normalizeBaseUrl(address) === this.address) return this.envToken;
    return this.inner.get(profileId, address);
  }
  set(profileId: string, token: string): void {
    this.inner.set(profileId, token);
  }
  delete(profileId: string): void {
    this.inner.delete(profileId);
  }
  refusal(): AppErrorShape | null {
    return this.inner.refusal?.() ?? null;
  }
  withheldFrom(address: string): string | null {
    if (!this.envToken || this.address === normalizeBaseUrl(address)) return null;
    return this.address === null
      ? 'VENDESK_TOKEN is set without VENDESK_BASE_URL, so vendesk sends it nowhere'
      : `VENDESK_TOKEN is given for ${this.address} only, so it was not sent to ${address}`;
  }
}
