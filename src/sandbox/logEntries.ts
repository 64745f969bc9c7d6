/**
 * `GET /logEntries`: filters, ordering (newest first: created_at DESC, id DESC) and paging.
 *
 * Paging never scans the whole log per request: the ordered id list of a filter is computed
 * once and cached per (organisation, filter); every page is a slice of it plus one `id IN (…)`
 * lookup. New purchases are added to cached orderings incrementally (see orderedIds).
 */
import { koboToNaira, koboToWireText } from '../shared/money';
import { normalizePhone, parseNetwork } from '../shared/phone';
import { LOG_ENTRY_FIELDS, LOG_SUCCESS_MESSAGE, type LogEntry, type PageObject } from '../shared/wire';
import type { Ctx } from './context';
import type { OrgState, SandboxCore } from './core';
import { HttpError, ok, type Reply } from './httpErrors';
import type { LogRow } from './store';

/**
 * `download=true` (format left open by the spec): the page object plus `Download`, the page's
 * entries as CSV text (header row, CRLF line ends).
 */
export interface LogPageWithDownload extends PageObject<LogEntry> {
  Download: string;
}

export const DEFAULT_PER_PAGE = 10;
export const MAX_PER_PAGE = 100;
const DAY_MS = 86_400_000;

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `22 Nov 2026, 2:14:08 PM` (UTC). */
export function humanTime(ms: number): string {
  const d = new Date(ms);
  const h = d.getUTCHours();
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}, ${h % 12 === 0 ? 12 : h % 12}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())} ${h < 12 ? 'AM' : 'PM'}`;
}

export function toLogEntry(row: LogRow): LogEntry {
  return {
    id: row.id,
    transaction_id: row.transaction_id,
    partner_reference: row.partner_reference,
    phone_number: row.phone_number,
    amount: koboToWireText(row.amount_kobo),
    transaction_cost: koboToNaira(row.cost_kobo),
    commission: koboToNaira(row.commission_kobo),
    type: row.type,
    network: row.network,
    operator: row.operator,
    region: row.region,
    description: row.description,
    data_plan: row.data_plan,
    status: row.status,
    time: humanTime(row.created_ms),
    created_at: new Date(row.created_ms).toISOString(),
    updated_at: new Date(row.updated_ms).toISOString(),
  };
}

export interface LogFilter {
  fromMs?: number;
  toMs?: number;
  status?: 'SUCCESS' | 'FAILED' | 'PENDING';
  type?: LogRow['type'];
  network?: string;
  search?: string[];
}

/** Strict `YYYY-MM-DD` to the epoch ms of that UTC midnight. */
export function parseDay(text: string, name: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  const ms = m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : NaN;
  if (!m || Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== text) {
    throw new HttpError(400, `${name} must be a date written YYYY-MM-DD, got "${text}"`);
  }
  return ms;
}

/** A non-negative integer query value, or the default when absent/empty. */
export function intParam(params: URLSearchParams, name: string, fallback: number, min: number): number {
  const raw = params.get(name);
  if (raw === null || raw.trim() === '') return fallback;
  if (!/^\d+$/.test(raw.trim())) throw new HttpError(400, `${name} must be a whole number, got "${raw}"`);
  const value = Number(raw.trim());
  if (value < min || !Number.isSafeInteger(value)) throw new HttpError(400, `${name} must be at least ${min}, got "${raw}"`);
  return value;
}

export function boolParam(params: URLSearchParams, name: string): boolean {
  const raw = params.get(name);
  if (raw === null || raw === '') return false;
  const v = raw.trim().toLowerCase();
  if (['true', '1', 'yes'].includes(v)) return true;
  if (['false', '0', 'no'].includes(v)) return false;
  throw new HttpError(400, `${name} must be true or false, got "${raw}"`);
}

function parseFilter(params: URLSearchParams): LogFilter {
  const filter: LogFilter = {};
  const start = params.get('startdate');
  const end = params.get('enddate');
  if (start) filter.fromMs = parseDay(start, 'startdate');
  if (end) filter.toMs = parseDay(end, 'enddate') + DAY_MS;
  if (filter.fromMs !== undefined && filter.toMs !== undefined && filter.fromMs >= filter.toMs) {
    throw new HttpError(400, `startdate ${start} is after enddate ${end}`);
  }
  const status = params.get('status')?.trim().toLowerCase();
  if (status && status !== 'all') {
    const map = { success: 'SUCCESS', failed: 'FAILED', pending: 'PENDING' } as const;
    if (!(status in map)) throw new HttpError(400, `status must be success, failed, pending or all, got "${params.get('status')}"`);
    filter.status = map[status as keyof typeof map];
  }
  const type = params.get('type')?.trim().toLowerCase();
  if (type && type !== 'all') {
    const map = { airtime: 'AIRTIME', data: 'DATA', electricity: 'ELECTRICITY', cable: 'CABLETV', cabletv: 'CABLETV' } as const;
    if (!(type in map)) throw new HttpError(400, `type must be airtime, data, electricity, cable or all, got "${params.get('type')}"`);
    filter.type = map[type as keyof typeof map];
  }
  const network = params.get('network')?.trim();
  if (network && network.toLowerCase() !== 'all') {
    filter.network = parseNetwork(network) ?? network.toUpperCase();
  }
  const search = params.get('search')?.trim();
  if (search) {
    const terms = new Set([search]);
    const phone = normalizePhone(search);
    if (phone.ok) terms.add(phone.phone);
    filter.search = [...terms];
  }
  return filter;
}

function filterKey(f: LogFilter): string {
  return JSON.stringify([f.fromMs ?? null, f.toMs ?? null, f.status ?? null, f.type ?? null, f.network ?? null, f.search ?? null]);
}

const likeEscape = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Ids newest first, kept as a small front part (recent additions) and the big computed part. */
export class Ordering {
  constructor(
    readonly front: number[],
    readonly base: number[],
  ) {}

  get length(): number {
    return this.front.length + this.base.length;
  }

  slice(start: number, end: number): number[] {
    const f = this.front.length;
    if (end <= f) return this.front.slice(start, end);
    if (start >= f) return this.base.slice(start - f, end - f);
    return this.front.slice(start).concat(this.base.slice(0, end - f));
  }

  /** Puts newer ids in front; merges into one array once the front part grows large. */
  prepend(newer: number[]): Ordering {
    const front = newer.concat(this.front);
    return front.length > 50_000 ? new Ordering([], front.concat(this.base)) : new Ordering(front, this.base);
  }
}

/** One cached ordering of a filter: ids newest first, valid up to the `watermark` row id. */
interface CachedOrdering {
  ids: Ordering;
  watermark: number;
  /** created_ms of the newest row in `ids` (new rows must not sort below it to be prepended). */
  headCreated: number;
  statusVersion: number;
  layoutVersion: number;
}

/** The ordering cache: most recently used last; a handful of entries is plenty. */
const CACHE_LIMIT = 16;
const orderCache = new WeakMap<SandboxCore, Map<string, CachedOrdering>>();

function filterSql(org: OrgState, filter: LogFilter): { where: string[]; args: (string | number)[] } {
  const where = ['org_id = ?'];
  const args: (string | number)[] = [org.id];
  const conditions: [sql: string, value: string | number | undefined][] = [
    ['created_ms >= ?', filter.fromMs],
    ['created_ms < ?', filter.toMs],
    ['status = ?', filter.status],
    ['type = ?', filter.type],
    ['network = ?', filter.network],
  ];
  for (const [sql, value] of conditions) {
    // An empty text means no filter; 0 is a time like any other.
    if (value === undefined || value === '') continue;
    where.push(sql);
    args.push(value);
  }
  if (filter.search) {
    const ors: string[] = [];
    for (const term of filter.search) {
      ors.push("phone_number LIKE ? ESCAPE '\\'", "transaction_id LIKE ? ESCAPE '\\'");
      args.push(likeEscape(term), likeEscape(term));
    }
    where.push(`(${ors.join(' OR ')})`);
  }
  return { where, args };
}

/**
 * The ids matching a filter, newest first. Computed once per filter; afterwards only rows newer
 * than the cached watermark are read (a rowid range, not a scan) and put in front, because new
 * rows always sort first. Settling invalidates status-filtered orderings; reset and seeding all.
 */
export function orderedIds(core: SandboxCore, org: OrgState, filter: LogFilter): Ordering {
  let cache = orderCache.get(core);
  if (!cache) {
    cache = new Map();
    orderCache.set(core, cache);
  }
  const key = `${org.id}|${filterKey(filter)}`;
  const watermark = core.stmt<[], number | null>('SELECT MAX(id) FROM log').pluck().get() ?? 0;
  const { where, args } = filterSql(org, filter);
  let entry = cache.get(key);
  const usable = entry !== undefined && entry.layoutVersion === org.layoutVersion && (filter.status === undefined || entry.statusVersion === org.statusVersion);
  if (entry && usable && entry.watermark !== watermark) {
    const fresh = core
      .stmt<(string | number)[], { id: number; created_ms: number }>(
        `SELECT id, created_ms FROM log NOT INDEXED WHERE id > ? AND ${where.join(' AND ')} ORDER BY created_ms DESC, id DESC`,
      )
      .all(entry.watermark, ...args);
    if (fresh.length === 0) {
      entry.watermark = watermark;
    } else if (fresh[fresh.length - 1].created_ms >= entry.headCreated) {
      entry = { ...entry, ids: entry.ids.prepend(fresh.map((r) => r.id)), watermark, headCreated: fresh[0].created_ms };
    } else {
      entry = undefined;
    }
  } else if (!usable) {
    entry = undefined;
  }
  if (!entry) {
    const sql = `SELECT id FROM log INDEXED BY log_org_created WHERE ${where.join(' AND ')} ORDER BY created_ms DESC, id DESC`;
    const ids = core
      .stmt<(string | number)[], number>(sql)
      .pluck()
      .all(...args);
    const headCreated = ids.length > 0 ? (core.stmt<[number], number>('SELECT created_ms FROM log WHERE id = ?').pluck().get(ids[0]) ?? 0) : Number.NEGATIVE_INFINITY;
    entry = { ids: new Ordering([], ids), watermark, headCreated, statusVersion: org.statusVersion, layoutVersion: org.layoutVersion };
  }
  cache.delete(key);
  cache.set(key, entry);
  while (cache.size > CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
  return entry.ids;
}

export function rowsByIds(core: SandboxCore, ids: number[]): LogRow[] {
  if (ids.length === 0) return [];
  const sql = `SELECT * FROM log WHERE id IN (${ids.map(() => '?').join(',')})`;
  const rows = core.stmt<number[], LogRow>(sql).all(...ids);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => byId.get(id)).filter((r): r is LogRow => r !== undefined);
}

export interface PageWindow {
  page: number;
  perPage: number;
}

export function pageWindow(params: URLSearchParams): PageWindow {
  const page = Math.max(1, intParam(params, 'page', 0, 0));
  const perPage = Math.min(MAX_PER_PAGE, intParam(params, 'perPage', DEFAULT_PER_PAGE, 1));
  return { page, perPage };
}

/** Builds the page object around a slice; NextPage/PreviousPage keep every other query parameter. */
export function pageObject<T>(ctx: Ctx, total: number, win: PageWindow, items: T[]): PageObject<T> {
  const totalPages = Math.ceil(total / win.perPage);
  const link = (page: number) => {
    const params = new URLSearchParams(ctx.url.searchParams);
    params.set('page', String(page));
    params.set('perPage', String(win.perPage));
    return `${ctx.origin}${ctx.url.pathname}?${params.toString()}`;
  };
  const previous = Math.min(win.page - 1, totalPages);
  return {
    TotalPages: totalPages,
    CurrentPage: win.page,
    TotalRecords: total,
    NextPage: win.page < totalPages ? link(win.page + 1) : '',
    PreviousPage: previous >= 1 ? link(previous) : '',
    Items: items,
  };
}

const CSV_COLUMNS = LOG_ENTRY_FIELDS;

function csvCell(value: string | number): string {
  const text = String(value);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv(entries: LogEntry[]): string {
  const lines = [CSV_COLUMNS.join(',')];
  for (const e of entries) lines.push(CSV_COLUMNS.map((c) => csvCell(e[c])).join(','));
  return lines.join('\r\n') + '\r\n';
}

export function logEntries(ctx: Ctx): Reply {
  const params = ctx.url.searchParams;
  const filter = parseFilter(params);
  const win = pageWindow(params);
  const download = boolParam(params, 'download');
  const ids = orderedIds(ctx.core, ctx.org, filter);
  const start = (win.page - 1) * win.perPage;
  const slice = start < ids.length ? ids.slice(start, start + win.perPage) : [];
  const items = rowsByIds(ctx.core, slice).map(toLogEntry);
  const page: PageObject<LogEntry> = pageObject(ctx, ids.length, win, items);
  if (download) {
    const withDownload: LogPageWithDownload = { ...page, Download: toCsv(items) };
    return ok(ctx.ref, withDownload, LOG_SUCCESS_MESSAGE);
  }
  return ok(ctx.ref, page, LOG_SUCCESS_MESSAGE);
}
