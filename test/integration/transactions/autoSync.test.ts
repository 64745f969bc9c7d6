/**
 * The open app's own sync: it syncs a few seconds after start and then every few minutes, once
 * per app however often it is started, pauses (and says why) while the service cannot be reached,
 * carries on when it answers, and follows its setting.
 */
import { describe, expect, it } from 'vitest';
import { lagosDaySql, lagosDayStartMs, monthStartDay, shiftDay } from '../../../src/shared/localDates';
import { lagosDayWithRoom } from '../../support/serviceClocks';
import { autoSync, FIRST_SYNC_DELAY_MS, startAutoSync } from '../../../src/main/transactions/autoSync';
import { keepDaysAfterSyncs } from '../../../src/main/reconcile/keepDaysAfterSync';
import type { SandboxHandle } from '../../../src/sandbox';
import type { AutoSyncView } from '../../../src/shared/contract/logs';
import { farServicePerTest } from '../../support/farService';
import type { LatencyProxy } from '../../support/latencyProxy';
import type { TestApp } from '../../support/testApp';

const far = farServicePerTest();
let t: TestApp | null = null;
let sandbox: SandboxHandle | null = null;
let proxy: LatencyProxy | null = null;

/** vendesk connected through a proxy (no delay) that can be made unreachable. */
async function start(history: number): Promise<TestApp> {
  ({ sandbox, proxy, app: t } = await far.start(history, 0));
  return t;
}

async function until<T>(what: string, read: () => T | Promise<T>, ok: (v: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() - started > timeoutMs) throw new Error(`${what}: still ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function serviceCount(token: string): Promise<number> {
  const res = await fetch(`${sandbox!.url}/logEntries?perPage=1`, { headers: { Authorization: `Bearer ${token}` } });
  return ((await res.json()) as { data: { TotalRecords: number } }).data.TotalRecords;
}

const mirrorCount = (app: TestApp) => app.app.db.prepare('SELECT COUNT(*) FROM log_entries WHERE profile_id = ?').pluck().get(app.app.connection.profileId) as number;

/**
 * After a sync (in an app kept open), this month's and last month's days before `today` (the
 * service's) are kept as reconcile reads them: every such day that holds entries, each with as
 * many entries as the mirror holds that day. The keeping is awaited, not polled for.
 */
async function expectDaysKept(app: TestApp, today: string): Promise<void> {
  const kept = await app.app.service(keepDaysAfterSyncs).settled();
  const from = monthStartDay(shiftDay(monthStartDay(today), -1));
  const expected = app.app.db
    .prepare(`SELECT ${lagosDaySql('created_at')} AS day, count(*) AS n FROM log_entries WHERE profile_id = ? AND created_at >= ? AND created_at < ? GROUP BY day ORDER BY day`)
    .raw()
    .all(app.app.connection.profileId, new Date(lagosDayStartMs(from)).toISOString(), new Date(lagosDayStartMs(today)).toISOString()) as [string, number][];
  expect(expected.length).toBeGreaterThan(3);
  expect(kept).toBeGreaterThanOrEqual(expected.length);
  const days = app.app.db
    .prepare('SELECT day, entries FROM log_day_records WHERE profile_id = ? AND records IS NOT NULL AND entries > 0 ORDER BY day')
    .raw()
    .all(app.app.connection.profileId);
  expect(days).toEqual(expected);
}

describe('automatic sync', () => {
  it('syncs a few seconds after start and then every few minutes, once however often it is started', async () => {
    t = await start(500);
    // The service's today, with room before Lagos midnight however long the syncs take.
    const today = await lagosDayWithRoom(t);
    const states: AutoSyncView['state'][] = [];
    let runs = 0;
    t.app.events.subscribe((e) => {
      if (e.name === 'sync.auto') states.push((e.payload as AutoSyncView).state);
      if (e.name === 'sync.progress' && (e.payload as { state: string }).state === 'done') runs += 1;
    });
    const before = Date.now();
    startAutoSync(t.app);
    startAutoSync(t.app);
    t.app.service(keepDaysAfterSyncs); // (as backgroundLoops.ts does beside it)
    const after = Date.now();
    const waiting = (await t.call('sync.status', {})).auto;
    expect(waiting.state).toBe('waiting');
    // The first sync is due the first delay after it started: bracketed by the clock read around the
    // start, however long the machine took (the ISO text keeps whole milliseconds).
    expect(Date.parse(waiting.nextAt as string)).toBeGreaterThanOrEqual(before + FIRST_SYNC_DELAY_MS);
    expect(Date.parse(waiting.nextAt as string)).toBeLessThanOrEqual(after + FIRST_SYNC_DELAY_MS);

    const done = await until(
      'first automatic sync',
      () => t!.call('sync.status', {}),
      (s) => s.lastFinishedAt !== null && s.auto.state === 'waiting',
    );
    expect(mirrorCount(t)).toBe(500);
    await expectDaysKept(t, today);
    expect(done.auto.everyMinutes).toBe(5);
    expect(Date.parse(done.auto.nextAt as string) - Date.parse(done.auto.lastAt as string)).toBeGreaterThanOrEqual(5 * 60_000 - 2000);
    expect(states).toEqual(expect.arrayContaining(['waiting', 'running']));
    expect(states[states.length - 1]).toBe('waiting');
    await new Promise((r) => setTimeout(r, FIRST_SYNC_DELAY_MS));
    expect(runs).toBe(1);

    // The syncs after the first re-read only the last day (and anything still pending).
    autoSync(t.app).syncSoon(0);
    const second = await until(
      'second automatic sync',
      () => t!.call('sync.status', {}),
      (s) => s.lastFinishedAt !== done.lastFinishedAt && s.auto.state === 'waiting',
    );
    const newest = t.app.db.prepare('SELECT MAX(created_at) FROM log_entries').pluck().get() as string;
    const dayBefore = new Date(Date.parse(`${newest.slice(0, 10)}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    expect(second.lastResult).toMatchObject({ startdate: dayBefore, inserted: 0 });
    expect(second.lastResult!.fetched).toBeLessThan(50);
  });

  it('pauses while the service cannot be reached, says why, and catches up once it answers', async () => {
    t = await start(300);
    const auto = startAutoSync(t.app);
    await until(
      'first automatic sync',
      () => t!.call('sync.status', {}),
      (s) => s.lastFinishedAt !== null && s.auto.state === 'waiting',
    );

    proxy!.setDown(true);
    // Purchases made elsewhere meanwhile (straight at the service).
    for (const phone of ['08031110001', '08031110002']) {
      const res = await fetch(`${sandbox!.url}/purchaseAirtime`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${t.token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify([{ phoneNumber: phone, amount: 100, network: 'MTN', productCode: 'MTN-VTU', operator: 'MTN Nigeria', region: '' }]),
      });
      expect(res.status).toBe(202);
    }
    auto.syncSoon(0);
    const paused = await until(
      'paused',
      () => t!.call('sync.status', {}),
      (s) => s.auto.state === 'paused',
    );
    expect(paused.auto.reason).toMatch(/could not be reached/);
    // Tried again by itself, soon (30 s), not at the five-minute interval.
    expect(Date.parse(paused.auto.nextAt as string) - Date.now()).toBeLessThanOrEqual(31_000);
    expect(mirrorCount(t)).toBe(300);

    proxy!.setDown(false);
    auto.syncSoon(0);
    const back = await until(
      'caught up',
      () => t!.call('sync.status', {}),
      (s) => s.auto.state === 'waiting' && mirrorCount(t!) === 302,
    );
    expect(back.auto.reason).toBeNull();
    expect(mirrorCount(t)).toBe(await serviceCount(t.token));
  });

  it('follows its setting: 0 turns it off, another interval moves the next sync', async () => {
    t = await start(100);
    startAutoSync(t.app);
    const first = await until(
      'first automatic sync',
      () => t!.call('sync.status', {}),
      (s) => s.lastFinishedAt !== null && s.auto.state === 'waiting',
    );
    await t.call('sync.settings.set', { autoSyncMinutes: 0 });
    expect((await t.call('sync.status', {})).auto).toMatchObject({ state: 'off', everyMinutes: 0, nextAt: null });
    const settings = await t.call('sync.settings.set', { autoSyncMinutes: 15 });
    expect(settings.autoSyncMinutes).toBe(15);
    const view = autoSync(t.app).view();
    expect(view.state).toBe('waiting');
    expect(Date.parse(view.nextAt as string) - Date.parse(first.lastFinishedAt as string)).toBeGreaterThanOrEqual(15 * 60_000 - 2000);
    await expect(t.call('sync.settings.set', { autoSyncMinutes: -1 })).rejects.toMatchObject({ code: 'invalid_input' });
  });
});
