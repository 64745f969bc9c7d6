/**
 * Prepared statements compiled once per database connection and SQL text. Compiling a statement
 * costs more than running a small one, and the hot paths (a purchase's writes, a requery, a job's
 * rows) run the same SQL again and again: they take it from here.
 */
import type Database from 'better-sqlite3';
import type { Db } from './database';

const compiled = new WeakMap<Db, Map<string, Database.Statement>>();

/** The statement for `sql` on `db`, compiled on first use. */
export function prepared(db: Db, sql: string): Database.Statement {
  let statements = compiled.get(db);
  if (!statements) {
    statements = new Map();
    compiled.set(db, statements);
  }
  let statement = statements.get(sql);
  if (!statement) {
    statement = db.prepare(sql);
    statements.set(sql, statement);
  }
  return statement;
}
