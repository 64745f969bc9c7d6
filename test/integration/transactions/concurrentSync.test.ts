/**
 * The sync over a real network distance: through a plain HTTP proxy that adds delay, or a sandbox
 * told to answer late (`/__sandbox/latency`). Several pages are in flight, nothing is missed or
 * written twice when purchases arrive while it reads, and it slows down when the service asks it
 * to (429 with Retry-After, 503) and never asks more often than its ceiling allows.
 */
import { describe, expect, it } from 'vitest';
import { logSync } from '../../../src/main/transactions/logSync';
import { farServicePerTest } from '../../support/farService';
import type { LatencyProxy } from '../../support/latencyProxy';
import type { TestApp } from '../../support/testApp';
import type { TestSandbox } from '../../support/testSandbox';
import { buyAirtimeFor } from './purchaseAirtime';

const far = farServicePerTest();
let t: TestApp | null = null;
let sandbox: TestSandbox | null = null;
let proxy: LatencyProxy | null = null;

/** A sandbox whose organisation has `history` past entries, and vendesk connected to it (through `proxyDelayMs` of proxy when given). */
async function start(history: number, proxyDelayMs?: number): Promise<TestApp> {
  ({ sandbox, proxy, app: t } = await far.start(history, proxyDelayMs));
  return t;
}

/** The ids of the service's whole log, read directly from the sandbox (not through vendesk). */
async function serviceIds(token: string): Promise<number[]> {
  const ids: number[] = [];
  for (let page = 1; ; page++) {
    const res = await fetch(`${sandbox!.url}/logEntries?page=${page}&perPage=100`, { headers: { Authorization: `Bearer ${token}` } });
    const body = (await res.json()) as { data: { Items: { id: number }[]; TotalPages: number } };
    ids.push(...body.data.Items.map((e) => e.id));
    if (page >= body.data.TotalPages) return ids.sort((a, b) => a - b);
  }
}

function mirrorIds(app: TestApp): number[] {
  return app.app.db.prepare('SELECT id FROM log_entries WHERE profile_id = ? ORDER BY id').pluck().all(app.app.connection.profileId) as number[];
}

function logRequests(p: LatencyProxy) {
  return p.exchanges.filter((e) => e.url.startsWith('/logEntries'));
}

/** Once the sync has sent `after` requests for log pages, buys airtime for `count` new numbers, one after another. */
async function buyDuringSync(app: TestApp, after: number, count: number): Promise<void> {
  while (logRequests(proxy!).length < after) await new Promise((r) => setTimeout(r, 5));
  for (let i = 0; i < count; i++) await buyAirtimeFor(app, [[`0803${String(5_000_000 + i).padStart(7, '0')}`, 100]]);
}

describe('sync over a network distance', () => {
  it('reads every entry through a proxy 100 ms away with several pages in flight', async () => {
    t = await start(6000, 100);
    const result = await t.call('sync.run', {});

    expect(mirrorIds(t)).toEqual(await serviceIds(t.token));
    expect(result.inserted).toBe(6000);
    const requests = logRequests(proxy!);
    // (How much sooner it finishes than one request at a time is measured by `npm run bench -- mirror`.)
    expect(proxy!.maxInFlight()).toBeGreaterThanOrEqual(4);
    // The service's own page links named the service, not the proxy: vendesk kept to the address it was given.
    expect(requests.every((e) => e.headers.authorization === `Bearer ${t!.token}`)).toBe(true);
  });

  it('misses none of the purchases made while it reads the closed days, and writes none twice', async () => {
    t = await start(8000, 40);
    await t.call('sync.settings.set', { concurrency: 4 });
    const run = logSync(t.app).run();
    const bought = 5;
    await buyDuringSync(t, 10, bought);
    const pagesWhenBought = logRequests(proxy!).length;
    const result = await run;

    // They were bought while the days before today were being read (80 pages of them).
    expect(pagesWhenBought).toBeLessThan(60);
    const ids = mirrorIds(t);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(await serviceIds(t.token));
    expect(ids).toHaveLength(8000 + bought);
    expect(result.inserted).toBe(8000 + bought);
  });

  it('reads a part again when purchases move its pages under it, so no entry falls between two pages', async () => {
    t = await start(2000, 60);
    await t.call('sync.settings.set', { concurrency: 2 });
    const run = logSync(t.app).run();
    const bought = 2;
    await buyDuringSync(t, 3, bought);
    expect(logRequests(proxy!).length, 'bought while the first pass was reading').toBeLessThan(15);
    const result = await run;

    // The first pass saw the count move and the part was read again from its first page.
    expect(result.pages).toBeGreaterThan(Math.ceil((2000 + bought) / 100));
    const ids = mirrorIds(t);
    expect(ids).toEqual(await serviceIds(t.token));
    expect(ids).toHaveLength(2000 + bought);
    expect(result.inserted).toBe(2000 + bought);
  });

  it('waits as long as a 429 answer’s Retry-After asks before asking again, and finishes the sync', async () => {
    t = await start(1500, 0);
    await t.sandboxControl.addFault({ path: '/logEntries', status: 429, count: 2, retryAfterSeconds: 1 });
    const started = Date.now();
    const result = await t.call('sync.run', {});

    expect(mirrorIds(t)).toEqual(await serviceIds(t.token));
    expect(result.inserted).toBe(1500);
    const requests = logRequests(proxy!);
    const refused = requests.filter((e) => e.status === 429);
    expect(refused).toHaveLength(2);
    for (const r of refused) {
      const tooSoon = requests.filter((e) => e.startedAt > r.answeredAt && e.startedAt < r.answeredAt + 950);
      expect(tooSoon, 'requests sent within the Retry-After second').toEqual([]);
    }
    expect(Date.now() - started).toBeGreaterThanOrEqual(2000);
  });

  it('backs off on 503 answers and still mirrors every entry', async () => {
    t = await start(1500, 0);
    await t.sandboxControl.addFault({ path: '/logEntries', status: 503, count: 3 });
    const result = await t.call('sync.run', {});
    expect(result.inserted).toBe(1500);
    expect(mirrorIds(t)).toEqual(await serviceIds(t.token));
    const requests = logRequests(proxy!);
    expect(requests.filter((e) => e.status === 503)).toHaveLength(3);
    // After each 503 the next request waited (jittered back-off of at least a quarter second).
    for (const r of requests.filter((e) => e.status === 503)) {
      expect(requests.filter((e) => e.startedAt > r.answeredAt && e.startedAt < r.answeredAt + 240)).toEqual([]);
    }
  });

  it('stops with a clear message when the service keeps refusing, and the next sync continues where it stopped', async () => {
    t = await start(3000, 0);
    await t.call('sync.settings.set', { concurrency: 2 });
    const sync = logSync(t.app);
    await expect(sync.run({ stopAfterPages: 5 })).rejects.toMatchObject({ code: 'sync_cancelled' });
    await t.sandboxControl.addFault({ path: '/logEntries', status: 429, count: 1000, retryAfterSeconds: 0 });
    await expect(sync.run()).rejects.toMatchObject({ message: expect.stringMatching(/temporarily unavailable/) });
    expect(mirrorIds(t)).toHaveLength(500);
    await sandbox!.control(t.token).clearFaults();
    const resumed = await sync.run();
    expect(resumed.resumed).toBe(true);
    expect(mirrorIds(t)).toEqual(await serviceIds(t.token));
  });

  it('never starts more requests a second than its ceiling allows', async () => {
    t = await start(3000, 0);
    await t.call('sync.settings.set', { concurrency: 8, maxRequestsPerSecond: 10 });
    await t.call('sync.run', {});
    const starts = logRequests(proxy!).map((e) => e.startedAt);
    expect(starts.length).toBeGreaterThanOrEqual(30);
    let most = 0;
    for (const s of starts) most = Math.max(most, starts.filter((x) => x >= s && x < s + 1000).length);
    expect(most).toBeLessThanOrEqual(11);
    expect(mirrorIds(t)).toEqual(await serviceIds(t.token));
  });
});
