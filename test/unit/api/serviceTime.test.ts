import { describe, expect, it } from 'vitest';
import { ServiceClockEstimate } from '../../../src/main/api/serviceTime';

const HOUR = 3_600_000;

/** An answer from a service whose clock is `offset` ms ahead of ours, made `at` local ms, `rtt` long. */
function answer(est: ServiceClockEstimate, offset: number, at: number, rtt = 20) {
  const serviceAt = at + rtt / 2 + offset;
  const dateMs = Math.floor(serviceAt / 1000) * 1000;
  return { window: est.observe(dateMs, at, at + rtt), serviceAt };
}

describe('the service clock learnt from Date headers', () => {
  it('narrows to a few milliseconds of a service two hours ahead, and every answer window holds the true time', () => {
    const est = new ServiceClockEstimate();
    let local = Date.UTC(2026, 10, 25, 9, 0, 0, 0);
    for (let i = 0; i < 40; i++) {
      local += 1_000 + 37 * i; // answers at varied sub-second phases
      const { window, serviceAt } = answer(est, 2 * HOUR, local);
      expect(window.clock).toBe('service');
      expect(window.fromMs).toBeLessThanOrEqual(serviceAt);
      expect(window.toMs).toBeGreaterThanOrEqual(serviceAt);
    }
    expect(Math.abs(est.offsetMs() - 2 * HOUR)).toBeLessThan(30);
    const { window } = answer(est, 2 * HOUR, local + 5_000);
    expect(window.toMs - window.fromMs).toBeLessThan(100);
  });

  it('follows a clock that jumps forward (a sandbox moved by 125 s) from the next answer', () => {
    const est = new ServiceClockEstimate();
    let local = 1_700_000_000_000;
    for (let i = 0; i < 10; i++) answer(est, 0, (local += 1_130));
    expect(Math.abs(est.offsetMs())).toBeLessThan(600);
    const { window, serviceAt } = answer(est, 125_000, (local += 1_000));
    expect(window.fromMs).toBeLessThanOrEqual(serviceAt);
    expect(window.toMs).toBeGreaterThanOrEqual(serviceAt);
    expect(Math.abs(est.offsetMs() - 125_000)).toBeLessThan(1_000);
  });

  it('knows nothing without a Date header, and says the window is on this computer’s clock', () => {
    const est = new ServiceClockEstimate();
    const w = est.observe(Number.NaN, 1000, 1020);
    expect(w).toEqual({ fromMs: 1000, toMs: 1020, clock: 'local' });
    expect(est.known).toBe(false);
    expect(est.offsetMs()).toBe(0);
  });

  it('shift moves the estimate with a clock a test moved, and a later answer confirms it', () => {
    const est = new ServiceClockEstimate();
    let local = 1_700_000_000_000;
    for (let i = 0; i < 10; i++) answer(est, 0, (local += 1_130));
    est.shift(125_000);
    expect(Math.abs(est.offsetMs() - 125_000)).toBeLessThan(600);
    answer(est, 125_000, (local += 1_000));
    expect(Math.abs(est.offsetMs() - 125_000)).toBeLessThan(600);
  });
});
