/**
 * What the mirror knows it covers (issue 38, finding 1), through the contract against a sandbox
 * with a past: a ranged first sync covers its days only, and a plain sync after it reads the whole
 * log; a report over days never read reads them first or refuses naming them; a range in the
 * future has nothing to read; today counts up to when it was read; a range read in part names each
 * gap; the Dashboard says which of its days are missing; a failed sync is told until one finishes.
 * Days come from the sandbox's clock and figures from the sandbox's own log.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { shiftDay } from '../../../src/shared/localDates';
import type { LogEntry } from '../../../src/shared/wire';
import { AppError } from '../../../src/shared/appError';
import { advanceClocks, lagosDayWithRoom } from '../../support/serviceClocks';
import { serviceLog, serviceSpend } from '../../support/serviceSpend';
import { startTestApp, type TestApp } from '../../support/testApp';
import { buyAirtimeFor } from './purchaseAirtime';

const HOUR_MS = 3_600_000;
const lagosDayOf = (iso: string) => new Date(Date.parse(iso) + HOUR_MS).toISOString().slice(0, 10);
const spentOver = (log: LogEntry[], from: string, to: string) =>
  serviceSpend(log, (e) => e.status !== 'FAILED' && lagosDayOf(e.created_at) >= from && lagosDayOf(e.created_at) <= to);

let t: TestApp | null = null;
afterEach(async () => {
  await t?.close();
  t = null;
});

/** The refusal an operation answers, or a failure of the test when it answers. */
async function refusal(call: Promise<unknown>): Promise<AppError> {
  try {
    await call;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('the call was not refused');
}

const syncsOf = (t: TestApp) => {
  let runs = 0;
  t.app.events.subscribe((e) => {
    if (e.name === 'sync.progress' && (e.payload as { state: string }).state !== 'running') runs += 1;
  });
  return () => runs;
};

describe('what the mirror covers', () => {
  it('a ranged first sync covers its days only; a plain sync after it reads the whole log, as a first sync does', async () => {
    t = await startTestApp({ seedHistory: 900 });
    const today = await lagosDayWithRoom(t);
    const day = shiftDay(today, -10);
    await t.call('sync.run', { from: day, to: day });
    const month = await t.call('logs.coverage', { from: shiftDay(today, -40), to: shiftDay(today, -1) });
    expect(month.complete).toBe(false);
    expect(month.missing).toEqual([
      { from: shiftDay(today, -40), to: shiftDay(day, -1), days: 30 },
      { from: shiftDay(day, 1), to: shiftDay(today, -1), days: 9 },
    ]);
    expect(month.syncCommand).toBe(`vendesk sync --from ${shiftDay(today, -40)} --to ${shiftDay(today, -1)}`);
    expect(await t.call('logs.coverage', { from: day, to: day })).toMatchObject({ complete: true, missing: [], read: null });
    // The whole log was never read from its start: a listing over all of it says so.
    expect(await t.call('logs.coverage', {})).toMatchObject({ complete: false, wholeLogUnread: true, syncCommand: 'vendesk sync' });

    const plain = await t.call('sync.run', {});
    expect(plain.startdate).toBeNull();
    const log = await serviceLog(t);
    expect(plain.fetched).toBe(log.length);
    expect(await t.call('logs.coverage', { from: shiftDay(today, -120), to: shiftDay(today, -1) })).toMatchObject({ complete: true, missing: [] });
    expect(await t.call('logs.coverage', {})).toMatchObject({ complete: true, wholeLogUnread: false });
    // The next plain sync re-reads the recent days only.
    const next = await t.call('sync.run', {});
    expect(next.startdate).not.toBeNull();
    expect(next.fetched).toBeLessThan(log.length);
  }, 120_000);

  it('a report over days never read reads them first (default) or refuses naming them and the sync that reads them', async () => {
    t = await startTestApp({ seedHistory: 600 });
    const today = await lagosDayWithRoom(t);
    const [from, to] = [shiftDay(today, -20), shiftDay(today, -2)];
    const refused = await refusal(t.call('reports.spend', { from, to, unread: 'refuse' }));
    expect(refused.code).toBe('days_unread');
    expect(refused.message).toMatch(/^The spend report was not written: vendesk has not read .* \(19 days\) from the service\.$/);
    expect(refused.details).toMatchObject({ syncCommand: `vendesk sync --from ${from} --to ${to}` });
    const exportRefused = await refusal(t.call('logs.export', { filter: { from, to }, format: 'csv', unread: 'refuse' }));
    expect(exportRefused.code).toBe('days_unread');

    const written = await t.call('reports.spend', { from, to });
    const service = spentOver(await serviceLog(t), from, to);
    expect(service.purchases).toBeGreaterThan(50);
    expect([written.totals.purchases, written.totals.faceKobo, written.totals.costKobo]).toEqual([service.purchases, service.faceKobo, service.costKobo]);
    expect(written.coverage).toMatchObject({ complete: true, todayReadThrough: null, notYet: null });
  }, 120_000);

  it('a range in the future has nothing to read; one reaching past today reads up to today and says the rest has not come', async () => {
    t = await startTestApp({ seedHistory: 200 });
    const today = await lagosDayWithRoom(t);
    const syncs = syncsOf(t);
    const future = await t.call('reports.spend', { from: shiftDay(today, 1), to: shiftDay(today, 5) });
    expect(syncs()).toBe(0);
    expect(future.totals.purchases).toBe(0);
    expect(future.coverage).toMatchObject({ complete: true, missing: [], notYet: { from: shiftDay(today, 1), to: shiftDay(today, 5), days: 5 } });

    const across = await t.call('reports.spend', { from: shiftDay(today, -3), to: shiftDay(today, 3) });
    expect(syncs()).toBe(1);
    expect(across.coverage).toMatchObject({ complete: true, notYet: { from: shiftDay(today, 1), to: shiftDay(today, 3), days: 3 } });
    expect(across.coverage.todayReadThrough).not.toBeNull();
    expect(across.totals.purchases).toBe(spentOver(await serviceLog(t), shiftDay(today, -3), today).purchases);
  }, 120_000);

  it('today counts up to when it was last read, and says so; never read since it began, it is missing', async () => {
    t = await startTestApp({ seedHistory: 100, creditDelayMs: 500 });
    const today = await lagosDayWithRoom(t);
    // Never read: today is missing, so a refusal names it, and reading first reads it.
    const never = await refusal(t.call('reports.spend', { from: today, to: today, unread: 'refuse' }));
    expect(never.details).toMatchObject({ syncCommand: `vendesk sync --from ${today} --to ${today}` });

    await t.call('sync.run', { from: today, to: today });
    const readAt = (await t.call('logs.coverage', { from: today, to: today })).todayReadThrough as string;
    expect(readAt).not.toBeNull();
    // Purchases made elsewhere after that read (straight at the service).
    await advanceClocks(t, 5);
    await buyAirtimeFor(t, [
      ['08031110001', 700],
      ['08031110002', 800],
    ]);
    const syncs = syncsOf(t);
    const stale = await t.call('reports.spend', { from: today, to: today });
    expect(syncs()).toBe(0);
    expect(stale.coverage).toMatchObject({ complete: true, todayReadThrough: readAt });
    const log = await serviceLog(t);
    const beforeRead = serviceSpend(log, (e) => e.status !== 'FAILED' && lagosDayOf(e.created_at) === today && e.created_at < readAt);
    expect(stale.totals.purchases).toBe(beforeRead.purchases);

    // A sync brings today up to now.
    await t.call('sync.run', {});
    const fresh = await t.call('reports.spend', { from: today, to: today, unread: 'refuse' });
    expect(Date.parse(fresh.coverage.todayReadThrough as string)).toBeGreaterThan(Date.parse(readAt));
    const now = spentOver(log, today, today);
    expect([fresh.totals.purchases, fresh.totals.faceKobo]).toEqual([now.purchases, now.faceKobo]);
    expect(fresh.totals.purchases).toBe(stale.totals.purchases + 2);
  }, 120_000);

  it('a range read in part names each gap, and reading first fills them', async () => {
    t = await startTestApp({ seedHistory: 400 });
    const today = await lagosDayWithRoom(t);
    await t.call('sync.run', { from: shiftDay(today, -15), to: shiftDay(today, -12) });
    await t.call('sync.run', { from: shiftDay(today, -6), to: shiftDay(today, -6) });
    const [from, to] = [shiftDay(today, -20), shiftDay(today, -2)];
    const refused = await refusal(t.call('logs.readMissing', { from, to, unread: 'refuse', for: 'export' }));
    expect(refused.details).toMatchObject({
      missing: [
        { from, to: shiftDay(today, -16), days: 5 },
        { from: shiftDay(today, -11), to: shiftDay(today, -7), days: 5 },
        { from: shiftDay(today, -5), to, days: 4 },
      ],
      syncCommand: `vendesk sync --from ${from} --to ${to}`,
    });
    expect(refused.message).toMatch(/^The export was not written: vendesk has not read .* \(5 days\), .* \(5 days\) and .* \(4 days\) from the service\.$/);
    expect(await t.call('logs.readMissing', { from, to })).toMatchObject({ complete: true, missing: [] });
    const totals = await t.call('logs.totals', { filter: { from, to } });
    expect(totals.amountKobo).toBe(spentOver(await serviceLog(t), from, to).faceKobo);
  }, 120_000);

  it('the Dashboard says which of its days were never read', async () => {
    t = await startTestApp({ seedHistory: 300 });
    const today = await lagosDayWithRoom(t);
    await t.call('sync.run', { from: shiftDay(today, -3), to: today });
    const summary = await t.call('dashboard.summary', {});
    expect(summary.coverage.complete).toBe(false);
    expect(summary.coverage.to).toBe(today);
    expect(summary.coverage.missing[summary.coverage.missing.length - 1].to).toBe(shiftDay(today, -4));
    expect(summary.coverage.read).toEqual({ from: summary.coverage.missing[0].from, to: shiftDay(today, -4) });
    expect(summary.coverage.todayReadThrough).not.toBeNull();
    await t.call('sync.run', summary.coverage.read ?? {});
    expect((await t.call('dashboard.summary', {})).coverage).toMatchObject({ complete: true, missing: [] });
  }, 120_000);

  it('a failed sync is told (status and the automatic sync’s view) until a sync finishes, whoever ran it', async () => {
    t = await startTestApp({ seedHistory: 50 });
    await t.call('sync.run', {});
    const finished = (await t.call('sync.status', {})).lastFinishedAt as string;
    await t.sandboxControl.addFault({ path: '/logEntries', status: 422, count: 20 });
    await refusal(t.call('sync.run', {}));
    const failed = await t.call('sync.status', {});
    expect(failed.lastFinishedAt).toBe(finished);
    expect(failed.lastFailure).not.toBeNull();
    expect(failed.lastFailure?.message).toMatch(/\S/);
    expect(failed.lastFailure!.at > finished).toBe(true);
    expect(failed.auto.lastFailure).toEqual(failed.lastFailure);
    expect((await t.call('dashboard.summary', {})).lastSyncFailure).toEqual(failed.lastFailure);

    await t.sandboxControl.clearFaults();
    await t.call('sync.run', {});
    const back = await t.call('sync.status', {});
    expect(back.lastFailure).toBeNull();
    expect(back.auto.lastFailure).toBeNull();
  }, 120_000);
});
