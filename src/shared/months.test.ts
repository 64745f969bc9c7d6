import { describe, expect, it } from 'vitest';
import { isMonth, monthDays, monthOfDay, shiftMonth } from './months';

describe('months of Lagos days', () => {
  it('gives the first and last day, leap years included', () => {
    expect(monthDays('2026-02')).toEqual({ from: '2026-02-01', to: '2026-02-28' });
    expect(monthDays('2028-02')).toEqual({ from: '2028-02-01', to: '2028-02-29' });
    expect(monthDays('2026-12')).toEqual({ from: '2026-12-01', to: '2026-12-31' });
  });
  it('moves across years and refuses what is not a month', () => {
    expect(shiftMonth('2026-12', 1)).toBe('2027-01');
    expect(shiftMonth('2026-01', -1)).toBe('2025-12');
    expect(monthOfDay('2026-10-31')).toBe('2026-10');
    expect(isMonth('2026-13')).toBe(false);
    expect(() => monthDays('2026-1')).toThrow(RangeError);
  });
});
