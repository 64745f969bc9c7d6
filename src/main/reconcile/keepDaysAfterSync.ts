/**
 * After each sync that finished in an app kept open, this month's and last month's Lagos days
 * before today (on the service's clock: today still changes with every sync) are kept as
 * reconcile reads them (`log_day_records`, backgroundReads' `keepMirrorDays`, on a worker
 * thread), so that the first reconciliation of a month reads kept days, not its entries. Days
 * already kept are left as they are; a day a sync changed is kept again.
 */
import type { AppPart } from '../appContext';
import { createServiceClock } from '../api/serviceClock';
import { lagosDayStartMs, lagosToday, monthStartDay, shiftDay } from '../../shared/localDates';
import { keepMirrorDays } from './backgroundReads';

export interface DayKeeping {
  /** The last keeping started, once it is over (the days it kept); tests await it instead of polling. */
  settled(): Promise<number>;
  off(): void;
}

export function keepDaysAfterSyncs(app: AppPart<'events' | 'onClose' | 'db' | 'connection' | 'service'>): DayKeeping {
  let keeping = false;
  let last: Promise<number> = Promise.resolve(0);
  const off = app.events.on('sync.progress', (p) => {
    // (One keeping at a time: a sync that ends meanwhile is kept by the next one's turn.)
    if (p.state !== 'done' || keeping) return;
    let today: string;
    try {
      today = lagosToday(app.service(createServiceClock).now());
    } catch {
      return; // no connection to read the service's clock: nothing synced either
    }
    const from = monthStartDay(shiftDay(monthStartDay(today), -1));
    keeping = true;
    last = keepMirrorDays(app.db.name, app.connection.profileId, new Date(lagosDayStartMs(from)).toISOString(), new Date(lagosDayStartMs(today)).toISOString()).finally(
      () => (keeping = false),
    );
  });
  app.onClose(() => off());
  return { settled: () => last, off };
}
