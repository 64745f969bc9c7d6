import { describe, expect, it } from 'vitest';
import {
  dayFirstText,
  formatDateTime,
  formatDay,
  lagosDayEndMs,
  lagosDayOf,
  lagosRangeIso,
  lagosWallClock,
  localTimesIn,
  monthStartDay,
  readDayFirst,
  serviceDaysCovering,
  shiftDay,
  weekStartDay,
} from './localDates';

describe('dates as a Nigerian finance officer reads and types them', () => {
  it('reads what is typed day first, with or without separators', () => {
    expect(readDayFirst('01112026')).toEqual({ day: '2026-11-01' });
    expect(readDayFirst('01/11/2026')).toEqual({ day: '2026-11-01' });
    expect(readDayFirst('1/11/2026')).toEqual({ day: '2026-11-01' });
    expect(readDayFirst('01-11-2026')).toEqual({ day: '2026-11-01' });
    expect(readDayFirst('01.11.26')).toEqual({ day: '2026-11-01' });
    expect(readDayFirst('  ')).toEqual({ empty: true });
  });

  it('refuses a month-first date or a day that does not exist, saying the day comes first', () => {
    const monthFirst = readDayFirst('11/23/2026');
    expect('problem' in monthFirst && monthFirst.problem).toContain('the day comes first');
    expect('problem' in readDayFirst('31/02/2026')).toBe(true);
    expect('problem' in readDayFirst('2026-11-01T')).toBe(true);
  });

  it('shows days and instants day first', () => {
    expect(dayFirstText('2026-11-01')).toBe('01/11/2026');
    expect(formatDay('2026-11-01')).toBe('1 Nov 2026');
    expect(formatDateTime('2026-11-01T12:00:00Z')).toMatch(/^1 Nov 2026, \d{2}:\d{2}$/);
    expect(formatDateTime(null)).toBe('—');
  });

  it('rewrites the ISO times in a message the way the window shows times', () => {
    const text = localTimesIn('A purchase of the same phone and amount was made at 2026-11-23T20:26:07.878Z; check it');
    expect(text).not.toContain('2026-11-23T');
    expect(text).toMatch(/made at 2[34] Nov 2026, \d{2}:\d{2}:07; check it$/);
  });
});

describe('Lagos days (UTC+1, no daylight saving)', () => {
  it('puts 23:30 UTC in the next Lagos day, and 22:59 UTC in the same one', () => {
    expect(lagosDayOf('2026-11-26T23:30:00.000Z')).toBe('2026-11-27');
    expect(lagosDayOf('2026-11-26T22:59:59.999Z')).toBe('2026-11-26');
    expect(lagosDayOf('2026-06-30T23:00:00.000Z')).toBe('2026-07-01'); // no summer time
  });

  it('starts a Lagos day at 23:00 UTC the day before and ends it 24 hours later', () => {
    expect(lagosRangeIso('2026-11-27', '2026-11-27')).toEqual({ fromIso: '2026-11-26T23:00:00.000Z', untilIso: '2026-11-27T23:00:00.000Z' });
    expect(lagosRangeIso('2026-03-01', null)).toEqual({ fromIso: '2026-02-28T23:00:00.000Z', untilIso: null });
    expect(new Date(lagosDayEndMs('2026-12-31')).toISOString()).toBe('2026-12-31T23:00:00.000Z');
  });

  it('asks the service for the UTC days that cover the Lagos days whole', () => {
    expect(serviceDaysCovering('2026-11-27', '2026-11-28')).toEqual({ startdate: '2026-11-26', enddate: '2026-11-28' });
    expect(serviceDaysCovering(undefined, '2026-11-28')).toEqual({ startdate: null, enddate: '2026-11-28' });
  });

  it('counts weeks from Monday and months from the 1st', () => {
    expect(weekStartDay('2026-11-27')).toBe('2026-11-23'); // a Friday
    expect(weekStartDay('2026-11-23')).toBe('2026-11-23');
    expect(weekStartDay('2026-11-22')).toBe('2026-11-16'); // a Sunday
    expect(monthStartDay('2026-11-27')).toBe('2026-11-01');
    expect(shiftDay('2026-03-01', -1)).toBe('2026-02-28');
  });

  it('shows an instant in Lagos time and writes it to a workbook cell as Lagos wall-clock time', () => {
    expect(formatDateTime('2026-11-26T23:59:00Z')).toBe('27 Nov 2026, 00:59');
    expect(lagosWallClock('2026-11-26T23:30:00.000Z').toISOString()).toBe('2026-11-27T00:30:00.000Z');
  });
});
