/**
 * The one way vendesk writes and reads dates for people: day first, in the app's locale (en-NG,
 * Nigeria's: "1 Nov 2026, 14:05"; typed as 01/11/2026), in Lagos time. Stored dates stay ISO
 * (`2026-11-01`, `2026-11-01T13:05:00.000Z`); only what a person reads or types goes through here.
 *
 * The business day is Lagos's (Africa/Lagos, WAT: UTC+1 all year, no daylight saving), whatever
 * zone the computer is set to: every day a person types or reads (a date filter, "today", a
 * chart's day, `--from/--to`, a report's period, a workbook's date cell) is a Lagos day, and every
 * time shown is Lagos time. The service speaks UTC: its times are converted here, at the edge, and
 * the day arithmetic below is the only place that knows the offset (docs/dates.md).
 */
export const APP_LOCALE = 'en-NG';
/** The zone of every day and time a person reads or types. */
export const BUSINESS_TIME_ZONE = 'Africa/Lagos';
/** Lagos is UTC+1 all year (WAT, no daylight saving since 1919). */
export const LAGOS_OFFSET_MS = 3_600_000;
export const DAY_MS = 86_400_000;

const dateTime = new Intl.DateTimeFormat(APP_LOCALE, { dateStyle: 'medium', timeStyle: 'short', timeZone: BUSINESS_TIME_ZONE });
const dateTimeSeconds = new Intl.DateTimeFormat(APP_LOCALE, { dateStyle: 'medium', timeStyle: 'medium', timeZone: BUSINESS_TIME_ZONE });
const dateOnly = new Intl.DateTimeFormat(APP_LOCALE, { dateStyle: 'medium', timeZone: BUSINESS_TIME_ZONE });
const timeOnly = new Intl.DateTimeFormat(APP_LOCALE, { timeStyle: 'short', timeZone: BUSINESS_TIME_ZONE });
/** A calendar day (YYYY-MM-DD) is no instant: shown as itself, whatever the time zone. */
const dayLabel = new Intl.DateTimeFormat(APP_LOCALE, { dateStyle: 'medium', timeZone: 'UTC' });

const shown =
  (f: Intl.DateTimeFormat) =>
  (iso: string | null | undefined): string =>
    iso ? f.format(new Date(iso)) : '—';

/** An instant as a person reads it, Lagos time: `1 Nov 2026, 14:05`. */
export const formatDateTime = shown(dateTime);
/** With seconds, where they tell two moments apart: `1 Nov 2026, 14:05:09`. */
export const formatDateTimeSeconds = shown(dateTimeSeconds);
/** The day of an instant: `1 Nov 2026`. */
export const formatDate = shown(dateOnly);
/** The time of an instant: `14:05`. */
export const formatTime = shown(timeOnly);

/** A calendar day `2026-11-01` as `1 Nov 2026`; anything else is returned as it was. */
export function formatDay(day: string): string {
  const t = Date.parse(`${day}T00:00:00Z`);
  return /^\d{4}-\d{2}-\d{2}$/.test(day) && !Number.isNaN(t) ? dayLabel.format(new Date(t)) : day;
}

const ISO_INSTANT = /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})\b/g;

/** A message with ISO instants in it (`… at 2026-11-23T20:26:07.878Z`), with each written the local way. */
export function localTimesIn(text: string): string {
  return text.replace(ISO_INSTANT, (iso) => (Number.isNaN(Date.parse(iso)) ? iso : formatDateTimeSeconds(iso)));
}

/** A calendar day as it is typed: `2026-11-01` → `01/11/2026`. */
export function dayFirstText(day: string | null | undefined): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day ?? '');
  return m ? `${m[3]}/${m[2]}/${m[1]}` : '';
}

export type TypedDay = { day: string } | { problem: string } | { empty: true };

/**
 * What a person typed as a day, read day first: `01/11/2026`, `1/11/2026`, `01-11-2026`,
 * `01.11.2026` and `01112026` are all 1 November 2026. A two-digit year is 20xx.
 */
export function readDayFirst(text: string): TypedDay {
  const t = text.trim();
  if (t === '') return { empty: true };
  const digits = /^(\d{2})(\d{2})(\d{4})$/.exec(t);
  const parts = digits ? digits.slice(1) : /^(\d{1,2})[/.\- ](\d{1,2})[/.\- ](\d{2}|\d{4})$/.exec(t)?.slice(1);
  if (!parts) return { problem: 'Type the date day first, as DD/MM/YYYY (for example 01/11/2026 for 1 November 2026).' };
  const [d, m, y] = parts.map(Number);
  const year = y < 100 ? 2000 + y : y;
  const date = new Date(Date.UTC(year, m - 1, d));
  if (m < 1 || m > 12 || date.getUTCDate() !== d || date.getUTCMonth() !== m - 1) {
    return { problem: `${t} is not a date: the day comes first, then the month (DD/MM/YYYY).` };
  }
  return { day: date.toISOString().slice(0, 10) };
}

// ---- Lagos days: the day arithmetic, written once -------------------------------------------

const msOf = (instant: string | number | Date): number => (typeof instant === 'number' ? instant : typeof instant === 'string' ? Date.parse(instant) : instant.getTime());

/** The Lagos day (`YYYY-MM-DD`) of an instant: 2026-11-26T23:30Z is 27 Nov 2026, 00:30 in Lagos. */
export function lagosDayOf(instant: string | number | Date): string {
  return new Date(msOf(instant) + LAGOS_OFFSET_MS).toISOString().slice(0, 10);
}

/** Today's Lagos day. */
export function lagosToday(nowMs: number = Date.now()): string {
  return lagosDayOf(nowMs);
}

/** The instant a Lagos day starts (its 00:00 in Lagos is 23:00 UTC the day before). */
export function lagosDayStartMs(day: string): number {
  return Date.parse(`${day}T00:00:00.000Z`) - LAGOS_OFFSET_MS;
}

/** The instant a Lagos day ends (the next day's start; not included). */
export function lagosDayEndMs(day: string): number {
  return lagosDayStartMs(day) + DAY_MS;
}

/** A Lagos range of days (both included) as the instants a query compares with: `[from, until)`, ISO UTC. */
export function lagosRangeIso(from?: string | null, to?: string | null): { fromIso: string | null; untilIso: string | null } {
  return { fromIso: from ? new Date(lagosDayStartMs(from)).toISOString() : null, untilIso: to ? new Date(lagosDayEndMs(to)).toISOString() : null };
}

/** `day` moved by `days` calendar days. */
export function shiftDay(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00.000Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** How many days `from`…`to` holds, both included (0 when `to` is before `from`). */
export function daysFromTo(from: string, to: string): number {
  return Math.max(0, Math.round((Date.parse(`${to}T00:00:00.000Z`) - Date.parse(`${from}T00:00:00.000Z`)) / DAY_MS) + 1);
}

/** The Monday of the week of `day` (weeks start on Monday). */
export function weekStartDay(day: string): string {
  return shiftDay(day, -((new Date(`${day}T00:00:00.000Z`).getUTCDay() + 6) % 7));
}

/** The first day of the month of `day`. */
export function monthStartDay(day: string): string {
  return `${day.slice(0, 8)}01`;
}

/**
 * The UTC days to ask the service for (its `startdate`/`enddate` are UTC days) so that a range of
 * Lagos days is covered whole: a Lagos day starts at 23:00 UTC the day before, so the range is
 * widened by that day; what lies outside the Lagos days is filtered out locally.
 */
export function serviceDaysCovering(from: string | null | undefined, to: string | null | undefined): { startdate: string | null; enddate: string | null } {
  return {
    startdate: from ? lagosDayOf(lagosDayStartMs(from) - LAGOS_OFFSET_MS) : null,
    enddate: to ? new Date(lagosDayEndMs(to) - 1).toISOString().slice(0, 10) : null,
  };
}

/**
 * An instant as the Lagos wall-clock time in a `Date` whose UTC fields hold it: what a workbook
 * cell stores (Excel dates have no zone), so 23:30 UTC is written 00:30 of the next day.
 */
export function lagosWallClock(instant: string | number | Date): Date {
  return new Date(msOf(instant) + LAGOS_OFFSET_MS);
}

/** SQLite's expression for the Lagos day of a column holding UTC ISO text (`created_at`). */
export function lagosDaySql(column: string): string {
  return `date(${column}, '+${LAGOS_OFFSET_MS / 3_600_000} hours')`;
}
