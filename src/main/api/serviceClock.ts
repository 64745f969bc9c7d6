/**
 * The clock the requery loop reads to decide what is due: the service's own clock, as the
 * connection in use learns it from every answer's `Date` header (src/main/api/serviceTime.ts).
 * A sandbox whose clock a test or a demonstration moved forward is followed from its next answer;
 * `advance` moves this estimate at once, for tests that move the sandbox's clock and want "due"
 * to agree before vendesk has asked the sandbox anything.
 *
 *   app.service(createServiceClock).advance(125_000)
 *
 * Purchase times (`purchased_ms`, `next_requery_ms`) are stored on this clock.
 */
import type { DataTopic } from '../../shared/contract/events';
import type { VendingClient } from './vendingClient';

/** What the clock needs of the app (the App has it): the client in use, and who to tell that "due" moved. */
export interface ClockHost {
  client(): Pick<VendingClient, 'clock'>;
  invalidate(topics: readonly DataTopic[], reason: string): void;
}

export interface ServiceClock {
  now(): number;
  /** Moves this app's estimate of the service clock forward (tests, sandbox demonstrations). */
  advance(ms: number): void;
  /** Service time − this computer's time, ms. */
  offsetMs(): number;
}

export function createServiceClock(app: ClockHost): ServiceClock {
  const estimate = () => app.client().clock;
  return {
    now: () => Date.now() + estimate().offsetMs(),
    advance(ms: number) {
      if (!Number.isFinite(ms) || ms < 0) throw new RangeError('The service clock only moves forward');
      estimate().shift(ms);
      // What is due has changed: the Pending page re-reads its countdowns.
      app.invalidate(['pending'], 'service clock moved');
    },
    offsetMs: () => estimate().offsetMs(),
  };
}
