/**
 * What the Dashboard shows: the wallet (read live), spend today / this week / this month / the
 * last 30 days and the daily spend of the last 30 days by type and by network (from the mirror:
 * SUCCESS and PENDING entries, failed ones were refunded; and vendesk's own messaging, SMS, e-mail
 * copies and one-time codes, on a line of its own and in what left the wallet), the pending count
 * and the last sync.
 * Spend is always both figures of the log: the face value (`amount`, what the customers got) and
 * the wallet cost (`transaction_cost`, what the wallet was charged: face value less commission).
 *
 * Days and weeks are Lagos days (src/shared/localDates.ts; the log's timestamps are UTC and are
 * converted there); a week starts on Monday. Refunded (FAILED) purchases are counted apart.
 *
 * On a first start the mirror of the active profile is empty and was never synced: asking for
 * the summary starts a sync in the background so a new user sees their history.
 */
import type { DashboardSummary, SpendFigures, SpendPoint } from '../../shared/contract/dashboard';
import { lagosRangeIso, lagosToday, monthStartDay, shiftDay, weekStartDay } from '../../shared/localDates';
import type { App } from '../appContext';
import { createServiceClock } from '../api/serviceClock';
import { countPendingItems } from '../pending/pendingItems';
import { AWAITING_ANSWER_STATES } from '../buying/jobStates';
import { mirrorEntryCount } from '../transactions/logQuery';
import { logSync } from '../transactions/logSync';
import { readWallet } from '../transactions/balanceSnapshots';
import { failureSinceLastSync, readCheckpoint } from '../transactions/syncCheckpoint';
import { mirrorCoverage } from '../transactions/logCoverage';
import { messagingSpend } from '../messaging/messagingSpend';
import type { ReadableDB } from '../store/readableDb';

const SPENT = "status IN ('SUCCESS', 'PENDING')";

/**
 * Spend from the start of a Lagos day on — purchases, and vendesk's messaging on its own line —
 * with the refunded purchases of the period apart. The mirror's part is read from its totals per
 * Lagos day (`log_day_totals`, kept by triggers as entries land: src/main/store/logDayTotals.ts),
 * a few hundred rows a month, not the month's entries.
 */
export function spendSince(db: ReadableDB, profileId: string, fromDay: string): SpendFigures {
  const from = lagosRangeIso(fromDay).fromIso ?? '';
  const r = db
    .prepare(
      `SELECT COALESCE(SUM(CASE WHEN ${SPENT} THEN entries END), 0) AS purchases,
              COALESCE(SUM(CASE WHEN ${SPENT} THEN face_kobo END), 0) AS faceKobo,
              COALESCE(SUM(CASE WHEN ${SPENT} THEN cost_kobo END), 0) AS costKobo,
              COALESCE(SUM(CASE WHEN status = 'FAILED' THEN entries END), 0) AS refundedCount,
              COALESCE(SUM(CASE WHEN status = 'FAILED' THEN cost_kobo END), 0) AS refundedCostKobo
         FROM log_day_totals WHERE profile_id = ? AND day >= ?`,
    )
    .get(profileId, fromDay) as { purchases: number; faceKobo: number; costKobo: number; refundedCount: number; refundedCostKobo: number };
  const messaging = messagingSpend(db, profileId, from);
  return {
    purchases: r.purchases,
    faceKobo: r.faceKobo,
    costKobo: r.costKobo,
    refunded: { count: r.refundedCount, costKobo: r.refundedCostKobo },
    messaging,
    walletKobo: r.costKobo + messaging.costKobo,
  };
}

/** The daily chart, from the totals per Lagos day as `spendSince`. */
export function dailySeries(db: ReadableDB, profileId: string, column: 'type' | 'network', days: string[]): { points: SpendPoint[]; keys: string[] } {
  const rows = db
    .prepare(
      `SELECT day, ${column} AS k, SUM(face_kobo) AS face, SUM(cost_kobo) AS cost FROM log_day_totals
        WHERE profile_id = ? AND day >= ? AND ${SPENT} GROUP BY day, k HAVING SUM(entries) > 0`,
    )
    .all(profileId, days[0]) as { day: string; k: string; face: number; cost: number }[];
  const byDay = new Map<string, SpendPoint>(days.map((day) => [day, { day, values: {}, costs: {} }]));
  const totals = new Map<string, number>();
  for (const r of rows) {
    const point = byDay.get(r.day);
    if (!point) continue;
    point.values[r.k] = r.face;
    point.costs[r.k] = r.cost;
    totals.set(r.k, (totals.get(r.k) ?? 0) + r.face);
  }
  const keys = [...totals.entries()].sort((a, b) => b[1] - a[1]).map(([k]) => k);
  return { points: [...byDay.values()], keys };
}

/**
 * Airtime and data vendesk bought (one number, or a spreadsheet's rows) still waiting for their
 * final answer. Electricity and cable rows are counted with their purchases (`countPendingItems`).
 */
function awaitingAirtimeData(db: ReadableDB, profileId: string): number {
  const states = AWAITING_ANSWER_STATES;
  return db
    .prepare(
      `SELECT COUNT(*) FROM bulk_items b JOIN bulk_jobs j ON j.id = b.job_id
        WHERE j.profile_id = ? AND j.kind IN ('airtime', 'data') AND b.state IN (${states.map(() => '?').join(', ')})`,
    )
    .pluck()
    .get(profileId, ...states) as number;
}

/** `now`: the service's clock (as the log's times are), so a sandbox whose clock was moved shows its own today. */
export async function dashboardSummary(app: App, now = new Date(app.service(createServiceClock).now())): Promise<DashboardSummary> {
  // One connection for every figure: its wallet, its log and its purchases.
  const session = app.session();
  const profileId = session.connection.profileId;
  const db: ReadableDB = app.db; // the Dashboard only reads
  const sync = logSync(app);
  const entries = mirrorEntryCount(db, profileId);
  const checkpoint = readCheckpoint(app.db, profileId);
  // Never synced (entries vendesk mirrored right after its own purchases are not a sync): read the log.
  if (checkpoint.lastFinishedAt === null && checkpoint.run === null && !sync.isRunning()) sync.start();

  let balance: DashboardSummary['balance'] = null;
  let balanceError: DashboardSummary['balanceError'] = null;
  try {
    const w = await readWallet(app, 'dashboard', session);
    balance = { balanceKobo: w.balanceKobo, accountName: w.accountName, readAt: new Date().toISOString() };
  } catch (error) {
    balanceError = { message: error instanceof Error ? error.message : String(error), hint: (error as { hint?: string }).hint };
  }

  const today = lagosToday(now.getTime());
  const days = Array.from({ length: 30 }, (_, i) => shiftDay(today, i - 29));
  const byType = dailySeries(db, profileId, 'type', days);
  const byNetwork = dailySeries(db, profileId, 'network', days);

  let pendingCount: number;
  let pendingSource: DashboardSummary['pendingSource'];
  let pendingAirtimeData = 0;
  try {
    pendingAirtimeData = awaitingAirtimeData(db, profileId);
    pendingCount = countPendingItems(app, session.connection) + pendingAirtimeData;
    pendingSource = 'purchases';
  } catch {
    pendingCount = db.prepare("SELECT COUNT(*) FROM log_entries WHERE profile_id = ? AND status = 'PENDING'").pluck().get(profileId) as number;
    pendingSource = 'mirror';
  }

  return {
    balance,
    balanceError,
    spend: {
      today: spendSince(db, profileId, today),
      week: spendSince(db, profileId, weekStartDay(today)),
      month: spendSince(db, profileId, monthStartDay(today)),
      last30Days: spendSince(db, profileId, days[0]),
    },
    today,
    dailyByType: byType.points,
    dailyByNetwork: byNetwork.points,
    typeKeys: byType.keys,
    networkKeys: byNetwork.keys,
    pendingCount,
    pendingAirtimeData,
    pendingSource,
    lastSyncAt: checkpoint.lastFinishedAt,
    lastSyncFailure: failureSinceLastSync(checkpoint),
    syncing: sync.isRunning(),
    entries,
    // Every card's days: the month's and the chart's, to today. A card over days never read says so (never a silent short figure).
    coverage: mirrorCoverage(db, profileId, { from: monthStartDay(today) < days[0] ? monthStartDay(today) : days[0], to: today }, now.getTime()),
  };
}
