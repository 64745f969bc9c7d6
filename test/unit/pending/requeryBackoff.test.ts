import { describe, expect, it } from 'vitest';
import { firstRequeryDueMs, requeryBackoffMs, waitFromReason } from '../../../src/main/api/requeryBackoff';

describe('when a pending purchase is checked', () => {
  it('never before 2 minutes 1 second after the purchase', () => {
    expect(firstRequeryDueMs(1_000_000)).toBe(1_000_000 + 121_000);
  });

  it('waits longer after each PENDING answer, up to an hour', () => {
    expect([1, 2, 3, 4].map(requeryBackoffMs)).toEqual([60_000, 120_000, 240_000, 480_000]);
    expect(requeryBackoffMs(20)).toBe(3_600_000);
  });

  it("reads the service's 'try again in N s' for a 425", () => {
    expect(waitFromReason('requery attempted too early: try again in 37 s (from 2026-01-01T00:02:01.000Z)')).toBe(37_000);
    expect(waitFromReason('requery attempted too early')).toBeNull();
  });
});
