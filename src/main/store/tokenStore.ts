/**
 * Where a live profile's API token is kept. The token never appears in logs, errors or any
 * other file. Electron encrypts it with safeStorage (src/main/shell/safeTokenStore.ts); the web
 * shell and the CLI read `VENDESK_TOKEN` or a file that only its owner can read.
 */
import fs from 'node:fs';
import path from 'node:path';
import { AppError } from '../../shared/appError';
import type { AppErrorShape } from '../../shared/contract/define';
import { privateDir, writePrivateFile } from '../privateFiles';

export interface TokenStore {
  get(profileId: string): string | null;
  set(profileId: string, token: string): void;
  delete(profileId: string): void;
  /** Why this store will not keep a token on this computer (null or absent: it will). */
  refusal?(): AppErrorShape | null;
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
      throw new AppError(
        'token_file_exposed',
        `The token file ${file} can be read by other users, so vendesk will not use it.`,
        `Run: chmod 600 "${file}"`,
      );
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

/** `VENDESK_TOKEN` wins over the stored token, for scripted runs. */
export class EnvFirstTokenStore implements TokenStore {
  constructor(
    private readonly inner: TokenStore,
    private readonly envToken: string | undefined,
  ) {}
  get(profileId: string): string | null {
    if (profileId !== 'sandbox' && this.envToken) return this.envToken;
    return this.inner.get(profileId);
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
}
