/**
 * The two reads of a reconciliation that do not need the main thread — the mirror's entries
 * (SQLite's query, a slice of entries at a time, and reading its text into columns) and the export file's SHA-256 — run on a
 * worker thread while the main thread parses the export. On a 1,000,000-row run this takes about
 * a second off the wall time. The worker also reads the references (spans and hashes) and builds
 * their table: with a month's days kept as texts (`log_day_records`) it is done long before the
 * export is read, which is then the longer part (measured: at 1,000,000 entries the references'
 * share was ~0.3 s of the main thread's).
 *
 * The worker is plain JavaScript given as a string (no separate bundle entry, so it runs the
 * same under Node, tsx and Electron; the mirror's reader goes in as its source text) with its own
 * read-only SQLite connection (and one that writes only the days' kept texts). Whatever goes
 * wrong there (an in-memory database, a native module built for another runtime) only means the
 * caller does the same reads itself: `null` comes back, never a failure.
 */
import { Worker } from 'node:worker_threads';
import { sqliteModulePath } from '../store/readOnWorker';
import { mirrorQuery } from './mirrorEntries';
import {
  functionsSource,
  hashText,
  indexMirrorReferences,
  indexReferences,
  joinMirrorColumns,
  MIRROR_SLICE_ROWS,
  mirrorReferenceParts,
  parseMirrorEntries,
  parseMirrorReferences,
  readMirrorSlices,
  utcMs,
  type MirrorSliceQueries,
  type ParsedMirror,
  type ReferenceIndex,
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
${functionsSource([utcMs, parseMirrorEntries, readMirrorSlices, hashText, parseMirrorReferences, mirrorReferenceParts, joinMirrorColumns, indexReferences, indexMirrorReferences])}
if (workerData.estimateSql) {
  try {
    const Database = require(workerData.sqliteModule);
    const db = new Database(workerData.dbPath, { readonly: true, fileMustExist: true });
    db.pragma('busy_timeout = 5000');
    // The whole days' kept texts are claimed before the snapshot and stored after their reading,
    // on a connection of their own that never waits long for another writer (not kept, then).
    let store;
    let keeper = null;
    try {
      keeper = new Database(workerData.dbPath, { fileMustExist: true });
      keeper.pragma('busy_timeout = 100');
      const claim = keeper.prepare(workerData.claimSql);
      keeper.transaction(() => {
        for (const [, , day] of workerData.segments) if (day !== null) claim.run(workerData.profileId, day);
      })();
      const keep = keeper.prepare(workerData.storeSql);
      store = (day, stamp, n, records, refs) => keep.run(n, records, refs, workerData.profileId, day, stamp);
    } catch {
      store = undefined;
    }
    // The days' texts written are copied into the database here, once the reading is over (else
    // the next commit of the main thread's, the run's own, did it: ~1 s at 3,000,000 entries).
    const closeKeeper = () => {
      if (!keeper) return;
      try {
        keeper.pragma('wal_checkpoint(PASSIVE)');
      } catch {}
      keeper.close();
    };
    if (workerData.keepOnly) {
      // Only the days kept (after a sync): a day at a time, so only a day's columns are held.
      let days = 0;
      const kept = db.prepare(workerData.keptSql).pluck();
      for (const segment of workerData.segments) {
        // (A day kept already is not read again: every sync would read two months of them.)
        if (segment[2] === null || kept.get(workerData.profileId, segment[2]) !== undefined) continue;
        const day = { ...workerData, segments: [segment], estimateParams: [workerData.profileId, segment[2], segment[2]] };
        ${readMirrorSlices.name}(db, day, workerData.sliceRows, () => undefined, store);
        days++;
      }
      db.close();
      closeKeeper();
      parentPort.postMessage({ kind: 'kept', days: store ? days : 0 });
    } else {
      // Read, joined and indexed here: the main thread is reading the export meanwhile.
      const parts = ${mirrorReferenceParts.name}();
      let refs = null;
      const entries = ${readMirrorSlices.name}(db, workerData, workerData.sliceRows, (references, n, capacity, last) => {
        refs = parts.add(references, n, capacity, last) || refs;
      }, store);
      db.close();
      const mirror = ${joinMirrorColumns.name}(refs, entries);
      const index = ${indexMirrorReferences.name}(mirror);
      const columns = [mirror.txStart, mirror.txEnd, mirror.txHash, ...Object.values(entries), index.slots, index.first];
      parentPort.postMessage({ kind: 'mirror', mirror, index }, [mirror.bytes.buffer, ...columns.map((c) => c.buffer)]);
      // (After the mirror is sent: the main thread is not kept waiting for it.)
      closeKeeper();
    }
  } catch (error) {
    parentPort.postMessage({ kind: workerData.keepOnly ? 'kept' : 'mirror', error: String((error && error.message) || error) });
  }
} else parentPort.postMessage({ kind: 'mirror', error: 'no range to read' });
if (!workerData.keepOnly) try {
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

type WorkerMessage = { kind: 'mirror'; mirror?: ParsedMirror; index?: ReferenceIndex; error?: string } | { kind: 'hash'; hash?: string; error?: string };

/**
 * `estimateSql`, `sliceSql` and their parameters: mirrorEntries' `mirrorQuery` (without them only the file is
 * hashed); `sliceRows`: entries a slice (threadedReaders' `MIRROR_SLICE_ROWS` unless given).
 */
export function startBackgroundReads(
  options: {
    dbPath: string;
    filePath: string;
    sliceRows?: number;
  } & Partial<MirrorSliceQueries>,
): BackgroundReads {
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
  worker.on('message', (m: WorkerMessage) => {
    if (m.kind === 'mirror') {
      if (!m.mirror || !m.index) {
        resolveReferences(null);
        resolveMirror(null);
        return;
      }
      // (Typed arrays cross as they are; the references' bytes come as a Uint8Array.)
      const b = m.mirror.bytes;
      const read: ParsedMirror = { ...m.mirror, bytes: Buffer.from(b.buffer, b.byteOffset, b.byteLength), txIndex: m.index };
      resolveReferences(read);
      resolveMirror(read);
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

/**
 * Keeps the whole Lagos days of [fromIso, toIso) of the profile's mirror as reconcile reads them
 * (`log_day_records`), on a worker thread, a day at a time: done after a sync, so that the first
 * reconciliation of a month reads kept days too. The days already kept are left as they are.
 * Resolves with the days read and kept (0 when none could be kept: an in-memory database, a
 * native module built for another runtime); never fails.
 */
export function keepMirrorDays(dbPath: string, profileId: string, fromIso: string, toIso: string): Promise<number> {
  const sqliteModule = sqliteModulePath();
  if (!sqliteModule || dbPath === '' || dbPath === ':memory:') return Promise.resolve(0);
  return new Promise<number>((resolve) => {
    let worker: Worker;
    try {
      worker = new Worker(workerSource(), {
        eval: true,
        workerData: { ...mirrorQuery(profileId, fromIso, toIso), dbPath, keepOnly: true, sliceRows: MIRROR_SLICE_ROWS, sqliteModule },
        execArgv: [],
      });
    } catch {
      resolve(0);
      return;
    }
    worker.on('message', (m: { kind: string; days?: number }) => resolve(m.kind === 'kept' ? (m.days ?? 0) : 0));
    worker.on('error', () => resolve(0));
    worker.on('exit', () => resolve(0));
  });
}
