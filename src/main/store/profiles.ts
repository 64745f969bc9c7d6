/** Connection profiles: the embedded sandbox (always there) and live ones (base URL + token). */
import { randomUUID } from 'node:crypto';
import { AppError } from '../../shared/appError';
import type { Db } from './database';
import type { Settings } from './settings';

export const SANDBOX_PROFILE_ID = 'sandbox';
const ACTIVE_KEY = 'profiles.active';

export interface Profile {
  id: string;
  name: string;
  kind: 'sandbox' | 'live';
  baseUrl: string | null;
  createdAt: string;
  /** The address the stored token was entered for (normalized), or null when none is bound. */
  tokenAddress: string | null;
}

interface ProfileRow {
  id: string;
  name: string;
  kind: 'sandbox' | 'live';
  base_url: string | null;
  created_at: string;
  token_address: string | null;
}

const toProfile = (r: ProfileRow): Profile => ({ id: r.id, name: r.name, kind: r.kind, baseUrl: r.base_url, createdAt: r.created_at, tokenAddress: r.token_address });

export class ProfileStore {
  constructor(private readonly db: Db) {}

  list(): Profile[] {
    return (this.db.prepare('SELECT * FROM profiles ORDER BY kind DESC, name').all() as ProfileRow[]).map(toProfile);
  }

  get(id: string): Profile {
    const row = this.db.prepare('SELECT * FROM profiles WHERE id = ?').get(id) as ProfileRow | undefined;
    if (!row) throw new AppError('profile_not_found', `There is no connection profile "${id}".`, 'Pick one from Settings → Connection profiles.');
    return toProfile(row);
  }

  /** A profile named by its id or (case-insensitively) its name. */
  byNameOrId(nameOrId: string): Profile {
    const all = this.list();
    const found = all.find((p) => p.id === nameOrId) ?? all.filter((p) => p.name.toLowerCase() === nameOrId.trim().toLowerCase());
    if (!Array.isArray(found)) return found;
    if (found.length === 1) return found[0];
    throw new AppError(
      found.length === 0 ? 'profile_not_found' : 'profile_ambiguous',
      found.length === 0 ? `There is no connection profile "${nameOrId}".` : `${found.length} connection profiles are named "${nameOrId}".`,
      `Name one of: ${all.map((p) => `${p.name} (${p.id})`).join(', ')}.`,
    );
  }

  active(settings: Settings): Profile {
    const id = settings.get<string>(ACTIVE_KEY, SANDBOX_PROFILE_ID);
    try {
      return this.get(id);
    } catch {
      return this.get(SANDBOX_PROFILE_ID);
    }
  }

  setActive(settings: Settings, id: string): void {
    this.get(id);
    settings.set(ACTIVE_KEY, id);
  }

  saveLive(input: { id?: string; name: string; baseUrl: string }): Profile {
    const id = input.id ?? randomUUID();
    if (id === SANDBOX_PROFILE_ID) throw new AppError('profile_readonly', 'The built-in sandbox profile cannot be changed.');
    this.db
      .prepare(
        `INSERT INTO profiles (id, name, kind, base_url, created_at) VALUES (?, ?, 'live', ?, ?)
         ON CONFLICT(id) DO UPDATE SET name = excluded.name, base_url = excluded.base_url`,
      )
      .run(id, input.name, input.baseUrl, new Date().toISOString());
    return this.get(id);
  }

  /** Records the address a token was entered for (null: no token bound). */
  bindToken(id: string, address: string | null): void {
    this.db.prepare('UPDATE profiles SET token_address = ? WHERE id = ?').run(address, id);
  }

  delete(id: string): void {
    if (id === SANDBOX_PROFILE_ID) throw new AppError('profile_readonly', 'The built-in sandbox profile cannot be deleted.');
    this.db.prepare('DELETE FROM profiles WHERE id = ?').run(id);
  }
}
