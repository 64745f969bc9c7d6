/**
 * A data folder's database as vendesk left it before migration `version`: every earlier step
 * applied, none from `version` on. A test writes the rows an older vendesk would have, then opens
 * it with `openDatabase` to see the step carry them over (`acrossMigration` does all three, in a
 * folder of its own that it removes).
 */
import Database from 'better-sqlite3';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase, type Db } from '../../src/main/store/database';
import { MIGRATIONS } from '../../src/main/store/migrations';

export function databaseBefore(file: string, version: number): Database.Database {
  const db = new Database(file);
  db.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)');
  for (const m of MIGRATIONS.filter((m) => m.version < version)) {
    if (typeof m.up === 'string') db.exec(m.up);
    else m.up(db);
    db.prepare('INSERT INTO schema_migrations VALUES (?, ?, ?)').run(m.version, m.name, new Date().toISOString());
  }
  return db;
}

/** `before` writes into the database as it was before migration `version`; `after` reads it once vendesk opened it. */
export function acrossMigration(version: number, before: (db: Database.Database) => void, after: (db: Db) => void): void {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-migration-'));
  try {
    const file = path.join(dir, 'vendesk.db');
    const old = databaseBefore(file, version);
    try {
      before(old);
    } finally {
      old.close();
    }
    const db = openDatabase(file);
    try {
      after(db);
    } finally {
      db.close();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
