/**
 * Where each mirror row stands in the Transactions table's sorts, in process, so that any window
 * of 100 rows — row 0 or row 999,900 of 1,000,000, under any filter and sort the table offers —
 * is read in a few milliseconds. (SQLite's OFFSET walks the index from its start: a window deep
 * in a million rows cost about 200 ms, more under a filter the index does not hold first.)
 *
 * Per connection profile it keeps, by rowid, the columns a window needs to place and filter a
 * row — created_at (as epoch ms), id, amount, and status, type and network as small codes — and
 * the rowids in the two sort orders, both read in index order from SQLite: time (created_at
 * DESC, id DESC) and amount (amount_kobo DESC, id DESC). The ascending
 * sorts are the same arrays read from the other end; beside each order, the filter word of its rows
 * position by position, so a filter reads memory in sequence. About 50 MB for 1,000,000 rows.
 *
 * A window: the rows of the filter in the sort order are found by scanning those arrays (a date
 * range is a binary search in time order; search uses the rowids of logSearchIndex.ts) — for a
 * filter of status, type, network and whole days, from the end the window's sort starts at and only
 * as far as the window needs, so the first page of any filter reads a few rows of the order — kept
 * for the next window of the same filter, and the window's 100 rowids are read from SQLite by rowid.
 * Each order's blocks of 8,192 positions are tallied (how many rows of each status, type and
 * network a block holds; counted after a sync, or when an order is first read), so a window of
 * such a filter anywhere in the order — the middle of 10,000,000 rows as the first page — is
 * found by adding up whole blocks and scanning only the blocks it starts and ends in.
 *
 * In step with the table, whoever writes it (this process, a CLI sync in another process):
 * - rows inserted since are found by rowid (above the highest seen) and merged into place;
 * - rows whose sort or filter columns changed (a status that settled) or that were deleted are
 *   listed by triggers in `log_entry_changes` (migration 012) and applied from there;
 * - anything it cannot follow (too many changes at once, changes pruned, rowids going down)
 *   rebuilds it on the next window.
 * Built on the first window (at once for up to 100,000 rows; for more in the background, a chunk
 * at a time, while SQL answers the windows), or ahead of it by `warmPositionIndex` (the open
 * app's automatic sync calls it after each sync); never inside a write transaction.
 *
 * Longer than 400 lines on purpose: the build, the catch-up and the window reads share one
 * private per-database state (the arrays above and when they were last in step); split, that
 * state would have to be exported and could be changed from outside.
 */
import type { LogSort } from '../../shared/contract/logs';
import { DAY_MS, LAGOS_OFFSET_MS } from '../../shared/localDates';
import { grownColumn } from '../typedColumns';
import type { ReadableDB } from '../store/readableDb';
import { maxRowid, searchRowids } from './logSearchIndex';

const STATUS = ['', 'SUCCESS', 'FAILED', 'PENDING'] as const;
const TYPE = ['', 'AIRTIME', 'DATA', 'ELECTRICITY', 'CABLETV'] as const;
const codeOf = (list: readonly string[], value: string): number => {
  const k = list.indexOf(value);
  return k > 0 ? k : 0;
};

/** Networks past this many share one code (a filter on one of them is answered by SQL). */
const NETWORK_OTHER = 0x7ff;

/** A catch-up bigger than this share of the index rebuilds it instead. */
const REBUILD_SHARE = 0.25;
/** Filters whose matching rows are kept for the next windows. */
const MATCH_CACHE = 4;

type Row = [rowid: number, createdAt: string, id: number, amountKobo: number, status: string, type: string, network: string];

class ProfilePositions {
  n = 0;
  cap = 0;
  created = new Float64Array(0);
  ids = new Float64Array(0);
  amounts = new Float64Array(0);
  /**
   * One 32-bit word of what a filter looks at: status (bits 0–1), type (2–4), network (5–15, code
   * in `networks`; NETWORK_OTHER for any beyond) and the Lagos day of created_at (16–31), so a scan
   * reads one array.
   */
  codes = new Uint32Array(0);
  member = new Uint8Array(0);
  time: Int32Array = new Int32Array(0);
  amount: Int32Array | null = null;
  /** `codes` of the rows in each order, position by position (a filter scans them in sequence); null: to be gathered. */
  timeCodes: Uint32Array | null = null;
  amountCodes: Uint32Array | null = null;
  networks: string[] = [''];
  networkCodes = new Map<string, number>();
  /** Highest rowid of the table seen, and last change applied. */
  lastRowid = 0;
  lastChange = 0;
  /** Bumped by every change applied (keys the match cache). */
  version = 0;
  /** Filters' rows kept for the next windows: all of them, or as far as a two-ended scan has gone. */
  matches: { key: string; rowids: Int32Array | null; scan: MatchScan | null }[] = [];
  /** Each order's {@link Tallies}, for the codes and version they were counted at. */
  tallies: Tallies[] = [];

  constructor(readonly profileId: string) {}

  ensureCapacity(top: number): void {
    if (top < this.cap) return;
    const cap = Math.max(1024, Math.ceil((top + 1) * 1.25));
    this.created = grownColumn(this.created, cap);
    this.ids = grownColumn(this.ids, cap);
    this.amounts = grownColumn(this.amounts, cap);
    this.codes = grownColumn(this.codes, cap);
    this.member = grownColumn(this.member, cap);
    this.cap = cap;
  }

  networkCode(name: string): number {
    let code = this.networkCodes.get(name);
    if (code === undefined) {
      code = this.networks.length;
      this.networks.push(name);
      this.networkCodes.set(name, code);
    }
    return code;
  }

  /** Writes a row's columns into its slot (the caller places it in the orders). */
  put(row: Row): void {
    const r = row[0];
    this.created[r] = Date.parse(row[1]);
    this.ids[r] = row[2];
    this.amounts[r] = row[3];
    const day = Math.min(0xffff, Math.max(0, Math.floor((this.created[r] + LAGOS_OFFSET_MS) / DAY_MS)));
    this.codes[r] = (codeOf(STATUS, row[4]) | (codeOf(TYPE, row[5]) << 2) | (Math.min(NETWORK_OTHER, this.networkCode(row[6])) << 5) | (day << 16)) >>> 0;
    this.member[r] = 1;
  }

  /** a sorts before b in time DESC order. */
  timeBefore = (a: number, b: number): boolean => this.created[a] > this.created[b] || (this.created[a] === this.created[b] && this.ids[a] > this.ids[b]);
  amountBefore = (a: number, b: number): boolean => this.amounts[a] > this.amounts[b] || (this.amounts[a] === this.amounts[b] && this.ids[a] > this.ids[b]);
}

/** An order and its codes position by position (null: not kept). */
type Ordered = [rows: Int32Array, codes: Uint32Array | null];

/** Merges `add` (any order) into a sorted order, and the codes along with it. */
function mergeSorted([order, codes]: Ordered, add: number[], before: (a: number, b: number) => boolean, codeOf: Uint32Array): Ordered {
  add.sort((a, b) => (before(a, b) ? -1 : before(b, a) ? 1 : 0));
  const out = new Int32Array(order.length + add.length);
  const outCodes = codes ? new Uint32Array(out.length) : null;
  let src = 0;
  let dst = 0;
  for (const r of add) {
    let lo = src;
    let hi = order.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (before(r, order[mid])) hi = mid;
      else lo = mid + 1;
    }
    out.set(order.subarray(src, lo), dst);
    if (outCodes && codes) outCodes.set(codes.subarray(src, lo), dst);
    dst += lo - src;
    src = lo;
    if (outCodes) outCodes[dst] = codeOf[r];
    out[dst++] = r;
  }
  out.set(order.subarray(src), dst);
  if (outCodes && codes) outCodes.set(codes.subarray(src), dst);
  return [out, outCodes];
}

function withoutRows([order, codes]: Ordered, gone: Set<number>): Ordered {
  const out = new Int32Array(order.length);
  const outCodes = codes ? new Uint32Array(order.length) : null;
  let k = 0;
  for (let i = 0; i < order.length; i++) {
    if (gone.has(order[i])) continue;
    if (outCodes && codes) outCodes[k] = codes[i];
    out[k++] = order[i];
  }
  return [out.slice(0, k), outCodes ? outCodes.slice(0, k) : null];
}

/** The codes of `order` position by position. */
function gather(order: Int32Array, codes: Uint32Array): Uint32Array {
  const out = new Uint32Array(order.length);
  for (let i = 0; i < order.length; i++) out[i] = codes[order[i]];
  return out;
}

/** Rows whose codes changed in place: their positions get the new codes (many: gathered again on use). */
function recode([order, codes]: Ordered, rows: number[], codeOf: Uint32Array): Uint32Array | null {
  if (!codes || rows.length > 32) return null;
  for (const r of rows) {
    const i = order.indexOf(r);
    if (i >= 0) codes[i] = codeOf[r];
  }
  return codes;
}

const ROW_SQL = 'rowid, created_at, id, amount_kobo, status, type, network';

function lastChangeSeq(db: ReadableDB): number {
  return (db.prepare('SELECT COALESCE(MAX(seq), 0) FROM log_entry_changes').pluck().get() as number) ?? 0;
}

/** Rows read per step of a build (between steps a build in the background lets other work run). */
let chunkRows = 20_000;

/**
 * Reads the profile's rows in time order, chunkRows at a time by key, and yields between chunks.
 * Rows above the table's highest rowid at the start are left to the first catch-up, as are
 * changes made meanwhile (listed in log_entry_changes after the sequence noted at the start).
 */
function* buildSteps(db: ReadableDB, profileId: string): Generator<void, ProfilePositions> {
  const index = new ProfilePositions(profileId);
  const top = maxRowid(db);
  index.lastRowid = top;
  index.lastChange = lastChangeSeq(db);
  index.ensureCapacity(top);
  let time = new Int32Array(1024);
  let timeCodes = new Uint32Array(1024);
  let k = 0;
  const first = db.prepare(`SELECT ${ROW_SQL} FROM log_entries WHERE profile_id = ? ORDER BY created_at DESC, id DESC LIMIT ?`).raw();
  const next = db.prepare(`SELECT ${ROW_SQL} FROM log_entries WHERE profile_id = ? AND (created_at, id) < (?, ?) ORDER BY created_at DESC, id DESC LIMIT ?`).raw();
  let rows = first.all(profileId, chunkRows) as Row[];
  for (;;) {
    for (const row of rows) {
      // A row moved by a change made during the build can come again: its first place and
      // columns stay, and the catch-up places it by the change.
      if (row[0] > top || index.member[row[0]] === 1) continue;
      index.put(row);
      if (k === time.length) {
        const grown = new Int32Array(time.length * 2);
        grown.set(time);
        time = grown;
        const grownCodes = new Uint32Array(timeCodes.length * 2);
        grownCodes.set(timeCodes);
        timeCodes = grownCodes;
      }
      timeCodes[k] = index.codes[row[0]];
      time[k++] = row[0];
    }
    if (rows.length < chunkRows) break;
    const last = rows[rows.length - 1];
    yield;
    rows = next.all(profileId, last[1], last[2], chunkRows) as Row[];
  }
  index.time = time.slice(0, k);
  index.timeCodes = timeCodes.slice(0, k);
  index.n = k;

  // The amount order: rowids from the amount index, by key from the columns just read.
  const amount = new Int32Array(k);
  const seen = new Uint8Array(index.cap);
  let a = 0;
  const amountFirst = db.prepare('SELECT rowid FROM log_entries WHERE profile_id = ? AND rowid <= ? ORDER BY amount_kobo DESC, id DESC LIMIT ?').pluck();
  const amountNext = db
    .prepare('SELECT rowid FROM log_entries WHERE profile_id = ? AND rowid <= ? AND (amount_kobo, id) < (?, ?) ORDER BY amount_kobo DESC, id DESC LIMIT ?')
    .pluck();
  let rowids = amountFirst.all(profileId, top, chunkRows) as number[];
  for (;;) {
    for (const r of rowids) {
      if (index.member[r] !== 1 || seen[r] === 1 || a === k) continue;
      seen[r] = 1;
      amount[a++] = r;
    }
    if (rowids.length < chunkRows) break;
    const last = rowids[rowids.length - 1];
    yield;
    rowids = amountNext.all(profileId, top, index.amounts[last], index.ids[last], chunkRows) as number[];
  }
  // Rows changed meanwhile are placed by the catch-up; should the two walks disagree, the amount order is read again on its first use.
  index.amount = a === k ? amount : null;
  index.amountCodes = index.amount ? gather(index.amount, index.codes) : null;
  return index;
}

/** Brings the index in step with the table; false when it must be rebuilt. */
function catchUp(db: ReadableDB, index: ProfilePositions): boolean {
  const top = maxRowid(db);
  const seq = lastChangeSeq(db);
  if (top < index.lastRowid || seq < index.lastChange) return false;
  if (top === index.lastRowid && seq === index.lastChange) return true;
  if (top >= 2 ** 31) return false;

  const touched = new Set<number>();
  if (seq > index.lastChange) {
    const oldest = db.prepare('SELECT MIN(seq) FROM log_entry_changes').pluck().get() as number | null;
    if (oldest !== null && oldest > index.lastChange + 1) return false;
    const changed = db.prepare('SELECT DISTINCT entry_rowid FROM log_entry_changes WHERE seq > ?').pluck().all(index.lastChange) as number[];
    for (const r of changed) if (r <= index.lastRowid) touched.add(r);
  }
  const fresh =
    top > index.lastRowid ? (db.prepare(`SELECT ${ROW_SQL} FROM log_entries WHERE rowid > ? AND profile_id = ?`).raw().all(index.lastRowid, index.profileId) as Row[]) : [];
  if (fresh.length + touched.size > Math.max(1000, index.n * REBUILD_SHARE)) return false;

  index.ensureCapacity(top);
  const gone = new Set<number>();
  const add: number[] = [];
  const inPlace: number[] = [];
  if (touched.size > 0) {
    const read = db
      .prepare(`SELECT ${ROW_SQL}, profile_id FROM log_entries WHERE rowid IN (SELECT value FROM json_each(?))`)
      .raw()
      .all(JSON.stringify([...touched])) as [...Row, string][];
    const now = new Map(read.map((r) => [r[0], r]));
    for (const r of touched) {
      const row = now.get(r);
      const was = index.member[r] === 1;
      const mine = row !== undefined && row[7] === index.profileId;
      if (was && mine && Date.parse(row[1]) === index.created[r] && row[2] === index.ids[r] && row[3] === index.amounts[r]) {
        index.put(row.slice(0, 7) as Row); // same place, new status/type/network
        inPlace.push(r);
        continue;
      }
      if (was) {
        gone.add(r);
        index.member[r] = 0;
      }
      if (mine) {
        index.put(row.slice(0, 7) as Row);
        add.push(r);
      }
    }
  }
  for (const row of fresh) {
    index.put(row);
    add.push(row[0]);
  }
  if (inPlace.length > 0) {
    index.timeCodes = recode([index.time, index.timeCodes], inPlace, index.codes);
    if (index.amount) index.amountCodes = recode([index.amount, index.amountCodes], inPlace, index.codes);
  }
  if (gone.size > 0) {
    [index.time, index.timeCodes] = withoutRows([index.time, index.timeCodes], gone);
    if (index.amount) [index.amount, index.amountCodes] = withoutRows([index.amount, index.amountCodes], gone);
  }
  if (add.length > 0) {
    [index.time, index.timeCodes] = mergeSorted([index.time, index.timeCodes], [...add], index.timeBefore, index.codes);
    if (index.amount) [index.amount, index.amountCodes] = mergeSorted([index.amount, index.amountCodes], [...add], index.amountBefore, index.codes);
  }
  index.n = index.time.length;
  index.lastRowid = top;
  index.lastChange = seq;
  index.version += 1;
  index.matches = [];
  return true;
}

/** Up to this many rows in the table, an index is built at once; above, in the background. */
let syncBuildRows = 100_000;

interface Slot {
  /** One profile at a time (the connection in use): a switch builds for the new one. */
  index: ProfilePositions | null;
  building: { profileId: string; promise: Promise<void> } | null;
  builds: number;
}

const slots = new WeakMap<ReadableDB, Slot>();

function slotOf(db: ReadableDB): Slot {
  let slot = slots.get(db);
  if (!slot) {
    slot = { index: null, building: null, builds: 0 };
    slots.set(db, slot);
  }
  return slot;
}

/** The profile's index if it is ready (caught up with the table), else null. */
function ready(db: ReadableDB, slot: Slot, profileId: string): ProfilePositions | null {
  if (!slot.index) return null;
  if (slot.index.profileId === profileId && catchUp(db, slot.index)) return slot.index;
  slot.index = null;
  return null;
}

/**
 * The profile's index, built or caught up; null when it is being built in the background (a big
 * mirror) or inside a transaction (it would read uncommitted rows): SQL answers then.
 */
function current(db: ReadableDB, profileId: string): ProfilePositions | null {
  if (db.inTransaction) return null;
  const slot = slotOf(db);
  const index = ready(db, slot, profileId);
  if (index) return index;
  if (maxRowid(db) > syncBuildRows) {
    void warmPositionIndex(db, profileId);
    return null;
  }
  const steps = buildSteps(db, profileId);
  slot.index = db.transaction(() => {
    for (;;) {
      const step = steps.next();
      if (step.done) return step.value;
    }
  })();
  slot.builds += 1;
  return slot.index;
}

/**
 * Builds (or catches up) the profile's index in the background, a chunk at a time, so that the
 * first window of the Transactions table after start does not wait for it (about a second for a
 * million rows), then its blocks' tallies a slice per turn. Resolves when both are done.
 */
export function warmPositionIndex(db: ReadableDB, profileId: string): Promise<void> {
  if (!db.open || db.inTransaction) return Promise.resolve();
  const slot = slotOf(db);
  const index = ready(db, slot, profileId);
  if (index) return warmTallies(index);
  if (slot.building?.profileId === profileId) return slot.building.promise;
  const job = { profileId, promise: Promise.resolve() };
  slot.building = job;
  job.promise = (async () => {
    // Not even the first chunk on the caller's time.
    await new Promise((resolve) => setImmediate(resolve));
    if (!db.open || slot.building !== job) return;
    const steps = buildSteps(db, profileId);
    for (;;) {
      const step = steps.next();
      if (step.done) {
        if (slot.building === job) {
          slot.index = step.value;
          slot.builds += 1;
          // Built: what comes now is the tallies' count, which a change or another warm-up may overtake.
          slot.building = null;
          await warmTallies(step.value);
        }
        return;
      }
      do await new Promise((resolve) => setImmediate(resolve));
      while (db.open && db.inTransaction);
      if (!db.open || slot.building !== job) return;
    }
  })().finally(() => {
    if (slot.building === job) slot.building = null;
  });
  return job.promise;
}

/** Tests: the table size up to which an index is built at once, the rows read per step of a build, the rows of a tallied block (a power of two), the kinds tallied at most and the positions tallied per turn ahead of the windows. */
export function setPositionIndexBuildSizes(sizes: { syncBuildRows?: number; chunkRows?: number; tallyBlockRows?: number; tallyKinds?: number; tallyStepRows?: number }): void {
  tallyKinds = sizes.tallyKinds ?? TALLY_KINDS;
  tallyStepRows = sizes.tallyStepRows ?? TALLY_STEP_ROWS;
  syncBuildRows = sizes.syncBuildRows ?? 100_000;
  chunkRows = sizes.chunkRows ?? 20_000;
  tallyShift = Math.round(Math.log2(sizes.tallyBlockRows ?? 1 << 13));
}

function amountOrder(db: ReadableDB, index: ProfilePositions): Int32Array {
  if (!index.amount) {
    // The rows the index holds (later ones are merged in by the next catch-up).
    const rowids = db
      .prepare('SELECT rowid FROM log_entries WHERE profile_id = ? AND rowid <= ? ORDER BY amount_kobo DESC, id DESC')
      .pluck()
      .all(index.profileId, index.lastRowid) as number[];
    index.amount = Int32Array.from(rowids);
    index.amountCodes = null;
    if (index.amount.length !== index.n) {
      // The table moved between the two reads: sort what the index holds instead.
      index.amount = mergeSorted([new Int32Array(0), null], Array.from(index.time), index.amountBefore, index.codes)[0];
    }
    // Its blocks counted just after this window, not in a filter's first window by amount.
    setImmediate(() => void warmTallies(index));
  }
  return index.amount;
}

/**
 * Each order's blocks counted ahead of the windows, a slice of positions per turn of the event
 * loop (a whole pass is ~70–100 ms at 10,000,000 entries: not on the time of whoever warmed the
 * index). A window that comes in between finishes the count itself.
 */
async function warmTallies(index: ProfilePositions): Promise<void> {
  for (const byAmount of [false, true]) {
    if (byAmount && !index.amount) return;
    const tallies = tallyOf(index, orderCodes(index, byAmount));
    while (tallies.counted < tallies.codes.length) {
      countTallies(tallies, tallies.counted + tallyStepRows);
      await new Promise((resolve) => setImmediate(resolve));
      // A change since: the next windows count anew.
      if (tallies.version !== index.version || !index.tallies.includes(tallies)) return;
    }
  }
}

/** The codes of an order position by position, gathered when a change left them out of step. */
function orderCodes(index: ProfilePositions, byAmount: boolean): Uint32Array {
  if (byAmount) return (index.amountCodes ??= gather(index.amount as Int32Array, index.codes));
  return (index.timeCodes ??= gather(index.time, index.codes));
}

/** The filter as codes and bounds; `search` is the rowids matching it (ascending) when searching. */
export interface PositionFilter {
  fromMs?: number;
  toMs?: number;
  status?: string;
  type?: string;
  /** The network as the log writes it (aliases already applied). */
  network?: string;
  searchTerm?: string;
}

/** First position in time order (DESC) whose created_at is below `ms`. */
function firstBelow(index: ProfilePositions, ms: number): number {
  let lo = 0;
  let hi = index.time.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (index.created[index.time[mid]] < ms) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * A filter's rows in a DESC sort found as windows need them: from the front of the order for the
 * DESC sort, from the back for the ASC one, each scan going on from where it stopped, until the two
 * meet and every row is known. A window near either end reads a few rows of the order, not all of
 * them (at 3,000,000 entries the whole scan was 15–35 ms, the first window of every filter).
 */
interface MatchScan {
  order: Int32Array;
  codes: Uint32Array;
  mask: number;
  want: number;
  fromDay: number;
  toDay: number;
  /** Rows found from the front (DESC order) and the next position to scan there. */
  front: Int32Array;
  frontN: number;
  frontAt: number;
  /** Rows found from the back (ASC order) and the position the back scan has reached (exclusive). */
  back: Int32Array;
  backN: number;
  backAt: number;
  /** The positions of the order the filter's dates leave (all of them in amount order). */
  start: number;
  end: number;
  /** Its rows in each block of the order, once counted ({@link blockCounts}), and the blocks' log2 size. */
  blocks: Int32Array | null;
  blocksShift: number;
}

function newScan(order: Int32Array, codes: Uint32Array, start: number, end: number, mask: number, want: number, fromDay: number, toDay: number): MatchScan {
  return {
    order,
    codes,
    mask,
    want,
    fromDay,
    toDay,
    front: new Int32Array(256),
    frontN: 0,
    frontAt: start,
    back: new Int32Array(256),
    backN: 0,
    backAt: end,
    start,
    end,
    blocks: null,
    blocksShift: 0,
  };
}

/**
 * How many rows of each kind (status, type and network: a code's low 16 bits) each block of an
 * order's positions holds, so that a window in the middle of a filter is found by adding up
 * blocks, not by scanning every row before it (at 10,000,000 entries the scan to a middle window
 * was tens of milliseconds; the tally is counted once per change of the index, in one pass).
 */
interface Tallies {
  codes: Uint32Array;
  version: number;
  shift: number;
  /** The kinds it could hold at most. */
  cap: number;
  /** The kinds seen (their low 16 bits), in the order first seen. */
  kinds: number[];
  /** counts[block * TALLY_KINDS + kind]; null when the order has more kinds than are tallied (kept so, not counted again each window). */
  counts: Int32Array | null;
  /** The amount order's kinds counted by Lagos day as well (its filters of days are not a slice of positions, as in time order); null: not counted. */
  days: DayTallies | null;
  /** Positions counted so far (all: `codes.length`), and while counting, each kind's number + 1 by its low 16 bits. */
  counted: number;
  kindOf: Uint8Array | null;
}

/**
 * Rows of each kind and Lagos day in blocks of `1 << shift` positions (coarser than the kinds'
 * blocks, so that the days fit in a few megabytes), summed over days: `cum[(block * TALLY_KINDS
 * + kind) * (span + 1) + d]` holds its rows of days `first` … `first + d - 1`, so a range of days
 * is two reads per block and kind.
 */
interface DayTallies {
  shift: number;
  first: number;
  span: number;
  cum: Int32Array;
}

/** Counters the day tallies may take (4 bytes each); blocks grow until they fit. */
const DAY_TALLY_COUNTERS = 1 << 22;

/** Tallies that hold their counts. */
type Counted = Tallies & { counts: Int32Array };

/** Kinds a tally holds at most (status × type × network seen); past it, windows are scanned for. */
const TALLY_KINDS = 128;
/** Kinds tallied at most (tests: 0 leaves every window to the scans), and log2 of the rows of a tallied block. */
let tallyKinds = TALLY_KINDS;
let tallyShift = 13;
/** Positions counted per turn of the event loop when the tallies are counted ahead (~10 ms). */
const TALLY_STEP_ROWS = 1 << 20;
let tallyStepRows = TALLY_STEP_ROWS;

/** The span of Lagos days the index holds (its oldest and newest rows'), and the day blocks' size for it; null when empty. */
function daySpan(index: ProfilePositions, rows: number): Omit<DayTallies, 'cum'> | null {
  const n = index.time.length;
  if (n === 0) return null;
  const first = index.codes[index.time[n - 1]] >>> 16;
  const span = (index.codes[index.time[0]] >>> 16) - first + 1;
  let shift = tallyShift + 3;
  while (((rows >> shift) + 1) * TALLY_KINDS * (span + 1) > DAY_TALLY_COUNTERS && shift < 30) shift++;
  return { shift, first, span };
}

/** The order's tallies at this version of the index, as far as they are counted (new ones: none yet). */
function tallyOf(index: ProfilePositions, codes: Uint32Array): Tallies {
  let tallies = index.tallies.find((t) => t.codes === codes && t.version === index.version && t.shift === tallyShift && t.cap === tallyKinds);
  if (!tallies) {
    const span = codes === index.amountCodes ? daySpan(index, codes.length) : null;
    tallies = {
      codes,
      version: index.version,
      shift: tallyShift,
      cap: tallyKinds,
      kinds: [],
      counts: new Int32Array(((codes.length >> tallyShift) + 1) * TALLY_KINDS),
      days: span ? { ...span, cum: new Int32Array(((codes.length >> span.shift) + 1) * TALLY_KINDS * (span.span + 1)) } : null,
      counted: 0,
      kindOf: new Uint8Array(0x10000),
    };
    index.tallies = [tallies, ...index.tallies.filter((t) => t.codes !== codes && t.version === index.version)].slice(0, 2);
  }
  return tallies;
}

/** Counts positions on up to `upTo`; once all are counted, sums the days. */
function countTallies(t: Tallies, upTo: number): void {
  const { codes, kinds } = t;
  const kindOf = t.kindOf as Uint8Array;
  const counts = t.counts as Int32Array;
  const days = t.days;
  const stride = days ? days.span + 1 : 0;
  const end = Math.min(upTo, codes.length);
  let i = t.counted;
  for (; i < end; i++) {
    const code = codes[i];
    const c = code & 0xffff;
    let k = kindOf[c];
    if (k === 0) {
      if (kinds.length === t.cap) {
        // More kinds than are tallied: the scans answer, and the order is not counted again.
        t.counts = null;
        t.days = null;
        i = codes.length;
        break;
      }
      kinds.push(c);
      k = kindOf[c] = kinds.length;
    }
    counts[(i >> t.shift) * TALLY_KINDS + k - 1]++;
    if (t.days !== null) {
      const d = (code >>> 16) - (days as DayTallies).first;
      // A day outside the index's span (an order out of step): its days are left to the scans.
      if (d < 0 || d >= stride - 1) t.days = null;
      else (days as DayTallies).cum[((i >> (days as DayTallies).shift) * TALLY_KINDS + k - 1) * stride + d + 1]++;
    }
  }
  t.counted = i;
  if (i < codes.length) return;
  t.kindOf = null;
  const cum = t.days?.cum;
  if (cum) for (let g = 0; g < cum.length; g += stride) for (let d = g + 1; d < g + stride; d++) cum[d] += cum[d - 1];
}

/** The order's tallies, counted (the rest of the way) now; null when it has more kinds than are tallied. */
function talliesOf(index: ProfilePositions, codes: Uint32Array): Counted | null {
  const tallies = tallyOf(index, codes);
  if (tallies.counted < codes.length) countTallies(tallies, codes.length);
  return tallies.counts ? (tallies as Counted) : null;
}

/**
 * The scan's filter's rows in each block of its order's positions (in [start, end) only), from
 * the order's tallies (the blocks at the bounds of a date range in time order counted row by row).
 * Kept on the scan for its next windows.
 */
function blockCounts(s: MatchScan, t: Counted): Int32Array | null {
  const dated = s.fromDay !== 0 || s.toDay !== 0x10000;
  if (dated && !t.days) return null;
  const shift = dated ? (t.days as DayTallies).shift : t.shift;
  if (s.blocks && s.blocksShift === shift) return s.blocks;
  const { codes, start, end } = s;
  const counts = new Int32Array((codes.length >> shift) + 1);
  const wanted: number[] = [];
  for (let k = 0; k < t.kinds.length; k++) if ((t.kinds[k] & s.mask) === s.want) wanted.push(k);
  const days = t.days;
  // The range of days as offsets into each block's sums (0 … span).
  const stride = days ? days.span + 1 : 0;
  const lo = days ? Math.min(days.span, Math.max(0, s.fromDay - days.first)) : 0;
  const hi = days ? Math.min(days.span, Math.max(0, s.toDay - days.first)) : 0;
  for (let b = start >> shift; b << shift < end; b++) {
    const from = b << shift;
    const to = (b + 1) << shift;
    if (from < start || to > end) {
      for (let i = Math.max(start, from); i < Math.min(end, to); i++) if (hit(s, codes[i])) counts[b]++;
    } else if (dated) {
      const cum = (days as DayTallies).cum;
      for (const k of wanted) counts[b] += cum[(b * TALLY_KINDS + k) * stride + hi] - cum[(b * TALLY_KINDS + k) * stride + lo];
    } else for (const k of wanted) counts[b] += t.counts[b * TALLY_KINDS + k];
  }
  s.blocks = counts;
  s.blocksShift = shift;
  return counts;
}

/** Whether a row's code passes the scan's filter: its kind, and its Lagos day in [fromDay, toDay). */
function hit(s: MatchScan, code: number): boolean {
  const day = code >>> 16;
  return (code & s.mask) === s.want && day >= s.fromDay && day < s.toDay;
}

/**
 * Rows [offset, offset + limit) of a scan's filter in DESC order (ASC: from the other end), found
 * by adding up its {@link blockCounts} and scanning only the blocks that hold the window; null
 * where the tallies cannot say (days of an order not counted by day: the scans find those).
 */
function windowByTallies(s: MatchScan, t: Counted, offset: number, limit: number, ascending: boolean): number[] | null {
  const { order, codes, start, end } = s;
  const counts = blockCounts(s, t);
  if (!counts) return null;
  const shift = s.blocksShift;
  let skip = offset;
  let take = limit;
  if (ascending) {
    let total = 0;
    for (let b = start >> shift; b << shift < end; b++) total += counts[b];
    if (offset >= total) return [];
    take = Math.min(limit, total - offset);
    skip = total - offset - take;
  }
  const out: number[] = [];
  for (let b = start >> shift; b << shift < end && out.length < take; b++) {
    const n = counts[b];
    if (n <= skip) {
      skip -= n;
      continue;
    }
    const to = Math.min(end, (b + 1) << shift);
    for (let j = Math.max(start, b << shift); j < to && out.length < take; j++) {
      if (!hit(s, codes[j])) continue;
      if (skip > 0) skip--;
      else out.push(order[j]);
    }
  }
  return ascending ? out.reverse() : out;
}

/** `list` with room for `n` of the `most` rows a scan can find. */
function roomFor(list: Int32Array, n: number, most: number): Int32Array {
  if (n <= list.length) return list;
  // A window's first block's worth doubles; past that, room for every row the scan could still
  // find, at once (doubling a list of hundreds of thousands left a trail of large arrays for the
  // collector to pause on in the middle of a window).
  const more = new Int32Array(n <= 65_536 ? Math.min(most, Math.max(n, list.length * 2)) : Math.max(n, most));
  more.set(list);
  return more;
}

/** The rows of positions `from` to `to` (exclusive; `step` 1 or -1) whose codes match, into `out` from `k`; the new count. */
function pick(order: Int32Array, codes: Uint32Array, from: number, to: number, step: number, mask: number, want: number, out: Int32Array, k: number): number {
  for (let i = from; i !== to; i += step) if ((codes[i] & mask) === want) out[k++] = order[i];
  return k;
}

/** {@link pick}, also on the Lagos day in the codes, in [fromDay, toDay). */
function pickDated(
  order: Int32Array,
  codes: Uint32Array,
  from: number,
  to: number,
  step: number,
  mask: number,
  want: number,
  fromDay: number,
  toDay: number,
  out: Int32Array,
  k: number,
): number {
  for (let i = from; i !== to; i += step) {
    const code = codes[i];
    const day = code >>> 16;
    if ((code & mask) === want && day >= fromDay && day < toDay) out[k++] = order[i];
  }
  return k;
}

/** Scans on from the front (or the back) until `need` rows are found there or the two scans meet. */
function scanOn(s: MatchScan, need: number, fromBack: boolean): void {
  const { order, codes, mask, want, fromDay, toDay } = s;
  const dated = fromDay > 0 || toDay < 0x10000;
  const step = fromBack ? -1 : 1;
  let found = fromBack ? s.back : s.front;
  let k = fromBack ? s.backN : s.frontN;
  // The front scans [frontAt, …), the back (…, backAt).
  let i = fromBack ? s.backAt : s.frontAt;
  while ((fromBack ? i > s.frontAt : i < s.backAt) && k < need) {
    // A block at a time: room for every row of it, then a tight loop.
    const next = fromBack ? Math.max(s.frontAt, i - 65_536) : Math.min(s.backAt, i + 65_536);
    found = roomFor(found, k + Math.abs(next - i), s.backAt - s.frontAt + k);
    const [from, to] = fromBack ? [i - 1, next - 1] : [i, next];
    k = dated ? pickDated(order, codes, from, to, step, mask, want, fromDay, toDay, found, k) : pick(order, codes, from, to, step, mask, want, found, k);
    i = next;
  }
  if (fromBack) [s.back, s.backN, s.backAt] = [found, k, i];
  else [s.front, s.frontN, s.frontAt] = [found, k, i];
}

/** Every row of a scan whose two ends met, in DESC order. */
function allOf(s: MatchScan): Int32Array {
  const out = new Int32Array(s.frontN + s.backN);
  out.set(s.front.subarray(0, s.frontN));
  for (let j = 0; j < s.backN; j++) out[s.frontN + j] = s.back[s.backN - 1 - j];
  return out;
}

/** The rows of a filter in a DESC sort: a slice of the order, a list of matches, or a scan to go on with as windows ask. */
function matching(db: ReadableDB, index: ProfilePositions, filter: PositionFilter, byAmount: boolean): Int32Array | MatchScan | null {
  const order = byAmount ? amountOrder(db, index) : index.time;
  let start = 0;
  let end = order.length;
  if (!byAmount) {
    if (filter.toMs !== undefined) start = firstBelow(index, filter.toMs);
    if (filter.fromMs !== undefined) end = firstBelow(index, filter.fromMs);
    if (end < start) end = start;
  }
  const status = filter.status ? codeOf(STATUS, filter.status) : 0;
  const type = filter.type ? codeOf(TYPE, filter.type) : 0;
  const network = filter.network !== undefined ? (index.networkCodes.get(filter.network) ?? -1) : 0;
  if (filter.status && status === 0) return new Int32Array(0);
  if (filter.type && type === 0) return new Int32Array(0);
  if (network === -1) return new Int32Array(0);
  if (network >= NETWORK_OTHER) return null;
  let marked: Uint8Array | null = null;
  if (filter.searchTerm !== undefined) {
    const hits = searchRowids(db, index.profileId, filter.searchTerm);
    if (hits === null) return null;
    // A few hits are sorted themselves; many are picked out of the order in one pass.
    if (hits.length <= order.length / 32) return sortedHits(index, hits, filter, byAmount);
    marked = new Uint8Array(index.cap);
    for (const r of hits) if (r < index.cap) marked[r] = 1;
  }
  const dated = byAmount && (filter.fromMs !== undefined || filter.toMs !== undefined);
  let mask = 0;
  let want = 0;
  if (status) [mask, want] = [mask | 0b11, want | status];
  if (type) [mask, want] = [mask | (0b111 << 2), want | (type << 2)];
  if (network) [mask, want] = [mask | (NETWORK_OTHER << 5), want | (network << 5)];
  if (mask === 0 && !marked && !dated) return order.subarray(start, end);
  // Dates of the table's filter are whole Lagos days: compared by the day in the codes.
  const fromDay = filter.fromMs !== undefined ? (filter.fromMs + LAGOS_OFFSET_MS) / DAY_MS : 0;
  const toDay = filter.toMs !== undefined ? (filter.toMs + LAGOS_OFFSET_MS) / DAY_MS : 0x10000;
  const byDay = Number.isInteger(fromDay) && Number.isInteger(toDay);
  const from = filter.fromMs ?? Number.NEGATIVE_INFINITY;
  const to = filter.toMs ?? Number.POSITIVE_INFINITY;
  const codes = orderCodes(index, byAmount);
  const created = index.created;
  // The filters of codes alone (and whole Lagos days): scanned from either end as far as a window needs.
  if (!marked && (!dated || byDay)) return newScan(order, codes, start, end, mask, want, dated ? fromDay : 0, dated ? toDay : 0x10000);
  // A search's marks, or dates that are not whole days: every row at once.
  const out = new Int32Array(end - start);
  let k = 0;
  for (let i = start; i < end; i++) {
    const r = order[i];
    if ((codes[i] & mask) !== want) continue;
    if (marked !== null && marked[r] !== 1) continue;
    if (dated && (created[r] < from || created[r] >= to)) continue;
    out[k++] = r;
  }
  return out.subarray(0, k);
}

/** Search hits that pass the other filters, in the DESC sort. */
function sortedHits(index: ProfilePositions, hits: readonly number[], filter: PositionFilter, byAmount: boolean): Int32Array {
  const status = filter.status ? codeOf(STATUS, filter.status) : 0;
  const type = filter.type ? codeOf(TYPE, filter.type) : 0;
  const network = filter.network !== undefined ? (index.networkCodes.get(filter.network) ?? -1) : 0;
  const from = filter.fromMs ?? Number.NEGATIVE_INFINITY;
  const to = filter.toMs ?? Number.POSITIVE_INFINITY;
  const kept: number[] = [];
  for (const r of hits) {
    if (r >= index.cap || index.member[r] !== 1) continue;
    const code = index.codes[r];
    if (status && (code & 0b11) !== status) continue;
    if (type && ((code >>> 2) & 0b111) !== type) continue;
    if (network && ((code >>> 5) & NETWORK_OTHER) !== network) continue;
    if (index.created[r] < from || index.created[r] >= to) continue;
    kept.push(r);
  }
  const before = byAmount ? index.amountBefore : index.timeBefore;
  kept.sort((a, b) => (before(a, b) ? -1 : before(b, a) ? 1 : 0));
  return Int32Array.from(kept);
}

/**
 * The rowids of rows [offset, offset + limit) of the filtered mirror in `sort` order, or null when
 * this index cannot answer (inside a transaction; a search matching most of the log) and SQL must.
 */
export function windowRowids(db: ReadableDB, profileId: string, filter: PositionFilter, sort: LogSort, offset: number, limit: number): number[] | null {
  const index = current(db, profileId);
  if (!index) return null;
  const byAmount = sort === 'amount_desc' || sort === 'amount_asc';
  const key = JSON.stringify([filter, byAmount]);
  let kept = index.matches.find((m) => m.key === key);
  if (!kept) {
    const found = matching(db, index, filter, byAmount);
    if (!found) return null;
    kept = found instanceof Int32Array ? { key, rowids: found, scan: null } : { key, rowids: null, scan: found };
    index.matches = [kept, ...index.matches.slice(0, MATCH_CACHE - 1)];
  }
  const ascending = sort === 'time_asc' || sort === 'amount_asc';
  const scan = kept.scan;
  if (scan) {
    // Counted by blocks where the order is tallied: any window at once, the middle as the ends.
    const tallies = talliesOf(index, scan.codes);
    const counted = tallies && windowByTallies(scan, tallies, offset, limit, ascending);
    if (counted) return counted;
    // Far enough from its own end for this window, or all of it once the two scans meet.
    scanOn(scan, offset + limit, ascending);
    if (scan.frontAt < scan.backAt) {
      const found = ascending ? scan.back : scan.front;
      const n = ascending ? scan.backN : scan.frontN;
      const window: number[] = [];
      for (let i = offset; i < Math.min(n, offset + limit); i++) window.push(found[i]);
      return window;
    }
    kept.rowids = allOf(scan);
    kept.scan = null;
  }
  const rows = kept.rowids as Int32Array;
  const out: number[] = [];
  const end = Math.min(rows.length, offset + limit);
  for (let i = offset; i < end; i++) out.push(ascending ? rows[rows.length - 1 - i] : rows[i]);
  return out;
}

/** How many times the index of this database was built (tests: a change followed row by row does not rebuild). */
export function positionIndexBuilds(db: ReadableDB): number {
  return slots.get(db)?.builds ?? 0;
}

/** Drops the index (tests; a database closed). */
export function forgetPositionIndex(db: ReadableDB): void {
  slots.delete(db);
}
