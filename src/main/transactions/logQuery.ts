/**
 * Reading the vending log mirror: the WHERE clause of a filter (the log endpoint's filters plus
 * partial search), windows of rows in a sort, totals, one row, and a streaming iterator for
 * exports. Every query is for one connection profile.
 *
 * Search: the in-process index (logSearchIndex.ts) finds the rowids whose phone number or
 * transaction id contains the text, of any length, among 1,000,000 rows in milliseconds; SQL
 * reads only those rows. A search that matches more than MAX_HITS rows (one or two characters,
 * usually) is matched with LIKE instead. A phone number written `234803…` or `+234 803…` is
 * searched in its local form `0803…`.
 *
 * Windows: the rows of a window are placed by the in-process position index (logPositionIndex.ts),
 * which answers any offset under any filter and sort in milliseconds, and read by rowid. Where it
 * cannot answer (inside a transaction, or a search matching most of the log) SQL does, reading a
 * window past the middle of the list in the opposite order from the other end (OFFSET walks the
 * index from its start, so row 999,900 of 1,000,000 becomes row 0 of the reverse order).
 */
import type { LogFilter, LogSort, LogTotals, MirrorRow } from '../../shared/contract/logs';
import { lagosDayEndMs, lagosDayStartMs } from '../../shared/localDates';
import { normalizePhone } from '../../shared/phone';
import type { ReadableDB, ReadStatement } from '../store/readableDb';
import { windowRowids, type PositionFilter } from './logPositionIndex';
import { searchRowids } from './logSearchIndex';

interface Where {
  sql: string;
  params: (string | number)[];
}

/** How the user's network names map onto what the log stores (`GLO` is logged `GLOBACOM`). */
const NETWORK_ALIASES: Record<string, string> = { GLO: 'GLOBACOM', ETISALAT: '9MOBILE' };

export function searchTerm(raw: string): string {
  const text = raw.trim();
  if (/^\+?[\d\s-]{10,}$/.test(text)) {
    const phone = normalizePhone(text);
    if (phone.ok) return phone.phone;
  }
  return text;
}

function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** A filter's days are Lagos days: their boundaries as UTC ISO strings, compared with `created_at` as text. */
function dayStart(day: string): string {
  return new Date(lagosDayStartMs(day)).toISOString();
}
function dayAfter(day: string): string {
  return new Date(lagosDayEndMs(day)).toISOString();
}

/** Up to this many search hits, rows are read by rowid rather than by walking an index. */
const FEW_HITS = 20_000;

/** The network as the log stores it (`GLO` is logged `GLOBACOM`), upper case. */
export function logNetworkName(network: string): string {
  const upper = network.toUpperCase();
  return NETWORK_ALIASES[upper] ?? upper;
}

/** The network value the log stores for the filter's choice (null: no network filter). */
function networkValue(filter: LogFilter): string | null {
  if (!filter.network || filter.network.toUpperCase() === 'ALL') return null;
  return logNetworkName(filter.network);
}

/** One condition of a filter's WHERE clause and its parameters; `bound`: the filter's From or To. */
interface Condition {
  sql: string;
  params: (string | number)[];
  bound?: 'from' | 'to';
}

function conditionsOf(db: ReadableDB, profileId: string, filter: LogFilter): Condition[] {
  const conditions: Condition[] = [{ sql: 'e.profile_id = ?', params: [profileId] }];
  if (filter.from) conditions.push({ sql: 'e.created_at >= ?', params: [dayStart(filter.from)], bound: 'from' });
  if (filter.to) conditions.push({ sql: 'e.created_at < ?', params: [dayAfter(filter.to)], bound: 'to' });
  if (filter.status) conditions.push({ sql: 'e.status = ?', params: [filter.status] });
  if (filter.type) conditions.push({ sql: 'e.type = ?', params: [filter.type] });
  const network = networkValue(filter);
  if (network !== null) conditions.push({ sql: 'e.network = ?', params: [network] });
  if (filter.costCentre) {
    // The entry's cost centre by the one rule, the view `log_cost_centres` (src/main/costCentres/logCostCentres.ts; named, not imported, since that folder reads this one's mirror).
    conditions.push({ sql: '(SELECT c.cost_centre FROM log_cost_centres c WHERE c.entry_rowid = e.rowid) = ?', params: [filter.costCentre] });
  }
  if (filter.search) {
    const term = searchTerm(filter.search);
    const rowids = term.length > 0 ? searchRowids(db, profileId, term) : null;
    if (rowids) {
      // A few thousand hits are read by rowid and sorted ("+" keeps the planner off the
      // profile's indexes, which it would walk whole checking each rowid); many hits are found
      // walking the index in the list's order.
      if (rowids.length <= FEW_HITS) conditions[0].sql = '+e.profile_id = ?';
      conditions.push({ sql: 'e.rowid IN (SELECT value FROM json_each(?))', params: [JSON.stringify(rowids)] });
    } else if (term.length > 0) {
      conditions.push({ sql: "(e.phone_number LIKE ? ESCAPE '\\' OR e.transaction_id LIKE ? ESCAPE '\\')", params: [likePattern(term), likePattern(term)] });
    }
  }
  return conditions;
}

const joined = (conditions: readonly Condition[]): Where => ({ sql: conditions.map((c) => c.sql).join(' AND '), params: conditions.flatMap((c) => c.params) });

export function whereOf(db: ReadableDB, profileId: string, filter: LogFilter): Where {
  return joined(conditionsOf(db, profileId, filter));
}

const ORDER: Record<LogSort, string> = {
  time_desc: 'e.created_at DESC, e.id DESC',
  time_asc: 'e.created_at ASC, e.id ASC',
  amount_desc: 'e.amount_kobo DESC, e.id DESC',
  amount_asc: 'e.amount_kobo ASC, e.id ASC',
};

export const ROW_COLUMNS = `e.rowid AS rowid, e.id AS id, e.transaction_id AS transactionId, e.partner_reference AS partnerReference,
  e.phone_number AS phoneNumber, e.amount_kobo AS amountKobo, e.cost_kobo AS costKobo, e.commission_kobo AS commissionKobo,
  e.type AS type, e.network AS network, e.operator AS operator, e.region AS region, e.description AS description,
  e.data_plan AS dataPlan, e.status AS status, e.time_text AS time, e.created_at AS createdAt, e.updated_at AS updatedAt,
  e.synced_at AS syncedAt`;

const REVERSE: Record<LogSort, LogSort> = { time_desc: 'time_asc', time_asc: 'time_desc', amount_desc: 'amount_asc', amount_asc: 'amount_desc' };

/** Past this offset a window may be read from the other end of the list. */
const DEEP_OFFSET = 20_000;

function windowRows(db: ReadableDB, where: Where, sort: LogSort, offset: number, limit: number): MirrorRow[] {
  // The window's rowids come from the indexes alone; only the rows shown are read in full.
  return db
    .prepare(
      `SELECT ${ROW_COLUMNS} FROM log_entries e WHERE e.rowid IN (
         SELECT e.rowid FROM log_entries e WHERE ${where.sql} ORDER BY ${ORDER[sort]} LIMIT ? OFFSET ?)
       ORDER BY ${ORDER[sort]}`,
    )
    .all(...where.params, limit, offset) as MirrorRow[];
}

function positionFilter(filter: LogFilter): PositionFilter {
  const f: PositionFilter = {};
  if (filter.from) f.fromMs = Date.parse(dayStart(filter.from));
  if (filter.to) f.toMs = Date.parse(dayAfter(filter.to));
  if (filter.status) f.status = filter.status;
  if (filter.type) f.type = filter.type;
  const network = networkValue(filter);
  if (network !== null) f.network = network;
  const term = filter.search ? searchTerm(filter.search) : '';
  if (term.length > 0) f.searchTerm = term;
  return f;
}

const byRowid = new WeakMap<ReadableDB, ReadStatement>();

/** The rows of `rowids` (of the profile), in that order. */
function rowsByRowid(db: ReadableDB, profileId: string, rowids: readonly number[]): MirrorRow[] {
  if (rowids.length === 0) return [];
  let statement = byRowid.get(db);
  if (!statement) {
    // "+" keeps the planner on the rowids rather than walking the profile's index.
    statement = db.prepare(`SELECT ${ROW_COLUMNS} FROM log_entries e WHERE e.rowid IN (SELECT value FROM json_each(?)) AND +e.profile_id = ?`);
    byRowid.set(db, statement);
  }
  const rows = statement.all(JSON.stringify(rowids), profileId) as MirrorRow[];
  const at = new Map(rows.map((r) => [r.rowid, r]));
  const out: MirrorRow[] = [];
  for (const r of rowids) {
    const row = at.get(r);
    if (row) out.push(row);
  }
  return out;
}

/** Rows [offset, offset + limit) of the filtered mirror in `sort` order. */
export function queryLogRows(db: ReadableDB, profileId: string, filter: LogFilter, sort: LogSort, offset: number, limit: number): MirrorRow[] {
  // The position index knows no cost centres: SQL places a window filtered by one.
  const placed = filter.costCentre ? null : windowRowids(db, profileId, positionFilter(filter), sort, offset, limit);
  if (placed) return rowsByRowid(db, profileId, placed);
  const where = whereOf(db, profileId, filter);
  if (offset > DEEP_OFFSET) {
    const count = cachedCount(db, where) ?? logTotalsOf(db, where).count;
    if (offset >= count) return [];
    const end = Math.min(count, offset + limit);
    const fromEnd = count - end;
    if (fromEnd < offset) return windowRows(db, where, REVERSE[sort], fromEnd, end - offset).reverse();
  }
  return windowRows(db, where, sort, offset, limit);
}

/**
 * Totals of recent filters while the mirror is unchanged (`data_version` moves when another
 * connection commits, `total_changes()` when this one writes): a deep window needs the count the
 * page's totals just computed.
 */
const totalsCache = new WeakMap<ReadableDB, { version: string; byWhere: Map<string, LogTotals> }>();

function versionOf(db: ReadableDB): string {
  const v = db.prepare('SELECT total_changes()').pluck().get() as number;
  return `${db.pragma('data_version', { simple: true }) as number}/${v}`;
}

function whereKey(where: Where): string {
  return `${where.sql}\u0000${JSON.stringify(where.params)}`;
}

function cachedCount(db: ReadableDB, where: Where): number | null {
  const c = totalsCache.get(db);
  if (!c || c.version !== versionOf(db)) return null;
  return c.byWhere.get(whereKey(where))?.count ?? null;
}

function logTotalsOf(db: ReadableDB, where: Where): LogTotals {
  // Spend is what left the wallet: FAILED purchases were refunded, so they are summed apart.
  const sums = db
    .prepare(
      `SELECT COUNT(*) AS count,
              COALESCE(SUM(CASE WHEN e.status <> 'FAILED' THEN e.amount_kobo END), 0) AS amountKobo,
              COALESCE(SUM(CASE WHEN e.status <> 'FAILED' THEN e.cost_kobo END), 0) AS costKobo,
              COALESCE(SUM(CASE WHEN e.status <> 'FAILED' THEN e.commission_kobo END), 0) AS commissionKobo,
              COUNT(CASE WHEN e.status = 'FAILED' THEN 1 END) AS refundedCount,
              COALESCE(SUM(CASE WHEN e.status = 'FAILED' THEN e.amount_kobo END), 0) AS refundedAmountKobo,
              COALESCE(SUM(CASE WHEN e.status = 'FAILED' THEN e.cost_kobo END), 0) AS refundedCostKobo
         FROM log_entries e WHERE ${where.sql}`,
    )
    .get(...where.params) as Omit<LogTotals, 'refunded'> & { refundedCount: number; refundedAmountKobo: number; refundedCostKobo: number };
  const row: LogTotals = {
    count: sums.count,
    amountKobo: sums.amountKobo,
    costKobo: sums.costKobo,
    commissionKobo: sums.commissionKobo,
    refunded: { count: sums.refundedCount, amountKobo: sums.refundedAmountKobo, costKobo: sums.refundedCostKobo },
  };
  const version = versionOf(db);
  let c = totalsCache.get(db);
  if (!c || c.version !== version) {
    c = { version, byWhere: new Map() };
    totalsCache.set(db, c);
  }
  if (c.byWhere.size > 20) c.byWhere.clear();
  c.byWhere.set(whereKey(where), row);
  return row;
}

export function logTotals(db: ReadableDB, profileId: string, filter: LogFilter): LogTotals {
  const t = logTotalsOf(db, whereOf(db, profileId, filter));
  return { ...t, refunded: { ...t.refunded } };
}

/** The times of the first and the last entry of a filter (null when it has none): the period an export without From/To covers. */
export function logTimeSpan(db: ReadableDB, profileId: string, filter: LogFilter): { first: string | null; last: string | null } {
  const where = whereOf(db, profileId, filter);
  return db.prepare(`SELECT min(e.created_at) AS first, max(e.created_at) AS last FROM log_entries e WHERE ${where.sql}`).get(...where.params) as {
    first: string | null;
    last: string | null;
  };
}

export function logRow(db: ReadableDB, profileId: string, rowid: number): MirrorRow | null {
  const row = db.prepare(`SELECT ${ROW_COLUMNS} FROM log_entries e WHERE e.profile_id = ? AND e.rowid = ?`).get(profileId, rowid) as MirrorRow | undefined;
  return row ?? null;
}

export function mirrorEntryCount(db: ReadableDB, profileId: string): number {
  return (db.prepare('SELECT COUNT(*) FROM log_entries WHERE profile_id = ?').pluck().get(profileId) as number) ?? 0;
}

const KEY: Record<LogSort, { cols: string; cmp: '<' | '>'; of(row: MirrorRow): [string | number, number] }> = {
  time_desc: { cols: '(e.created_at, e.id)', cmp: '<', of: (r) => [r.createdAt, r.id] },
  time_asc: { cols: '(e.created_at, e.id)', cmp: '>', of: (r) => [r.createdAt, r.id] },
  amount_desc: { cols: '(e.amount_kobo, e.id)', cmp: '<', of: (r) => [r.amountKobo, r.id] },
  amount_asc: { cols: '(e.amount_kobo, e.id)', cmp: '>', of: (r) => [r.amountKobo, r.id] },
};

/**
 * Every filtered row in `sort` order, read in chunks by key (after the last row of the previous
 * chunk), so an export of 1,000,000 rows never holds them all, never walks an OFFSET, and keeps
 * no statement open across the writer's awaits.
 */
export function* iterateLogRows(db: ReadableDB, profileId: string, filter: LogFilter, sort: LogSort, chunk = 2000): Generator<MirrorRow> {
  const { first, next } = logChunkQueries(db, profileId, filter, sort, chunk);
  const key = KEY[sort];
  const firstChunk = db.prepare(first.sql);
  const nextChunk = db.prepare(next.sql);
  let rows = firstChunk.all(...first.params, chunk) as MirrorRow[];
  while (rows.length > 0) {
    for (const row of rows) yield row;
    if (rows.length < chunk) return;
    rows = nextChunk.all(...next.params, ...key.of(rows[rows.length - 1]), chunk) as MirrorRow[];
  }
}

/**
 * The statements of {@link iterateLogRows}: the first chunk (then its size), and each next one
 * (then the last row's key and the size). After the first chunk the last row bounds the time on
 * the side the sort walks towards, so the filter's own bound there is left out of `next`: with
 * both, SQLite seeks by the filter's and walks from the range's edge to the last row on every
 * chunk (a month of 3,333,359 entries in a mirror of ten million: 0.76 s a chunk near its end,
 * against 2.9 ms seeking by the last row).
 *
 * A range of days in amount order is read one of two ways, chosen by its share of the mirror
 * (the totals per day): left to itself SQLite sorted the whole range for the first chunk (a month
 * of ten million: 15.1 s) and walked the amount index for the next ones, looking up each entry's
 * time (a day of ten million: a lookup of ~90 entries for each row listed).
 * - A range holding many entries walks the amount index from the last row: each next chunk
 *   looks at about (entries of the mirror / entries of the range) entries a row.
 * - A range holding few finds each chunk's rows in the time index alone (it holds the amount and
 *   id), sorted there, and reads only those rows: each chunk looks at the range's index entries.
 * The first costs chunk × mirror / range a chunk, the second range: the amount index when range² > chunk × mirror.
 */
export function logChunkQueries(db: ReadableDB, profileId: string, filter: LogFilter, sort: LogSort, chunk = 2000): Record<'first' | 'next', { sql: string; params: unknown[] }> {
  const conditions = conditionsOf(db, profileId, filter);
  const replaced = sort === 'time_desc' ? 'to' : sort === 'time_asc' ? 'from' : null;
  const where = joined(conditions);
  const later = joined(conditions.filter((c) => c.bound !== replaced));
  const key = KEY[sort];
  const byAmount = sort === 'amount_asc' || sort === 'amount_desc';
  // (A search's hits have plans of their own: see conditionsOf.)
  const dated = byAmount && (filter.from || filter.to) && !filter.search;
  if (dated && !rangeHoldsMany(db, profileId, filter, chunk)) {
    const rowids = (w: Where, after: string) =>
      `SELECT ${ROW_COLUMNS} FROM log_entries e WHERE e.rowid IN (SELECT e.rowid FROM log_entries e INDEXED BY log_entries_created WHERE ${w.sql}${after} ORDER BY ${ORDER[sort]} LIMIT ?) ORDER BY ${ORDER[sort]}`;
    return {
      first: { sql: rowids(where, ''), params: where.params },
      next: { sql: rowids(where, ` AND ${key.cols} ${key.cmp} (?, ?)`), params: where.params },
    };
  }
  const table = dated ? 'log_entries e INDEXED BY log_entries_amount' : 'log_entries e';
  return {
    first: { sql: `SELECT ${ROW_COLUMNS} FROM ${table} WHERE ${where.sql} ORDER BY ${ORDER[sort]} LIMIT ?`, params: where.params },
    next: { sql: `SELECT ${ROW_COLUMNS} FROM ${table} WHERE ${later.sql} AND ${key.cols} ${key.cmp} (?, ?) ORDER BY ${ORDER[sort]} LIMIT ?`, params: later.params },
  };
}

/** Whether the filter's days hold so many of the mirror's entries (by its totals per day) that walking the amount index beats sorting the range a chunk at a time. */
function rangeHoldsMany(db: ReadableDB, profileId: string, filter: LogFilter, chunk: number): boolean {
  const counts = db
    .prepare('SELECT coalesce(sum(CASE WHEN day >= ? AND day <= ? THEN entries END), 0) AS range, coalesce(sum(entries), 0) AS mirror FROM log_day_totals WHERE profile_id = ?')
    .get(filter.from ?? '', filter.to ?? '9999-12-31', profileId) as { range: number; mirror: number };
  return counts.range * counts.range > chunk * counts.mirror;
}
