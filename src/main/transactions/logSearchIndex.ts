/**
 * Partial-match search on phone number and transaction id, in process.
 *
 * Per connection profile, both columns are kept lower-cased in two packed buffers, one record
 * after another separated by '\n', with the start offset and the `log_entries.rowid` of each
 * record in typed arrays. A search is `buffer.indexOf(needle)` (a native memmem over ~12 MB of
 * phone numbers and ~27 MB of transaction ids for 1,000,000 entries: a few milliseconds), a binary
 * search from each hit to its record, and the rowids of the matching records, ascending; SQL then
 * applies the other filters, the order and the window to those rowids.
 *
 * This replaces an FTS5 trigram table kept by triggers, which cost ~90% of every insert. Nothing
 * is written to SQLite for search:
 * - the index is built lazily from the table (one read of three columns) and caught up by rowid:
 *   any row with a rowid above the last one seen is read on the next search;
 * - once built, `upsertLogEntries` appends the rows it inserts itself, so a sync does not leave a
 *   catch-up for the next search (a first sync does not build it: the first search does);
 * - a row whose phone number or transaction id changes, or a deleted row, bumps
 *   `log_search_state.generation` (triggers of migration 002, which fire on those rare updates
 *   only), and the next search rebuilds the index. That also covers other connections and
 *   processes writing the same file.
 *
 * Matching is a case-insensitive substring match, like the LIKE it replaces, for every length
 * (1 and 2 characters included); a search matching more than MAX_HITS records returns null and
 * the caller falls back to LIKE in SQL (such a search matches most of the log anyway).
 */
import type { ReadableDB } from '../store/readableDb';
import { grownColumn } from '../typedColumns';

/** Above this many matching records a search is answered by SQL (see logQuery.ts). */
export const MAX_HITS = 200_000;

const SEPARATOR = 0x0a;

class Packed {
  buf = Buffer.allocUnsafe(1 << 16);
  len = 0;
  starts = new Int32Array(1024);

  /**
   * Appends `text` lower-cased. ASCII (phone numbers, the service's ids) is copied and lowered
   * code by code here, counted as it goes: no lower-cased copy of the string and no call into
   * Buffer.write per record (that call was most of what a million appends cost). Other text is
   * written through toLowerCase, as a search's term is lowered.
   */
  append(index: number, text: string): void {
    this.reserve(text.length * 3 + 1);
    if (index >= this.starts.length) {
      this.starts = grownColumn(this.starts, this.starts.length * 2);
    }
    const buf = this.buf;
    const freq = this.freq;
    const start = this.len;
    this.starts[index] = start;
    let end = start;
    for (let i = 0; i < text.length; i++) {
      let c = text.charCodeAt(i);
      if (c >= 0x80) {
        end = -1;
        break;
      }
      if (c >= 0x41 && c <= 0x5a) c += 0x20;
      buf[end++] = c;
      freq[c]++;
    }
    if (end < 0) {
      // Not ASCII: undo the counts of the part copied, then write the lower-cased text.
      for (let i = 0; i < text.length && text.charCodeAt(i) < 0x80; i++) freq[buf[start + i]]--;
      const lower = text.toLowerCase();
      this.reserve(lower.length * 3 + 1);
      end = start + this.buf.write(lower, start, 'utf8');
      for (let i = start; i < end; i++) freq[this.buf[i]]++;
    }
    this.len = end;
    this.buf[this.len++] = SEPARATOR;
  }

  /** Room for `bytes` more bytes. */
  private reserve(bytes: number): void {
    const need = this.len + bytes;
    if (need > this.buf.length) {
      const next = Buffer.allocUnsafe(Math.max(need, this.buf.length * 2));
      this.buf.copy(next, 0, 0, this.len);
      this.buf = next;
    }
  }

  /** How often each byte occurs: a search anchors on the needle's rarest byte. */
  freq = new Float64Array(256);

  /** Record indexes containing `needle`, ascending, into `out`; false if more than `max`. */
  scan(needle: Buffer, count: number, out: number[], max: number): boolean {
    const view = this.buf.subarray(0, this.len);
    const starts = this.starts;
    // indexOf runs memchr on the needle's first byte and compares at each occurrence; digits
    // are common, so search from the needle's rarest byte on and check the part before it. The
    // part searched keeps at least 3 bytes: a 1- or 2-byte tail stops at nearly every digit.
    let k = 0;
    for (let i = 1; i <= needle.length - 3; i++) if (this.freq[needle[i]] < this.freq[needle[k]]) k = i;
    const tail = needle.subarray(k);
    let from = 0;
    for (;;) {
      const found = view.indexOf(tail, from + k);
      if (found < 0) return true;
      const at = found - k;
      if (k > 0 && view.compare(needle, 0, k, at, found) !== 0) {
        from = at + 1;
        continue;
      }
      let lo = 0;
      let hi = count - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >>> 1;
        if (starts[mid] <= at) lo = mid;
        else hi = mid - 1;
      }
      out.push(lo);
      if (out.length > max) return false;
      if (lo + 1 >= count) return true;
      from = starts[lo + 1];
    }
  }
}

class ProfileIndex {
  count = 0;
  rowids = new Float64Array(1024);
  phones = new Packed();
  transactions = new Packed();
  /** The highest rowid of the whole table this index has seen (rows above it are unread). */
  lastRowid = 0;
  generation = -1;
  lastSearch: { text: string; max: number; count: number; rowids: number[] | null } | null = null;

  append(rowid: number, phone: string, transactionId: string): void {
    const k = this.count;
    if (k >= this.rowids.length) {
      this.rowids = grownColumn(this.rowids, this.rowids.length * 2);
    }
    this.rowids[k] = rowid;
    this.phones.append(k, phone);
    this.transactions.append(k, transactionId);
    this.count = k + 1;
  }
}

const indexes = new WeakMap<ReadableDB, Map<string, ProfileIndex>>();

function profiles(db: ReadableDB): Map<string, ProfileIndex> {
  let m = indexes.get(db);
  if (!m) {
    m = new Map();
    indexes.set(db, m);
  }
  return m;
}

function generationOf(db: ReadableDB): number {
  return db.prepare('SELECT generation FROM log_search_state').pluck().get() as number;
}

export function maxRowid(db: ReadableDB): number {
  return (db.prepare('SELECT COALESCE(MAX(rowid), 0) FROM log_entries').pluck().get() as number) ?? 0;
}

/** Reads rows above `index.lastRowid` (all of them for a new index). */
function catchUp(db: ReadableDB, profileId: string, index: ProfileIndex, top: number): void {
  if (top <= index.lastRowid) return;
  const rows = db
    .prepare('SELECT rowid, phone_number, transaction_id FROM log_entries WHERE rowid > ? AND profile_id = ? ORDER BY rowid')
    .raw()
    .iterate(index.lastRowid, profileId) as IterableIterator<[number, string, string]>;
  for (const [rowid, phone, transactionId] of rows) index.append(rowid, phone, transactionId);
  index.lastRowid = top;
}

/** The profile's index, current with the table (built or caught up as needed). */
function current(db: ReadableDB, profileId: string): ProfileIndex {
  const map = profiles(db);
  return db.transaction(() => {
    const generation = generationOf(db);
    const top = maxRowid(db);
    let index = map.get(profileId);
    if (!index || index.generation !== generation || top < index.lastRowid) {
      index = new ProfileIndex();
      index.generation = generation;
      map.set(profileId, index);
    }
    catchUp(db, profileId, index, top);
    return index;
  })();
}

/**
 * Rowids (ascending) of the profile's entries whose phone number or transaction id contains
 * `term` (case-insensitive), or null when more than `max` match.
 */
export function searchRowids(db: ReadableDB, profileId: string, term: string, max = MAX_HITS): number[] | null {
  const text = term.replace(/\n/g, '').toLowerCase();
  const index = current(db, profileId);
  if (db.inTransaction) forgetSearchIndex(db, profileId); // it may have read rows that get rolled back
  if (text.length === 0) return null;
  // The Transactions page asks for a window and the totals of the same search: scan once.
  const last = index.lastSearch;
  if (last && last.text === text && last.max === max && last.count === index.count) return last.rowids;
  const rowids = scanIndex(index, text, max);
  index.lastSearch = { text, max, count: index.count, rowids };
  return rowids;
}

function scanIndex(index: ProfileIndex, text: string, max: number): number[] | null {
  const needle = Buffer.from(text, 'utf8');
  const phoneHits: number[] = [];
  const transactionHits: number[] = [];
  if (!index.phones.scan(needle, index.count, phoneHits, max)) return null;
  if (!index.transactions.scan(needle, index.count, transactionHits, max)) return null;
  const rowids: number[] = [];
  let i = 0;
  let j = 0;
  while (i < phoneHits.length || j < transactionHits.length) {
    const a = i < phoneHits.length ? phoneHits[i] : Infinity;
    const b = j < transactionHits.length ? transactionHits[j] : Infinity;
    const k = Math.min(a, b);
    if (a === k) i++;
    if (b === k) j++;
    rowids.push(index.rowids[k]);
  }
  return rowids.length > max ? null : rowids;
}

/**
 * Called by the upsert before a batch: the index to append the batch's new rows to, or null.
 * An index that exists is caught up first. None is made here: a first sync does not build one as
 * it goes (at ten million entries it is about 500 MB, which would make a sync's memory grow with
 * the log's size); the first search reads it from the table.
 */
export function searchIndexForWrite(db: ReadableDB, profileId: string, top: number): ProfileIndex | null {
  const map = profiles(db);
  const index = map.get(profileId);
  if (!index) return null;
  if (index.generation !== generationOf(db) || top < index.lastRowid) {
    map.delete(profileId);
    return null;
  }
  catchUp(db, profileId, index, top);
  return index;
}

/** Drops the profile's index (after a rolled-back write); the next search rebuilds it. */
export function forgetSearchIndex(db: ReadableDB, profileId?: string): void {
  if (profileId === undefined) indexes.delete(db);
  else indexes.get(db)?.delete(profileId);
}

export type { ProfileIndex };
