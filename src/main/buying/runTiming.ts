/**
 * How often the job runner's loop looks, how long its lease lasts and how it backs off
 * (jobRunner.ts, sendPolicy.ts): tuning that tests may shorten; production uses the defaults.
 */
export interface RunnerTiming {
  tickMs: number;
  pollMs: number;
  leaseMs: number;
  /** Before the first retry of a 503'd batch; doubles each time. */
  backoffBaseMs: number;
  holdBaseMs: number;
}

export const DEFAULT_TIMING: RunnerTiming = { tickMs: 250, pollMs: 2000, leaseMs: 15_000, backoffBaseMs: 2000, holdBaseMs: 3000 };
