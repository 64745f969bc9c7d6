/**
 * The follow-up loop of bulk jobs: every few seconds, the jobs of the connection in use that are
 * not running are checked with the service (`jobFollowUp.ts`). One per app, started by the
 * desktop and browser shells (`ensureBulkFollowUp`), stopped with the app.
 */
import type { App } from '../app';
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
  let timer: NodeJS.Timeout | null = null;
  let ticking: Promise<void> | null = null;
  let closed = false;
  const tick = (): Promise<void> => {
    if (closed) return Promise.resolve();
    ticking ??= app
      .service(createBulkService)
      .followUpAll()
      .catch(() => undefined) // not connected, or the app is closing: the next pass tries again
      .finally(() => (ticking = null));
    return ticking;
  };
  const loop: BulkFollowUp = {
    start() {
      if (timer || closed) return;
      timer = setInterval(() => void tick(), FOLLOW_UP_EVERY_MS);
      timer.unref();
    },
    async stop() {
      closed = true;
      if (timer) clearInterval(timer);
      timer = null;
      await ticking;
    },
    tick,
  };
  app.onClose(() => loop.stop());
  return loop;
}

/** Starts the follow-up loop of this app if it is not running (idempotent). */
export function ensureBulkFollowUp(app: App): BulkFollowUp {
  const loop = app.service(createBulkFollowUp);
  loop.start();
  return loop;
}
