/**
 * A data folder's database as vendesk left it before migration `version`: every earlier step
 * applied, none from `version` on. A test writes the rows an older vendesk would have, then opens
 * it with `openDatabase` to see the step carry them over.
 */
import Database from 'better-sqlite3';
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
