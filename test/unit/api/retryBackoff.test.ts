import { afterEach, describe, expect, it, vi } from 'vitest';
import { backoffDelay, parseRetryAfter, resolveRetry, sleep } from '../../../src/main/api/retryBackoff';

describe('backoffDelay', () => {
  const policy = resolveRetry({ attempts: 5, baseDelayMs: 100, maxDelayMs: 1000 });
  it('grows exponentially with jitter between half and the whole ceiling', () => {
    expect(backoffDelay(0, policy, null, () => 0)).toBe(50);
    expect(backoffDelay(0, policy, null, () => 1)).toBe(100);
    expect(backoffDelay(2, policy, null, () => 0)).toBe(200);
    expect(backoffDelay(2, policy, null, () => 1)).toBe(400);
  });
  it('never exceeds maxDelayMs, even for a long Retry-After', () => {
    expect(backoffDelay(10, policy, null, () => 1)).toBe(1000);
    expect(backoffDelay(0, policy, 60_000, () => 0)).toBe(1000);
    expect(backoffDelay(0, policy, 700, () => 0)).toBe(700);
  });
  it('has sane defaults', () => {
    expect(resolveRetry(undefined)).toEqual({ attempts: 3, baseDelayMs: 500, maxDelayMs: 8000 });
    expect(resolveRetry({ attempts: 0 }).attempts).toBe(1);
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates', () => {
    expect(parseRetryAfter('2')).toBe(2000);
    expect(parseRetryAfter(null)).toBeNull();
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:10 GMT', Date.parse('2026-01-01T00:00:00Z'))).toBe(10_000);
    expect(parseRetryAfter('soon')).toBeNull();
  });
});

describe('sleep', () => {
  // Timers are faked so the answer does not depend on how fast the machine runs: the abort comes
  // 10 ms into a 5 s sleep on the test's clock, and the sleep must end there with its timer gone.
  afterEach(() => vi.useRealTimers());
  it('stops early when the signal aborts', async () => {
    vi.useFakeTimers();
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('stop')), 10);
    const sleeping = expect(sleep(5000, controller.signal)).rejects.toThrow('stop');
    await vi.advanceTimersByTimeAsync(10);
    await sleeping;
    expect(vi.getTimerCount(), 'the 5 s timer was cleared, not left to run').toBe(0);
  });
});
