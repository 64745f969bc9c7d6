/**
 * The readers of a reconciliation's two big inputs that also run on worker threads: the data
 * records of a UTF-8 CSV vendor export, read straight from the bytes into typed columns (on the
 * main thread and, for the second half of a large file, on a worker at the same time, from the
 * file held whole or a chunk at a time — readExportCsvBytes.ts decides and joins the halves), and
 * the text of the mirror's entries and references, with their table (on the background worker,
 * backgroundReads.ts).
 *
 * Every function here down to `joinStrings` (and `indexReferences`) is self-contained: it uses only its arguments,
 * literals, globals and the other functions of this file (one module: a bundler or test runner
 * may rewrite a reference to another module's function), never a module binding. A worker runs
 * their own source text (`Function.prototype.toString`), so there is no separate bundle entry and
 * the worker reads exactly what the main thread would. A cell this code cannot read in its plain
 * form (`NGN 1,000.00`, ISO times, SUCCESS/FAILED/PENDING) only marks the row `slow`: the main
 * thread then reads that row again with the importer's own cell readers.
 *
 * Over 400 lines because it must be one module (above): the two readers, their byte and text
 * helpers, and the worker that runs the export's.
 */
import { Worker } from 'node:worker_threads';

/**
 * Splits one record starting at `pos` into field bounds (`starts`/`ends`, `quoted`: 1 quoted,
 * 2 with escaped quotes); returns the offset after it. `out[0]` gets the number of fields, `out[1]`
 * 1 when it stopped after `stopAfter` fields, before the end of the record (no object per record:
 * this runs a million times).
 */
export function scanRecord(
  buf: Uint8Array,
  pos: number,
  delim: number,
  starts: Int32Array,
  ends: Int32Array,
  quoted: Uint8Array,
  maxFields: number,
  stopAfter: number,
  out: Int32Array,
): number {
  const len = buf.length;
  let f = 0;
  let i = pos;
  out[1] = 0;
  for (;;) {
    let start = i;
    let end: number;
    let q = 0;
    if (i < len && buf[i] === 0x22) {
      q = 1;
      start = ++i;
      for (;;) {
        while (i < len && buf[i] !== 0x22) i++;
        if (i + 1 < len && buf[i + 1] === 0x22) {
          q = 2; // has an escaped quote
          i += 2;
          continue;
        }
        break;
      }
      end = i;
      if (i < len) i++; // closing quote
      while (i < len && buf[i] !== delim && buf[i] !== 0x0a && buf[i] !== 0x0d) i++;
    } else {
      while (i < len) {
        const c = buf[i];
        if (c === delim || c === 0x0a || c === 0x0d) break;
        i++;
      }
      end = i;
    }
    if (f < maxFields) {
      starts[f] = start;
      ends[f] = end;
      quoted[f] = q;
    }
    f++;
    if (i >= len) {
      out[0] = f;
      return len;
    }
    const c = buf[i];
    if (c === delim) {
      i++;
      if (f >= stopAfter) {
        out[1] = 1;
        out[0] = f;
        return i;
      }
      continue;
    }
    if (c === 0x0d) i++;
    if (i < len && buf[i] === 0x0a) i++;
    out[0] = f;
    return i;
  }
}

/** First offset in [s, e) that is not a space or tab. */
export function trimStart(buf: Uint8Array, s: number, e: number): number {
  while (s < e && (buf[s] === 0x20 || buf[s] === 0x09)) s++;
  return s;
}

/** End of [s, e) without trailing spaces and tabs. */
export function trimEnd(buf: Uint8Array, s: number, e: number): number {
  while (e > s && (buf[e - 1] === 0x20 || buf[e - 1] === 0x09)) e--;
  return e;
}

/**
 * `1500`, `1500.5`, `1,500.00`, `NGN 1,500.00`, `₦1,500.00` straight from the bytes; NaN for
 * anything else (negative, zero, more than two decimals, commas not between groups of three, other
 * text), which the caller hands to the importer's `amountFromCell`: a subset of the one Naira
 * grammar (`parseNairaText`), read the same (test/unit/reconcile/exportTwoThreads.test.ts).
 */
export function plainKoboFromBytes(buf: Uint8Array, s: number, e: number): number {
  s = trimStart(buf, s, e);
  e = trimEnd(buf, s, e);
  if (e - s >= 3 && (buf[s] === 0x4e || buf[s] === 0x6e) && (buf[s + 1] === 0x47 || buf[s + 1] === 0x67) && (buf[s + 2] === 0x4e || buf[s + 2] === 0x6e)) {
    s += 3;
  } else if (e - s >= 3 && buf[s] === 0xe2 && buf[s + 1] === 0x82 && buf[s + 2] === 0xa6) {
    s += 3;
  }
  while (s < e && buf[s] === 0x20) s++;
  if (s >= e) return NaN;
  let whole = 0;
  let digits = 0;
  // Commas go between groups of three digits (1,500 and 12,500,000), as parseNairaText reads them:
  // `group` counts the digits since the last comma.
  let group = 0;
  let grouped = false;
  let i = s;
  for (; i < e; i++) {
    const c = buf[i];
    if (c >= 0x30 && c <= 0x39) {
      whole = whole * 10 + (c - 0x30);
      digits++;
      group++;
    } else if (c === 0x2c && digits > 0) {
      if (grouped ? group !== 3 : group > 3) return NaN;
      grouped = true;
      group = 0;
    } else break;
  }
  if (digits === 0 || (grouped && group !== 3)) return NaN;
  let frac = 0;
  if (i < e && buf[i] === 0x2e) {
    i++;
    let n = 0;
    for (; i < e && n < 3; i++, n++) {
      const c = buf[i];
      if (c < 0x30 || c > 0x39) break;
      frac = frac * 10 + (c - 0x30);
    }
    if (n === 3 || n === 0) return NaN;
    if (n === 1) frac *= 10;
  }
  if (i !== e) return NaN;
  const kobo = whole * 100 + frac;
  // Zero, and anything too large, the importer's reader says what it is.
  return kobo > 0 && Number.isSafeInteger(kobo) ? kobo : NaN;
}

/** `n` decimal digits at `i` as a number; -1 when one is not a digit. */
export function digitsAt(buf: Uint8Array, i: number, n: number): number {
  let v = 0;
  for (let k = 0; k < n; k++) {
    const c = buf[i + k] - 0x30;
    if (c < 0 || c > 9) return -1;
    v = v * 10 + c;
  }
  return v;
}

/**
 * `Date.UTC(y, mo - 1, d, h, mi, se, ms)` by arithmetic (days from the civil date): the builtin
 * call was a tenth of reading a million-row export. Years before 100 (which Date.UTC reads as
 * 19xx) and months outside 1–12 go to Date.UTC itself.
 */
export function utcMs(y: number, mo: number, d: number, h: number, mi: number, se: number, ms: number): number {
  if (y < 100 || mo < 1 || mo > 12) return Date.UTC(y, mo - 1, d, h, mi, se, ms);
  const yy = mo <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (mo + (mo > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const days = era * 146097 + yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy - 719468;
  const t = (((days * 24 + h) * 60 + mi) * 60 + se) * 1000 + ms;
  return Math.abs(t) <= 8.64e15 ? t : NaN;
}

/**
 * `2026-11-22T14:14:08.000Z` / `2026-11-22 14:14:08` (UTC) from the bytes; NaN for other forms.
 * `day`, when given, remembers the last date's midnight ([key, ms]): an export's rows come a day
 * at a time, so the day's arithmetic is done once a day, not once a row (~3 % of reading a row).
 */
export function isoMsFromBytes(buf: Uint8Array, s: number, e: number, day?: Float64Array): number {
  s = trimStart(buf, s, e);
  e = trimEnd(buf, s, e);
  const n = e - s;
  if (n < 19 || buf[s + 4] !== 0x2d || buf[s + 7] !== 0x2d || (buf[s + 10] !== 0x54 && buf[s + 10] !== 0x20) || buf[s + 13] !== 0x3a || buf[s + 16] !== 0x3a) return NaN;
  const y = digitsAt(buf, s, 4);
  const mo = digitsAt(buf, s + 5, 2);
  const d = digitsAt(buf, s + 8, 2);
  const h = digitsAt(buf, s + 11, 2);
  const mi = digitsAt(buf, s + 14, 2);
  const se = digitsAt(buf, s + 17, 2);
  if (y < 0 || mo < 1 || mo > 12 || d < 1 || d > 31 || h < 0 || h > 23 || mi < 0 || mi > 59 || se < 0 || se > 59) return NaN;
  let i = s + 19;
  let ms = 0;
  if (i < e && buf[i] === 0x2e) {
    i++;
    let k = 0;
    let scale = 100;
    for (; i < e && buf[i] >= 0x30 && buf[i] <= 0x39; i++, k++) {
      if (k < 3) ms += (buf[i] - 0x30) * scale;
      scale /= 10;
    }
    if (k === 0) return NaN;
  }
  if (i < e && buf[i] === 0x5a) i++;
  if (i !== e) return NaN;
  if (day === undefined || y < 100) return utcMs(y, mo, d, h, mi, se, ms);
  // (utcMs's sum, with the day's part remembered: integers far below 2^53, so the same number.)
  const key = (y * 100 + mo) * 100 + d;
  if (day[0] !== key) {
    day[0] = key;
    day[1] = utcMs(y, mo, d, 0, 0, 0, 0);
  }
  const t = day[1] + ((h * 60 + mi) * 60 + se) * 1000 + ms;
  return Math.abs(t) <= 8.64e15 ? t : NaN;
}

/** SUCCESS (1), FAILED (2), PENDING (3) in any case, from the bytes; 0 for any other text. */
export function plainStatusFromBytes(buf: Uint8Array, s: number, e: number): number {
  s = trimStart(buf, s, e);
  e = trimEnd(buf, s, e);
  const len = e - s;
  const c = buf[s] | 0x20;
  if (len === 7 && c === 0x73 && (buf[s + 6] | 0x20) === 0x73) return 1; // success
  if (len === 6 && c === 0x66 && (buf[s + 5] | 0x20) === 0x64) return 2; // failed
  if (len === 7 && c === 0x70 && (buf[s + 6] | 0x20) === 0x67) return 3; // pending
  return 0;
}

/** An `id` of up to 15 digits; NaN otherwise. */
export function idFromBytes(buf: Uint8Array, s: number, e: number): number {
  s = trimStart(buf, s, e);
  e = trimEnd(buf, s, e);
  if (s === e || e - s > 15) return NaN;
  let v = 0;
  for (let i = s; i < e; i++) {
    const c = buf[i] - 0x30;
    if (c < 0 || c > 9) return NaN;
    v = v * 10 + c;
  }
  return v;
}

/** The typed columns both readers fill, as logColumns' LogColumns holds them; `txHash`: {@link hashText} of each reference. */
export interface ReadColumns {
  txHash: Uint32Array;
  logId: Float64Array;
  amountKobo: Float64Array;
  costKobo: Float64Array;
  status: Uint8Array;
  createdMs: Float64Array;
  updatedMs: Float64Array;
}

/** The columns of the texts of mirrorEntries' `mirrorQuery`, with a running hash over them (`h1`, `h2`). */
export interface ParsedMirror extends ReadColumns {
  n: number;
  /**
   * The references' bytes (SQLite's UTF-8, handed over as a BLOB): they are its spans [txStart,
   * txEnd), strings made only where they are used. Bytes, not one text: a text of a few million
   * references was built twice over (the slices' texts, then joined), ~100 MB more at the peak of
   * a 3,000,000-row reconcile than the bytes copied once into their store.
   */
  bytes: Buffer;
  /** False when a reference has a character past ASCII (its hash and length are its string's). */
  ascii: boolean;
  txStart: Int32Array;
  txEnd: Int32Array;
  h1: number;
  h2: number;
  /** The references' table (built where they are read: on the main thread while the background worker reads the entries). */
  txIndex?: ReferenceIndex;
}

/**
 * Reads the two results of mirrorEntries' `mirrorQuery` (the mirror's entries and their
 * references, both as bytes, one record each, separated by U+001E). The background worker reads the
 * entries ({@link parseMirrorEntries}) while the main thread, which keeps the references, reads
 * those ({@link mirrorReferenceParts}): see backgroundReads.ts. This is the two on one thread.
 */
export function parseMirrorColumns(entries: Uint8Array, references: Uint8Array): ParsedMirror {
  const n = countMirrorRecords(entries);
  const parts = mirrorReferenceParts();
  const refs = parts.add(references, n, n, true);
  if (!refs) throw new Error('The mirror gave no references.');
  return joinMirrorColumns(refs, parseMirrorEntries(entries, n));
}

/** The number of entries in the entries' bytes of mirrorEntries' `mirrorQuery`. */
export function countMirrorRecords(entries: Uint8Array): number {
  let n = 0;
  if (entries.length > 0) {
    n = 1;
    for (let at = entries.indexOf(0x1e); at !== -1; at = entries.indexOf(0x1e, at + 1)) n++;
  }
  return n;
}

/** The entries' columns but their references. */
export type MirrorEntryColumns = Pick<ParsedMirror, 'logId' | 'amountKobo' | 'costKobo' | 'status' | 'createdMs' | 'updatedMs'>;
/** The references' spans of their bytes, and their hashes. */
export type MirrorReferenceColumns = Pick<ParsedMirror, 'txStart' | 'txEnd' | 'txHash'>;

/**
 * The `n` records of the entries of mirrorEntries' `mirrorQuery` into columns: new ones, or
 * `into`'s from entry `at` (a slice of the mirror, {@link readMirrorSlices}). The records are
 * SQLite's text handed over as a BLOB: its bytes as they are, not decoded into a string (at
 * 3,000,000 entries decoding 150 MB of text was ~0.6 s of the worker's, and reconcile waits on it).
 */
export function parseMirrorEntries(bytes: Uint8Array, n: number, into?: MirrorEntryColumns, at = 0): MirrorEntryColumns {
  const { logId, amountKobo, costKobo, status, createdMs, updatedMs } = into ?? {
    logId: new Float64Array(n),
    amountKobo: new Float64Array(n),
    costKobo: new Float64Array(n),
    status: new Uint8Array(n),
    createdMs: new Float64Array(n),
    updatedMs: new Float64Array(n),
  };
  const integers = [logId, amountKobo, costKobo];
  const times = [createdMs, updatedMs];
  const len = bytes.length;
  const digits = (i: number, k: number): number => {
    let v = 0;
    for (let j = 0; j < k; j++) v = v * 10 + (bytes[i + j] - 48);
    return v;
  };
  let i = 0;
  for (let k = at; k < at + n; k++) {
    // id, amount, cost: integers up to the comma.
    for (let f = 0; f < 3; f++) {
      let v = 0;
      let c = bytes[i];
      const neg = c === 45;
      if (neg) c = bytes[++i];
      while (c !== 44 && i < len) {
        v = v * 10 + (c - 48);
        c = bytes[++i];
      }
      integers[f][k] = neg ? -v : v;
      i++;
    }
    status[k] = bytes[i] - 48;
    i += 2;
    // created_at up to the comma, updated_at to the end of the record: `YYYY-MM-DDTHH:MM:SS[.mmm]Z`
    // → ms (Date.parse for other forms).
    for (let f = 0; f < 2; f++) {
      let end = i;
      const stop = f === 0 ? 44 : 0x1e;
      while (end < len && bytes[end] !== stop) end++;
      let t = NaN;
      if (end === i) t = NaN;
      else if (bytes[i + 4] === 45 && bytes[i + 10] === 84 && (end - i === 24 || end - i === 20)) {
        const ms = end - i === 24 ? digits(i + 20, 3) : 0;
        t = utcMs(digits(i, 4), digits(i + 5, 2), digits(i + 8, 2), digits(i + 11, 2), digits(i + 14, 2), digits(i + 17, 2), ms);
      } else t = Date.parse(new TextDecoder().decode(bytes.subarray(i, end)));
      times[f][k] = t;
      i = end + 1;
    }
  }
  return { logId, amountKobo, costKobo, status, createdMs, updatedMs };
}

/**
 * The first `n` records of the references' bytes of mirrorEntries' `mirrorQuery` into `into`
 * from entry `at`: spans `base` bytes on (where the slice's bytes are in their store:
 * {@link mirrorReferenceParts}) and {@link hashText} of each (over the bytes of a plain-ASCII
 * one, the same; over its string for any other). False when one was not plain ASCII.
 */
export function parseMirrorReferences(bytes: Buffer, n: number, into: MirrorReferenceColumns, at: number, base: number): boolean {
  const { txStart, txEnd, txHash } = into;
  const len = bytes.length;
  let ascii = true;
  let r = 0;
  for (let k = at; k < at + n; k++) {
    const start = r;
    let h = 0x811c9dc5;
    let high = 0;
    for (; r < len; r++) {
      const c = bytes[r];
      if (c === 0x1e) break;
      high |= c;
      h = Math.imul(h ^ c, 0x01000193);
    }
    if (high >= 0x80) {
      ascii = false;
      h = hashText(bytes.toString('utf8', start, r));
    }
    txStart[k] = base + start;
    txEnd[k] = base + r;
    txHash[k] = h >>> 0;
    r++;
  }
  return ascii;
}

/** Entries a slice of the mirror holds at most (a few MB of SQLite's text, and of its copy here). */
export const MIRROR_SLICE_ROWS = 250_000;

/** mirrorEntries' `mirrorQuery`'s slices: a first guess of the range's size, then its entries a slice at a time in their index's order. */
export interface MirrorSliceQueries {
  profileId: string;
  /**
   * The entries the range holds at most as far as the mirror's totals per day know (whole days:
   * a little over the range), to size the columns from the start; they grow past it if need be.
   * Not a count of the range: that walked 3,000,000 index entries (~0.45 s) before the first slice.
   */
  estimateSql: string;
  estimateParams: unknown[];
  /** The profile, a segment's end, the last (created_at, id) read (the segment's start, before any id, at first) and the slice's size. */
  sliceSql: string;
  /** The range cut at Lagos midnights (mirrorEntries' `mirrorSegments`): start, end, and the Lagos day of a whole one. */
  segments: [string, string, string | null][];
  /** A whole day's kept texts (`log_day_records`): entries, records, refs and stamp, by profile and day. */
  daySql: string;
  /** A day's row claimed before the snapshot (profile, day), and its texts stored after (entries, records, refs, profile, day, stamp). */
  claimSql: string;
  storeSql: string;
  /** Whether a day's texts are kept (profile, day): a row when they are. */
  keptSql: string;
}

/** What {@link readMirrorSlices} asks of a better-sqlite3 connection (the worker has its own). */
export interface SliceReader {
  prepare(sql: string): { raw(): { get(...params: unknown[]): unknown } };
  transaction<T>(fn: () => T): () => T;
}

/** Stores a whole day's texts read in the snapshot, if its row still has the stamp the snapshot saw (a connection of its own: the reader's is in its snapshot). */
export type DayStore = (day: string, stamp: number, entries: number, records: Uint8Array, refs: Uint8Array) => void;

/**
 * The mirror's entries `sliceRows` at a time: SQLite's text and its copy here are a slice's, not
 * the whole range's (at 3,000,000 entries the one text was ~150 MB, and SQLite's, and its
 * references' twice more; at 10,000,000 it nears the longest string V8 makes). The slices follow
 * the index on (profile_id, created_at, id), the order the one query read them in, a segment
 * (a Lagos day, or the part of one at the range's ends) at a time, each slice from the last
 * (created_at, id) of the one before, all in one read transaction (one snapshot, as one query).
 * A whole day whose texts are kept (`log_day_records`) is read as they are: one slice, no text
 * built for each entry; one that is not is read in slices and, with `store`, kept. The entries'
 * columns are filled here (sized by the estimate, grown past it if the totals per day were behind,
 * and cut to the entries read); each slice's references text goes to `onReferences` with the
 * slice's count, the columns' size so far, and whether it was the last, at least once (it may take
 * the bytes away). Self-contained: the background worker runs it from its source text
 * ({@link functionsSource}).
 */
export function readMirrorSlices(
  db: SliceReader,
  q: MirrorSliceQueries,
  sliceRows: number,
  onReferences: (references: Uint8Array, count: number, capacity: number, last: boolean) => void,
  store?: DayStore,
): MirrorEntryColumns {
  return db.transaction(() => {
    let estimate = 0;
    try {
      estimate = Number(
        (
          db
            .prepare(q.estimateSql)
            .raw()
            .get(...q.estimateParams) as [number | null]
        )[0] ?? 0,
      );
    } catch {
      // No totals per day to go by (a bare table): the columns grow from a slice's size.
      estimate = sliceRows;
    }
    let cap = Math.max(16, estimate);
    const columnsOf = (size: number, from?: MirrorEntryColumns): MirrorEntryColumns => {
      const next: MirrorEntryColumns = {
        logId: new Float64Array(size),
        amountKobo: new Float64Array(size),
        costKobo: new Float64Array(size),
        status: new Uint8Array(size),
        createdMs: new Float64Array(size),
        updatedMs: new Float64Array(size),
      };
      if (from) for (const key of Object.keys(next) as (keyof MirrorEntryColumns)[]) next[key].set(from[key] as never);
      return next;
    };
    let into = columnsOf(cap);
    let at = 0;
    const take = (records: Uint8Array, references: Uint8Array, count: number, last: boolean): void => {
      if (at + count > cap) {
        cap = Math.max(at + count, Math.ceil(cap * 1.25));
        into = columnsOf(cap, into);
      }
      onReferences(references, count, cap, last);
      if (count > 0) parseMirrorEntries(records, count, into, at);
      at += count;
    };
    const joined = (parts: Uint8Array[]): Uint8Array => {
      let length = parts.length - 1;
      for (const p of parts) length += p.length;
      const out = new Uint8Array(Math.max(0, length));
      let w = 0;
      for (let k = 0; k < parts.length; k++) {
        if (k > 0) out[w++] = 0x1e;
        out.set(parts[k], w);
        w += parts[k].length;
      }
      return out;
    };
    const slice = db.prepare(q.sliceSql).raw();
    let kept: { get(...params: unknown[]): unknown } | null = null;
    try {
      kept = db.prepare(q.daySql).raw();
    } catch {
      // (A database from before the kept days: every day is read from its entries.)
    }
    const none = new Uint8Array(0);
    for (let s = 0; s < q.segments.length; s++) {
      const [startIso, endIso, day] = q.segments[s];
      const lastSegment = s === q.segments.length - 1;
      let stamp = -1;
      if (day !== null && kept !== null) {
        const row = kept.get(q.profileId, day) as [number | null, Uint8Array | null, Uint8Array | null, number] | undefined;
        if (row !== undefined && row[1] !== null && row[2] !== null && row[0] !== null) {
          take(row[1], row[2], row[0], lastSegment);
          continue;
        }
        if (row !== undefined) stamp = row[3];
      }
      // (Kept only when the day's row was claimed before this snapshot: its stamp is known.)
      const keep: { records: Uint8Array[]; refs: Uint8Array[]; count: number } | null = store && stamp >= 0 ? { records: [], refs: [], count: 0 } : null;
      const keepDay = (records: Uint8Array, references: Uint8Array, count: number): void => {
        try {
          if (store && day !== null) store(day, stamp, count, records, references);
        } catch {
          // (Not kept this time: the next reading builds it again.)
        }
      };
      let lastCreated = startIso;
      let lastId = -Number.MAX_SAFE_INTEGER;
      for (let first = true; ; first = false) {
        const row = slice.get(q.profileId, endIso, lastCreated, lastId, sliceRows) as [Uint8Array | null, Uint8Array | null, number];
        const count = row[2];
        const lastSlice = count < sliceRows;
        const bytes = row[0] ?? none;
        const references = row[1] ?? none;
        // Kept before `onReferences`, which may hand the bytes to another thread: a day of one
        // slice as it is, a longer one's slices copied and joined at its end.
        if (keep && first && lastSlice) keepDay(bytes, references, count);
        else if (keep && count > 0) {
          keep.records.push(bytes.slice());
          keep.refs.push(references.slice());
          keep.count += count;
        }
        take(bytes, references, count, lastSegment && lastSlice);
        if (lastSlice) break;
        // Where the next slice starts: the last record's id and created_at (its first and fifth fields).
        lastId = into.logId[at - 1];
        let c = bytes.lastIndexOf(0x1e) + 1;
        for (let f = 0; f < 4; f++) c = bytes.indexOf(44, c) + 1;
        lastCreated = new TextDecoder().decode(bytes.subarray(c, bytes.indexOf(44, c)));
      }
      if (keep && keep.records.length > 0) keepDay(joined(keep.records), joined(keep.refs), keep.count);
    }
    return {
      logId: into.logId.subarray(0, at),
      amountKobo: into.amountKobo.subarray(0, at),
      costKobo: into.costKobo.subarray(0, at),
      status: into.status.subarray(0, at),
      createdMs: into.createdMs.subarray(0, at),
      updatedMs: into.updatedMs.subarray(0, at),
    };
  })();
}

/**
 * The references of {@link readMirrorSlices}' slices, copied into one store of bytes in order
 * (sized from the first slice's bytes an entry for the entries' columns' size, grown past it if
 * need be), with their spans and hashes: `add` each slice's in order, with the columns' size so
 * far; the last returns them.
 */
export function mirrorReferenceParts(): {
  add(references: Uint8Array, count: number, capacity: number, last: boolean): Omit<MirrorReferenceHalfColumns, 'txIndex'> | null;
} {
  let cols: MirrorReferenceColumns = { txStart: new Int32Array(0), txEnd: new Int32Array(0), txHash: new Uint32Array(0) };
  let store = Buffer.alloc(0);
  let used = 0;
  let at = 0;
  let ascii = true;
  return {
    add(references, count, capacity, last) {
      const size = Math.max(capacity, at + count);
      if (cols.txStart.length < size) {
        const grown = { txStart: new Int32Array(size), txEnd: new Int32Array(size), txHash: new Uint32Array(size) };
        grown.txStart.set(cols.txStart.subarray(0, at));
        grown.txEnd.set(cols.txEnd.subarray(0, at));
        grown.txHash.set(cols.txHash.subarray(0, at));
        cols = grown;
      }
      if (count > 0) {
        if (used + references.length > store.length) {
          // Room for the entries still to come at this slice's bytes an entry, a little more.
          const rest = Math.ceil(((size - at - count) * references.length * 1.03) / count);
          const grown = Buffer.alloc(used + references.length + rest);
          grown.set(store.subarray(0, used));
          store = grown;
        }
        store.set(references, used);
        ascii = parseMirrorReferences(store.subarray(used, used + references.length), count, cols, at, used) && ascii;
        used += references.length;
        at += count;
      }
      if (!last) return null;
      return {
        n: at,
        bytes: store.subarray(0, used),
        ascii,
        txStart: cols.txStart.subarray(0, at),
        txEnd: cols.txEnd.subarray(0, at),
        txHash: cols.txHash.subarray(0, at),
      };
    },
  };
}

type MirrorReferenceHalfColumns = Pick<ParsedMirror, 'n' | 'bytes' | 'ascii' | 'txStart' | 'txEnd' | 'txHash' | 'txIndex'>;

/**
 * The two halves as one {@link ParsedMirror}, with the running hash over the entries (`h1`, `h2`;
 * a reference's length and last character are its string's).
 */
export function joinMirrorColumns(refs: Omit<MirrorReferenceHalfColumns, 'txIndex'>, entries: MirrorEntryColumns): ParsedMirror {
  const { n, bytes, ascii, txStart, txEnd } = refs;
  const { logId, amountKobo, costKobo, status, createdMs } = entries;
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193;
  for (let k = 0; k < n; k++) {
    let length = txEnd[k] - txStart[k];
    let lastCode = length > 0 ? bytes[txEnd[k] - 1] : 0;
    if (!ascii && length > 0) {
      const text = bytes.toString('utf8', txStart[k], txEnd[k]);
      length = text.length;
      lastCode = text.charCodeAt(length - 1);
    }
    h1 = Math.imul(h1 ^ logId[k], 0x01000193);
    h1 = Math.imul(h1 ^ amountKobo[k], 0x01000193);
    h2 = Math.imul(h2 ^ costKobo[k], 0x5bd1e995) ^ status[k];
    h2 = Math.imul(h2 ^ (createdMs[k] % 0x7fffffff), 0x5bd1e995);
    h2 = Math.imul(h2 ^ length ^ lastCode, 0x5bd1e995);
  }
  return { ...refs, ...entries, h1, h2 };
}

/** The table of {@link parseMirrorColumns}' references, compared in place in their bytes. */
export function indexMirrorReferences(p: Pick<ParsedMirror, 'n' | 'bytes' | 'txStart' | 'txEnd' | 'txHash'>): ReferenceIndex {
  const { bytes, txStart, txEnd } = p;
  const same = (a: number, b: number): boolean => {
    const length = txEnd[a] - txStart[a];
    if (txEnd[b] - txStart[b] !== length) return false;
    for (let k = 0; k < length; k++) if (bytes[txStart[a] + k] !== bytes[txStart[b] + k]) return false;
    return true;
  };
  return indexReferences(p.n, p.txHash, (i) => txEnd[i] > txStart[i], same);
}

/** The references of {@link parseMirrorColumns} as strings. */
export function mirrorReferences(p: Pick<ParsedMirror, 'n' | 'bytes' | 'txStart' | 'txEnd'>): string[] {
  const txId = new Array<string>(p.n);
  for (let k = 0; k < p.n; k++) txId[k] = p.txEnd[k] === p.txStart[k] ? '' : p.bytes.toString('utf8', p.txStart[k], p.txEnd[k]);
  return txId;
}

/** FNV-1a over the UTF-16 code units: the hash of a reference (`txHash`). */
export function hashText(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** A table of references: see {@link indexReferences}. */
export interface ReferenceIndex {
  /** Open addressing, linear probing: (index, hash) pairs side by side (one cache line a probe); index -1 when free. */
  slots: Int32Array;
  /** 1 for the first entry with its reference: the one the table gives for it. */
  first: Uint8Array;
  /** Entries sharing a reference with an earlier one (kept apart, never in the table). */
  duplicates: number;
}

/**
 * Reference → first index with it, for matching by transaction_id (a JS Map of a million strings
 * costs about a second; this, a tenth of that), over `n` entries with {@link hashText}'s `hashes`;
 * entries without a reference (`present` false) are left out, `same` compares two references.
 */
export function indexReferences(n: number, hashes: Uint32Array, present: (index: number) => boolean, same: (a: number, b: number) => boolean): ReferenceIndex {
  // Filled up to three quarters (a power of two at least 4/3 of the entries): at 10,000,000 a table
  // at most half full took 268 MB, this one 134 MB; a lookup mostly finds its entry next to the last.
  let size = 16;
  while (size * 3 < n * 4) size *= 2;
  const mask = size - 1;
  const slots = new Int32Array(size * 2).fill(-1);
  const first = new Uint8Array(n);
  let duplicates = 0;
  for (let index = 0; index < n; index++) {
    if (!present(index)) continue;
    const h = hashes[index];
    for (let at = h & mask; ; at = (at + 1) & mask) {
      const slot = slots[2 * at];
      if (slot === -1) {
        slots[2 * at] = index;
        slots[2 * at + 1] = h;
        first[index] = 1;
        break;
      }
      if (slots[2 * at + 1] === (h | 0) && same(slot, index)) {
        duplicates++;
        break;
      }
    }
  }
  return { slots, first, duplicates };
}

/**
 * The first index of {@link indexReferences}' entries whose reference is the one of `entry` (of
 * another list), hash `h`; `same(entry, index)` compares the two references. -1 when none.
 */
export function findReference(slots: Int32Array, h: number, entry: number, same: (entry: number, index: number) => boolean): number {
  const mask = (slots.length >> 1) - 1;
  for (let at = h & mask; ; at = (at + 1) & mask) {
    const slot = slots[2 * at];
    if (slot === -1) return -1;
    if (slots[2 * at + 1] === (h | 0) && same(entry, slot)) return slot;
  }
}

/** Columns of the records read so far, and where the reading is: posted between threads as is. */
export interface ExportRecords extends ReadColumns {
  /** Where the reading is in the buffer given to {@link parseExportRecords}. */
  pos: number;
  /** Records start before this offset (they may end after it). */
  end: number;
  /**
   * The file offsets this part's records span, first to last (the whole file's data for a reading
   * in chunks): when the columns fill up, they grow to what the rest of the span will need at the
   * rows' size so far, not to twice their size (at 3,000,000 rows a doubling held ~200 MB unused).
   */
  spanStart: number;
  spanEnd: number;
  /** File offset of the buffer's first byte: `where` holds file offsets. */
  base: number;
  /**
   * 1 when the buffer is a chunk of the file and more of the file follows it: a record that
   * reaches the buffer's end may go on in the next chunk, so the reading stops at its start
   * (`pos`) and sets `partial` (see readExportCsvBytes.ts).
   */
  more: number;
  partial: number;
  /**
   * When set, plain-ASCII references are copied here (from `refsLength` on; a bigger store replaces
   * it when full) and `txStart`/`txEnd` are offsets in it: a chunk's bytes are reused for the next.
   * Null: they are offsets in the buffer.
   */
  refs: Uint8Array | null;
  refsLength: number;
  delim: number;
  /** Column indexes: transaction_id, id, amount, cost, status, created (or time), updated; -1 when absent. */
  cols: Int32Array;
  /** Records longer than this are refused. */
  maxRecordBytes: number;
  /** Non-blank records to read at most (then `pos` stops there). */
  maxRows: number;
  length: number;
  /** Records seen, blank lines included (row numbers count them). */
  records: number;
  /** Record number (1-based, this part's own) and start of the first record over `maxRecordBytes`; -1 when none. */
  tooLongRecord: number;
  tooLongAt: number;
  /** The next quote at or after the offset searched from (-1: none), so a line is not searched twice. */
  nextQuote: number;
  quoteFrom: number;
  /** References that are not plain ASCII (escaped quotes, other characters); '' for the others, read from their span when asked (`txLazy` 1). */
  txId: string[];
  txStart: Int32Array;
  txEnd: Int32Array;
  txLazy: Uint8Array;
  where: Float64Array;
  record: Int32Array;
  /** 1 when a cell was not in a plain form: the row is read again with the importer's readers. */
  slow: Uint8Array;
  slowCount: number;
}

export function newExportRecords(pos: number, end: number, delim: number, cols: Int32Array, maxRecordBytes: number, maxRows: number, capacity: number): ExportRecords {
  const cap = Math.max(16, capacity);
  return {
    pos,
    end,
    spanStart: pos,
    spanEnd: end,
    base: 0,
    more: 0,
    partial: 0,
    refs: null,
    refsLength: 0,
    delim,
    cols,
    maxRecordBytes,
    maxRows,
    length: 0,
    records: 0,
    tooLongRecord: -1,
    tooLongAt: -1,
    nextQuote: -1,
    quoteFrom: Infinity,
    txId: [],
    txStart: new Int32Array(cap),
    txEnd: new Int32Array(cap),
    txLazy: new Uint8Array(cap),
    txHash: new Uint32Array(cap),
    logId: new Float64Array(cap),
    amountKobo: new Float64Array(cap),
    costKobo: new Float64Array(cap),
    status: new Uint8Array(cap),
    createdMs: new Float64Array(cap),
    updatedMs: new Float64Array(cap),
    where: new Float64Array(cap),
    record: new Int32Array(cap),
    slow: new Uint8Array(cap),
    slowCount: 0,
  };
}

/**
 * Reads up to `rowLimit` more non-blank records of `r` (from `r.pos`, records starting before
 * `r.end`) into its columns. Stops early at a record longer than `r.maxRecordBytes`, and (`r.more`)
 * at a record that reaches the end of `buf`.
 */
export function parseExportRecords(
  buf: Uint8Array & { latin1Slice?: (s: number, e: number) => string; utf8Slice?: (s: number, e: number) => string },
  r: ExportRecords,
  rowLimit: number,
): void {
  const len = buf.length;
  const cols = r.cols;
  const colTx = cols[0];
  const colId = cols[1];
  const colAmount = cols[2];
  const colCost = cols[3];
  const colStatus = cols[4];
  const colCreated = cols[5];
  const colUpdated = cols[6];
  const lastNeeded = Math.max(colTx, colId, colAmount, colCost, colStatus, colCreated);
  const maxFields = 256;
  const want = lastNeeded + 1 < maxFields ? lastNeeded + 1 : maxFields;
  const starts = new Int32Array(maxFields);
  const ends = new Int32Array(maxFields);
  const quoted = new Uint8Array(maxFields);
  const out = new Int32Array(2);
  const day = new Float64Array(2);
  const grow = (): void => {
    // What the rest of the span needs at the bytes a row so far (a little more), else twice as much.
    const read = r.base + pos - r.spanStart;
    const span = r.spanEnd - r.spanStart;
    const now = r.logId.length;
    const cap = read >= 65_536 && read < span ? Math.max(now + 1024, Math.ceil((now * span * 1.03) / read)) : now * 2;
    const more = <T extends Uint32Array | Float64Array | Uint8Array | Int32Array>(a: T): T => {
      const next = new (a.constructor as new (n: number) => T)(cap);
      next.set(a);
      return next;
    };
    const columns = r as unknown as Record<string, Uint32Array | Float64Array | Uint8Array | Int32Array>;
    for (const key of ['txHash', 'txStart', 'txEnd', 'txLazy', 'logId', 'amountKobo', 'costKobo', 'status', 'createdMs', 'updatedMs', 'where', 'record', 'slow'])
      columns[key] = more(columns[key]);
  };
  let pos = r.pos;
  let rows = 0;
  let refs = r.refs;
  let refsLength = r.refsLength;
  r.partial = 0;
  while (pos < r.end && rows < rowLimit && r.length < r.maxRows) {
    const recordStart = pos;
    pos = scanRecord(buf, pos, r.delim, starts, ends, quoted, want, lastNeeded + 1, out);
    let fields = out[0];
    if (out[1] === 1) {
      // The fields after the last one needed are skipped by jumping to the end of the line
      // (native memchr), unless a quote there could hide a line break; failed rows read on for updated_at.
      const lf = buf.indexOf(0x0a, pos);
      const lineEnd = lf === -1 ? len : lf;
      if (r.quoteFrom > pos || (r.nextQuote !== -1 && r.nextQuote < pos)) {
        r.nextQuote = buf.indexOf(0x22, pos);
        r.quoteFrom = pos;
      }
      const quote = r.nextQuote;
      // (A status other than SUCCESS or PENDING may be a failure: the row is read whole.)
      const plain = colUpdated > lastNeeded ? plainStatusFromBytes(buf, starts[colStatus], ends[colStatus]) : 1;
      if ((quote !== -1 && quote < lineEnd) || (plain !== 1 && plain !== 3)) {
        pos = scanRecord(buf, recordStart, r.delim, starts, ends, quoted, maxFields, Infinity, out);
        fields = out[0];
      } else {
        pos = lf === -1 ? len : lf + 1;
        fields = lastNeeded + 1;
      }
    }
    if (pos >= len && r.more === 1) {
      // It may go on in the next chunk (even a line break at the very end: a CRLF's LF may follow).
      r.partial = 1;
      pos = recordStart;
      break;
    }
    r.records++;
    if (pos - recordStart > r.maxRecordBytes) {
      r.tooLongRecord = r.records;
      r.tooLongAt = recordStart;
      break;
    }
    if (fields === 1 && starts[0] === ends[0]) continue; // blank line
    rows++;
    if (r.length === r.logId.length) grow();
    const i = r.length++;
    let slow = 0;
    const amount = colAmount < fields ? plainKoboFromBytes(buf, starts[colAmount], ends[colAmount]) : NaN;
    const status = colStatus < fields ? plainStatusFromBytes(buf, starts[colStatus], ends[colStatus]) : 0;
    if (amount !== amount || status === 0) slow = 1;
    // An empty field is no value either way; any other unreadable one goes to the importer's readers.
    let cost = NaN;
    if (colCost >= 0 && colCost < fields) {
      cost = plainKoboFromBytes(buf, starts[colCost], ends[colCost]);
      if (cost !== cost && starts[colCost] !== ends[colCost]) slow = 1;
    }
    let created = NaN;
    if (colCreated >= 0 && colCreated < fields) {
      created = isoMsFromBytes(buf, starts[colCreated], ends[colCreated], day);
      if (created !== created && starts[colCreated] !== ends[colCreated]) slow = 1;
    }
    let updated = NaN;
    if (colUpdated >= 0 && colUpdated < fields && status === 2) {
      updated = isoMsFromBytes(buf, starts[colUpdated], ends[colUpdated], day);
      if (updated !== updated && starts[colUpdated] !== ends[colUpdated]) slow = 1;
    }
    let tx = '';
    let lazy = 0;
    let h = 0x811c9dc5;
    if (colTx >= 0 && colTx < fields) {
      const s = trimStart(buf, starts[colTx], ends[colTx]);
      const e = trimEnd(buf, s, ends[colTx]);
      let ascii = quoted[colTx] !== 2;
      if (refs === null) {
        for (let k = s; k < e && ascii; k++) {
          const c = buf[k];
          if (c >= 0x80) ascii = false;
          h = Math.imul(h ^ c, 0x01000193);
        }
      } else {
        // (Copied on the way; kept only when plain ASCII.) The store grows as a column does.
        if (refsLength + (e - s) > refs.length) {
          const more = new Uint8Array(Math.max(2 * refs.length, refsLength + (e - s)));
          more.set(refs.subarray(0, refsLength));
          refs = r.refs = more;
        }
        for (let k = s, at = refsLength; k < e && ascii; k++, at++) {
          const c = buf[k];
          if (c >= 0x80) ascii = false;
          h = Math.imul(h ^ c, 0x01000193);
          refs[at] = c;
        }
      }
      if (ascii) {
        // Not made into a string now: matching compares the bytes, and only the rows that end up
        // in a report (or every row, for callers that take `txId` whole) need the string.
        lazy = s < e ? 1 : 0;
        if (refs === null) {
          r.txStart[i] = s;
          r.txEnd[i] = e;
        } else {
          r.txStart[i] = refsLength;
          refsLength += e - s;
          r.txEnd[i] = refsLength;
        }
      } else {
        tx = buf.utf8Slice ? buf.utf8Slice(s, e) : new TextDecoder().decode(buf.subarray(s, e));
        if (quoted[colTx] === 2) tx = tx.replace(/""/g, '"');
        h = 0x811c9dc5;
        for (let k = 0; k < tx.length; k++) h = Math.imul(h ^ tx.charCodeAt(k), 0x01000193);
      }
    }
    r.txId.push(tx);
    r.txLazy[i] = lazy;
    r.txHash[i] = h >>> 0;
    r.logId[i] = colId >= 0 && colId < fields ? idFromBytes(buf, starts[colId], ends[colId]) : NaN;
    r.amountKobo[i] = amount;
    r.costKobo[i] = cost;
    r.status[i] = status;
    r.createdMs[i] = created;
    r.updatedMs[i] = updated;
    r.where[i] = r.base + recordStart;
    r.record[i] = r.records;
    r.slow[i] = slow;
    r.slowCount += slow;
  }
  r.refsLength = refsLength;
  r.pos = pos;
}

/** What {@link parseFileRecords} asks of `node:fs` (a worker passes its own). */
export interface PartFs {
  openSync(path: string, flags: string): number;
  fstatSync(fd: number): { size: number };
  readSync(fd: number, buffer: Uint8Array, offset: number, length: number, position: number): number;
  closeSync(fd: number): void;
}

/**
 * Reads the records of `r` that start in [r.pos, r.end) of the file at `path` (file offsets) a
 * chunk of `chunkBytes` at a time, its plain-ASCII references copied out into `r.refs` (a chunk's
 * bytes are reused): the second half of a large export, on a worker thread, while the main thread
 * reads the first (readExportCsvBytes.ts). A record longer than `r.maxRecordBytes` that fills a
 * chunk stops it with `tooLongRecord` set (the main thread then reads the part itself, and says
 * which row). Self-contained (workers run its source text).
 */
export function parseFileRecords(fs: PartFs, path: string, r: ExportRecords, chunkBytes: number): void {
  const fd = fs.openSync(path, 'r');
  try {
    const size = fs.fstatSync(fd).size;
    const partEnd = r.end;
    let fileAt = r.pos;
    let buf = new Uint8Array(chunkBytes);
    let have = 0;
    r.pos = 0;
    for (;;) {
      while (have < buf.length && fileAt + have < size) {
        const n = fs.readSync(fd, buf, have, buf.length - have, fileAt + have);
        if (n === 0) break;
        have += n;
      }
      const eof = fileAt + have >= size;
      r.base = fileAt;
      r.end = Math.min(have, partEnd - fileAt);
      r.more = eof ? 0 : 1;
      parseExportRecords(buf.subarray(0, have), r, Infinity);
      if (r.tooLongRecord !== -1 || r.length >= r.maxRows) return;
      if (r.partial === 0 && (fileAt + r.pos >= partEnd || (eof && r.pos >= have))) return;
      // The record at r.pos goes on after the buffer: kept, and read on with the next bytes.
      if (r.pos === 0) {
        if (have > r.maxRecordBytes) {
          r.tooLongRecord = r.records + 1;
          return;
        }
        const bigger = new Uint8Array(buf.length * 2);
        bigger.set(buf.subarray(0, have));
        buf = bigger;
      } else {
        buf.copyWithin(0, r.pos, have);
        have -= r.pos;
        fileAt += r.pos;
        r.pos = 0;
      }
      r.nextQuote = -1;
      r.quoteFrom = Infinity;
    }
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Strings as one text and their lengths, to post from a worker: a million strings cross one by
 * one far slower. Self-contained (workers run its source text).
 */
export function joinStrings(list: string[]): { joined: string; lengths: Int32Array } {
  const lengths = new Int32Array(list.length);
  for (let i = 0; i < lengths.length; i++) lengths[i] = list[i].length;
  return { joined: list.join(''), lengths };
}

/** The strings of {@link joinStrings} again. */
export function splitJoined(joined: string, lengths: Int32Array): string[] {
  const list = new Array<string>(lengths.length);
  let at = 0;
  for (let i = 0; i < list.length; i++) {
    const n = lengths[i];
    list[i] = n === 0 ? '' : joined.slice(at, at + n);
    at += n;
  }
  return list;
}

/** Source text of self-contained functions, for a worker's program. */
export function functionsSource(parts: readonly ((...args: never[]) => unknown)[]): string {
  // Bundlers that keep function names wrap inner functions in __name(fn, name): not needed here.
  return `var __name = (f) => f;\n${parts.map((f) => f.toString()).join('\n')}`;
}

/** The worker's program: the functions above, then the reading of its part. */
function workerSource(): string {
  const parts = [
    scanRecord,
    trimStart,
    trimEnd,
    plainKoboFromBytes,
    digitsAt,
    utcMs,
    isoMsFromBytes,
    plainStatusFromBytes,
    idFromBytes,
    parseExportRecords,
    parseFileRecords,
    joinStrings,
  ];
  return `
const { parentPort, workerData } = require('node:worker_threads');
${functionsSource(parts)}
const r = workerData.records;
if (workerData.path) ${parseFileRecords.name}(require('node:fs'), workerData.path, r, workerData.chunkBytes);
else ${parseExportRecords.name}(Buffer.from(workerData.shared), r, Infinity);
const { joined, lengths } = ${joinStrings.name}(r.txId);
r.txId = [];
const columns = [r.txHash, r.txStart, r.txEnd, r.txLazy, r.logId, r.amountKobo, r.costKobo, r.status, r.createdMs, r.updatedMs, r.where, r.record, r.slow];
if (r.refs) columns.push(r.refs);
parentPort.postMessage({ records: r, joined, lengths }, [lengths.buffer, ...columns.map((c) => c.buffer)]);
`;
}

export interface RecordsWorker {
  /** The part read, or null when the worker could not read it (the caller then reads it itself). */
  result: Promise<ExportRecords | null>;
  stop(): void;
}

/**
 * Reads `records`' part on a worker thread: of the file held in `shared`, or (`{ path, chunkBytes }`)
 * from the file itself a chunk at a time ({@link parseFileRecords}; `records.pos` and `end` are then file offsets).
 */
export function parseRecordsInWorker(from: SharedArrayBuffer | { path: string; chunkBytes: number }, records: ExportRecords): RecordsWorker {
  let worker: Worker;
  try {
    const source = from instanceof SharedArrayBuffer ? { shared: from } : from;
    // The part's columns (and references' store) move to the worker, not copied: at 3,000,000 rows
    // copying the room made for half of them took ~0.25 s of this thread.
    const columns = [
      records.txHash,
      records.txStart,
      records.txEnd,
      records.txLazy,
      records.logId,
      records.amountKobo,
      records.costKobo,
      records.status,
      records.createdMs,
      records.updatedMs,
      records.where,
      records.record,
      records.slow,
    ];
    if (records.refs) columns.push(records.refs);
    worker = new Worker(workerSource(), { eval: true, workerData: { ...source, records }, transferList: columns.map((c) => c.buffer as ArrayBuffer), execArgv: [] });
  } catch {
    return { result: Promise.resolve(null), stop: () => undefined };
  }
  let settle: (r: ExportRecords | null) => void = () => undefined;
  const result = new Promise<ExportRecords | null>((resolve) => (settle = resolve));
  worker.on('message', (m: { records: ExportRecords; joined: string; lengths: Int32Array }) => {
    m.records.txId = splitJoined(m.joined, m.lengths);
    settle(m.records);
  });
  worker.on('error', () => settle(null));
  worker.on('exit', () => settle(null));
  return {
    result,
    stop: () => {
      settle(null);
      void worker.terminate();
    },
  };
}
