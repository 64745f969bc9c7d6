/**
 * The local SQLite database: opened in WAL mode, numbered migrations run at open (safely when
 * two processes open a new folder at once).
 * `nativeBinding` lets the Electron shell load the better-sqlite3 build made for Electron's ABI
 * while tests, the web shell and the CLI use Node's build (see scripts/electronNative.ts).
 */
import Database from 'better-sqlite3';
import { createPrivateFile } from '../privateFiles';
import { MIGRATIONS } from './migrations';

export type Db = Database.Database;

export interface OpenDatabaseOptions {
  nativeBinding?: string;
}

export function openDatabase(file: string, options: OpenDatabaseOptions = {}): Db {
  // Mode 600 before SQLite creates it with the umask's; its -wal and -shm files take its mode.
  if (file !== ':memory:') createPrivateFile(file);
  const db = new Database(file, options.nativeBinding ? { nativeBinding: options.nativeBinding } : {});
  if (file !== ':memory:') db.pragma('journal_mode = WAL');
  // FULL: a purchase marked 'sending' must survive a power cut before its request leaves,
  // or a restart could not know it may have been sent.
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  migrate(db);
  return db;
}

function migrate(db: Db): void {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)');
  const applied = new Set((db.prepare('SELECT version FROM schema_migrations').all() as { version: number }[]).map((r) => r.version));
  const versions = new Set<number>();
  for (const m of MIGRATIONS) {
    if (versions.has(m.version)) throw new Error(`Two migrations share number ${m.version}`);
    versions.add(m.version);
  }
  const isApplied = db.prepare('SELECT 1 FROM schema_migrations WHERE version = ?');
  for (const m of [...MIGRATIONS].sort((a, b) => a.version - b.version)) {
    if (applied.has(m.version)) continue;
    // Two vendesk processes may open a new data folder at once (the window and a command): each
    // step holds the write lock from its start and is skipped when the other applied it meanwhile.
    db.transaction(() => {
      if (isApplied.get(m.version)) return;
      if (typeof m.up === 'string') db.exec(m.up);
      else m.up(db);
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(m.version, m.name, new Date().toISOString());
    }).immediate();
  }
}
