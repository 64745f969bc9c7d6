/**
 * After each sync that finished in an app kept open, this month's and last month's Lagos days
 * before today (on the service's clock: today still changes with every sync) are kept as
 * reconcile reads them (`log_day_records`, backgroundReads' `keepMirrorDays`, on a worker
 * thread), so that the first reconciliation of a month reads kept days, not its entries. Days
 * already kept are left as they are; a day a sync changed is kept again.
 */
import type { AppPart } from '../appContext';
import { lagosDayStartMs, lagosToday, monthStartDay, shiftDay } from '../../shared/localDates';
import { keepMirrorDays } from './backgroundReads';

export function keepDaysAfterSyncs(app: AppPart<'events' | 'onClose' | 'db' | 'connection' | 'client'>): { off(): void } {
  let keeping: Promise<number> | null = null;
  const off = app.events.on('sync.progress', (p) => {
    // (One keeping at a time: a sync that ends meanwhile is kept by the next one's turn.)
    if (p.state !== 'done' || keeping) return;
    let today: string;
    try {
      today = lagosToday(Date.now() + app.client().clock.offsetMs());
    } catch {
      return; // no connection to read the service's clock: nothing synced either
    }
    const from = monthStartDay(shiftDay(monthStartDay(today), -1));
    keeping = keepMirrorDays(app.db.name, app.connection.profileId, new Date(lagosDayStartMs(from)).toISOString(), new Date(lagosDayStartMs(today)).toISOString());
    void keeping.finally(() => (keeping = null));
  });
  app.onClose(() => off());
  return { off };
}
