/**
 * The Dashboard's spend after real purchases and a sync: today, this week, this month and the last
 * 30 days, and the daily chart, each as face value and wallet cost, equal to the service's own log
 * (its amounts and transaction_cost) for successful and pending purchases of the period.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DashboardSummary } from '../../../src/shared/contract/dashboard';
import type { LogEntry } from '../../../src/shared/wire';
import { serviceLog, serviceSpend } from '../../support/serviceSpend';
import { startTestApp, type TestApp } from '../../support/testApp';
import { lagosDayWithRoom, pauseLoop } from '../purchases/purchaseHelpers';
import { buyElectricity, meter } from '../reconcile/reconcileHelpers';
import { buyAirtimeFor } from './purchaseAirtime';

const DAY_MS = 86_400_000;
/** Lagos is UTC+1 all year: a Lagos day starts at 23:00 UTC the day before (written here apart from vendesk's own helpers). */
const LAGOS_MS = 3_600_000;
/** When a Lagos day (`YYYY-MM-DD`) starts, epoch ms. */
const lagosDayStart = (day: string) => Date.parse(`${day}T00:00:00.000Z`) - LAGOS_MS;
const figures = (f: { purchases: number; faceKobo: number; costKobo: number }) => ({ purchases: f.purchases, faceKobo: f.faceKobo, costKobo: f.costKobo });

let t: TestApp;
let summary: DashboardSummary;
let log: LogEntry[];
let seeded: LogEntry[];
/** Today on the service's clock (the Dashboard's today), with room before Lagos midnight. */
let todayStart: number;

beforeAll(async () => {
  t = await startTestApp({ seedHistory: 120 });
  pauseLoop(t);
  todayStart = lagosDayStart(await lagosDayWithRoom(t));
  // The seeded history is spread over past days and may reach into today (Lagos) already.
  seeded = await serviceLog(t);
  await buyAirtimeFor(t, [
    ['08031110001', 100],
    ['08052220003', 450],
    ['08031239999', 500], // fails and is refunded: not spent
  ]);
  await buyElectricity(t, meter(), 2500);
  await buyElectricity(t, meter('0000'), 1500); // pending: the wallet is charged
  await t.sandboxControl.advanceClock(6);
  await t.call('sync.run', {});
  summary = await t.call('dashboard.summary', {});
  log = await serviceLog(t);
});

afterAll(async () => {
  await t?.close();
});

const spent = (e: LogEntry) => e.status === 'SUCCESS' || e.status === 'PENDING';

describe('dashboard spend', () => {
  it('shows face value and wallet cost for today, this week, this month and 30 days, as the service logged them', () => {
    // Days are Lagos days (UTC+1): today, the week from Monday and the month from the 1st, in Lagos.
    const lagosToday = new Date(todayStart + LAGOS_MS);
    const weekStart = todayStart - ((lagosToday.getUTCDay() + 6) % 7) * DAY_MS;
    const monthStart = Date.UTC(lagosToday.getUTCFullYear(), lagosToday.getUTCMonth(), 1) - LAGOS_MS;
    const since = (ms: number) => (e: LogEntry) => spent(e) && Date.parse(e.created_at) >= ms;

    const today = serviceSpend(log, since(todayStart));
    // Two airtime purchases and two electricity purchases today, beside what the seeded history
    // already had today; the failed one is not spend.
    expect(today.purchases).toBe(serviceSpend(seeded, since(todayStart)).purchases + 4);
    expect(today.costKobo).toBeLessThan(today.faceKobo); // the commission
    expect(figures(summary.spend.today)).toEqual(today);
    expect(figures(summary.spend.week)).toEqual(serviceSpend(log, since(weekStart)));
    expect(figures(summary.spend.month)).toEqual(serviceSpend(log, since(monthStart)));
    // The refunded purchase is stated apart, at what the wallet got back (its log cost).
    const refundedToday = serviceSpend(log, (e) => e.status === 'FAILED' && Date.parse(e.created_at) >= todayStart);
    expect(refundedToday.purchases).toBeGreaterThanOrEqual(1);
    expect(summary.spend.today.refunded).toEqual({ count: refundedToday.purchases, costKobo: refundedToday.costKobo });
    const last30 = serviceSpend(log, since(todayStart - 29 * DAY_MS));
    expect(last30.purchases).toBeGreaterThan(today.purchases); // the seeded history reaches into it
    expect(figures(summary.spend.last30Days)).toEqual(last30);
  });

  it("adds up the chart's bars to the same face value and wallet cost, by type and by network", () => {
    const sum = (records: Record<string, number>[]) => records.reduce((s, r) => s + Object.values(r).reduce((a, b) => a + b, 0), 0);
    for (const points of [summary.dailyByType, summary.dailyByNetwork]) {
      expect(points).toHaveLength(30);
      expect(sum(points.map((p) => p.values))).toBe(summary.spend.last30Days.faceKobo);
      expect(sum(points.map((p) => p.costs))).toBe(summary.spend.last30Days.costKobo);
      const today = points[points.length - 1];
      expect(sum([today.values])).toBe(summary.spend.today.faceKobo);
      expect(sum([today.costs])).toBe(summary.spend.today.costKobo);
    }
    const electricityToday = serviceSpend(log, (e) => spent(e) && e.type === 'ELECTRICITY' && Date.parse(e.created_at) >= todayStart);
    const todayByType = summary.dailyByType[summary.dailyByType.length - 1];
    expect({ face: todayByType.values.ELECTRICITY, cost: todayByType.costs.ELECTRICITY }).toEqual({ face: electricityToday.faceKobo, cost: electricityToday.costKobo });
  });
});
