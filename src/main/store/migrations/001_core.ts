import type { Migration } from './migration';

export const coreMigration: Migration = {
  version: 1,
  name: 'core: settings and connection profiles',
  up: `
    CREATE TABLE settings (
      key TEXT PRIMARY KEY,
      value TEXT NOT NULL,
      updated_at TEXT NOT NULL
    );
    CREATE TABLE profiles (
      id TEXT PRIMARY KEY,
      name TEXT NOT NULL,
      kind TEXT NOT NULL CHECK (kind IN ('sandbox', 'live')),
      base_url TEXT,
      created_at TEXT NOT NULL
    );
    INSERT INTO profiles (id, name, kind, base_url, created_at)
      VALUES ('sandbox', 'Sandbox (built in)', 'sandbox', NULL, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
  `,
};
