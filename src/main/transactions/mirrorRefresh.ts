/**
 * Keeping the mirror current after vendesk itself buys: the log entries a purchase touched are
 * read by its reference and written into the mirror of its connection at once, so the Dashboard,
 * the Transactions page and reports show the purchase without waiting for the next sync. A whole
 * sync is still what catches everything else (purchases made elsewhere, statuses that moved).
 * The operations that buy or requery declare `mirror` among what they change; the requery loop
 * and bulk jobs say it through `app.invalidate`.
 */
import { parseLogEntry, type ParsedLogEntry } from '../api/parseLogEntry';
import type { App, Session } from '../app';
import { logEntriesForReference } from '../bulk/logLookup';
import type { BulkJobKind } from '../bulk/jobStates';
import type { LogEntry } from '../../shared/wire';
import { upsertLogEntriesInTransaction } from './logStore';

/** Writes entries the caller already read (of the session's connection) into the mirror. */
export function mirrorEntries(app: App, session: Session, entries: readonly ParsedLogEntry[]): void {
  if (entries.length === 0) return;
  upsertLogEntriesInTransaction(app.db, session.connection.profileId, entries, new Date().toISOString());
}

/** The same, for raw wire entries. */
export function mirrorWireEntries(app: App, session: Session, entries: readonly LogEntry[]): void {
  const parsed: ParsedLogEntry[] = [];
  for (const e of entries) {
    try {
      parsed.push(parseLogEntry(e));
    } catch {
      // An entry vendesk cannot read is left to the next sync, which reports it.
    }
  }
  mirrorEntries(app, session, parsed);
}

/** Reads the log entries of `references` and mirrors them; never throws (the next sync catches up). */
export function refreshReferences(app: App, session: Session, kind: BulkJobKind, references: readonly (string | null)[]): Promise<void> {
  const wanted = references.filter((r): r is string => !!r);
  if (wanted.length === 0) return Promise.resolve();
  return (async () => {
    const found: ParsedLogEntry[] = [];
    for (const reference of wanted) found.push(...(await logEntriesForReference(session.client, kind, reference)));
    mirrorEntries(app, session, found);
  })().catch(() => undefined);
}
