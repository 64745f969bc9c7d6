/**
 * What the mirror knows it covers: the UTC dates of the service's log each connection has read
 * completely (table `log_days_read`, migration 026), and from them which Lagos days of a range are
 * in the mirror — so a report, a listing or an export over days never read says so (or reads them
 * first: readMissingDays.ts) instead of counting a range short, and a plain sync after a ranged
 * one reads the days no sync has read (`firstUnreadDay`).
 *
 * **Writing.** A sync reads its range in parts (syncRun.ts); a part is read completely when every
 * page of a pass agreed (nothing moved while it was read). Such a pass holds every entry of its
 * UTC dates created before the service began answering it (`passAt`, on the service's clock, from
 * its `Date` header): each date of the part is recorded as read up to then — up to its end when
 * the pass began after the date ended. A part read from the log's very start (a first sync) also
 * says where the log begins: no date before the oldest entry it held has any entry
 * (`sync_checkpoints.log_start`). A row per date and connection, never per entry: the bookkeeping
 * of a 10,000,000-entry log over three years is about 1,100 rows.
 *
 * **Reading.** A Lagos day D runs from 23:00 UTC of D−1 to 23:00 UTC of D, so it overlaps two UTC
 * dates. It is in the mirror up to the instant both cover it without a gap:
 *
 *   D−1 read through t₁ (or nothing) ── D read through t₂ (or nothing)
 *   covered through = nothing if t₁ ≤ D's start; t₁ if t₁ is before D−1 ended; else t₂ (capped at D's end)
 *
 * A day before today (the service's Lagos day) is **read** when it is covered through its end;
 * **today** is still growing, and counts as read once a sync read it after it began — up to that
 * moment, which every report, listing and export states ("today is counted up to 14:05"); reading
 * first does not read it again (a report stays cheap and its figure says how far it goes; a sync
 * brings it up to now). Days after today have not come yet: nothing can be missing from them, and
 * nothing is read for them. The service's clock decides what today is, so a sandbox whose clock a
 * test moved has its own today.
 */
import type { DayRange, MirrorCoverage } from '../../shared/contract/logs';
import { DAY_MS, daysFromTo, lagosDayEndMs, lagosDayStartMs, lagosToday, shiftDay } from '../../shared/localDates';
import type { Db } from '../store/database';
import type { ReadableDB } from '../store/readableDb';
import type { SyncPart } from './syncCheckpoint';

/** The UTC date of an instant (the service's `startdate`/`enddate` are UTC dates). */
export function utcDayOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

function utcDayEndMs(day: string): number {
  return Date.parse(`${day}T00:00:00.000Z`) + DAY_MS;
}

/**
 * Records a part of a sync read completely by a pass the service began answering at `atMs` (its
 * clock). `oldestSeen`: the oldest `created_at` the part wrote (for a part with no start date).
 */
export function recordPartRead(db: Db, profileId: string, part: SyncPart, atMs: number, oldestSeen: string | null): void {
  const atDay = utcDayOf(atMs);
  let first = part.startdate;
  if (first === null) {
    // From the log's very start: no entry is older than the oldest this part held.
    const after = part.enddate === null || part.enddate >= atDay ? atDay : shiftDay(part.enddate, 1);
    const oldest = oldestSeen?.slice(0, 10) ?? null;
    first = oldest !== null && oldest < after ? oldest : after;
  }
  const last = part.enddate === null || part.enddate > atDay ? atDay : part.enddate;
  const upsert = db.prepare(
    `INSERT INTO log_days_read (profile_id, day, read_through) VALUES (?, ?, ?)
     ON CONFLICT (profile_id, day) DO UPDATE SET read_through = max(read_through, excluded.read_through)`,
  );
  db.transaction(() => {
    if (part.startdate === null) db.prepare('UPDATE sync_checkpoints SET log_start = ? WHERE profile_id = ?').run(first, profileId);
    for (let day = first; day <= last; day = shiftDay(day, 1)) {
      upsert.run(profileId, day, new Date(Math.min(atMs, utcDayEndMs(day))).toISOString());
    }
  })();
}

interface DaysRead {
  /** No entry is older than this UTC date (the log was read from its start); null: unknown. */
  logStart: string | null;
  /** UTC date → the instant (ms) it is read through. */
  through: Map<string, number>;
}

function logStartOf(db: ReadableDB, profileId: string): string | null {
  return (db.prepare('SELECT log_start FROM sync_checkpoints WHERE profile_id = ?').pluck().get(profileId) as string | null | undefined) ?? null;
}

function daysRead(db: ReadableDB, profileId: string, firstUtc: string, lastUtc: string): DaysRead {
  const rows = db.prepare('SELECT day, read_through AS at FROM log_days_read WHERE profile_id = ? AND day >= ? AND day <= ?').all(profileId, firstUtc, lastUtc) as {
    day: string;
    at: string;
  }[];
  return { logStart: logStartOf(db, profileId), through: new Map(rows.map((r) => [r.day, Date.parse(r.at)])) };
}

function utcThrough(read: DaysRead, day: string): number | null {
  if (read.logStart !== null && day < read.logStart) return utcDayEndMs(day);
  return read.through.get(day) ?? null;
}

/** The instant up to which every entry of the Lagos day `day` is in the mirror; null: none of the day is. */
export function lagosDayReadThrough(read: DaysRead, day: string): number | null {
  const start = lagosDayStartMs(day);
  const midnightUtc = Date.parse(`${day}T00:00:00.000Z`);
  const before = utcThrough(read, shiftDay(day, -1));
  if (before === null || before <= start) return null;
  if (before < midnightUtc) return before;
  const own = utcThrough(read, day);
  return own === null ? midnightUtc : Math.min(own, lagosDayEndMs(day));
}

function dayRange(from: string, to: string): DayRange {
  return { from, to, days: daysFromTo(from, to) };
}

/** Which Lagos days of `range` (no `from`: the log's start; no `to`: today) the mirror holds, at `nowMs` on the service's clock. */
export function mirrorCoverage(db: ReadableDB, profileId: string, range: { from?: string; to?: string }, nowMs: number): MirrorCoverage {
  const today = lagosToday(nowMs);
  const to = range.to ?? today;
  const logStart = logStartOf(db, profileId);
  const wholeLogUnread = !range.from && logStart === null;
  // With no start, the days from the log's first one (those before it are empty).
  const from = range.from ?? logStart;
  const lastPast = to < today ? to : today;
  const first = from ?? lastPast;
  const missing: DayRange[] = [];
  let todayReadThrough: number | null = null;
  if (first <= lastPast) {
    const read = daysRead(db, profileId, shiftDay(first, -1), lastPast);
    let open: string | null = null;
    let prev = first;
    for (let day = first; day <= lastPast; day = shiftDay(day, 1)) {
      const through = lagosDayReadThrough(read, day);
      let unread: boolean;
      if (day < today) {
        unread = through === null || through < lagosDayEndMs(day);
      } else {
        todayReadThrough = through;
        unread = through === null || through <= lagosDayStartMs(day);
      }
      // Without a start and never read from it, only today's read is asked about.
      if (from === null) unread = false;
      if (unread && open === null) open = day;
      if (!unread && open !== null) {
        missing.push(dayRange(open, prev));
        open = null;
      }
      prev = day;
    }
    if (open !== null) missing.push(dayRange(open, lastPast));
  }
  const notYetFrom = from !== null && from > today ? from : shiftDay(today, 1);
  const notYet = to > today ? dayRange(notYetFrom, to) : null;
  const holdsToday = (from === null || from <= today) && to >= today;
  const firstMissing = missing[0]?.from;
  const lastMissing = missing[missing.length - 1]?.to;
  // One sync over the gaps (the days between them are read again: cheaper than a sync per gap).
  const read: MirrorCoverage['read'] = wholeLogUnread ? {} : firstMissing !== undefined ? { from: firstMissing, to: lastMissing } : null;
  return {
    from: range.from ?? null,
    to,
    today,
    complete: !wholeLogUnread && missing.length === 0,
    missing,
    wholeLogUnread,
    todayReadThrough: holdsToday && todayReadThrough !== null ? new Date(todayReadThrough).toISOString() : null,
    notYet,
    read,
    syncCommand: wholeLogUnread ? 'vendesk sync' : firstMissing ? `vendesk sync --from ${firstMissing} --to ${lastMissing}` : null,
  };
}

/**
 * The first UTC date a plain sync must read from so that no day goes unread: the first date after
 * the log's start not read through its end (today at the latest). Null when the log was never
 * read from its start: a plain sync then reads all of it, as a first sync does.
 */
export function firstUnreadDay(db: ReadableDB, profileId: string): string | null {
  const logStart = logStartOf(db, profileId);
  if (logStart === null) return null;
  const rows = db.prepare('SELECT day, read_through AS at FROM log_days_read WHERE profile_id = ? AND day >= ? ORDER BY day').all(profileId, logStart) as {
    day: string;
    at: string;
  }[];
  let expected = logStart;
  for (const r of rows) {
    if (r.day !== expected || Date.parse(r.at) < utcDayEndMs(r.day)) return expected;
    expected = shiftDay(expected, 1);
  }
  return expected;
}
