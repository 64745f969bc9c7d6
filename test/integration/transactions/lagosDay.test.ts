/**
 * The business day is Lagos's (UTC+1), and vendesk's own purchases reach every summary at once.
 *
 * The sandbox's clock is moved to 23:30 UTC, which is 00:30 of the next day in Lagos, and airtime
 * is bought there through vendesk. Without any sync, that Lagos day's Transactions filter,
 * Dashboard "today", `vendesk logs --from/--to` and `vendesk report spend` all show it, agree with
 * each other and with the service's own log (GET /logEntries) and wallet; the UTC day before does
 * not hold it. A purchase the service fails is refunded: it is stated apart, at what the wallet got
 * back, and counted in no spend. Day arithmetic here is written apart from vendesk's own helpers.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LogEntry } from '../../../src/shared/wire';
import { costKoboOf, faceKoboOf, serviceLog } from '../../support/serviceSpend';
import { startTestApp, type TestApp } from '../../support/testApp';
import { runInProcess } from '../cli/cliHarness';
import { pauseLoop } from '../purchases/purchaseHelpers';
import { receiptOf } from '../../support/receiptOf';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const ymd = (ms: number) => new Date(ms).toISOString().slice(0, 10);
/** `2026-11-28` → `28 Nov 2026`. */
function dayText(day: string): string {
  const [y, m, d] = day.split('-').map(Number);
  return `${d} ${new Date(Date.UTC(y, m - 1, d)).toLocaleString('en-GB', { month: 'short', timeZone: 'UTC' })} ${y}`;
}

let t: TestApp;
/** The Lagos day of the purchases (the day after the UTC day they were made in). */
let lagosDay: string;
let utcDay: string;
let mine: LogEntry[];
let bought: { face: number; cost: number };
let walletBefore: number;
let walletAfter: number;

async function cli(args: string[]): Promise<Record<string, unknown>> {
  const r = await runInProcess(['--data-dir', t.dataDir, '--base-url', t.sandbox.url, '--json', ...args], { VENDESK_TOKEN: t.token });
  if (r.code !== 0) throw new Error(`vendesk ${args.join(' ')} exited ${r.code}: ${r.stdout} ${r.stderr}`);
  return JSON.parse(r.stdout) as Record<string, unknown>;
}

beforeAll(async () => {
  t = await startTestApp();
  pauseLoop(t);
  // Move the service's clock to the next 23:30 UTC: 00:30 in Lagos, the next Lagos day.
  const now = Date.parse((await t.sandboxControl.clock()).now);
  let target = Math.floor(now / DAY_MS) * DAY_MS + 23.5 * HOUR_MS;
  if (target <= now + 60_000) target += DAY_MS;
  await t.sandboxControl.advanceClock(Math.ceil((target - now) / 1000) + 5);
  utcDay = ymd(target);
  lagosDay = ymd(target + DAY_MS);

  walletBefore = (await t.call('account.balance', {})).balanceKobo;
  await receiptOf(t.call('purchases.buyTopUp', { kind: 'airtime', phone: '08031230001', amountKobo: 150_000, repeat: false }));
  await receiptOf(t.call('purchases.buyTopUp', { kind: 'airtime', phone: '08031230002', amountKobo: 70_000, repeat: false }));
  // A number ending 9999 is accepted and FAILED by the service 5 s later: refunded.
  await receiptOf(t.call('purchases.buyTopUp', { kind: 'airtime', phone: '08031239999', amountKobo: 100_000, repeat: false }));
  walletAfter = (await t.call('account.balance', {})).balanceKobo;
  mine = (await serviceLog(t)).filter((e) => e.phone_number.endsWith('0001') || e.phone_number.endsWith('0002') || e.phone_number.endsWith('9999'));
  const spent = mine.filter((e) => e.status !== 'FAILED');
  bought = { face: spent.reduce((s, e) => s + faceKoboOf(e), 0), cost: spent.reduce((s, e) => s + costKoboOf(e), 0) };
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('a purchase at 00:30 in Lagos (23:30 UTC the day before)', () => {
  it('is logged by the service at 23:30 UTC of the day before, and the wallet paid its cost', () => {
    expect(mine).toHaveLength(3);
    for (const e of mine) expect(e.created_at.slice(0, 10)).toBe(utcDay);
    expect(mine.filter((e) => e.status === 'FAILED')).toHaveLength(1);
    // What left the wallet: the cost of the two that succeeded, the failed one refunded.
    expect(walletBefore - walletAfter).toBe(bought.cost);
    expect(bought.cost).toBeLessThan(bought.face);
  });

  it("is in that Lagos day's Transactions filter at once (no sync), and not in the UTC day before", async () => {
    const totals = await t.call('logs.totals', { filter: { from: lagosDay, to: lagosDay } });
    expect(totals.count).toBe(3);
    expect({ face: totals.amountKobo, cost: totals.costKobo }).toEqual(bought);
    const failed = mine.find((e) => e.status === 'FAILED') as LogEntry;
    expect(totals.refunded).toEqual({ count: 1, amountKobo: faceKoboOf(failed), costKobo: costKoboOf(failed) });
    expect(totals.commissionKobo).toBe(bought.face - bought.cost);
    const before = await t.call('logs.totals', { filter: { from: utcDay, to: utcDay } });
    expect(before.count).toBe(0);
    const rows = await t.call('logs.query', { filter: { from: lagosDay, to: lagosDay }, sort: 'time_desc', offset: 0, limit: 10 });
    expect(rows.rows.map((r) => r.transactionId).sort()).toEqual(mine.map((e) => e.transaction_id).sort());
  });

  it('is in the Dashboard’s "Spent today", with the refund apart', async () => {
    const summary = await t.call('dashboard.summary', {});
    expect(summary.today).toBe(lagosDay);
    expect(summary.spend.today).toMatchObject({ purchases: 2, faceKobo: bought.face, costKobo: bought.cost, refunded: { count: 1 } });
    const chartToday = summary.dailyByType[summary.dailyByType.length - 1];
    expect(chartToday.day).toBe(lagosDay);
    expect(chartToday.costs.AIRTIME).toBe(bought.cost);
  });

  it('is what `vendesk logs --from/--to` and `vendesk report spend` give for that Lagos day, in agreement', async () => {
    const logs = await cli(['logs', '--from', lagosDay, '--to', lagosDay]);
    expect(logs.total).toBe(3);
    expect(logs.cost).toBe(bought.cost / 100);
    expect(logs.amount).toBe(bought.face / 100);
    expect((logs.refunded as { count: number }).count).toBe(1);
    const report = await cli(['report', 'spend', '--from', lagosDay, '--to', lagosDay]);
    expect({ purchases: report.purchases, faceValue: report.faceValue, walletCost: report.walletCost, commission: report.commission }).toEqual({
      purchases: 2,
      faceValue: logs.amount,
      walletCost: logs.cost,
      commission: logs.commission,
    });
    expect((report.refunded as { count: number }).count).toBe(1);
    const dayBefore = await cli(['logs', '--from', utcDay, '--to', utcDay]);
    expect(dayBefore.total).toBe(0);
  });

  it('is named in Lagos time, day first, by the duplicate warning of buying it again', async () => {
    const check = await t.call('purchases.checkTopUp', { kind: 'airtime', phone: '08031230001', amountKobo: 150_000 });
    // When it was bought as the service's log has it (00:30 in Lagos, on the Lagos day after the
    // UTC day), not when this computer, whose clock the test did not move, recorded it.
    const entry = mine.find((e) => e.phone_number.endsWith('0001'));
    const at = Date.parse(entry?.created_at ?? '') + HOUR_MS;
    const lagosTime = `${dayText(lagosDay)}, ${new Date(at).toISOString().slice(11, 16)}`;
    expect(lagosTime).toMatch(/, 00:\d\d$/); // the purchases follow 23:30 UTC within beforeAll's two minutes
    expect(check.recent).toContain(`(${lagosTime}, reference ${entry?.transaction_id}`);
    expect(check.recent).not.toContain('UTC');
    expect(check.recent).not.toMatch(/\d{4}-\d{2}-\d{2}/);
    // The confirmation says what the wallet will be charged: the same product cost this much in the log.
    const same = mine.find((e) => e.phone_number.endsWith('0001')) as LogEntry;
    expect(check.amountKobo).toBe(150_000);
    expect(check.expectedCostRateKnown).toBe(true);
    expect(check.expectedCostKobo).toBe(costKoboOf(same));
    expect(check.expectedCostKobo).toBeLessThan(150_000);
  });

  it('is exported with its time as a real date in Lagos time, the zone named on the header', async () => {
    const file = await t.call('logs.export', { filter: { from: lagosDay, to: lagosDay }, sort: 'time_asc', format: 'xlsx' });
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(file.path);
    const sheet = book.getWorksheet('Transactions');
    const headers = (sheet?.getRow(1).values as unknown[]).map(String);
    const col = headers.indexOf('Time (Lagos)');
    expect(col).toBeGreaterThan(0);
    expect(String(sheet?.getRow(1).getCell(col).note)).toContain('Lagos');
    const cell = sheet?.getRow(2).getCell(col).value as Date;
    expect(cell).toBeInstanceOf(Date);
    // The cell's wall-clock time is Lagos's: 00:30 of the Lagos day (the service logged 23:30 UTC the day before).
    expect(cell.toISOString().slice(0, 16)).toBe(`${lagosDay}T00:30`);
  });

  it('is shown in Lagos time, day first, in the text of `vendesk logs`', async () => {
    const r = await runInProcess(['--data-dir', t.dataDir, '--base-url', t.sandbox.url, 'logs', '--from', lagosDay, '--to', lagosDay], { VENDESK_TOKEN: t.token });
    expect(r.stdout).toContain(`${dayText(lagosDay)}, 00:30`);
    expect(r.stdout).not.toMatch(/\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}/);
    expect(r.stdout).not.toContain('UTC');
  });
});
