/**
 * The clock the requery loop reads to decide what is due. It is real time, shifted by an offset
 * that only tests (and a person demonstrating the sandbox) change: the sandbox has its own clock
 * that tests move forward with `/__sandbox/clock`, and moving this one by the same amount makes
 * "due" agree with the sandbox's answers without waiting two real minutes.
 *
 *   app.service(createServiceClock).advance(125_000)
 *
 * Purchase times (`purchased_ms`, `next_requery_ms`) are stored on this clock.
 */
import type { App } from '../app';

export interface ServiceClock {
  now(): number;
  /** Moves this app's service clock forward (tests, sandbox demonstrations). */
  advance(ms: number): void;
  offsetMs(): number;
}

export function createServiceClock(app: App): ServiceClock {
  let offset = 0;
  return {
    now: () => Date.now() + offset,
    advance(ms: number) {
      if (!Number.isFinite(ms) || ms < 0) throw new RangeError('The service clock only moves forward');
      offset += ms;
      // What is due has changed: the Pending page re-reads its countdowns.
      app.events.emit('data.changed', { topics: ['pending'] });
    },
    offsetMs: () => offset,
  };
}
