/**
 * The requery loop of the main process. Every few seconds it announces the pending purchases whose
 * check is due on the service clock (`pending.due`), asks the service about every item whose
 * requery is due, whatever it buys, one at a time, by the one requery path (`requeryItem` in
 * `buying/itemOutcomes.ts`: an electricity or cable item through its purchase, whose uncertain ones
 * are looked for in the log; an airtime or data item of a job no process runs), re-reads the
 * wallet for refunds not seen yet, and tells the windows to re-read (`app.invalidate`: it is
 * background work, no operation declares it).
 *
 * All requeries — the loop's, "Requery now", `vendesk requery` — go through `run`, one after
 * another, so one purchase is never checked twice at once.
 *
 * It is started in one place, `backgroundLoops.ts` (with the app in the desktop and browser
 * shells, on the first change to pending purchases elsewhere), and stops with the app (`app.onClose`). Tests that drive the loop by
 * hand call `pause()` so it does not race them.
 */
import type { App, Connection } from '../appContext';
import { intervalLoop } from '../intervalLoop';
import { TopicBatch } from '../topicBatch';
import { checkRefund } from '../purchases/refundCheck';
import { listPurchaseRows, updatePurchase, type PurchaseRow } from '../purchases/purchaseStore';
import { createServiceClock } from '../api/serviceClock';
import { createBulkService } from '../buying/bulkService';
import { REQUERY_CHANGES } from '../../shared/contract/pending';

export const TICK_MS = 5_000;
/** A `sending` row older than this had its answer lost (the client gives up after 30 s). */
const STALE_SENDING_MS = 90_000;
const REFUND_WATCH_MS = 60 * 60_000;
const REFUND_RECHECK_MS = 60_000;

export interface PendingScheduler {
  start(): void;
  stop(): Promise<void>;
  /** Ticks do nothing while paused (tests drive the loop by hand). */
  pause(): void;
  resume(): void;
  /** One pass of the loop; resolves when its requeries are done. */
  tick(): Promise<void>;
  /** Runs `fn` after every requery already queued: one check at a time. */
  run<T>(fn: () => Promise<T>): Promise<T>;
  /** Purchases of `connection` whose check is due now. */
  dueRows(connection: Pick<Connection, 'profileId'>): PurchaseRow[];
}

export function createPendingScheduler(app: App): PendingScheduler {
  const clock = app.service(createServiceClock);
  let queue: Promise<unknown> = Promise.resolve();
  let ticking = false;
  let paused = false;
  let lastRefundCheck = 0;
  let lastDueAnnounced = -1;

  const run = <T>(fn: () => Promise<T>): Promise<T> => {
    const next = queue.then(fn, fn);
    queue = next.catch(() => undefined);
    return next;
  };

  const dueRows = (connection: Pick<Connection, 'profileId'>): PurchaseRow[] => {
    const now = clock.now();
    // Only the connection asked about: another service is never asked about a purchase.
    return listPurchaseRows(app, connection, { states: ['pending', 'uncertain'] }).filter((r) => r.next_requery_ms !== null && r.next_requery_ms <= now);
  };

  /** A `sending` row left by a process that stopped mid-purchase: it may have been charged. */
  const markStaleSending = (connection: Connection, changes: TopicBatch): void => {
    const cutoff = clock.now() - STALE_SENDING_MS;
    for (const r of listPurchaseRows(app, connection, { states: ['sending'] })) {
      if ((r.sent_ms ?? 0) < cutoff) {
        updatePurchase(app, r.id, {
          state: 'uncertain',
          reason: 'vendesk stopped while this purchase was being sent; it may have been charged.',
          next_requery_ms: clock.now(),
        });
        changes.add(['pending', 'purchases']);
      }
    }
  };

  const tick = async (): Promise<void> => {
    if (ticking || paused || interval.closed) return;
    ticking = true;
    // What this pass changed reaches the windows once, when it ends.
    const changes = new TopicBatch(app, 'requery loop');
    try {
      // A pass is one piece of work on one connection: the one in use as it starts (a loop is where
      // its work starts, as an operation's handler is). Everything it asks, it asks there.
      // eslint-disable-next-line vendesk/pinned-connection -- a pass of the loop takes its session once
      const session = app.session();
      markStaleSending(session.connection, changes);
      const due = dueRows(session.connection);
      if (due.length !== lastDueAnnounced) {
        app.events.emit('pending.due', { count: due.length });
        lastDueAnnounced = due.length;
      }
      // Everything whose requery is due, whatever it buys, by the one requery path.
      const bulk = app.service(createBulkService);
      for (const next of bulk.dueForRequery(session.connection)) {
        if (paused || interval.closed) break;
        await run(async () => {
          try {
            const { changed } = await bulk.requeryDue(session, next);
            // A purchase's log entries were mirrored when its state moved; an airtime item's job told the windows.
            if (next.purchase) changes.add(changed ? REQUERY_CHANGES : ['pending', 'purchases']);
            changes.flushIfDue();
          } catch {
            // Kept on the row by requeryPurchase where it can be; the next tick tries again.
          }
        });
      }
      if (Date.now() - lastRefundCheck > REFUND_RECHECK_MS) {
        lastRefundCheck = Date.now();
        const since = new Date(Date.now() - REFUND_WATCH_MS).toISOString();
        const watching = listPurchaseRows(app, session.connection, { states: ['failed'], since }).filter((r) => r.refund_state === 'missing' || r.refund_state === 'checking');
        for (const r of watching) {
          const checked = await checkRefund(app, session, r.id);
          if (checked.refund_state !== r.refund_state || checked.refund_evidence !== r.refund_evidence) changes.add(['purchases', 'pending']);
        }
      }
      if (due.length > 0) {
        lastDueAnnounced = dueRows(session.connection).length;
        app.events.emit('pending.due', { count: lastDueAnnounced });
      }
    } catch {
      // A failed pass (service unreachable, app closing) is retried at the next tick.
    } finally {
      changes.flush();
      ticking = false;
    }
  };

  const interval = intervalLoop(TICK_MS, tick, () => queue);
  const scheduler: PendingScheduler = {
    start: () => interval.start(),
    stop: () => interval.stop(),
    pause() {
      paused = true;
    },
    resume() {
      paused = false;
    },
    tick,
    run,
    dueRows,
  };
  app.onClose(() => scheduler.stop());
  return scheduler;
}
