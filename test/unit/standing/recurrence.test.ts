/**
 * The dates a standing order falls on, from its RFC 5545 rule as stored: day 31 in February and in
 * 30-day months, the last working day, weekly days, weekend moves, and an end or a number of runs.
 */
import { describe, expect, it } from 'vitest';
import { nextOccurrences, occurrencesDue, occurrenceScheduledOn, ruleText, scheduleOf, scheduleWords } from '../../../src/main/standing/recurrence';

const monthly = (day: number, start = '2027-01-01') => ruleText({ recurrence: { kind: 'monthly', day }, start, end: null, runs: null });

describe('standing order dates', () => {
  it('day 31 falls on the last day of February (28 and 29 days) and of 30-day months', () => {
    expect(occurrencesDue(monthly(31), 'none', '2027-01-01', '2027-07-31').map((o) => o.scheduled)).toEqual([
      '2027-01-31',
      '2027-02-28',
      '2027-03-31',
      '2027-04-30',
      '2027-05-31',
      '2027-06-30',
      '2027-07-31',
    ]);
    expect(occurrencesDue(monthly(31, '2028-01-01'), 'none', '2028-02-01', '2028-02-29').map((o) => o.scheduled)).toEqual(['2028-02-29']);
    expect(occurrencesDue(monthly(30, '2028-01-01'), 'none', '2028-02-01', '2028-03-31').map((o) => o.scheduled)).toEqual(['2028-02-29', '2028-03-30']);
    expect(occurrencesDue(monthly(29, '2027-01-01'), 'none', '2027-02-01', '2027-03-31').map((o) => o.scheduled)).toEqual(['2027-02-28', '2027-03-29']);
  });

  it('day 15 is the 15th of every month, and never twice in one month', () => {
    const days = occurrencesDue(monthly(15), 'none', '2027-01-01', '2027-12-31').map((o) => o.scheduled);
    expect(days).toHaveLength(12);
    expect(new Set(days.map((d) => d.slice(0, 7))).size).toBe(12);
    expect(days.every((d) => d.endsWith('-15'))).toBe(true);
  });

  it('the last working day is the last Monday to Friday of the month', () => {
    const rule = ruleText({ recurrence: { kind: 'last_working_day' }, start: '2027-01-01', end: null, runs: null });
    // Jan 2027 ends on a Sunday (31st) → Friday 29th; Feb 28 2027 is a Sunday → Friday 26th; Apr 30 2027 is a Friday.
    expect(occurrencesDue(rule, 'none', '2027-01-01', '2027-04-30').map((o) => o.scheduled)).toEqual(['2027-01-29', '2027-02-26', '2027-03-31', '2027-04-30']);
  });

  it('weekly on a weekday', () => {
    const rule = ruleText({ recurrence: { kind: 'weekly', weekday: 'friday' }, start: '2027-01-01', end: null, runs: null });
    expect(occurrencesDue(rule, 'none', '2027-01-01', '2027-01-31').map((o) => o.scheduled)).toEqual(['2027-01-01', '2027-01-08', '2027-01-15', '2027-01-22', '2027-01-29']);
  });

  it('a day on a weekend moves to the Monday after or the Friday before, keeping its scheduled day as its key', () => {
    // 31 Jan 2027 is a Sunday; 28 Feb 2027 is a Sunday; 31 Jul 2027 is a Saturday.
    expect(occurrencesDue(monthly(31), 'next', '2027-01-01', '2027-03-05')).toEqual([
      { scheduled: '2027-01-31', due: '2027-02-01' },
      { scheduled: '2027-02-28', due: '2027-03-01' },
    ]);
    expect(occurrencesDue(monthly(31), 'previous', '2027-01-01', '2027-02-28')).toEqual([
      { scheduled: '2027-01-31', due: '2027-01-29' },
      { scheduled: '2027-02-28', due: '2027-02-26' },
    ]);
    expect(occurrenceScheduledOn(monthly(31), 'previous', '2027-07-31')).toEqual({ scheduled: '2027-07-31', due: '2027-07-30' });
    expect(occurrenceScheduledOn(monthly(31), 'none', '2027-07-31')).toEqual({ scheduled: '2027-07-31', due: '2027-07-31' });
    expect(occurrenceScheduledOn(monthly(31), 'none', '2027-07-30')).toBeNull();
  });

  it('a weekly Saturday moved to Monday never reaches the next Saturday', () => {
    const rule = ruleText({ recurrence: { kind: 'weekly', weekday: 'saturday' }, start: '2027-01-01', end: null, runs: null });
    expect(nextOccurrences(rule, 'next', '2027-01-01', 2)).toEqual([
      { scheduled: '2027-01-02', due: '2027-01-04' },
      { scheduled: '2027-01-09', due: '2027-01-11' },
    ]);
  });

  it('an end date or a number of runs stops the dates', () => {
    const runs = ruleText({ recurrence: { kind: 'monthly', day: 1 }, start: '2027-01-01', end: null, runs: 3 });
    expect(nextOccurrences(runs, 'none', '2027-01-01', 10).map((o) => o.scheduled)).toEqual(['2027-01-01', '2027-02-01', '2027-03-01']);
    const end = ruleText({ recurrence: { kind: 'monthly', day: 1 }, start: '2027-01-01', end: '2027-02-15', runs: null });
    expect(nextOccurrences(end, 'none', '2027-01-01', 10).map((o) => o.scheduled)).toEqual(['2027-01-01', '2027-02-01']);
  });

  it('the stored rule reads back as the schedule it was made from, and is said in words', () => {
    const s = { recurrence: { kind: 'monthly', day: 31 }, start: '2027-01-31', end: '2027-12-31', runs: null } as const;
    const text = ruleText(s);
    expect(text).toContain('RRULE:');
    expect(scheduleOf(text)).toEqual(s);
    expect(scheduleWords(text, 'previous')).toBe(
      'Monthly on the 31st (the last day in shorter months), moved to the previous working day when it falls on a weekend; from 31 Jan 2027, until 31 Dec 2027',
    );
    expect(() => ruleText({ recurrence: { kind: 'monthly', day: 32 }, start: '2027-01-01', end: null, runs: null })).toThrow(/1 to 31/);
  });
});
