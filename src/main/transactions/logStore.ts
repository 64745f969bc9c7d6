/**
 * Writing the vending log mirror: upsert of parsed log entries by (profile, id). An entry that
 * comes back unchanged costs an index probe and no write (the DO UPDATE has a WHERE that any field
 * differs); a status that moved (PENDING → SUCCESS/FAILED) or a corrected field is updated in
 * place.
 *
 * Speed (a first sync writes 1,000,000 rows): rows go in through multi-row INSERT statements
 * (ROWS_PER_STATEMENT rows each, compiled once per connection, their parameters one reused array),
 * which rows were new is read from MAX(rowid) after the write (no query before it), and the search
 * index (logSearchIndex.ts) gets the new rows appended in process; nothing else than the table,
 * its three indexes and the few filter choices of the new rows (logFacets.ts) is written.
 *
 * A first sync into an empty mirror (a million entries) goes faster still without the two big
 * secondary indexes: `beginBulkLoad` drops them while the table is empty, and `endBulkLoad` builds
 * each in one sort at the end (a few seconds for a million rows) instead of a million inserts at
 * random places of the amount index, each commit rewriting the pages they touched. The unique
 * key (profile, id) stays, so exactly-once is the same. Whatever ends the run (done, cancelled,
 * failed) builds them; after a crash, `ensureLogIndexes` at the next run does. Its batches commit
 * with synchronous = NORMAL (`bulkLoadTransaction` says why that loses nothing a resume does not
 * read again).
 */
import type { ParsedLogEntry } from '../api/parseLogEntry';
import type { Statement } from 'better-sqlite3';
import type { Db } from '../store/database';
import { commitUnflushed } from '../store/unflushedCommit';
import { recordLogFacets } from './logFacets';
import { forgetSearchIndex, searchIndexForWrite } from './logSearchIndex';
import { LOG_ENTRY_INDEXES } from '../store/logEntryIndexes';
import { LOG_DAY_TOTALS_INSERT_TRIGGER, RECOUNT_LOG_DAY_TOTALS } from '../store/logDayTotals';

export interface UpsertCounts {
  inserted: number;
  updated: number;
}

const COLUMNS = [
  'profile_id',
  'id',
  'transaction_id',
  'partner_reference',
  'phone_number',
  'amount_kobo',
  'cost_kobo',
  'commission_kobo',
  'type',
  'network',
  'operator',
  'region',
  'description',
  'data_plan',
  'status',
  'time_text',
  'created_at',
  'updated_at',
  'synced_at',
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
  many: Statement<Param[][]>;
  one: Statement<Param[][]>;
  top: Statement<[]>;
  since: Statement<[number, string]>;
}

const cache = new WeakMap<Db, Statements>();

function statements(db: Db): Statements {
  let s = cache.get(db);
  if (!s) {
    s = {
      many: db.prepare<Param[][]>(upsertSql(ROWS_PER_STATEMENT)),
      one: db.prepare<Param[][]>(upsertSql(1)),
      top: db.prepare<[]>('SELECT COALESCE(MAX(rowid), 0) FROM log_entries').pluck(),
      since: db.prepare<[number, string]>('SELECT rowid, phone_number, transaction_id, type, network, status FROM log_entries WHERE rowid > ? AND profile_id = ? ORDER BY rowid'),
    };
    cache.set(db, s);
  }
  return s;
}

/** Writes row `e`'s 19 values at `at` of `params` (an array reused from batch to batch). */
function putRow(params: Param[], at: number, profileId: string, e: ParsedLogEntry, syncedAt: string): void {
  params[at] = profileId;
  params[at + 1] = e.id;
  params[at + 2] = e.transactionId;
  params[at + 3] = e.partnerReference;
  params[at + 4] = e.phoneNumber;
  params[at + 5] = e.amountKobo;
  params[at + 6] = e.costKobo;
  params[at + 7] = e.commissionKobo;
  params[at + 8] = e.type;
  params[at + 9] = e.network;
  params[at + 10] = e.operator;
  params[at + 11] = e.region;
  params[at + 12] = e.description;
  params[at + 13] = e.dataPlan;
  params[at + 14] = e.status;
  params[at + 15] = e.time;
  params[at + 16] = e.createdAt;
  params[at + 17] = e.updatedAt;
  params[at + 18] = syncedAt;
}

/**
 * The last occurrence of each id (a batch of several pages can read an entry twice as the log
 * shifts). A batch whose ids only go one way (the log's order) has none twice: one pass, no map.
 */
function lastOfEachId(entries: readonly ParsedLogEntry[]): readonly ParsedLogEntry[] {
  let down = true;
  let up = true;
  for (let i = 1; i < entries.length && (down || up); i++) {
    const d = entries[i].id - entries[i - 1].id;
    if (d >= 0) down = false;
    if (d <= 0) up = false;
  }
  if (down || up) return entries;
  const seen = new Map<number, number>();
  for (let i = 0; i < entries.length; i++) seen.set(entries[i].id, i);
  if (seen.size === entries.length) return entries;
  return entries.filter((e, i) => seen.get(e.id) === i);
}

/** Parameters of one multi-row statement and of one row, reused: an upsert runs to its end before another can start. */
const manyParams: Param[] = new Array<Param>(ROWS_PER_STATEMENT * COLUMNS.length);
const oneParams: Param[] = new Array<Param>(COLUMNS.length);

/**
 * Upserts `entries` for `profileId` in the caller's transaction (wrap a batch in one; if that
 * transaction rolls back, call `forgetSearchIndex`). Counts what was new and what changed;
 * entries identical to the mirror are neither.
 *
 * Which rows were new is read from the rowids after the write, not asked before it: new rows take
 * rowids above the table's highest (no AUTOINCREMENT; no other writer comes in between inside the
 * caller's transaction: in WAL mode a write after a read another connection has overtaken fails),
 * so `MAX(rowid)` after minus before is the count of new rows, and when that is the whole batch
 * (a first sync, any batch of only new entries) they are the batch's rows in order. Otherwise the
 * few new rows are read back by rowid.
 */
export function upsertLogEntries(db: Db, profileId: string, entries: readonly ParsedLogEntry[], syncedAt: string): UpsertCounts {
  if (entries.length === 0) return { inserted: 0, updated: 0 };
  const { many, one, top: maxRowidOf, since } = statements(db);
  const rows = lastOfEachId(entries);
  const top = maxRowidOf.get() as number;
  const index = searchIndexForWrite(db, profileId, top);

  let changes = 0;
  let i = 0;
  for (; i + ROWS_PER_STATEMENT <= rows.length; i += ROWS_PER_STATEMENT) {
    for (let k = 0; k < ROWS_PER_STATEMENT; k++) putRow(manyParams, k * COLUMNS.length, profileId, rows[i + k], syncedAt);
    changes += many.run(manyParams).changes;
  }
  for (; i < rows.length; i++) {
    putRow(oneParams, 0, profileId, rows[i], syncedAt);
    changes += one.run(oneParams).changes;
  }

  const after = maxRowidOf.get() as number;
  const inserted = after - top;
  if (inserted === rows.length) {
    // All new, in batch order: rowids top+1, top+2, …
    recordLogFacets(db, profileId, rows);
    if (index) {
      let rowid = top;
      for (const e of rows) index.append(++rowid, e.phoneNumber, e.transactionId);
      index.lastRowid = after;
    }
  } else if (inserted > 0) {
    const added = since.all(top, profileId) as { rowid: number; phone_number: string; transaction_id: string; type: string; network: string; status: string }[];
    recordLogFacets(db, profileId, added);
    if (index) {
      if (added.length !== inserted) forgetSearchIndex(db, profileId);
      else {
        for (const r of added) index.append(r.rowid, r.phone_number, r.transaction_id);
        index.lastRowid = after;
      }
    }
  }
  return { inserted, updated: changes - inserted };
}

/**
 * Upserts in one transaction (benchmarks, tests, imports of many pages at once). `copy`: entries
 * read outside a sync (a purchase's own, read at its answer; the pages a bulk run reads), whose
 * commit need not wait for the disk (see `bulkLoadTransaction` for why).
 */
export function upsertLogEntriesInTransaction(db: Db, profileId: string, entries: readonly ParsedLogEntry[], syncedAt: string, { copy = false } = {}): UpsertCounts {
  try {
    const write = () => upsertLogEntries(db, profileId, entries, syncedAt);
    return copy ? commitUnflushed(db, write) : db.transaction(write)();
  } catch (error) {
    forgetSearchIndex(db, profileId);
    throw error;
  }
}

/**
 * One batch of a sync (its rows and the sync checkpoint after them) in one transaction; in a bulk
 * load (`beginBulkLoad` returned true) its commit does not wait for the disk
 * (`store/unflushedCommit.ts`). Entries of the service's log may be written so: what a power cut
 * rolls back is read again from the service. A sync's batch holds its rows together with the
 * checkpoint that points after them (syncRun.ts `advanceRun`), so the resumed sync reads them again
 * from the checkpoint that survived; an entry mirrored outside a sync lies after every checkpoint a
 * durable commit made, so the next sync reads it.
 */
export function bulkLoadTransaction<T>(db: Db, bulk: boolean, write: () => T): T {
  return bulk ? commitUnflushed(db, write) : db.transaction(write)();
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
    // The day totals: counted once from the table at the end rather than one upsert per row.
    db.exec(`DROP TRIGGER IF EXISTS ${LOG_DAY_TOTALS_INSERT_TRIGGER.name}`);
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

/**
 * Creates any of the mirror's secondary indexes that is missing (a bulk load cut short by a crash),
 * and when the day totals' insert trigger is missing, counts the totals again from the table and
 * creates it, in one transaction; a no-op otherwise.
 */
export function ensureLogIndexes(db: Db): void {
  const present = new Set(db.prepare("SELECT name FROM sqlite_master WHERE type IN ('index', 'trigger') AND tbl_name = 'log_entries'").pluck().all() as string[]);
  const missing = Object.entries(LOG_ENTRY_INDEXES).filter(([name]) => !present.has(name));
  const recount = !present.has(LOG_DAY_TOTALS_INSERT_TRIGGER.name);
  if (missing.length === 0 && !recount) return;
  db.transaction(() => {
    for (const [, sql] of missing) db.exec(sql);
    if (recount) {
      db.exec(RECOUNT_LOG_DAY_TOTALS);
      db.exec(LOG_DAY_TOTALS_INSERT_TRIGGER.sql);
    }
  })();
}
