/**
 * The one reader of the service's vending log by what is looked for, used by bulk items, single
 * purchases, refunds, the mirror's refresh and the team's adopt (it lives with the client, below
 * them all). Reading the log to learn what happened to items: by reference (the
 * `transaction_id` of an entry is the reference the purchase answer gave), or by phone for
 * items whose reference is unknown (a crash or timeout while sending).
 */
import { parseLogEntry, type ParsedLogEntry } from './parseLogEntry';
import type { VendingClient } from './vendingClient';
import type { LogEntry, LogQuery, PageObject } from '../../shared/wire';
import type { BulkKind } from '../../shared/contract/bulk';

const PER_PAGE = 100;
/** Safety stop: never page forever through a log that keeps growing. */
const MAX_PAGES = 500;

export type LogReader = Pick<VendingClient, 'logEntries' | 'logPage'>;

/** The log's `startdate` for entries from `ms` on: the UTC day before (the service's days may not be UTC). */
function startdateFor(ms: number): string {
  return new Date(ms - 24 * 3600_000).toISOString().slice(0, 10);
}

/**
 * `client`, telling `onPage` of every page of the log it reads, once it has it (a reader of the
 * log that keeps what it reads: the mirror's refresh after a purchase). Nothing else of the
 * client changes; `onPage` must not throw.
 */
export function observingLogReads(client: VendingClient, onPage: (page: PageObject<LogEntry>) => void): VendingClient {
  const reads: LogReader = {
    logEntries: async (...args) => {
      const page = await client.logEntries(...args);
      onPage(page);
      return page;
    },
    logPage: async (...args) => {
      const page = await client.logPage(...args);
      onPage(page);
      return page;
    },
  };
  return new Proxy(client, {
    get(target, property) {
      if (property === 'logEntries' || property === 'logPage') return reads[property];
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

function parseAll(items: LogEntry[]): ParsedLogEntry[] {
  const out: ParsedLogEntry[] = [];
  for (const item of items) {
    try {
      out.push(parseLogEntry(item));
    } catch {
      // An entry vendesk cannot read cannot settle an item; it is simply not matched.
    }
  }
  return out;
}

/**
 * Every page of the log for a query, or fewer: `enough(entries so far, last page)` ends the
 * reading early when it returns true; at most `maxPages` pages.
 */
export async function readAllLogPages(
  client: LogReader,
  query: LogQuery,
  signal?: AbortSignal,
  enough?: (all: readonly ParsedLogEntry[], page: readonly ParsedLogEntry[]) => boolean,
  maxPages = MAX_PAGES,
): Promise<ParsedLogEntry[]> {
  const out: ParsedLogEntry[] = [];
  let page: PageObject<LogEntry> = await client.logEntries({ ...query, perPage: PER_PAGE }, { signal });
  let parsed = parseAll(page.Items);
  out.push(...parsed);
  let pages = 1;
  let pageNumber = page.CurrentPage;
  while (pages < maxPages && page.Items.length > 0 && (page.NextPage || pageNumber < page.TotalPages)) {
    if (enough?.(out, parsed)) break;
    page = page.NextPage ? await client.logPage(page.NextPage, { signal }) : await client.logEntries({ ...query, perPage: PER_PAGE, page: pageNumber + 1 }, { signal });
    pageNumber = page.CurrentPage > pageNumber ? page.CurrentPage : pageNumber + 1;
    parsed = parseAll(page.Items);
    out.push(...parsed);
    pages++;
  }
  return out;
}

export function logType(kind: BulkKind): BulkKind {
  return kind;
}

/**
 * The one read of the log for a purchase sent at `sentMs` without a usable answer (a bulk row or
 * a single purchase, whatever its kind): the entries of its kind for its phone number (the log's
 * search matches phone or transaction id), every page, from the UTC day before it was sent on (the
 * matching rule, `api/logMatch.ts`, looks from 30 minutes before the send, and at anything later;
 * the service's days may not be UTC).
 */
export function logEntriesAroundSend(client: LogReader, kind: BulkKind, phone: string, sentMs: number, signal?: AbortSignal): Promise<ParsedLogEntry[]> {
  return readAllLogPages(client, { search: phone, type: logType(kind), status: 'all', startdate: startdateFor(sentMs) }, signal);
}

/**
 * Entries of the job's type created from `floorMs` on: the log is asked from the UTC day before
 * (the service's days may not be UTC) to now, and — when it lists newest first — reading stops at
 * the first page wholly older than `floorMs`. `enough` may end it earlier. `expected`: how many
 * entries the caller looks for, which the page limit makes room for.
 */
export function logEntriesFrom(
  client: LogReader,
  kind: BulkKind,
  floorMs: number,
  signal?: AbortSignal,
  enough?: (page: readonly ParsedLogEntry[]) => boolean,
  expected = 0,
): Promise<ParsedLogEntry[]> {
  let newestFirst: boolean | null = null;
  return readAllLogPages(
    client,
    { startdate: startdateFor(floorMs), type: logType(kind), status: 'all' },
    signal,
    (_all, page) => {
      if (enough?.(page)) return true;
      if (page.length < 2) return false;
      if (newestFirst === null) newestFirst = Date.parse(page[0].createdAt) >= Date.parse(page[page.length - 1].createdAt);
      return newestFirst && page.every((e) => Date.parse(e.createdAt) < floorMs);
    },
    MAX_PAGES + Math.ceil(expected / PER_PAGE),
  );
}

/**
 * Entries from a UTC date on, for settling many accepted items at once. Reading stops once
 * every wanted reference was seen, or — when the log lists newest first — once a whole page is
 * older than `startMs` minus 15 minutes.
 */
export function logEntriesSince(client: LogReader, kind: BulkKind, startMs: number, wanted: ReadonlySet<string>, signal?: AbortSignal): Promise<ParsedLogEntry[]> {
  const seen = new Set<string>();
  return logEntriesFrom(client, kind, startMs - 15 * 60_000, signal, (page) => {
    for (const e of page) if (wanted.has(e.transactionId)) seen.add(e.transactionId);
    return seen.size >= wanted.size;
  });
}

/** Entries for one reference. */
export async function logEntriesForReference(client: LogReader, kind: BulkKind, reference: string, signal?: AbortSignal): Promise<ParsedLogEntry[]> {
  const entries = await readAllLogPages(client, { search: reference, type: logType(kind), status: 'all' }, signal);
  return entries.filter((e) => e.transactionId === reference);
}

/**
 * The service's airtime or data log of the last 24 hours on its clock (at most 5,000 entries), for
 * the duplicate check of a file's rows and of a single purchase; when it cannot be read, none and
 * why (the check then compares with this computer's jobs only).
 */
export async function recentTopUpLog(client: LogReader, kind: 'airtime' | 'data', serviceNowMs = Date.now()): Promise<{ entries: ParsedLogEntry[]; problem: string | null }> {
  const start = new Date(serviceNowMs - 24 * 3600_000).toISOString().slice(0, 10);
  try {
    const entries = await readAllLogPages(client, { startdate: start, type: kind, status: 'all' }, undefined, (all) => all.length >= 5000);
    return { entries, problem: null };
  } catch (error) {
    return {
      entries: [],
      problem: `The service's log could not be read, so rows were compared with this computer's jobs only (${error instanceof Error ? error.message : String(error)}).`,
    };
  }
}
