/**
 * One read query run on a worker thread with its own read-only connection to the database file,
 * so that a long read (a month of cost centres over millions of entries: seconds) does not hold
 * up the main process; every other request is answered meanwhile. It reads a snapshot of its own:
 * a write committed while it runs is in the next read.
 *
 * The worker is plain JavaScript given as a string (no separate bundle entry, so it runs the same
 * under Node, tsx and Electron). Null comes back whenever it cannot run there (an in-memory
 * database, a native module built for another runtime, a worker that fails to start): the
 * caller then reads on its own connection. An error of the query itself is thrown, as it would be
 * on the main thread.
 */
import { Worker } from 'node:worker_threads';

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
let db;
try {
  const Database = require(workerData.sqliteModule);
  db = new Database(workerData.dbPath, { readonly: true, fileMustExist: true });
} catch (error) {
  parentPort.postMessage({ unavailable: String((error && error.message) || error) });
}
if (db) {
  try {
    db.pragma('busy_timeout = 5000');
    parentPort.postMessage({ rows: db.prepare(workerData.sql).all(...workerData.params) });
  } catch (error) {
    parentPort.postMessage({ error: String((error && error.message) || error) });
  } finally {
    db.close();
  }
}`;

/** Where better-sqlite3 is, for a worker to load it; null when this runtime cannot say. */
export function sqliteModulePath(): string | null {
  try {
    return typeof require === 'function' ? require.resolve('better-sqlite3') : null;
  } catch {
    return null;
  }
}

/** The rows of `sql` with `params`, read on a worker thread from the database file `dbPath`; null when a worker cannot read it. */
export function readOnWorker<T>(dbPath: string, sql: string, params: readonly unknown[]): Promise<T[] | null> {
  const sqliteModule = sqliteModulePath();
  if (!sqliteModule || dbPath === '' || dbPath === ':memory:') return Promise.resolve(null);
  return new Promise<T[] | null>((resolve, reject) => {
    let worker: Worker;
    try {
      worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { dbPath, sql, params, sqliteModule }, execArgv: [] });
    } catch {
      resolve(null);
      return;
    }
    let answered = false;
    worker.once('message', (m: { rows?: T[]; error?: string; unavailable?: string }) => {
      answered = true;
      if (m.rows) resolve(m.rows);
      else if (m.error !== undefined) reject(new Error(m.error));
      else resolve(null);
    });
    worker.once('error', () => {
      if (!answered) resolve(null);
    });
    worker.once('exit', () => {
      if (!answered) resolve(null);
    });
  });
}
