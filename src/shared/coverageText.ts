/**
 * What the mirror holds of a range of days, in the words every shell and workbook uses: which
 * days were never read from the service, how far today is read, and that days after today have
 * not come yet (the coverage itself: src/main/transactions/logCoverage.ts). Days are Lagos days.
 */
import type { DayRange, MirrorCoverage } from './contract/logs';
import { daysFromTo, formatDateTime, formatDay } from './localDates';

/** `1 Nov 2026 – 24 Nov 2026 (24 days)`, or one day as `1 Nov 2026`. */
export function dayRangeText(r: DayRange): string {
  return r.days === 1 ? formatDay(r.from) : `${formatDay(r.from)} – ${formatDay(r.to)} (${r.days} days)`;
}

/** The days never read: `1 Nov 2026 – 3 Nov 2026 (3 days) and 9 Nov 2026`, or the start of the log. */
export function missingDaysText(c: Pick<MirrorCoverage, 'missing' | 'wholeLogUnread'>): string {
  if (c.wholeLogUnread) return 'the log from its start (only some of its days were synced)';
  const parts = c.missing.map(dayRangeText);
  return parts.length <= 1 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}

/** How many days are missing (the whole log counts as one gap). */
export function missingDayCount(c: Pick<MirrorCoverage, 'missing'>): number {
  return c.missing.reduce((n, r) => n + r.days, 0);
}

/** The period's own words: what it covers, how far today is read, what has not come yet. */
export function periodNotes(c: MirrorCoverage): string[] {
  const notes: string[] = [];
  if (c.complete) notes.push('Every day of the period up to today was read completely from the service.');
  else notes.push(`Not read from the service, so not counted: ${missingDaysText(c)}.`);
  if (c.todayReadThrough)
    notes.push(`Today (${formatDay(c.today)}) is counted up to ${formatDateTime(c.todayReadThrough)}, when it was last read: purchases after that are not in it.`);
  if (c.notYet) notes.push(`${dayRangeText(c.notYet)} after today (${formatDay(c.today)}, on the service’s clock) had not come yet.`);
  return notes;
}

/** The period itself: `1 Nov 2026 to 28 Nov 2026 (Lagos days, both included)`. */
export function periodText(c: Pick<MirrorCoverage, 'from' | 'to'>): string {
  return `${c.from ? formatDay(c.from) : 'The start of the log'} to ${formatDay(c.to)} (Lagos days, both included)`;
}

/** How many of the missing days fall on or after `day` (a card's period: this week, this month): 0 when none does. */
export function missingDaysSince(c: Pick<MirrorCoverage, 'missing'>, day: string): number {
  let n = 0;
  for (const r of c.missing) {
    if (r.to < day) continue;
    const from = r.from < day ? day : r.from;
    n += daysFromTo(from, r.to);
  }
  return n;
}

/** `1 day`, `12 days`. */
export function dayCountText(n: number): string {
  return n === 1 ? '1 day' : `${n.toLocaleString('en-NG')} days`;
}
