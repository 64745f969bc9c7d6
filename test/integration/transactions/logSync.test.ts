/**
 * The log mirror against the real sandbox over HTTP: a full sync matches the service, an
 * interrupted sync resumes with no duplicate and no gap, statuses that change between two syncs
 * are updated, and the Transactions filters, search, totals, sort and export answer from SQLite.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { logSync } from '../../../src/main/transactions/logSync';
import { nairaToKobo, wireTextToKobo } from '../../../src/shared/money';
import type { LogEntry } from '../../../src/shared/wire';
import { startTestApp, type TestApp } from '../../support/testApp';

let t: TestApp | null = null;
afterEach(async () => {
  await t?.close();
  t = null;
});

/** Every entry of the service's log, read directly (the reference the mirror must equal). */
async function serviceLog(app: TestApp): Promise<LogEntry[]> {
  const client = app.app.client();
  const all: LogEntry[] = [];
  let page = await client.logEntries({ perPage: 100 });
  all.push(...page.Items);
  while (page.NextPage) {
    page = await client.logPage(page.NextPage);
    all.push(...page.Items);
  }
  return all;
}

/** Buys ₦100 of MTN airtime for each phone through the real client, as the Purchases page does. */
export async function buyAirtime(app: TestApp, phones: string[]): Promise<string[]> {
  const products = await app.app.client().airtimeCatalog();
  const mtn = products.find((p) => p.network === 'MTN');
  if (!mtn) throw new Error('the sandbox catalog has no MTN airtime');
  const result = await app.app
    .client()
    .purchaseAirtime(phones.map((phoneNumber) => ({ phoneNumber, amount: 100, network: mtn.network, productCode: mtn.productCode, operator: mtn.operator, region: mtn.region })));
  if (result.kind !== 'success') throw new Error(`airtime purchase answered ${result.kind}`);
  return result.data.references;
}

function mirrorIds(app: TestApp): number[] {
  return app.app.db.prepare('SELECT id FROM log_entries WHERE profile_id = ? ORDER BY id').pluck().all(app.app.connection.profileId) as number[];
}

describe('log sync', () => {
  it('mirrors every entry of the log, amounts in kobo, and records the wallet balance', async () => {
    t = await startTestApp({ seedHistory: 750 });
    const result = await t.call('sync.run', {});
    const service = await serviceLog(t);
    expect(result.totalRecords).toBe(750);
    expect(result).toMatchObject({ fetched: 750, inserted: 750, updated: 0, pages: 8 });
    expect(mirrorIds(t)).toEqual(service.map((e) => e.id).sort((a, b) => a - b));

    const sample = service[17];
    const row = t.app.db.prepare('SELECT amount_kobo, cost_kobo, commission_kobo, status FROM log_entries WHERE id = ?').get(sample.id) as Record<string, unknown>;
    expect(row).toEqual({
      amount_kobo: wireTextToKobo(sample.amount),
      cost_kobo: nairaToKobo(sample.transaction_cost),
      commission_kobo: nairaToKobo(sample.commission),
      status: sample.status,
    });

    const snapshots = t.app.db.prepare("SELECT balance_kobo FROM balance_snapshots WHERE source = 'sync'").pluck().all() as number[];
    const balance = await t.call('account.balance', {});
    expect(snapshots).toEqual([balance.balanceKobo]);

    // A second sync re-reads only the recent window and changes nothing.
    const again = await t.call('sync.run', {});
    expect(again.inserted).toBe(0);
    expect(again.updated).toBe(0);
    expect(again.fetched).toBeLessThan(750);
    expect(mirrorIds(t)).toHaveLength(750);
  });

  it('resumes a sync stopped half-way without a duplicate or a gap, even with purchases in between', async () => {
    t = await startTestApp({ seedHistory: 1000 });
    const sync = logSync(t.app);
    await expect(sync.run({ stopAfterPages: 4 })).rejects.toMatchObject({ code: 'sync_cancelled' });
    expect(mirrorIds(t)).toHaveLength(400);
    expect((await t.call('sync.status', {})).interrupted).toBe(true);

    // New entries arrive at the front of the log while the sync is stopped: pages shift.
    await buyAirtime(t, ['08031230001']);

    const resumed = await sync.run();
    expect(resumed.resumed).toBe(true);
    const service = await serviceLog(t);
    const ids = mirrorIds(t);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(
      service
        .map((e) => e.id)
        .filter((id) => ids.includes(id))
        .sort((a, b) => a - b),
    );
    // Every entry of the seeded history is there (the purchase may or may not be, depending on its timing).
    expect(ids.length).toBeGreaterThanOrEqual(1000);
    expect((await t.call('sync.status', {})).interrupted).toBe(false);
  });

  it('a first sync stopped half-way leaves the mirror indexed and durable as before, and its resume adds no duplicate', async () => {
    t = await startTestApp({ seedHistory: 1000 });
    const db = t.app.db;
    const indexes = () => db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'log_entries' AND sql IS NOT NULL ORDER BY name").pluck().all();
    const all = ['log_entries_amount', 'log_entries_created', 'log_entries_pending'];
    expect(indexes()).toEqual(all);
    const sync = logSync(t.app);
    // The mirror is empty: a bulk load (rows first, indexes after), stopped after 3 pages.
    await expect(sync.run({ stopAfterPages: 3 })).rejects.toMatchObject({ code: 'sync_cancelled' });
    expect(mirrorIds(t)).toHaveLength(300);
    expect(indexes()).toEqual(all);
    // Its batches committed with synchronous NORMAL; the connection is FULL again for purchases.
    expect(db.pragma('synchronous', { simple: true })).toBe(2);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');

    const resumed = await sync.run();
    expect(resumed).toMatchObject({ resumed: true, totalRecords: 1000 });
    const service = await serviceLog(t);
    expect(mirrorIds(t)).toEqual(service.map((e) => e.id).sort((a, b) => a - b));
    expect(indexes()).toEqual(all);
    expect(db.pragma('synchronous', { simple: true })).toBe(2);
    // The totals come from the rebuilt time-order index and equal the service's log.
    const totals = await t.call('logs.totals', { filter: {} });
    expect(totals.count).toBe(1000);
  });

  it('updates a status that changed between two syncs (PENDING → SUCCESS / FAILED)', async () => {
    t = await startTestApp({ seedHistory: 20 });
    await buyAirtime(t, ['08031239999', '08031231234']);
    await t.call('sync.run', {});
    const statusOf = (phone: string) => t!.app.db.prepare('SELECT status FROM log_entries WHERE phone_number = ?').pluck().get(phone);
    expect(statusOf('08031239999')).toBe('PENDING');
    expect(statusOf('08031231234')).toBe('PENDING');
    await t.sandboxControl.advanceClock(6);
    const second = await t.call('sync.run', {});
    expect(second.updated).toBe(2);
    expect(second.inserted).toBe(0);
    expect(statusOf('08031239999')).toBe('FAILED');
    expect(statusOf('08031231234')).toBe('SUCCESS');
    const pending = await t.call('logs.totals', { filter: { status: 'PENDING' } });
    expect(pending.count).toBe(0);
  });

  it('can be cancelled through the contract while it runs', async () => {
    t = await startTestApp({ seedHistory: 3000 });
    const sync = logSync(t.app);
    const controller = new AbortController();
    // Each page answers 200 ms late, so the run is surely still going when its first page is
    // written; it is cancelled then (a state, not a moment of the wall clock).
    await t.sandboxControl.setLatency(200);
    const run = sync.run({ signal: controller.signal });
    await vi.waitFor(() => expect(sync.status().progress?.pages ?? 0).toBeGreaterThanOrEqual(1), { timeout: 120_000, interval: 10 });
    controller.abort();
    await expect(run).rejects.toMatchObject({ code: 'sync_cancelled' });
    await t.sandboxControl.setLatency(0);
    const partial = mirrorIds(t).length;
    expect(partial).toBeLessThan(3000);
    const finished = await sync.run();
    expect(finished.resumed).toBe(true);
    expect(mirrorIds(t)).toHaveLength(3000);
  });
});
