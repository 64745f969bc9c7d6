import { describe, expect, it } from 'vitest';
import { requeryBackoffMs, waitFromReason } from '../../../src/main/api/requeryBackoff';

// The pending page's countdown comes from these: a wrong wait is a check sent too early (a 425)
// or a purchase left waiting. Expected values written out by hand.
describe('the waits between checks of a pending purchase', () => {
  it('reads the wait however the service spaces "in N s"', () => {
    expect(waitFromReason('too early: try again in  37 s')).toBe(37_000);
    expect(waitFromReason('too early: try again in 5s')).toBe(5_000);
    expect(waitFromReason('Try again IN 120 S.')).toBe(120_000);
    // Not seconds: no wait is read.
    expect(waitFromReason('try again in 5 minutes')).toBeNull();
    expect(waitFromReason('try again in5 s')).toBeNull();
  });

  it('doubles from one minute and stops at an hour', () => {
    expect([5, 6, 7, 8].map(requeryBackoffMs)).toEqual([960_000, 1_920_000, 3_600_000, 3_600_000]);
    // A count below one (no PENDING answer yet) waits the first step.
    expect(requeryBackoffMs(0)).toBe(60_000);
  });
});
