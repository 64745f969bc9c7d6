/**
 * Writing the vending log mirror: upsert of parsed log entries by (profile, id). An entry that
 * comes back unchanged costs an index probe and no write (the DO UPDATE has a WHERE that any field
 * differs); a status that moved (PENDING → SUCCESS/FAILED) or a corrected field is updated in
 * place.
 *
 * Speed (a first sync writes 1,000,000 rows): one query per batch finds which ids are already
 * mirrored, rows go in through multi-row INSERT statements (ROWS_PER_STATEMENT rows each, compiled
 * once per connection), and the search index (logSearchIndex.ts) gets the new rows appended in
 * process; nothing else than the table, its three indexes and the few filter choices of the new
 * rows (logFacets.ts) is written.
 *
 * A first sync into an empty mirror (a million entries) goes faster still without the two big
 * secondary indexes: `beginBulkLoad` drops them while the table is empty, and `endBulkLoad` builds
 * each in one sort at the end (a few seconds for a million rows) instead of a million inserts at
 * random places of the amount index, each commit rewriting the pages they touched. The unique
 * key (profile, id) stays, so exactly-once is the same. Whatever ends the run (done, cancelled,
 * failed) builds them; after a crash, `ensureLogIndexes` at the next run does.
 */
import type { ParsedLogEntry } from '../api/parseLogEntry';
import type { Statement } from 'better-sqlite3';
import type { Db } from '../store/database';
import { recordLogFacets } from './logFacets';
import { forgetSearchIndex, maxRowid, searchIndexForWrite } from './logSearchIndex';
import { LOG_ENTRY_INDEXES } from '../store/logEntryIndexes';

export interface UpsertCounts {
  inserted: number;
  updated: number;
}

const COLUMNS = [
  'profile_id', 'id', 'transaction_id', 'partner_reference', 'phone_number', 'amount_kobo', 'cost_kobo', 'commission_kobo',
  'type', 'network', 'operator', 'region', 'description', 'data_plan', 'status', 'time_text', 'created_at', 'updated_at', 'synced_at',
] as const;
const CHANGING = COLUMNS.filter((c) => c !== 'profile_id' && c !== 'id' && c !== 'synced_at');

/** 50 rows × 19 columns = 950 parameters, well inside SQLite's limit. */
const ROWS_PER_STATEMENT = 50;

function upsertSql(rows: number): string {
  const tuple = `(${COLUMNS.map(() => '?').join(', ')})`;
  return `INSERT INTO log_entries (${COLUMNS.join(', ')}) VALUES ${Array.from({ length: rows }, () => tuple).join(', ')}
  ON CONFLICT (profile_id, id) DO UPDATE SET ${[...CHANGING, 'synced_at'].map((c) => `${c} = excluded.${c}`).join(', ')}
  WHERE ${CHANGING.map((c) => `${c} IS NOT excluded.${c}`).join(' OR ')}`;
}

type Param = string | number;

interface Statements {
  many: Statement<Param[]>;
  one: Statement<Param[]>;
  known: Statement<Param[]>;
}

const cache = new WeakMap<Db, Statements>();

function statements(db: Db): Statements {
  let s = cache.get(db);
  if (!s) {
    s = {
      many: db.prepare<Param[]>(upsertSql(ROWS_PER_STATEMENT)),
      one: db.prepare<Param[]>(upsertSql(1)),
      known: db.prepare<Param[]>('SELECT id FROM log_entries WHERE profile_id = ? AND id IN (SELECT value FROM json_each(?))').pluck(),
    };
    cache.set(db, s);
  }
  return s;
}

function pushRow(params: Param[], profileId: string, e: ParsedLogEntry, syncedAt: string): void {
  params.push(
    profileId, e.id, e.transactionId, e.partnerReference, e.phoneNumber, e.amountKobo, e.costKobo, e.commissionKobo,
    e.type, e.network, e.operator, e.region, e.description, e.dataPlan, e.status, e.time, e.createdAt, e.updatedAt, syncedAt,
  );
}

/** The last occurrence of each id (a batch of several pages can read an entry twice as the log shifts). */
function lastOfEachId(entries: readonly ParsedLogEntry[]): readonly ParsedLogEntry[] {
  const seen = new Map<number, number>();
  for (let i = 0; i < entries.length; i++) seen.set(entries[i].id, i);
  if (seen.size === entries.length) return entries;
  return entries.filter((e, i) => seen.get(e.id) === i);
}

/**
 * Upserts `entries` for `profileId` in the caller's transaction (wrap a batch in one; if that
 * transaction rolls back, call `forgetSearchIndex`). Counts what was new and what changed;
 * entries identical to the mirror are neither.
 */
export function upsertLogEntries(db: Db, profileId: string, entries: readonly ParsedLogEntry[], syncedAt: string): UpsertCounts {
  if (entries.length === 0) return { inserted: 0, updated: 0 };
  const { many, one, known } = statements(db);
  const rows = lastOfEachId(entries);
  const existing = new Set(known.all(profileId, JSON.stringify(rows.map((e) => e.id))) as number[]);
  const top = maxRowid(db);
  const index = searchIndexForWrite(db, profileId, top);

  let changes = 0;
  let i = 0;
  const params: Param[] = [];
  for (; i + ROWS_PER_STATEMENT <= rows.length; i += ROWS_PER_STATEMENT) {
    params.length = 0;
    for (let k = i; k < i + ROWS_PER_STATEMENT; k++) pushRow(params, profileId, rows[k], syncedAt);
    changes += many.run(...params).changes;
  }
  for (; i < rows.length; i++) {
    params.length = 0;
    pushRow(params, profileId, rows[i], syncedAt);
    changes += one.run(...params).changes;
  }

  const inserted = rows.length - existing.size;
  if (inserted > 0) recordLogFacets(db, profileId, existing.size === 0 ? rows : rows.filter((e) => !existing.has(e.id)));
  if (index) {
    // New rows took rowids top+1, top+2, … in batch order (no AUTOINCREMENT, one connection).
    if (inserted > 0 && maxRowid(db) !== top + inserted) forgetSearchIndex(db, profileId);
    else {
      let rowid = top;
      for (const e of rows) if (!existing.has(e.id)) index.append(++rowid, e.phoneNumber, e.transactionId);
      index.lastRowid = top + inserted;
    }
  }
  return { inserted, updated: changes - inserted };
}

/** Upserts in one transaction (benchmarks, tests, imports of many pages at once). */
export function upsertLogEntriesInTransaction(db: Db, profileId: string, entries: readonly ParsedLogEntry[], syncedAt: string): UpsertCounts {
  try {
    return db.transaction(() => upsertLogEntries(db, profileId, entries, syncedAt))();
  } catch (error) {
    forgetSearchIndex(db, profileId);
    throw error;
  }
}

/**
 * The indexes a bulk load builds at its end. The partial index of PENDING rows stays: it costs
 * only the few pending rows as they are written, and building it would be one more pass over
 * the whole table.
 */
const BULK_DEFERRED = ['log_entries_created', 'log_entries_amount'] as const satisfies readonly (keyof typeof LOG_ENTRY_INDEXES)[];

/**
 * When the mirror holds no row at all (of any connection), drops its secondary indexes for a bulk
 * first load and returns true; otherwise makes sure they exist and returns false. Call
 * `endBulkLoad` when the load ends, however it ends.
 */
export function beginBulkLoad(db: Db): boolean {
  return db.transaction(() => {
    if (db.prepare('SELECT 1 FROM log_entries LIMIT 1').get() !== undefined) {
      ensureLogIndexes(db);
      return false;
    }
    for (const name of BULK_DEFERRED) db.exec(`DROP INDEX IF EXISTS ${name}`);
    return true;
  })();
}

/**
 * Builds the secondary indexes a bulk load left out, each one sort of the table: with 64 MB for
 * the sort (SQLite's default 2 MB spills a million rows to temporary files and merges them) and a
 * second thread, both given back after.
 */
export function endBulkLoad(db: Db): void {
  const cacheSize = db.pragma('cache_size', { simple: true }) as number;
  const threads = db.pragma('threads', { simple: true }) as number;
  db.pragma('cache_size = -65536');
  db.pragma('threads = 2');
  try {
    ensureLogIndexes(db);
  } finally {
    db.pragma(`cache_size = ${Number(cacheSize)}`);
    db.pragma(`threads = ${Number(threads)}`);
  }
}

/** Creates any of the mirror's secondary indexes that is missing (a bulk load cut short by a crash); a no-op otherwise. */
export function ensureLogIndexes(db: Db): void {
  const present = new Set(db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'log_entries'").pluck().all() as string[]);
  const missing = Object.entries(LOG_ENTRY_INDEXES).filter(([name]) => !present.has(name));
  if (missing.length === 0) return;
  db.transaction(() => {
    for (const [, sql] of missing) db.exec(sql);
  })();
}
