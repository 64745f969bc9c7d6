/**
 * The follow-up loop of bulk jobs: every few seconds, the jobs of the connection in use that are
 * not running are checked with the service (`jobFollowUp.ts`). One per app, started by the
 * desktop and browser shells (`ensureBulkFollowUp`), stopped with the app.
 */
import type { App } from '../app';
import { intervalLoop } from '../intervalLoop';
import { createBulkService } from './bulkService';

/** Between two passes of the loop. */
export const FOLLOW_UP_EVERY_MS = 15_000;

export interface BulkFollowUp {
  start(): void;
  stop(): Promise<void>;
  /** One pass now, over the jobs of the connection in use. */
  tick(): Promise<void>;
}

/** The follow-up loop of one app (`app.service(createBulkFollowUp)`); stops with the app. */
export function createBulkFollowUp(app: App): BulkFollowUp {
  let ticking: Promise<void> | null = null;
  const tick = (): Promise<void> => {
    if (interval.closed) return Promise.resolve();
    ticking ??= app
      .service(createBulkService)
      .followUpAll()
      .catch(() => undefined) // not connected, or the app is closing: the next pass tries again
      .finally(() => (ticking = null));
    return ticking;
  };
  const interval = intervalLoop(FOLLOW_UP_EVERY_MS, tick, () => ticking);
  const loop: BulkFollowUp = { start: () => interval.start(), stop: () => interval.stop(), tick };
  app.onClose(() => loop.stop());
  return loop;
}

/** Starts the follow-up loop of this app if it is not running (idempotent). */
export function ensureBulkFollowUp(app: App): BulkFollowUp {
  const loop = app.service(createBulkFollowUp);
  loop.start();
  return loop;
}
