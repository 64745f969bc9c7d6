/**
 * The local mirror of the vending log (table `log_entries`, migration 002) and the wallet's
 * balance snapshots (`balance_snapshots`), read for one connection profile and a time range as
 * {@link LogColumns}. Only the columns matching needs are read for every entry; the rest of an
 * entry is read by its id when it ends up in a report.
 */
import { createHash } from 'node:crypto';
import type { Db } from '../store/database';
import { lagosDayOf, lagosDayStartMs, shiftDay } from '../../shared/localDates';
import { rememberedDetail, type LogColumns } from './logColumns';
import type { MirrorReferences } from './matchEntries';
import { joinMirrorColumns, MIRROR_SLICE_ROWS, mirrorReferenceParts, mirrorReferences, readMirrorSlices, type MirrorSliceQueries, type ParsedMirror } from './threadedReaders';
import type { BalanceSnapshot } from './walletRollForward';

export interface MirrorRead {
  columns: LogColumns;
  /** `log_entries.id` per entry (unique per profile), to read it again later (matched pairs of a saved run). */
  ids: Float64Array;
  /** Fingerprint of the entries read: SHA-256 of a running hash over id, amount, cost, status, time and the reference. */
  hash: string;
}

function digits(s: string, i: number, n: number): number {
  let v = 0;
  for (let k = 0; k < n; k++) v = v * 10 + (s.charCodeAt(i + k) - 48);
  return v;
}

/** `2026-11-22T14:14:08.000Z` → ms without Date.parse's general parser; Date.parse for other forms. */
export function isoMs(s: string): number {
  if (s.length < 19 || s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45 || s.charCodeAt(13) !== 58) return Date.parse(s);
  const ms = s.charCodeAt(19) === 46 ? digits(s, 20, 3) : 0;
  const t = Date.UTC(digits(s, 0, 4), digits(s, 5, 2) - 1, digits(s, 8, 2), digits(s, 11, 2), digits(s, 14, 2), digits(s, 17, 2), ms);
  return Number.isNaN(t) ? Date.parse(s) : t;
}

type DetailRow = { phone_number: string; type: string; data_plan: string; description: string; network: string; created_at: string; updated_at: string };

/**
 * Entries created in [fromIso, toIso) for the profile.
 *
 * A million rows through better-sqlite3 one row object at a time take seconds (an array and
 * several strings per row); SQLite concatenating them into one string takes well under one. So
 * the entries come back as two results, records separated by U+001E — `id,amount,cost,status
 * code,created_at,updated_at (failed only)` as the bytes of SQLite's text (a BLOB: nothing to
 * decode), and the transaction_ids as text in the same order — read with a byte loop
 * (`parseMirrorColumns`, on the background worker when it can), a slice of
 * entries at a time (`readMirrorSlices`: the texts of a slice, not of the whole range, are in memory). Each
 * record is one `concat` for its status (one string a row; each `||` made one, and the status was
 * looked at twice): ~25 ms less of a million-row query, the same text. The
 * references apart: they are what the main thread keeps (as spans of their text), a fifth of
 * the whole, and a comma in one does no harm. Every column is NOT NULL, so both lists have
 * every row.
 */
export function mirrorQuery(profileId: string, fromIso: string, toIso: string): { sql: string; params: string[] } & MirrorSliceQueries {
  const record = `CASE status
                  WHEN 'SUCCESS' THEN concat(id, ',', amount_kobo, ',', cost_kobo, ',1,', created_at, ',')
                  WHEN 'FAILED' THEN concat(id, ',', amount_kobo, ',', cost_kobo, ',2,', created_at, ',', updated_at)
                  WHEN 'PENDING' THEN concat(id, ',', amount_kobo, ',', cost_kobo, ',3,', created_at, ',')
                  ELSE concat(id, ',', amount_kobo, ',', cost_kobo, ',0,', created_at, ',') END`;
  const range = 'FROM log_entries WHERE profile_id = ? AND created_at >= ? AND created_at < ?';
  return {
    // The whole range in one text (the tests' reference read; reconcile reads it in slices).
    sql: `SELECT CAST(group_concat(${record}, char(30)) AS BLOB), CAST(group_concat(transaction_id, char(30)) AS BLOB) ${range}`,
    profileId,
    // The same records, a slice at a time in the index's order (threadedReaders' `readMirrorSlices`).
    estimateSql: 'SELECT sum(entries) FROM log_day_totals WHERE profile_id = ? AND day >= ? AND day <= ?',
    estimateParams: [profileId, lagosDayOf(Date.parse(fromIso)), lagosDayOf(Date.parse(toIso) - 1)],
    // Each slice starts at its key (the segment's start, before any id, then the last entry read),
    // so that it is one seek in the index on (profile_id, created_at, id): with `created_at >= ?`
    // beside it, SQLite seeks by that and walks every slice before (measured: EXPLAIN's SeekGE on 2 fields).
    sliceSql: `SELECT CAST(group_concat(r, char(30)) AS BLOB), CAST(group_concat(t, char(30)) AS BLOB), count(*)
                 FROM (SELECT ${record} AS r, transaction_id AS t FROM log_entries
                        WHERE profile_id = ? AND created_at < ? AND (created_at, id) > (?, ?) ORDER BY created_at, id LIMIT ?)`,
    segments: mirrorSegments(fromIso, toIso),
    ...DAY_RECORDS,
    params: [profileId, fromIso, toIso],
  };
}

/**
 * The kept texts of whole Lagos days (`log_day_records`, migration 40): read in the snapshot;
 * claimed (a row at stamp 0) before it; stored after, only while the day's row still has the
 * stamp the snapshot saw and no texts.
 */
const DAY_RECORDS = {
  daySql: 'SELECT entries, records, refs, stamp FROM log_day_records WHERE profile_id = ? AND day = ?',
  keptSql: 'SELECT 1 FROM log_day_records WHERE profile_id = ? AND day = ? AND records IS NOT NULL',
  claimSql: 'INSERT OR IGNORE INTO log_day_records (profile_id, day) VALUES (?, ?)',
  storeSql: 'UPDATE log_day_records SET entries = ?, records = ?, refs = ? WHERE profile_id = ? AND day = ? AND stamp = ? AND records IS NULL',
} as const;

/**
 * Whether every whole Lagos day of [fromIso, toIso) is kept (`log_day_records`): then the
 * mirror's worker reads them in a fraction of the export's time and the second core is free for
 * the export's second half; else the worker builds texts from the entries and needs that core.
 */
export function mirrorDaysKept(db: Db, profileId: string, fromIso: string, toIso: string): boolean {
  const days = mirrorSegments(fromIso, toIso).flatMap(([, , day]) => (day === null ? [] : [day]));
  if (days.length === 0) return false;
  const kept = db
    .prepare('SELECT count(*) FROM log_day_records WHERE profile_id = ? AND day >= ? AND day <= ? AND records IS NOT NULL')
    .pluck()
    .get(profileId, days[0], days[days.length - 1]) as number;
  return kept === days.length;
}

/** [fromIso, toIso) cut at Lagos midnights: each part's start, end, and its Lagos day when it is one whole day (else null). */
export function mirrorSegments(fromIso: string, toIso: string): [string, string, string | null][] {
  const toMs = Date.parse(toIso);
  let start = Date.parse(fromIso);
  if (!(start < toMs)) return [[fromIso, toIso, null]];
  const segments: [string, string, string | null][] = [];
  while (start < toMs) {
    const day = lagosDayOf(start);
    const dayStart = lagosDayStartMs(day);
    const dayEnd = lagosDayStartMs(shiftDay(day, 1));
    const end = Math.min(dayEnd, toMs);
    // A whole day's bounds are always its midnights as ISO text (what it holds is kept by day); a part's outer ends are the range's own.
    const whole = start === dayStart && end === dayEnd;
    const first = segments.length === 0 && !whole ? fromIso : new Date(start).toISOString();
    segments.push([first, end === toMs && !whole ? toIso : new Date(end).toISOString(), whole ? day : null]);
    start = end;
  }
  return segments;
}

export function readMirror(db: Db, profileId: string, fromIso: string, toIso: string, sliceRows = MIRROR_SLICE_ROWS): MirrorRead {
  const parts = mirrorReferenceParts();
  let references: ReturnType<typeof parts.add> = null;
  const entries = readMirrorSlices(db, mirrorQuery(profileId, fromIso, toIso), sliceRows, (text, count, capacity, last) => {
    references = parts.add(text, count, capacity, last) ?? references;
  });
  if (!references) throw new Error('The mirror gave no references.');
  const refs: NonNullable<ReturnType<typeof parts.add>> = references;
  return mirrorFromParsed(db, profileId, joinMirrorColumns(refs, entries), fromIso, toIso);
}

/**
 * The mirror's references as matching reads them: spans of their text until a string is asked
 * for (matching compares them in place). All the first pass of matching needs, so it can run
 * before the rest of the mirror is read (reconcileService).
 */
export function mirrorReferenceColumns(p: Pick<ParsedMirror, 'n' | 'bytes' | 'txStart' | 'txEnd' | 'txHash' | 'txIndex'>): MirrorReferences {
  const { bytes, txStart, txEnd } = p;
  let wholeTxId: string[] | null = null;
  return {
    length: p.n,
    get txId(): string[] {
      wholeTxId ??= mirrorReferences(p);
      return wholeTxId;
    },
    txIdOf: (i) => (txEnd[i] === txStart[i] ? '' : bytes.toString('utf8', txStart[i], txEnd[i])),
    hasTxId: (i) => txEnd[i] > txStart[i],
    txSpans: { bytes, start: txStart, end: txEnd },
    txHash: p.txHash,
    txIndex: p.txIndex,
  };
}

/** The mirror read from parsed text (read here or on a worker thread). */
export function mirrorFromParsed(db: Db, profileId: string, p: ParsedMirror, fromIso: string, toIso: string): MirrorRead {
  const hash = createHash('sha256')
    .update(`${profileId}|${fromIso}|${toIso}|${p.n}|${p.h1 >>> 0}|${p.h2 >>> 0}`)
    .digest('hex');
  const detailOf = db.prepare('SELECT phone_number, type, data_plan, description, network, created_at, updated_at FROM log_entries WHERE profile_id = ? AND id = ?');
  const ids = p.logId;
  const references = mirrorReferenceColumns(p);
  const columns: LogColumns = {
    length: p.n,
    get txId(): string[] {
      return references.txId;
    },
    txIdOf: references.txIdOf,
    hasTxId: references.hasTxId,
    txSpans: references.txSpans,
    txHash: p.txHash,
    txIndex: p.txIndex,
    logId: p.logId,
    amountKobo: p.amountKobo,
    costKobo: p.costKobo,
    status: p.status,
    createdMs: p.createdMs,
    updatedMs: p.updatedMs,
    detail: rememberedDetail((i) => {
      const r = detailOf.get(profileId, ids[i]) as DetailRow | undefined;
      if (!r) return { phone: '', type: '', product: '', network: '', createdAt: null, updatedMs: NaN, rowNumber: null };
      return {
        phone: r.phone_number,
        type: r.type,
        product: r.data_plan || r.description,
        network: r.network,
        createdAt: r.created_at,
        updatedMs: isoMs(r.updated_at),
        rowNumber: null,
      };
    }),
  };
  return { columns, ids, hash };
}

/** Mirror entries of a profile by log id (the matched pairs of a saved run). */
export function mirrorEntriesById(db: Db, profileId: string, ids: readonly number[]): Map<number, MirrorEntryRow> {
  const out = new Map<number, MirrorEntryRow>();
  const stmt = db.prepare(
    'SELECT id, transaction_id, phone_number, amount_kobo, cost_kobo, type, network, data_plan, description, status, created_at FROM log_entries WHERE profile_id = ? AND id = ?',
  );
  for (const id of ids) {
    const row = stmt.get(profileId, id) as MirrorEntryRow | undefined;
    if (row) out.set(id, row);
  }
  return out;
}

export interface MirrorEntryRow {
  id: number;
  transaction_id: string;
  phone_number: string;
  amount_kobo: number;
  cost_kobo: number;
  type: string;
  network: string;
  data_plan: string;
  description: string;
  status: string;
  created_at: string;
}

export function readSnapshots(db: Db, profileId: string): BalanceSnapshot[] {
  const rows = db
    .prepare(
      'SELECT taken_at, coalesce(taken_to, taken_at) AS taken_to, balance_kobo, local_from_ms, local_to_ms FROM balance_snapshots WHERE profile_id = ? ORDER BY taken_at, id',
    )
    .all(profileId) as { taken_at: string; taken_to: string; balance_kobo: number; local_from_ms: number | null; local_to_ms: number | null }[];
  return rows.map((r) => ({
    atMs: isoMs(r.taken_at),
    toMs: isoMs(r.taken_to),
    balanceKobo: r.balance_kobo,
    ...(r.local_from_ms !== null && r.local_to_ms !== null ? { localFromMs: r.local_from_ms, localToMs: r.local_to_ms } : {}),
  }));
}

export function snapshotsHash(snapshots: readonly BalanceSnapshot[]): string {
  return createHash('sha256')
    .update(snapshots.map((s) => `${s.atMs}-${s.toMs ?? s.atMs}:${s.balanceKobo}`).join(','))
    .digest('hex');
}

/** The earliest and latest entry times of the mirror for the profile (for messages). */
export function mirrorSpan(db: Db, profileId: string): { first: string | null; last: string | null; count: number } {
  const r = db.prepare('SELECT min(created_at) AS first, max(created_at) AS last, count(*) AS count FROM log_entries WHERE profile_id = ?').get(profileId) as {
    first: string | null;
    last: string | null;
    count: number;
  };
  return r;
}
