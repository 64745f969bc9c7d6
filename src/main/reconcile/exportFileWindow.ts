/**
 * The bytes of a vendor export as the fast CSV reader (readExportCsvBytes.ts) takes them: the whole
 * file in memory (when a worker thread reads half of it), or a chunk at a time into one buffer used
 * again for the next; and the few records that end up in a report, read again from the file, which
 * must still be the file that was read.
 */
import type { Hash } from 'node:crypto';
import fs from 'node:fs';
import { AppError } from '../../shared/appError';
import { scanRecord } from './threadedReaders';

/**
 * A file read on one thread is read this many bytes at a time into one buffer, used again for the
 * next (a record longer than that grows it). Held whole, a 185 MB file was ~45,000 fresh pages of
 * memory (~150 MB of a run's peak, ~70 ms of the kernel's time); reports read their few rows again.
 */
export const CHUNK_BYTES = 1 << 20;

/** The whole file in memory a worker thread can read too. */
export function readShared(fd: number, size: number): Buffer {
  const buf = Buffer.from(new SharedArrayBuffer(size));
  const at = readFully(fd, buf, 0, size, 0);
  return at === size ? buf : buf.subarray(0, at);
}

/** Reads `length` bytes at file offset `position` into `buf` at `offset` (fewer only at the end of the file); returns how many. */
export function readFully(fd: number, buf: Buffer, offset: number, length: number, position: number): number {
  let at = 0;
  while (at < length) {
    const n = fs.readSync(fd, buf, offset + at, length - at, position + at);
    if (n === 0) break;
    at += n;
  }
  return at;
}

export function sameFile(a: fs.Stats, b: fs.Stats): boolean {
  return a.size === b.size && a.mtimeMs === b.mtimeMs && a.ino === b.ino && a.dev === b.dev;
}

/** The export was written to (or replaced) between reading it and reading its reported rows again. */
export function exportChangedError(): AppError {
  return new AppError(
    'export_changed',
    'The export file changed while it was being reconciled (it is not the file that was read), so its rows cannot be reported as they were read.',
    'Leave the file as it is (close any program writing to it) and reconcile again.',
  );
}

/**
 * The part of the file being read: `buf[0, have)` holds the file's bytes from `base`. Either the
 * whole file (`eof` from the start) or a chunk of it that `refill` moves on.
 */
export interface FileWindow {
  buf: Buffer;
  base: number;
  have: number;
  eof: boolean;
  /** Keeps `buf`'s bytes from offset `keepFrom` on (moved to its start) and reads more after them. */
  refill(keepFrom: number): void;
  /** Reads from file offset `at` (before `base`) again. */
  seek(at: number): void;
}

export function wholeFile(buf: Buffer): FileWindow {
  return { buf, base: 0, have: buf.length, eof: true, refill: () => undefined, seek: () => undefined };
}

export function chunkedFile(fd: number, size: number, chunkBytes: number, hash: Hash | null): FileWindow {
  let hashedTo = 0;
  const readMore = () => {
    const at = w.base + w.have;
    const n = readFully(fd, w.buf, w.have, Math.min(w.buf.length - w.have, size - at), at);
    // (Bytes read again after a seek are hashed once.)
    if (hash && at + n > hashedTo) {
      hash.update(w.buf.subarray(w.have + hashedTo - at, w.have + n));
      hashedTo = at + n;
    }
    w.have += n;
    if (n === 0 || at + n >= size) w.eof = true;
  };
  const w: FileWindow = {
    buf: Buffer.allocUnsafe(Math.max(64, Math.min(chunkBytes, size))),
    base: 0,
    have: 0,
    eof: size === 0,
    refill(keepFrom) {
      if (w.eof) return;
      if (keepFrom > 0) {
        w.buf.copy(w.buf, 0, keepFrom, w.have);
        w.base += keepFrom;
        w.have -= keepFrom;
      } else if (w.have === w.buf.length) {
        // A record longer than the buffer: a bigger one (records are refused past MAX_RECORD_CHARS).
        const bigger = Buffer.allocUnsafe(w.buf.length * 2);
        w.buf.copy(bigger, 0, 0, w.have);
        w.buf = bigger;
      }
      readMore();
    },
    seek(at) {
      w.base = at;
      w.have = 0;
      w.eof = at >= size;
      if (!w.eof) readMore();
    },
  };
  w.refill(0);
  return w;
}

/**
 * Records of the file read again, for the few rows that end up in a report: the file must be the
 * one that was read (size, modification time, inode), else {@link exportChangedError}. The file
 * stays open until this turn of the event loop ends (reports ask for their rows one after
 * another). A row is read with a few KB around it; rows asked for in file order (a scan) a larger
 * window at a time.
 */
export function rereadRecords(path: string, read: fs.Stats, delim: number): (where: number, fields: FieldBounds) => Buffer {
  const ROW_BYTES = 4096;
  const SCAN_BYTES = 256 * 1024;
  let fd = -1;
  let window = Buffer.allocUnsafe(SCAN_BYTES);
  let windowAt = -1;
  let windowLength = 0;
  const close = () => {
    if (fd !== -1) fs.closeSync(fd);
    fd = -1;
    windowAt = -1;
  };
  const load = (where: number, want: number) => {
    if (want > window.length) window = Buffer.allocUnsafe(want);
    const length = Math.min(want, read.size - where);
    windowLength = readFully(fd, window, 0, length, where);
    windowAt = where;
    if (windowLength < length) {
      close();
      throw exportChangedError();
    }
  };
  return (where, f) => {
    if (fd === -1) {
      fd = fs.openSync(path, 'r');
      setImmediate(close);
      if (!sameFile(fs.fstatSync(fd), read)) {
        close();
        throw exportChangedError();
      }
    }
    if (windowAt === -1 || where < windowAt || where >= windowAt + windowLength) {
      const after = windowAt === -1 ? -1 : where - (windowAt + windowLength);
      load(where, after >= 0 && after < 4 * ROW_BYTES ? SCAN_BYTES : ROW_BYTES);
    }
    for (;;) {
      const bytes = window.subarray(0, windowLength);
      const end = scanRecord(bytes, where - windowAt, delim, f.starts, f.ends, f.quoted, f.starts.length, Infinity, f.scanned);
      // A record that reaches the window's end may go on after it (unless the file ends there).
      if (end < windowLength || windowAt + windowLength >= read.size) return bytes;
      load(where, 2 * Math.max(windowLength, ROW_BYTES));
    }
  };
}

/** Field bounds of one record, as scanRecord fills them. */
export interface FieldBounds {
  starts: Int32Array;
  ends: Int32Array;
  quoted: Uint8Array;
  scanned: Int32Array;
}

export function fieldBounds(maxFields: number): FieldBounds {
  return { starts: new Int32Array(maxFields), ends: new Int32Array(maxFields), quoted: new Uint8Array(maxFields), scanned: new Int32Array(2) };
}
