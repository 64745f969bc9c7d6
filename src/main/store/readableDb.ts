/**
 * The local database as the read paths see it, after Signal's `ReadableDB`
 * (`ts/sql/Interface.std.ts`): the Transactions page's queries and indexes, the Dashboard's
 * figures, the spend report and expected costs take a `ReadableDB`, not the database.
 *
 * It is the same database object (so the caches the write paths clear are the ones the read
 * paths fill), seen through a type without writes: its statements have no `run`, and it has no
 * `exec` and no writing `pragma`. A read path that tries to write does not compile
 * (test/unit/foundation/readableDb.test.ts holds that); a transaction it opens is a snapshot for
 * several reads, since nothing in it can write.
 */
import type Database from 'better-sqlite3';

/** A statement without `run`: it can only be read from. */
export type ReadStatement = Omit<Database.Statement<unknown[], unknown>, 'run'>;

export interface ReadableDB {
  prepare(source: string): ReadStatement;
  /** Only `data_version`: whether another connection wrote since, read without changing anything. */
  pragma(source: 'data_version', options: { simple: true }): unknown;
  /** Whether the database is open, and whether a transaction is open on it now. */
  readonly open: boolean;
  readonly inTransaction: boolean;
  /** A consistent snapshot over several reads. */
  transaction<F extends Parameters<Database.Database['transaction']>[0]>(fn: F): Database.Transaction<F>;
}
