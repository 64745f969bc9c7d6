/**
 * The one way vendesk writes and reads dates for people: day first, in the app's locale (en-NG,
 * Nigeria's: "1 Nov 2026, 14:05"; typed as 01/11/2026). Stored dates stay ISO (`2026-11-01`,
 * `2026-11-01T13:05:00.000Z`); only what a person reads or types goes through here.
 */
export const APP_LOCALE = 'en-NG';

const dateTime = new Intl.DateTimeFormat(APP_LOCALE, { dateStyle: 'medium', timeStyle: 'short' });
const dateTimeSeconds = new Intl.DateTimeFormat(APP_LOCALE, { dateStyle: 'medium', timeStyle: 'medium' });
const dateOnly = new Intl.DateTimeFormat(APP_LOCALE, { dateStyle: 'medium' });
const timeOnly = new Intl.DateTimeFormat(APP_LOCALE, { timeStyle: 'short' });
/** A calendar day (YYYY-MM-DD) is no instant: shown as itself, whatever the time zone. */
const dayLabel = new Intl.DateTimeFormat(APP_LOCALE, { dateStyle: 'medium', timeZone: 'UTC' });

const shown = (f: Intl.DateTimeFormat) => (iso: string | null | undefined): string => (iso ? f.format(new Date(iso)) : '—');

/** An instant as a person reads it: `1 Nov 2026, 14:05`. */
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
