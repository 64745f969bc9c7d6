import { describe, expect, it } from 'vitest';
import { dayFirstText, formatDateTime, formatDay, localTimesIn, readDayFirst } from './localDates';

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
