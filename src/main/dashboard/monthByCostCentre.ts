/**
 * The Dashboard's "This month by cost centre": the month's purchases (SUCCESS and PENDING, as the
 * Spent this month card counts them) by the cost centre each is charged to, through the view
 * `log_cost_centres` (src/main/costCentres/logCostCentres.ts), its types summed.
 *
 * The view joins each of the month's entries to its cost centre: ~3.6 s of CPU for a month of a
 * million entries (bench/costCentres.bench.ts). So it is read on a worker thread with its own
 * read-only connection (src/main/store/readOnWorker.ts) while the main process goes on answering,
 * one read at a time per connection and month (`latestReads`): a window asking while a read is
 * under way gets the next read, which starts when that one ends, shared by all who asked meanwhile
 * (the read under way began before the request and may miss what was just written: a sync's last
 * page, a cost centre just changed). Where no worker can read (an in-memory database), it is read
 * here.
 */
import type { CostCentreShare, DashboardCostCentres } from '../../shared/contract/dashboard';
import { lagosRangeIso, lagosToday, monthStartDay } from '../../shared/localDates';
import type { App } from '../appContext';
import { createServiceClock } from '../api/serviceClock';
import { spendByCostCentreQuery, type CostCentreSpendLine } from '../costCentres/logCostCentres';
import { readOnWorker } from '../store/readOnWorker';
import type { ReadableDB } from '../store/readableDb';

/**
 * Reads by key, one at a time: a request while a read is under way waits for it and gets the one
 * after it, which every request made meanwhile shares (never more than one waiting per key).
 */
export function latestReads<T>(): (key: string, read: () => Promise<T>) => Promise<T> {
  const reads = new Map<string, { now: Promise<T>; next: Promise<T> | null }>();
  const start = (key: string, entry: { now: Promise<T>; next: Promise<T> | null }, read: () => Promise<T>): Promise<T> => {
    const now: Promise<T> = read().finally(() => {
      if (entry.now === now && entry.next === null) reads.delete(key);
    });
    entry.now = now;
    return now;
  };
  return (key, read) => {
    const entry = reads.get(key);
    if (!entry) {
      const fresh: { now: Promise<T>; next: Promise<T> | null } = { now: Promise.resolve() as Promise<T>, next: null };
      reads.set(key, fresh);
      return start(key, fresh, read);
    }
    const after = () => {
      entry.next = null;
      return start(key, entry, read);
    };
    entry.next ??= entry.now.then(after, after);
    return entry.next;
  };
}

const monthReads = latestReads<DashboardCostCentres>();

/** `now`: the service's clock, as the summary's month. */
export function monthByCostCentre(app: App, now = new Date(app.service(createServiceClock).now())): Promise<DashboardCostCentres> {
  const profileId = app.session().connection.profileId;
  const from = monthStartDay(lagosToday(now.getTime()));
  const key = `${app.db.name}|${profileId}|${from}`;
  // No end: the month runs to now, as the summary's.
  const { sql, params } = spendByCostCentreQuery(profileId, lagosRangeIso(from).fromIso ?? '', '9999-12-31T23:59:59.999Z');
  const db: ReadableDB = app.db; // only read
  return monthReads(key, async () => {
    const lines = (await readOnWorker<CostCentreSpendLine>(app.db.name, sql, params)) ?? (db.prepare(sql).all(...params) as CostCentreSpendLine[]);
    return { from, shares: sharesOf(lines) };
  });
}

/** The lines' types summed per cost centre, in their order (Unassigned last). */
function sharesOf(lines: readonly CostCentreSpendLine[]): CostCentreShare[] {
  const shares = new Map<string, CostCentreShare>();
  for (const l of lines) {
    const s = shares.get(l.costCentre) ?? { costCentre: l.costCentre, purchases: 0, faceKobo: 0, costKobo: 0 };
    s.purchases += l.purchases;
    s.faceKobo += l.faceKobo;
    s.costKobo += l.costKobo;
    shares.set(l.costCentre, s);
  }
  return [...shares.values()];
}
