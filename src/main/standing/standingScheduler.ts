/**
 * The open desktop's runner of standing orders (issue 40): a timer that wakes when the next
 * occurrence is due — the start of its Lagos day on the service's clock — and runs what is due
 * then (`StandingService.runDue`, each occurrence once, whoever else runs them). Not a poll: between
 * due days it sleeps, and it asks the service nothing.
 *
 * It plans again, at once, when something may have moved the next due time: an order made, changed,
 * paused or resumed (`data.changed` with topic `standing`) or the service's clock seen to move
 * (topic `pending`, which a moved clock invalidates). While an occurrence waits for something that
 * may change by itself (money, the service, the team, a job left running), it tries again after
 * `RETRY_MS`. A timer longer than `LONGEST_SLEEP_MS` is re-armed at that length: a computer that
 * slept or a clock that jumped is noticed within that time (re-arming reads the local database only).
 *
 * Started by the shells that keep the app open (backgroundLoops.ts), with the app; stops with it.
 * At its start it runs once: what was due while the desktop was off runs now, within its grace.
 */
import type { App } from '../appContext';
import { createServiceClock } from '../api/serviceClock';
import { createStandingService } from './standingService';

/** After a run that left an occurrence waiting for money, the service or a job: try again this much later. */
export const RETRY_MS = 15 * 60_000;
/** The longest one timer sleeps before the plan is read again. */
export const LONGEST_SLEEP_MS = 60 * 60_000;

export interface StandingScheduler {
  start(): void;
  stop(): Promise<void>;
  /** When the timer wakes next, on the service's clock (epoch ms), or null when nothing is planned. */
  nextWakeAt(): number | null;
  /** The run under way, or null. */
  running(): Promise<unknown> | null;
}

export function createStandingScheduler(app: App): StandingScheduler {
  const standing = app.service(createStandingService);
  const clock = app.service(createServiceClock);
  let timer: NodeJS.Timeout | null = null;
  let wakeAt: number | null = null;
  let underWay: Promise<unknown> | null = null;
  let closed = false;
  let off: (() => void) | null = null;
  /** When the last run ended: what it could not move on is not run again at once (no loop), but after RETRY_MS. */
  let lastRunAt: number | null = null;

  const arm = (): void => {
    if (closed) return;
    if (timer) clearTimeout(timer);
    timer = null;
    let next: number | null;
    try {
      next = standing.nextWakeMs(RETRY_MS);
    } catch {
      // No connection in use yet (or its store is being switched): read the plan again later.
      next = clock.now() + RETRY_MS;
    }
    if (next !== null && lastRunAt !== null && next <= clock.now() && clock.now() - lastRunAt < RETRY_MS) next = lastRunAt + RETRY_MS;
    wakeAt = next;
    if (next === null) return;
    const delay = Math.min(Math.max(0, next - clock.now()), LONGEST_SLEEP_MS);
    timer = setTimeout(() => (next !== null && clock.now() >= next ? run() : arm()), delay);
    timer.unref();
  };

  const run = (): void => {
    if (closed || underWay) return;
    if (timer) clearTimeout(timer);
    timer = null;
    underWay = standing
      .runDue({ dryRun: false, wait: false })
      // Not connected, or the service unreachable before anything was checked: what is due is tried again at the next wake.
      .catch(() => undefined)
      .finally(() => {
        underWay = null;
        lastRunAt = clock.now();
        arm();
      });
  };

  return {
    start() {
      if (closed || off) return;
      off = app.events.on('data.changed', (p) => {
        if (underWay) return;
        if (p.topics.includes('standing') || p.topics.includes('pending')) arm();
      });
      run();
    },
    async stop() {
      closed = true;
      off?.();
      if (timer) clearTimeout(timer);
      timer = null;
      await underWay;
    },
    nextWakeAt: () => wakeAt,
    running: () => underWay,
  };
}
