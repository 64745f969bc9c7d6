/**
 * The app's background loops, started in one place — here, from `createApp`:
 * - the requery loop of pending purchases (`pending/pendingScheduler.ts`),
 * - the follow-up of bulk jobs that are no longer sending (`buying/followUpLoop.ts`),
 * - the automatic sync of the log mirror (`transactions/autoSync.ts`), and after each sync the
 *   month's days kept for reconcile (`reconcile/keepDaysAfterSync.ts`),
 * - writing job outcomes the team database missed while it was unreachable (`team/teamOutcomeRetry.ts`),
 * - listening to the team database, so another member's change shows at once (`team/teamChanges.ts`),
 * - the runner of standing orders, which wakes when the next occurrence is due (`standing/standingScheduler.ts`).
 *
 * An app the shell keeps open (desktop and browser: `createApp({ background: true })`) starts
 * all six at once. Any other app (a CLI command, a test) starts only the requery loop, and only
 * when a purchase first changes pending state (`data.changed` with topic `pending`), so what a
 * command buys is still chased while it runs and a command that buys nothing asks the service
 * nothing it was not told to. Each loop stops with the app.
 */
import type { AppPart } from './appContext';
import { ensureBulkFollowUp } from './buying/followUpLoop';
import { startAutoSync } from './transactions/autoSync';
import { keepDaysAfterSyncs } from './reconcile/keepDaysAfterSync';
import { createPendingScheduler } from './pending/pendingScheduler';
import { startTeamOutcomeRetry } from './team/teamOutcomeRetry';
import { createTeamChanges } from './team/teamChanges';
import { createStandingScheduler } from './standing/standingScheduler';

export function startBackgroundLoops(app: AppPart<'events' | 'onClose' | 'service'>, keptOpen: boolean): void {
  const startRequeryLoop = () => app.service(createPendingScheduler).start();
  if (keptOpen) {
    startRequeryLoop();
    ensureBulkFollowUp(app);
    startAutoSync(app);
    app.service(keepDaysAfterSyncs);
    startTeamOutcomeRetry(app);
    app.service(createTeamChanges).start();
    const standing = app.service(createStandingScheduler);
    standing.start();
    app.onClose(() => standing.stop());
    return;
  }
  const off = app.events.on('data.changed', (p) => {
    if (!p.topics.includes('pending')) return;
    off();
    startRequeryLoop();
  });
  app.onClose(() => off());
}
