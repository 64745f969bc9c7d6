/**
 * A pass the app repeats every so often while it is open (the bulk follow-up, the team outcome
 * write-back): one pass at a time — a tick while one runs joins it — errors swallowed (the next
 * pass tries again), on an `intervalLoop` (the timer never keeps the process alive), and stopped
 * with the app.
 */
import type { AppPart } from './appContext';
import { intervalLoop } from './intervalLoop';

export interface PeriodicPass {
  /** Starts the timer, or re-arms it at another pace. */
  start(everyMs?: number): void;
  /** Stops for good, after the pass under way. */
  stop(): Promise<void>;
  readonly running: boolean;
  /** One pass now (or the one under way). */
  tick(): Promise<void>;
}

export function periodicPass(app: AppPart<'onClose'>, everyMs: number, pass: () => Promise<unknown>): PeriodicPass {
  let ticking: Promise<void> | null = null;
  const tick = (): Promise<void> => {
    if (interval.closed) return Promise.resolve();
    ticking ??= pass()
      .then(() => undefined)
      .catch(() => undefined) // not connected, or the app is closing: the next pass tries again
      .finally(() => (ticking = null));
    return ticking;
  };
  const interval = intervalLoop(everyMs, tick, () => ticking);
  const loop: PeriodicPass = {
    start: (ms) => interval.start(ms),
    stop: () => interval.stop(),
    get running() {
      return interval.running;
    },
    tick,
  };
  app.onClose(() => loop.stop());
  return loop;
}
