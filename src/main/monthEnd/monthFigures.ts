/**
 * The figures of a month, as a close pack and a journal state them: spend by cost centre and type
 * (successful and pending purchases: what left the wallet, as every spend figure of vendesk counts
 * it), the refunds of failed purchases, the purchases still pending, vendesk's own messaging, the
 * wallet rolled forward between the readings around the month, and the adjustments: changes to
 * entries of closed months (a pending purchase settled, a late refund, a cost centre changed) that
 * are counted in this month because the month they belong to is closed.
 *
 * An open month is read live from the mirror; a closed month from what its close kept
 * (monthCloses.ts), so nothing written after the close changes it. The month's days are Lagos days.
 */
import { performance } from 'node:perf_hooks';
import type { ReadableDB } from '../store/readableDb';
import { lagosRangeIso } from '../../shared/localDates';
import { monthDays } from '../../shared/months';
import type { MessagingSpend } from '../../shared/contract/dashboard';
import type { RollForward } from '../../shared/contract/reconcile';
import { messagingSpend } from '../messaging/messagingSpend';
import { readMessagingCharges } from '../reconcile/localSubmissions';
import { readSnapshots } from '../reconcile/mirrorEntries';
import { chooseSnapshots, rollWalletForward, WalletFlows, type BalanceSnapshot } from '../reconcile/walletRollForward';
import type { Db } from '../store/database';
import { costCentreSql } from './costCentreOf';
import type { CostCentreSpendLine } from '../costCentres/logCostCentres';
import { adjustmentRunStart, closedMonth, type ClosedMonth } from './monthCloses';

/** Purchases of one cost centre and type: count, face value, wallet cost, commission (kobo); the cost-centre read's own line. */
export type CentreTypeLine = CostCentreSpendLine;

/** One log entry as a close pack lists it. */
export interface MonthEntry {
  logId: number;
  transactionId: string;
  phone: string;
  type: string;
  network: string;
  faceKobo: number;
  costKobo: number;
  commissionKobo: number;
  createdAt: string;
  updatedAt: string;
  status: string;
  costCentre: string;
}

/** An entry of a closed month that changed after its close, counted in this month. */
export interface AdjustmentEntry extends MonthEntry {
  wasMonth: string;
  wasStatus: string;
  wasCostCentre: string;
}

export interface MonthFigures {
  month: string;
  from: string;
  to: string;
  /** The close this month's figures were kept by; null: open, read live. */
  closed: ClosedMonth | null;
  /** Successful and pending purchases made in the month, by cost centre and type. */
  spend: CentreTypeLine[];
  /** Failed purchases made in the month: debited and refunded, never counted as spend. */
  refunds: { count: number; faceKobo: number; costKobo: number };
  /** Purchases of the month still pending (at the close, for a closed month). */
  pending: { count: number; faceKobo: number; costKobo: number };
  /** Changes to entries of closed months counted here, net by cost centre and type (negative: taken out). */
  adjustments: CentreTypeLine[];
  /** Of the adjustments: refunds that arrived for purchases counted as spend in a closed month. */
  adjustmentRefunds: { count: number; costKobo: number };
  adjustmentCount: number;
  messaging: MessagingSpend;
  wallet: RollForward;
}

const spent = (status: string): boolean => status === 'SUCCESS' || status === 'PENDING';

const ENTRY_COLUMNS = `le.id AS logId, le.transaction_id AS transactionId, le.phone_number AS phone, le.type AS type, le.network AS network,
  le.amount_kobo AS faceKobo, le.cost_kobo AS costKobo, le.commission_kobo AS commissionKobo, le.created_at AS createdAt, le.updated_at AS updatedAt`;

/** The month's own entries, with their state: live from the mirror, or as the close kept them. */
export function ownEntriesSql(closed: boolean, status: string | null = null): string {
  if (closed) {
    return `SELECT ${ENTRY_COLUMNS}, s.status AS status, s.cost_centre AS costCentre
              FROM month_close_entries s JOIN log_entries le ON le.profile_id = s.profile_id AND le.id = s.log_id
             WHERE s.profile_id = @profile AND s.month = @month AND s.own = 1${status ? ` AND s.status = '${status}'` : ''}`;
  }
  const cc = costCentreSql('le');
  return `SELECT ${ENTRY_COLUMNS}, le.status AS status, ${cc.expr} AS costCentre
            FROM log_entries le ${cc.join}
           WHERE le.profile_id = @profile AND le.created_at >= @fromIso AND le.created_at < @untilIso${status ? ` AND le.status = '${status}'` : ''}`;
}

/** The adjustments counted in the month: kept by its close, or found now (entries of the closed months before it whose state or cost centre moved). */
export function adjustmentsSql(closed: boolean): string {
  if (closed) {
    return `SELECT ${ENTRY_COLUMNS}, s.status AS status, s.cost_centre AS costCentre, s.was_month AS wasMonth, s.was_status AS wasStatus, s.was_cost_centre AS wasCostCentre
              FROM month_close_entries s JOIN log_entries le ON le.profile_id = s.profile_id AND le.id = s.log_id
             WHERE s.profile_id = @profile AND s.month = @month AND s.own = 0`;
  }
  const cc = costCentreSql('le');
  return `SELECT * FROM (
            SELECT ${ENTRY_COLUMNS}, le.status AS status, ${cc.expr} AS costCentre, s.month AS wasMonth, s.status AS wasStatus, s.cost_centre AS wasCostCentre
              FROM month_close_entries s
              JOIN month_closes c ON c.profile_id = s.profile_id AND c.month = s.month AND c.state = 'closed'
              JOIN log_entries le ON le.profile_id = s.profile_id AND le.id = s.log_id ${cc.join}
             WHERE s.profile_id = @profile AND s.month >= @runStart AND s.month < @month
               AND NOT EXISTS (SELECT 1 FROM month_close_entries s2 JOIN month_closes c2 ON c2.profile_id = s2.profile_id AND c2.month = s2.month AND c2.state = 'closed'
                                WHERE s2.profile_id = s.profile_id AND s2.log_id = s.log_id AND s2.month > s.month))
           WHERE status <> wasStatus OR costCentre <> wasCostCentre`;
}

export interface MonthQuery {
  profile: string;
  month: string;
  fromIso: string;
  untilIso: string;
  runStart: string;
}

export function monthQuery(db: ReadableDB, profileId: string, month: string): MonthQuery {
  const { from, to } = monthDays(month);
  const { fromIso, untilIso } = lagosRangeIso(from, to);
  return { profile: profileId, month, fromIso: fromIso ?? '', untilIso: untilIso ?? '', runStart: adjustmentRunStart(db, profileId, month) };
}

/** Every entry of the month (as kept at its close when closed), in time order, one at a time. */
export function monthEntries(db: ReadableDB, q: MonthQuery, closed: boolean, where: 'all' | 'pending' | 'failed' = 'all'): IterableIterator<MonthEntry> {
  const status = where === 'pending' ? 'PENDING' : where === 'failed' ? 'FAILED' : null;
  return db.prepare(`SELECT * FROM (${ownEntriesSql(closed, status)}) ORDER BY createdAt, logId`).iterate(q) as IterableIterator<MonthEntry>;
}

export function adjustmentEntries(db: ReadableDB, q: MonthQuery, closed: boolean): IterableIterator<AdjustmentEntry> {
  return db.prepare(`SELECT * FROM (${adjustmentsSql(closed)}) ORDER BY createdAt, logId`).iterate(q) as IterableIterator<AdjustmentEntry>;
}

/** Net adjustment lines (by cost centre and type) and the late refunds among them. */
export function netAdjustments(entries: Iterable<AdjustmentEntry>): { lines: CentreTypeLine[]; refunds: { count: number; costKobo: number }; count: number } {
  const lines = new Map<string, CentreTypeLine>();
  const add = (costCentre: string, type: string, sign: 1 | -1, e: MonthEntry) => {
    const key = `${costCentre}\u0000${type}`;
    const line = lines.get(key) ?? { costCentre, type, purchases: 0, faceKobo: 0, costKobo: 0, commissionKobo: 0 };
    line.purchases += sign;
    line.faceKobo += sign * e.faceKobo;
    line.costKobo += sign * e.costKobo;
    line.commissionKobo += sign * e.commissionKobo;
    lines.set(key, line);
  };
  const refunds = { count: 0, costKobo: 0 };
  let count = 0;
  for (const e of entries) {
    count++;
    const was = spent(e.wasStatus);
    const now = spent(e.status);
    if (was) add(e.wasCostCentre, e.type, -1, e);
    if (now) add(e.costCentre, e.type, 1, e);
    if (was && !now) {
      refunds.count++;
      refunds.costKobo += e.costKobo;
    } else if (!was && now) {
      refunds.count--;
      refunds.costKobo -= e.costKobo;
    }
  }
  const sorted = [...lines.values()]
    .filter((l) => l.purchases !== 0 || l.faceKobo !== 0 || l.costKobo !== 0)
    .sort((a, b) => a.costCentre.localeCompare(b.costCentre) || a.type.localeCompare(b.type));
  return { lines: sorted, refunds, count };
}

interface Sums {
  costCentre: string;
  type: string;
  status: string;
  purchases: number;
  faceKobo: number;
  costKobo: number;
  commissionKobo: number;
}

/**
 * The spans of time between the readings' windows, in which every purchase is surely between two
 * readings (`[fromIso, untilIso)` exclusive of both ends, UTC ISO): none touches a reading's
 * window (the readings' own instants and answers' seconds are their ends), so the roll-forward
 * counts each purchase in one the same way, whatever its exact time.
 */
function clearSpans(readings: readonly BalanceSnapshot[]): { fromIso: string; untilIso: string }[] {
  const points = [...new Set(readings.flatMap((s) => [s.atMs, s.toMs ?? s.atMs]))].sort((a, b) => a - b);
  const spans: { fromIso: string; untilIso: string }[] = [];
  for (let k = 0; k + 1 < points.length; k++) {
    const mid = (points[k] + points[k + 1]) / 2;
    if (readings.some((s) => s.atMs <= mid && mid <= (s.toMs ?? s.atMs))) continue;
    spans.push({ fromIso: new Date(points[k]).toISOString(), untilIso: new Date(points[k + 1]).toISOString() });
  }
  return spans;
}

/**
 * The wallet rolled forward between the readings around the month, from the mirror and vendesk's
 * messaging. The roll-forward places each movement against the readings one by one only where
 * that can matter — a purchase in a reading's window, a failed one and its refund; the successful
 * and pending purchases of each span between the readings' windows are counted whatever their
 * exact times, so they are summed in SQL (from the month's covering index: no row leaves the
 * database) and given to it as one movement per span and state. The figures are the ones the
 * roll-forward makes of every entry one by one (test/unit/monthEnd/monthWallet.test.ts).
 */
export function monthWallet(db: Db, q: MonthQuery): RollForward {
  const startMs = Date.parse(q.fromIso);
  const endMs = Date.parse(q.untilIso);
  const snapshots = readSnapshots(db, q.profile);
  const chosen = chooseSnapshots(snapshots, startMs, endMs);
  let flows = new WalletFlows(0);
  if (chosen) {
    const windowFrom = new Date(chosen.opening.atMs).toISOString();
    const windowUntil = new Date((chosen.closing.toMs ?? chosen.closing.atMs) + 1).toISOString();
    const spans = clearSpans(chosen.between).filter((span) => span.untilIso > windowFrom && span.fromIso < windowUntil);
    const inSpans = spans.length > 0 ? spans.map((_, k) => `(created_at > @from${k} AND created_at < @until${k})`).join(' OR ') : '0';
    const params: Record<string, string> = { profile: q.profile, windowFrom, windowUntil };
    spans.forEach((span, k) => {
      params[`from${k}`] = span.fromIso;
      params[`until${k}`] = span.untilIso;
    });
    const sums = db.prepare(
      `SELECT sum(CASE WHEN status = 'SUCCESS' THEN cost_kobo END) AS success, min(CASE WHEN status = 'SUCCESS' THEN created_at END) AS successAt,
              sum(CASE WHEN status = 'PENDING' THEN cost_kobo END) AS pending, min(CASE WHEN status = 'PENDING' THEN created_at END) AS pendingAt
         FROM log_entries WHERE profile_id = @profile AND created_at > @from AND created_at < @until AND created_at >= @windowFrom AND created_at < @windowUntil
          AND status IN ('SUCCESS', 'PENDING')`,
    );
    const perSpan = spans.map((span) => sums.get({ profile: q.profile, from: span.fromIso, until: span.untilIso, windowFrom, windowUntil }) as SpanSums);
    // One by one: everything else of the window, and the failed purchases of before it refunded in it
    // (two queries: one OR of both read every entry of the connection's history from the table).
    const oneByOne = [
      `FROM log_entries WHERE profile_id = @profile AND created_at >= @windowFrom AND created_at < @windowUntil
          AND (status NOT IN ('SUCCESS', 'PENDING') OR NOT (${inSpans}))`,
      `FROM log_entries WHERE profile_id = @profile AND created_at < @windowFrom AND status = 'FAILED' AND updated_at >= @windowFrom AND updated_at < @windowUntil`,
    ];
    const count = oneByOne.reduce((n, from) => n + (db.prepare(`SELECT count(*) AS n ${from}`).get(params) as { n: number }).n, 0);
    flows = new WalletFlows(count + 2 * perSpan.length);
    let i = 0;
    for (const from of oneByOne) {
      const rows = db.prepare(`SELECT cost_kobo AS cost, status, created_at AS created, updated_at AS updated ${from}`).raw().iterate(params) as IterableIterator<
        [number, string, string, string]
      >;
      for (const [cost, status, created, updated] of rows) {
        const debit = Date.parse(created);
        flows.push(cost, status === 'SUCCESS' ? 1 : status === 'FAILED' ? 2 : 3, debit, status === 'FAILED' ? Date.parse(updated) || debit : NaN, 1, i++);
      }
    }
    for (const s of perSpan) {
      if (s.successAt !== null) flows.push(s.success ?? 0, 1, Date.parse(s.successAt), NaN, 1, i++);
      if (s.pendingAt !== null) flows.push(s.pending ?? 0, 3, Date.parse(s.pendingAt), NaN, 1, i++);
    }
  }
  const messaging = chosen ? readMessagingCharges(db, q.profile, chosen.opening.atMs, (chosen.closing.toMs ?? chosen.closing.atMs) + 1) : [];
  const { missingRefunds: _named, ...rollForward } = rollWalletForward(snapshots, flows, startMs, endMs, messaging);
  return rollForward;
}

interface SpanSums {
  success: number | null;
  successAt: string | null;
  pending: number | null;
  pendingAt: string | null;
}

/** The month's figures: live when it is open, as its close kept them when it is closed. */
/** Milliseconds each step of a month's figures took (`spend`, `adjustments`, `messaging`, `wallet`), for bench/closePack.bench.ts. */
export type FigureTimings = Partial<Record<'spend' | 'adjustments' | 'messaging' | 'wallet', number>>;

function timed<T>(timings: FigureTimings | undefined, step: keyof FigureTimings, run: () => T): T {
  if (!timings) return run();
  const t0 = performance.now();
  const result = run();
  timings[step] = performance.now() - t0;
  return result;
}

export function monthFigures(db: Db, profileId: string, month: string, timings?: FigureTimings): MonthFigures {
  const { from, to } = monthDays(month);
  const q = monthQuery(db, profileId, month);
  const closed = closedMonth(db, profileId, month);
  const sums = timed(
    timings,
    'spend',
    () =>
      db
        .prepare(
          `SELECT costCentre, type, status, count(*) AS purchases, COALESCE(sum(faceKobo), 0) AS faceKobo, COALESCE(sum(costKobo), 0) AS costKobo, COALESCE(sum(commissionKobo), 0) AS commissionKobo
         FROM (${ownEntriesSql(closed !== null)}) GROUP BY costCentre, type, status ORDER BY costCentre, type`,
        )
        .all(q) as Sums[],
  );
  const spend = new Map<string, CentreTypeLine>();
  const refunds = { count: 0, faceKobo: 0, costKobo: 0 };
  const pending = { count: 0, faceKobo: 0, costKobo: 0 };
  for (const s of sums) {
    if (!spent(s.status)) {
      refunds.count += s.purchases;
      refunds.faceKobo += s.faceKobo;
      refunds.costKobo += s.costKobo;
      continue;
    }
    if (s.status === 'PENDING') {
      pending.count += s.purchases;
      pending.faceKobo += s.faceKobo;
      pending.costKobo += s.costKobo;
    }
    const key = `${s.costCentre}\u0000${s.type}`;
    const line = spend.get(key) ?? { costCentre: s.costCentre, type: s.type, purchases: 0, faceKobo: 0, costKobo: 0, commissionKobo: 0 };
    line.purchases += s.purchases;
    line.faceKobo += s.faceKobo;
    line.costKobo += s.costKobo;
    line.commissionKobo += s.commissionKobo;
    spend.set(key, line);
  }
  const adjustments = timed(timings, 'adjustments', () => netAdjustments(adjustmentEntries(db, q, closed !== null)));
  const kept = closed?.figures;
  return {
    month,
    from,
    to,
    closed,
    spend: [...spend.values()],
    refunds,
    pending,
    adjustments: adjustments.lines,
    adjustmentRefunds: adjustments.refunds,
    adjustmentCount: adjustments.count,
    messaging: kept?.messaging ?? timed(timings, 'messaging', () => messagingSpend(db, profileId, q.fromIso, q.untilIso)),
    wallet: kept?.wallet ?? timed(timings, 'wallet', () => monthWallet(db, q)),
  };
}

/** Totals of lines: purchases, face value, wallet cost, commission. */
export function totalOf(lines: readonly CentreTypeLine[]): Omit<CentreTypeLine, 'costCentre' | 'type'> {
  const t = { purchases: 0, faceKobo: 0, costKobo: 0, commissionKobo: 0 };
  for (const l of lines) {
    t.purchases += l.purchases;
    t.faceKobo += l.faceKobo;
    t.costKobo += l.costKobo;
    t.commissionKobo += l.commissionKobo;
  }
  return t;
}
