/**
 * A commit that does not wait for the disk, for a write a power cut may roll back without losing
 * anything vendesk cannot read again or redo. Every other commit waits (`synchronous = FULL`,
 * database.ts): a purchase marked `sending` must survive a power cut before its request leaves.
 *
 * How: the write runs in one transaction committed with synchronous = NORMAL, and the connection's
 * own setting is put back right after, however the write ends. In WAL mode NORMAL skips the fsync
 * of the commit, not the order of writes: a crash of vendesk loses nothing, and a power cut can at
 * worst roll back the last commits whole, never corrupt the file; the next commit that waits for
 * the disk syncs the WAL file, which holds this commit too. The setting is per connection, and it
 * is lowered only for the span of this synchronous call, during which no other write (a purchase
 * marked `sending`) can run on the connection. Inside another transaction, the setting is left as
 * it is: that transaction's commit decides.
 *
 * Who may use it, and why each loses nothing (each caller says so too):
 * - entries of the service's log mirrored here (`transactions/logStore.ts`): the service keeps them,
 *   and the next sync reads what was rolled back;
 * - a single purchase's job, written before anything of it is sent (`buying/singleVending.ts`,
 *   `buying/singleTopUp.ts`): the commit that marks it `sending` waits for the disk, and takes this
 *   one with it, before its request leaves; rolled back, nothing of it had been sent;
 * - the state a run ends in (`buying/jobRunner.ts`): every answer was committed as it came, and
 *   this write only names what follows from them (accepted items are pending, the job is
 *   completed); rolled back, the job shows as stopped while running, and resuming it reads its
 *   items' outcomes and sends nothing again.
 */
import type Database from 'better-sqlite3';
import type { Db } from './database';

/** `PRAGMA synchronous` NORMAL (OFF is 0, FULL 2, EXTRA 3). */
const SYNCHRONOUS_NORMAL = 1;

/**
 * The connection's `PRAGMA synchronous` statements, compiled once per database connection: kept
 * here rather than in `store/prepared.ts`, as the job store keeps its own (`JobStore.stmt`), so the
 * path of a purchase, which commits through here, stays in the files that do its work.
 */
const pragmas = new WeakMap<Db, { read: Database.Statement; set: Map<number, Database.Statement> }>();

function synchronousOf(db: Db): { read(): number; set(level: number): void } {
  let p = pragmas.get(db);
  if (!p) {
    p = { read: db.prepare('PRAGMA synchronous').pluck(), set: new Map() };
    pragmas.set(db, p);
  }
  const { read, set } = p;
  return {
    read: () => read.get() as number,
    set(level) {
      let statement = set.get(level);
      if (!statement) {
        statement = db.prepare(`PRAGMA synchronous = ${Number(level)}`);
        set.set(level, statement);
      }
      statement.run();
    },
  };
}

/** Runs `write` in one transaction (IMMEDIATE with `immediate`) whose commit does not wait for the disk. */
export function commitUnflushed<T>(db: Db, write: () => T, { immediate = false }: { immediate?: boolean } = {}): T {
  const transaction = db.transaction(write);
  const run = () => (immediate ? transaction.immediate() : transaction());
  if (db.inTransaction) return run();
  const synchronous = synchronousOf(db);
  const before = synchronous.read();
  if (before <= SYNCHRONOUS_NORMAL) return run();
  synchronous.set(SYNCHRONOUS_NORMAL);
  try {
    return run();
  } finally {
    synchronous.set(before);
  }
}
