/**
 * The pace of the sync's requests: never more in flight than allowed, half as many after the
 * service says 429 or 503 and back up as answers come, a shared pause as long as Retry-After asks,
 * and a wait that ends at once when the sync is stopped.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RequestPacer, type Turn } from '../../../src/main/api/requestPacer';

// The pacer's clock and timers are faked (it reads `Date.now` and waits with `setTimeout`), so
// what it has granted after so many milliseconds is the same on a busy machine as on a quiet one.
// With real timers a loaded machine could hold the pacer's next 1 ms timer past the test's 50 ms
// one and see a turn "refused" that was only late.
beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

/** Every turn the pacer would grant within 50 ms is granted (1,000 a second is one a millisecond). */
const settled = () => vi.advanceTimersByTimeAsync(50);

/** Asks for `n` turns; returns the turns granted so far (a live list). */
function ask(pacer: RequestPacer, n: number, signal?: AbortSignal): { granted: Turn[]; all: Promise<Turn>[] } {
  const granted: Turn[] = [];
  const all = Array.from({ length: n }, () => pacer.acquire(signal).then((t) => (granted.push(t), t)));
  for (const p of all) p.catch(() => undefined);
  return { granted, all };
}

describe('request pacer', () => {
  it('lets no more requests run at once than its limit', async () => {
    const pacer = new RequestPacer({ concurrency: 3, maxPerSecond: 1000 });
    const { granted } = ask(pacer, 7);
    await settled();
    expect(granted).toHaveLength(3);
    granted[0].done(200);
    await settled();
    expect(granted).toHaveLength(4);
    expect(pacer.state().inFlight).toBe(3);
  });

  it('halves the requests in flight after a 429 and adds them back one by one as answers succeed', async () => {
    const pacer = new RequestPacer({ concurrency: 8, maxPerSecond: 1000 });
    const first = ask(pacer, 1);
    await settled();
    first.granted[0].done(429, 0);
    expect(pacer.state().limit).toBe(4);
    const second = ask(pacer, 1);
    await settled();
    second.granted[0].done(503, 0);
    expect(pacer.state().limit).toBe(2);
    // A run of successes as long as the limit adds one.
    for (let k = 0; k < 2; k++) {
      const t = ask(pacer, 1);
      await settled();
      t.granted[0].done(200);
    }
    expect(pacer.state().limit).toBe(3);
    expect(pacer.state().pushedBack).toBe(2);
  });

  it('starts nothing while a Retry-After is running, then carries on', async () => {
    const pacer = new RequestPacer({ concurrency: 4, maxPerSecond: 1000 });
    const first = ask(pacer, 1);
    await settled();
    first.granted[0].done(429, 300);
    const next = ask(pacer, 1);
    await vi.advanceTimersByTimeAsync(299);
    expect(next.granted, 'nothing starts before the 300 ms Retry-After has run').toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(next.granted).toHaveLength(1);
    next.granted[0].done(200);
  });

  it('spaces request starts by its ceiling', async () => {
    const pacer = new RequestPacer({ concurrency: 10, maxPerSecond: 20 });
    const { granted } = ask(pacer, 5);
    // Five starts at most 20 a second: the fifth no sooner than 4 × 50 ms after the first.
    await vi.advanceTimersByTimeAsync(199);
    expect(granted).toHaveLength(4);
    await vi.advanceTimersByTimeAsync(1);
    expect(granted).toHaveLength(5);
    for (const t of granted) t.done(200);
  });

  it('gives up a wait at once when the sync is stopped', async () => {
    const pacer = new RequestPacer({ concurrency: 1, maxPerSecond: 1000 });
    const holder = await pacer.acquire();
    const controller = new AbortController();
    const waiting = pacer.acquire(controller.signal);
    controller.abort(new Error('stopped'));
    await expect(waiting).rejects.toThrow('stopped');
    holder.done(200);
    const after = ask(pacer, 1);
    await settled();
    expect(after.granted).toHaveLength(1);
    expect(pacer.state().inFlight).toBe(1);
    after.granted[0].done(200);
  });
});
