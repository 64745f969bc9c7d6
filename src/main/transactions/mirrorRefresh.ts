/**
 * Keeping the mirror current after vendesk itself buys: the log entries a purchase touched are
 * read by its reference and written into the mirror of its connection at once, so the Dashboard,
 * the Transactions page and reports show the purchase without waiting for the next sync. A whole
 * sync is still what catches everything else (purchases made elsewhere, statuses that moved).
 * The operations that buy or requery declare `mirror` among what they change; the requery loop
 * and bulk jobs say it through `app.invalidate`.
 *
 * Airtime and data jobs (bulk and single) learn each item's outcome by reading the log by
 * reference (`buying/itemOutcomes.ts`); `mirrorLogPage` writes every log page they read into the
 * mirror as it arrives, so the figures follow each batch at once. The mirror is keyed by the log
 * entry's id: an entry written here and read again by a sync is updated, never counted twice.
 */
import { parseLogEntry, type ParsedLogEntry } from '../api/parseLogEntry';
import type { AppPart, Session } from '../appContext';
import { logEntriesForReference } from '../api/logLookup';
import type { BulkKind } from '../../shared/contract/bulk';
import type { LogEntry, PageObject } from '../../shared/wire';
import { upsertLogEntriesInTransaction } from './logStore';

/** Writes entries the caller already read (of the session's connection) into the mirror; says whether it changed. */
export function mirrorEntries(app: AppPart<'db'>, session: Session, entries: readonly ParsedLogEntry[]): boolean {
  if (entries.length === 0) return false;
  // The service keeps these entries: the commit need not wait for the disk (logStore.ts `bulkLoadTransaction`).
  const counts = upsertLogEntriesInTransaction(app.db, session.connection.profileId, entries, new Date().toISOString(), { copy: true });
  return counts.inserted + counts.updated > 0;
}

/** The same, for raw wire entries. */
export function mirrorWireEntries(app: AppPart<'db'>, session: Session, entries: readonly LogEntry[]): boolean {
  const parsed: ParsedLogEntry[] = [];
  for (const e of entries) {
    try {
      parsed.push(parseLogEntry(e));
    } catch {
      // An entry vendesk cannot read is left to the next sync, which reports it.
    }
  }
  return mirrorEntries(app, session, parsed);
}

/**
 * Writes a page of the log `session`'s client read into the session's mirror at once; when that
 * changed the mirror, the windows showing spend and the wallet are told (`reason`). Never throws:
 * an entry vendesk cannot store now is left to the next sync. With `observingLogReads`
 * (api/logLookup.ts), every page a bulk job's run reads.
 */
export function mirrorLogPage(app: AppPart<'db' | 'invalidate'>, session: Session, page: PageObject<LogEntry>, reason: string): void {
  try {
    if (mirrorWireEntries(app, session, page.Items)) app.invalidate(['mirror', 'balance'], reason);
  } catch {
    // The next sync writes it.
  }
}

/**
 * Reads the log entries of `references` and mirrors them; answers the entries read, so the caller
 * can learn from them what the mirror now says (a purchase's wallet cost). Never throws: when the
 * log cannot be read it answers none (the next sync catches up).
 */
export function refreshReferences(app: AppPart<'db'>, session: Session, kind: BulkKind, references: readonly (string | null)[]): Promise<ParsedLogEntry[]> {
  const wanted = references.filter((r): r is string => !!r);
  if (wanted.length === 0) return Promise.resolve([]);
  return (async () => {
    const found: ParsedLogEntry[] = [];
    for (const reference of wanted) found.push(...(await logEntriesForReference(session.client, kind, reference)));
    mirrorEntries(app, session, found);
    return found;
  })().catch((): ParsedLogEntry[] => []);
}
