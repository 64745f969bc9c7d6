/**
 * Before an occurrence is bought: its rows checked again against today's catalog (and the
 * purchases of the last 24 hours that are not the order's own), its estimated wallet cost against
 * the wallet, and its total against the spending caps of bulk jobs — each refusal a reason it waits,
 * saying what to do. Nothing here writes or sends.
 */
import type { WaitingReason, WaitingRowView } from '../../shared/contract/standing';
import { formatDay, shiftDay } from '../../shared/localDates';
import { formatNaira } from '../../shared/money';
import type { App, Session } from '../appContext';
import { confirmBlocker, readBulkSettings } from '../buying/bulkSettings';
import type { BulkService } from '../buying/bulkService';
import { catalogsFor } from '../buying/draftFromFile';
import type { NewItem } from '../buying/jobRows';
import { recentLog, recentLookupFor } from '../buying/prepareJob';
import type { RecentLookup } from '../buying/jobReads';
import { commissionRates, expectedCost } from '../transactions/expectedCost';
import { rowsForToday } from './orderRows';
import { rowsOf, type OrderRow, type StandingStore, type VersionRow } from './standingStore';

/** What one run of occurrences knows: its session, today on the service's clock, and the wallet as it runs down. */
export interface RunContext {
  session: Session;
  nowMs: number;
  today: string;
  /** The wallet, less the estimated cost of what this run started (null: it could not be read). */
  walletLeft: number | null;
  walletProblem: string | null;
}

export type TodayCheck =
  | { ok: true; items: NewItem[]; waiting: WaitingRowView[]; totalKobo: number; costKobo: number }
  | { ok: false; code: WaitingReason; reason: string; waiting: WaitingRowView[]; missingKobo?: number };

/** The recent purchases a row is compared with, less the order's own earlier runs: a monthly re-buy is the order, not a repeat. */
function outsideTheOrder(store: StandingStore, bulk: BulkService, order: OrderRow, lookup: RecentLookup): RecentLookup {
  const own = new Set(store.jobsOfOrder(order.id));
  const since = new Date(Date.now() - 2 * 86_400_000).toISOString();
  const ownRefs = new Set<string>();
  for (const jobId of own) {
    const job = bulk.reads.job(jobId);
    if (!job || job.created_at < since) continue;
    for (const i of bulk.reads.items(jobId)) if (i.reference) ownRefs.add(i.reference);
  }
  return (account, amountKobo) => lookup(account, amountKobo).filter((m) => !(m.jobId && own.has(m.jobId)) && !(m.reference && ownRefs.has(m.reference)));
}

/** The checks of an occurrence of `order` with `version`'s rows, due on `dueDay` (its grace ends `graceDays` later). */
export async function checkToday(
  app: App,
  deps: { store: StandingStore; bulk: BulkService },
  run: RunContext,
  order: OrderRow,
  version: VersionRow,
  dueDay: string,
): Promise<TodayCheck> {
  const kind = order.kind;
  const profileId = order.profile_id;
  // Today's catalog, read now: a plan repriced or withdrawn since the last run is a row that waits.
  const catalogs = await catalogsFor(app, run.session, kind, 0);
  const log = await recentLog(run.session.client, kind, run.nowMs);
  const recent = outsideTheOrder(deps.store, deps.bulk, order, recentLookupFor(deps.bulk.reads, profileId, kind, null, log.entries, run.nowMs));
  const rows = rowsOf(version);
  const today = rowsForToday(kind, rows, catalogs, recent);
  if (today.items.length === 0) {
    return { ok: false, code: 'rows', reason: `None of its ${rows.length} row(s) can be bought today; each says why. Nothing was bought.`, waiting: today.waiting };
  }
  const byProduct = new Map<string, { network: string; faceKobo: number }>();
  for (const i of today.items) {
    const key = `${i.network}|${i.productCode}`;
    const part = byProduct.get(key) ?? { network: i.network, faceKobo: 0 };
    part.faceKobo += i.amountKobo;
    byProduct.set(key, part);
  }
  const cost = expectedCost(commissionRates(app.db, profileId, run.nowMs), kind, [...byProduct.values()]).costKobo;
  const lastDay = formatDay(shiftDay(dueDay, version.grace_days));
  if (run.walletLeft === null) {
    return {
      ok: false,
      code: 'wallet_unknown',
      reason: `The wallet could not be read${run.walletProblem ? ` (${run.walletProblem.replace(/\.$/, '')})` : ''}, so nothing was bought. It is tried again at the next run until ${lastDay}.`,
      waiting: today.waiting,
    };
  }
  if (run.walletLeft < cost) {
    const missing = cost - run.walletLeft;
    return {
      ok: false,
      code: 'wallet_short',
      reason: `The wallet holds ${formatNaira(run.walletLeft)}, ${formatNaira(missing)} short of the ${formatNaira(cost)} this occurrence is expected to cost (${today.items.length} row(s), face value ${formatNaira(today.totalKobo)}). Nothing was bought: top up the wallet; it runs again at the next run until ${lastDay}, or Run now.`,
      waiting: today.waiting,
      missingKobo: missing,
    };
  }
  const blocker = confirmBlocker(
    deps.bulk.reads,
    readBulkSettings(app.settings, profileId),
    profileId,
    {
      totalKobo: today.totalKobo,
      items: today.items.length,
      walletKobo: null,
    },
    () => run.nowMs,
  );
  if (blocker) return { ok: false, code: 'limits', reason: `${blocker} Nothing was bought; it is tried again at the next run until ${lastDay}.`, waiting: today.waiting };
  return { ok: true, items: today.items, waiting: today.waiting, totalKobo: today.totalKobo, costKobo: cost };
}
