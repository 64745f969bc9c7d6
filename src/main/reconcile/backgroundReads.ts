/**
 * The two reads of a reconciliation that do not need the main thread — the mirror's entries
 * (SQLite's query, a slice of entries at a time, and reading its text into columns) and the export file's SHA-256 — run on a
 * worker thread while the main thread parses the export. On a 1,000,000-row run this takes about
 * a second off the wall time. Each slice's references come back to the main thread as soon as
 * SQLite has them: the main thread keeps them anyway, and reads them (spans and hashes) and
 * builds their table between its own export reading while the worker reads the entries' columns,
 * so neither waits for the other's share (the worker's query is the longer part: measured).
 *
 * The worker is plain JavaScript given as a string (no separate bundle entry, so it runs the
 * same under Node, tsx and Electron; the mirror's reader goes in as its source text) with its own
 * read-only SQLite connection. Whatever goes
 * wrong there (an in-memory database, a native module built for another runtime) only means the
 * caller does the same reads itself: `null` comes back, never a failure.
 */
import { Worker } from 'node:worker_threads';
import { sqliteModulePath } from '../store/readOnWorker';
import {
  functionsSource,
  indexMirrorReferences,
  joinMirrorColumns,
  MIRROR_SLICE_ROWS,
  mirrorReferenceParts,
  parseMirrorEntries,
  readMirrorSlices,
  utcMs,
  type MirrorEntryColumns,
  type ParsedMirror,
} from './threadedReaders';

export interface BackgroundReads {
  /**
   * The query's references alone (n, text, spans, hashes and their table), as soon as they are
   * read: before `mirror`, which holds the same arrays. Null when the worker could not read them.
   */
  references: Promise<MirrorReferenceHalf | null>;
  /** The query's entries, or null when the worker could not read them. */
  mirror: Promise<ParsedMirror | null>;
  /** SHA-256 of the file, hex, or null. */
  fileHash: Promise<string | null>;
  stop(): void;
}

const workerSource = (): string => `
const { parentPort, workerData } = require('node:worker_threads');
const crypto = require('node:crypto');
const fs = require('node:fs');
${functionsSource([utcMs, parseMirrorEntries, readMirrorSlices])}
if (workerData.estimateSql) {
  try {
    const Database = require(workerData.sqliteModule);
    const db = new Database(workerData.dbPath, { readonly: true, fileMustExist: true });
    db.pragma('busy_timeout = 5000');
    // Each slice's references go to the main thread as soon as SQLite has them: their bytes
    // handed over, not copied, when they are a buffer of their own.
    const entries = ${readMirrorSlices.name}(db, workerData, workerData.sliceRows, (references, n, capacity, last) => {
      const own = references.byteOffset === 0 && references.byteLength === references.buffer.byteLength;
      const bytes = own ? references : new Uint8Array(references);
      parentPort.postMessage({ kind: 'references', references: bytes, n, capacity, last }, [bytes.buffer]);
    });
    db.close();
    parentPort.postMessage({ kind: 'mirror', entries }, Object.values(entries).map((c) => c.buffer));
  } catch (error) {
    parentPort.postMessage({ kind: 'mirror', error: String((error && error.message) || error) });
  }
} else parentPort.postMessage({ kind: 'mirror', error: 'no range to read' });
try {
  const hash = crypto.createHash('sha256');
  const fd = fs.openSync(workerData.filePath, 'r');
  const chunk = Buffer.allocUnsafe(4 << 20);
  for (;;) {
    const n = fs.readSync(fd, chunk, 0, chunk.length, null);
    if (n === 0) break;
    hash.update(n === chunk.length ? chunk : chunk.subarray(0, n));
  }
  fs.closeSync(fd);
  parentPort.postMessage({ kind: 'hash', hash: hash.digest('hex') });
} catch (error) {
  parentPort.postMessage({ kind: 'hash', error: String((error && error.message) || error) });
}
`;

/** The references' part of a {@link ParsedMirror}. */
export type MirrorReferenceHalf = Pick<ParsedMirror, 'n' | 'bytes' | 'ascii' | 'txStart' | 'txEnd' | 'txHash' | 'txIndex'>;

type WorkerMessage =
  | { kind: 'references'; references: Uint8Array; n: number; capacity: number; last: boolean }
  | { kind: 'mirror'; entries?: MirrorEntryColumns; error?: string }
  | { kind: 'hash'; hash?: string; error?: string };

/**
 * `estimateSql`, `sliceSql` and their parameters: mirrorEntries' `mirrorQuery` (without them only the file is
 * hashed); `sliceRows`: entries a slice (threadedReaders' `MIRROR_SLICE_ROWS` unless given).
 */
export function startBackgroundReads(options: {
  dbPath: string;
  filePath: string;
  estimateSql?: string;
  estimateParams?: unknown[];
  sliceSql?: string;
  sliceParams?: unknown[];
  sliceRows?: number;
}): BackgroundReads {
  const none: BackgroundReads = { references: Promise.resolve(null), mirror: Promise.resolve(null), fileHash: Promise.resolve(null), stop: () => undefined };
  const sqliteModule = sqliteModulePath();
  if (!sqliteModule || options.dbPath === '' || options.dbPath === ':memory:') return none;
  let worker: Worker;
  try {
    worker = new Worker(workerSource(), { eval: true, workerData: { ...options, sliceRows: options.sliceRows ?? MIRROR_SLICE_ROWS, sqliteModule }, execArgv: [] });
  } catch {
    return none;
  }
  let resolveReferences: (v: MirrorReferenceHalf | null) => void = () => undefined;
  let resolveMirror: (v: ParsedMirror | null) => void = () => undefined;
  let resolveHash: (v: string | null) => void = () => undefined;
  const references = new Promise<MirrorReferenceHalf | null>((r) => (resolveReferences = r));
  const mirror = new Promise<ParsedMirror | null>((r) => (resolveMirror = r));
  const fileHash = new Promise<string | null>((r) => (resolveHash = r));
  // The references, read here (and their table built) while the worker reads the entries.
  let half: MirrorReferenceHalf | null = null;
  const parts = mirrorReferenceParts();
  worker.on('message', (m: WorkerMessage) => {
    if (m.kind === 'references') {
      const read = parts.add(m.references, m.n, m.capacity, m.last);
      if (read) {
        half = { ...read, txIndex: indexMirrorReferences(read) };
        resolveReferences(half);
      }
    } else if (m.kind === 'mirror') {
      // (A query that failed sends no references: nothing more of the mirror comes.)
      if (!half) resolveReferences(null);
      if (!m.entries || !half) resolveMirror(null);
      else resolveMirror({ ...joinMirrorColumns(half, m.entries), txIndex: half.txIndex });
    } else resolveHash(m.error === undefined ? (m.hash ?? null) : null);
  });
  const giveUp = () => {
    resolveReferences(null);
    resolveMirror(null);
    resolveHash(null);
  };
  worker.on('error', giveUp);
  worker.on('exit', giveUp);
  // Not unref'd: while its answers are awaited, the worker is what keeps the process running
  // (an unref'd worker let a CLI run end silently mid-way). It ends by itself when done.
  return {
    references,
    mirror,
    fileHash,
    stop: () => {
      giveUp();
      void worker.terminate();
    },
  };
}
