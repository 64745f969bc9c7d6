/**
 * When a standing order buys: its recurrence as an RFC 5545 rule (the `rrule` library), in Lagos
 * days, stored as text, read back from that text, and said in words a finance officer reads.
 *
 * A rule's dates are calendar days: DTSTART is the order's first Lagos day at 00:00 "UTC" — the
 * rule's own arithmetic never meets a time zone, and each date it gives is read as the Lagos day of
 * the same number. Three recurrences:
 * - monthly on day N: `BYMONTHDAY=N`; for 29–31 `BYMONTHDAY=28,…,N;BYSETPOS=-1`, the month's last
 *   day when it is shorter (31 → 28 Feb, 29 Feb in a leap year, 30 Apr);
 * - the last working day of the month: `BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1`;
 * - weekly on a weekday: `FREQ=WEEKLY;BYDAY=FR`;
 * with an optional end (`UNTIL`, the last Lagos day it may fall on) or number of runs (`COUNT`).
 *
 * The rule's date is the occurrence's *scheduled* day, its key. A weekend move (`next`: the Monday
 * after, `previous`: the Friday before) gives the day it is *due*, applied after the rule; a moved
 * day never reaches the neighbouring occurrence's scheduled day (it then stays on its weekend day).
 * Working days are Monday to Friday: public holidays are not known to vendesk.
 */
import { RRule, type Options, type Weekday } from 'rrule';
import { formatDay, shiftDay } from '../../shared/localDates';

export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export type WeekdayName = (typeof WEEKDAYS)[number];

export type Recurrence = { kind: 'monthly'; day: number } | { kind: 'last_working_day' } | { kind: 'weekly'; weekday: WeekdayName };

export const WEEKEND_MOVES = ['next', 'previous', 'none'] as const;
export type WeekendMove = (typeof WEEKEND_MOVES)[number];

export interface Schedule {
  recurrence: Recurrence;
  /** The first Lagos day it may fall on. */
  start: string;
  /** The last Lagos day it may fall on, or null. */
  end: string | null;
  /** How many occurrences the rule has, or null. */
  runs: number | null;
}

/** An occurrence of a rule: its scheduled Lagos day (the rule's date, its key) and the day it is due (after a weekend move). */
export interface Occurrence {
  scheduled: string;
  due: string;
}

const RULE_WEEKDAYS = [RRule.MO, RRule.TU, RRule.WE, RRule.TH, RRule.FR, RRule.SA, RRule.SU];

/** A Lagos day as the rule's date (00:00 of the same calendar day, "UTC"). */
const asDate = (day: string): Date => new Date(`${day}T00:00:00.000Z`);
const asDay = (date: Date): string => date.toISOString().slice(0, 10);

function optionsOf(s: Schedule): Partial<Options> {
  const base: Partial<Options> = { dtstart: asDate(s.start), ...(s.end ? { until: asDate(s.end) } : {}), ...(s.runs !== null ? { count: s.runs } : {}) };
  const r = s.recurrence;
  if (r.kind === 'weekly') return { ...base, freq: RRule.WEEKLY, byweekday: [RULE_WEEKDAYS[WEEKDAYS.indexOf(r.weekday)]] };
  if (r.kind === 'last_working_day') return { ...base, freq: RRule.MONTHLY, byweekday: RULE_WEEKDAYS.slice(0, 5), bysetpos: [-1] };
  if (r.day <= 28) return { ...base, freq: RRule.MONTHLY, bymonthday: [r.day] };
  const days: number[] = [];
  for (let d = 28; d <= r.day; d++) days.push(d);
  return { ...base, freq: RRule.MONTHLY, bymonthday: days, bysetpos: [-1] };
}

/** The rule as it is stored: `DTSTART:20260131T000000Z` and its `RRULE:` line. */
export function ruleText(s: Schedule): string {
  if (s.recurrence.kind === 'monthly' && !(Number.isInteger(s.recurrence.day) && s.recurrence.day >= 1 && s.recurrence.day <= 31)) {
    throw new RangeError('A monthly order falls on a day from 1 to 31');
  }
  return new RRule(optionsOf(s)).toString();
}

function weekdayIndex(w: number | Weekday): number {
  return typeof w === 'number' ? w : w.weekday;
}

/** The schedule a stored rule says (the inverse of `ruleText`). Throws on a rule vendesk does not write. */
export function scheduleOf(text: string): Schedule {
  const o = RRule.parseString(text);
  if (!o.dtstart) throw new Error(`A standing order's rule has no DTSTART: ${text}`);
  const byweekday = (Array.isArray(o.byweekday) ? o.byweekday : o.byweekday === undefined || o.byweekday === null ? [] : [o.byweekday]) as (number | Weekday)[];
  const bymonthday = (Array.isArray(o.bymonthday) ? o.bymonthday : o.bymonthday === undefined || o.bymonthday === null ? [] : [o.bymonthday]) as number[];
  let recurrence: Recurrence;
  if (o.freq === RRule.WEEKLY && byweekday.length === 1) recurrence = { kind: 'weekly', weekday: WEEKDAYS[weekdayIndex(byweekday[0])] };
  else if (o.freq === RRule.MONTHLY && byweekday.length === 5) recurrence = { kind: 'last_working_day' };
  else if (o.freq === RRule.MONTHLY && bymonthday.length > 0) recurrence = { kind: 'monthly', day: Math.max(...bymonthday) };
  else throw new Error(`A standing order's rule vendesk does not write: ${text}`);
  return { recurrence, start: asDay(o.dtstart), end: o.until ? asDay(o.until) : null, runs: typeof o.count === 'number' ? o.count : null };
}

function ruleOf(text: string): RRule {
  return new RRule({ ...RRule.parseString(text) });
}

/** The scheduled days of a rule from `from` to `to` (Lagos days, both included), in order. */
export function scheduledDays(text: string, from: string, to: string): string[] {
  if (to < from) return [];
  return ruleOf(text).between(asDate(from), asDate(to), true).map(asDay);
}

/** The rule's scheduled day before `day` (not included), or null. */
function scheduledBefore(rule: RRule, day: string): string | null {
  const d = rule.before(asDate(day), false);
  return d ? asDay(d) : null;
}

/** The rule's scheduled day after `day` (not included), or null. */
function scheduledAfter(rule: RRule, day: string): string | null {
  const d = rule.after(asDate(day), false);
  return d ? asDay(d) : null;
}

/** 0 Sunday … 6 Saturday. */
const dayOfWeek = (day: string): number => asDate(day).getUTCDay();

/**
 * The day an occurrence scheduled on `scheduled` is due: moved off a Saturday or Sunday to the
 * Monday after (`next`) or the Friday before (`previous`), unless that reaches the neighbouring
 * occurrence's scheduled day — then it stays where the rule put it.
 */
function dueOn(rule: RRule, scheduled: string, weekend: WeekendMove): string {
  const dow = dayOfWeek(scheduled);
  if (weekend === 'none' || (dow !== 0 && dow !== 6)) return scheduled;
  if (weekend === 'next') {
    const moved = shiftDay(scheduled, dow === 6 ? 2 : 1);
    const next = scheduledAfter(rule, scheduled);
    return next !== null && moved >= next ? scheduled : moved;
  }
  const moved = shiftDay(scheduled, dow === 6 ? -1 : -2);
  const previous = scheduledBefore(rule, scheduled);
  return previous !== null && moved <= previous ? scheduled : moved;
}

/** The most a weekend move shifts a day. */
const MOST_MOVED = 2;

/** The occurrences due from `from` to `to` (Lagos days, both included), by due day. */
export function occurrencesDue(text: string, weekend: WeekendMove, from: string, to: string): Occurrence[] {
  if (to < from) return [];
  const rule = ruleOf(text);
  return rule
    .between(asDate(shiftDay(from, -MOST_MOVED)), asDate(shiftDay(to, MOST_MOVED)), true)
    .map((d) => ({ scheduled: asDay(d), due: dueOn(rule, asDay(d), weekend) }))
    .filter((o) => o.due >= from && o.due <= to);
}

/** The occurrence scheduled on `scheduled`, when the rule has one that day. */
export function occurrenceScheduledOn(text: string, weekend: WeekendMove, scheduled: string): Occurrence | null {
  const rule = ruleOf(text);
  const found = rule.between(asDate(scheduled), asDate(scheduled), true);
  return found.length === 0 ? null : { scheduled, due: dueOn(rule, scheduled, weekend) };
}

/** The next `count` occurrences due on `from` or later. */
export function nextOccurrences(text: string, weekend: WeekendMove, from: string, count: number): Occurrence[] {
  const rule = ruleOf(text);
  const out: Occurrence[] = [];
  let cursor: Date | null = asDate(shiftDay(from, -MOST_MOVED));
  let inclusive = true;
  while (out.length < count && cursor) {
    const d: Date | null = rule.after(cursor, inclusive);
    if (!d) break;
    const o = { scheduled: asDay(d), due: dueOn(rule, asDay(d), weekend) };
    if (o.due >= from) out.push(o);
    cursor = d;
    inclusive = false;
  }
  return out;
}

function ordinal(n: number): string {
  const rest = n % 100;
  if (rest >= 11 && rest <= 13) return `${n}th`;
  return `${n}${['th', 'st', 'nd', 'rd'][n % 10] ?? 'th'}`;
}

const capital = (w: string): string => w.charAt(0).toUpperCase() + w.slice(1);

/**
 * The schedule in words: "Monthly on the 31st (the last day in shorter months), moved to the
 * previous working day when it falls on a weekend; from 31 Jan 2026, 12 times".
 */
export function scheduleWords(text: string, weekend: WeekendMove): string {
  const s = scheduleOf(text);
  const r = s.recurrence;
  const what =
    r.kind === 'weekly'
      ? `Weekly on ${capital(r.weekday)}`
      : r.kind === 'last_working_day'
        ? 'Monthly on the last working day (Monday to Friday)'
        : `Monthly on the ${ordinal(r.day)}${r.day >= 29 ? ' (the last day in shorter months)' : ''}`;
  const moved = weekend === 'none' || r.kind === 'last_working_day' ? '' : `, moved to the ${weekend === 'next' ? 'next' : 'previous'} working day when it falls on a weekend`;
  const span = [`from ${formatDay(s.start)}`, ...(s.end ? [`until ${formatDay(s.end)}`] : []), ...(s.runs !== null ? [`${s.runs} time${s.runs === 1 ? '' : 's'}`] : [])];
  return `${what}${moved}; ${span.join(', ')}`;
}
