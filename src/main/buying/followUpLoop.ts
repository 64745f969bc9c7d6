/**
 * The follow-up loop of bulk jobs: every few seconds, the jobs of the connection in use that are
 * not running are checked with the service (`jobFollowUp.ts`). One per app, started by the
 * desktop and browser shells (`ensureBulkFollowUp`), stopped with the app.
 */
import type { App, AppPart } from '../appContext';
import { periodicPass, type PeriodicPass } from '../periodicPass';
import { createBulkService } from './bulkService';

/** Between two passes of the loop. */
export const FOLLOW_UP_EVERY_MS = 15_000;

export type BulkFollowUp = PeriodicPass;

/** The follow-up loop of one app (`app.service(createBulkFollowUp)`); stops with the app. */
export function createBulkFollowUp(app: App): BulkFollowUp {
  // A pass is one piece of work on one connection: the one in use as it starts (a loop is where its work starts, as an operation's handler is).
  // eslint-disable-next-line vendesk/pinned-connection -- a pass of the loop takes its session once
  return periodicPass(app, FOLLOW_UP_EVERY_MS, async () => app.service(createBulkService).followUpAll(app.session()));
}

/** Starts the follow-up loop of this app if it is not running (idempotent). */
export function ensureBulkFollowUp(app: AppPart<'service'>): BulkFollowUp {
  const loop = app.service(createBulkFollowUp);
  if (!loop.running) loop.start();
  return loop;
}
