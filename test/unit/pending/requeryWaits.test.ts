import { describe, expect, it } from 'vitest';
import { requeryBackoffMs, serviceAnswersFromMs, waitFromReason } from '../../../src/main/api/requeryBackoff';

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

  it('asks the service no earlier than it answers: 2 min 1 s after the purchase, or the later moment it asked to wait for', () => {
    const bought = 1_000_000;
    // No check answered, next check at the first moment: 121 s after buying.
    expect(serviceAnswersFromMs(bought, 0, bought + 121_000)).toBe(bought + 121_000);
    // The service said "try again in 30 s" at 125 s (clocks disagreed): not before that.
    expect(serviceAnswersFromMs(bought, 0, bought + 155_000)).toBe(bought + 155_000);
    // A next check set earlier than the rule allows never makes it earlier.
    expect(serviceAnswersFromMs(bought, 0, bought + 60_000)).toBe(bought + 121_000);
    expect(serviceAnswersFromMs(bought, 0, null)).toBe(bought + 121_000);
    // Once it has answered a check, it answers at any time from the rule's moment: vendesk's
    // back-off (the next check in 16 minutes) is its own pace, not the service's.
    expect(serviceAnswersFromMs(bought, 3, bought + 3_600_000)).toBe(bought + 121_000);
  });
});
