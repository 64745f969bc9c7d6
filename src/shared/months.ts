/**
 * A month as a person closes it: `YYYY-MM`, made of Lagos days (Africa/Lagos). Its first and last
 * day, the months around it, and the month a Lagos day belongs to.
 */
export const MONTH_PATTERN = /^(\d{4})-(0[1-9]|1[0-2])$/;

export function isMonth(text: string): boolean {
  return MONTH_PATTERN.test(text);
}

/** The first and last Lagos day of a month (`2026-02` → `2026-02-01`, `2026-02-28`). */
export function monthDays(month: string): { from: string; to: string } {
  const m = MONTH_PATTERN.exec(month);
  if (!m) throw new RangeError(`Not a month: ${month}`);
  const last = new Date(Date.UTC(Number(m[1]), Number(m[2]), 0)).getUTCDate();
  return { from: `${month}-01`, to: `${month}-${String(last).padStart(2, '0')}` };
}

export function shiftMonth(month: string, by: number): string {
  const m = MONTH_PATTERN.exec(month);
  if (!m) throw new RangeError(`Not a month: ${month}`);
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1 + by, 1));
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
}

/** The month of a Lagos day (`2026-10-31` → `2026-10`). */
export function monthOfDay(day: string): string {
  return day.slice(0, 7);
}

const monthName = new Intl.DateTimeFormat('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' });

/** A month as a person reads it (`2026-10` → `October 2026`). */
export function monthLabel(month: string): string {
  const m = MONTH_PATTERN.exec(month);
  return m ? monthName.format(new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, 1))) : month;
}
