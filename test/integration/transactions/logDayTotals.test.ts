/**
 * The mirror's totals per Lagos day (`log_day_totals`), which the Dashboard reads, against the
 * service's own log (GET /logEntries, read here without vendesk's parsers): after a first sync, after
 * purchases that failed and were refunded, after a requery moved pending purchases to SUCCESS and
 * FAILED, and after the next sync. Each time the table also equals a count of the mirror's rows by
 * every column it keys (network and commission included), so no write path leaves it behind.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LogEntry } from '../../../src/shared/wire';
import { costKoboOf, faceKoboOf, serviceLog } from '../../support/serviceSpend';
import { startTestApp, type TestApp } from '../../support/testApp';
import { receiptOf } from '../../support/receiptOf';
import { PHONE, account, advanceClocks, pauseLoop } from '../purchases/purchaseHelpers';
import { buyAirtimeFor } from './purchaseAirtime';

/** Lagos is UTC+1 all year (written here apart from vendesk's own helpers). */
const lagosDay = (created: string) => new Date(Date.parse(created) + 3_600_000).toISOString().slice(0, 10);

type Figures = Record<string, [entries: number, faceKobo: number, costKobo: number]>;

/** The service's log by Lagos day, type and status. */
function serviceFigures(log: readonly LogEntry[]): Figures {
  const out: Figures = {};
  for (const e of log) {
    const key = `${lagosDay(e.created_at)} ${e.type} ${e.status}`;
    const f = (out[key] ??= [0, 0, 0]);
    f[0]++;
    f[1] += faceKoboOf(e);
    f[2] += costKoboOf(e);
  }
  return out;
}

let t: TestApp;

function tableFigures(): Figures {
  const rows = t.app.db
    .prepare(
      `SELECT day || ' ' || type || ' ' || status AS k, SUM(entries) AS n, SUM(face_kobo) AS face, SUM(cost_kobo) AS cost
         FROM log_day_totals WHERE profile_id = ? GROUP BY day, type, status HAVING SUM(entries) <> 0`,
    )
    .all(t.app.connection.profileId) as { k: string; n: number; face: number; cost: number }[];
  return Object.fromEntries(rows.map((r) => [r.k, [r.n, r.face, r.cost]]));
}

/** The table against a count of the mirror's own rows, by every key and sum it holds. */
function expectTableEqualsMirrorRows(): void {
  const key = "profile_id, date(created_at, '+1 hours'), type, network, status";
  const recount = t.app.db
    .prepare(`SELECT ${key}, COUNT(*), SUM(amount_kobo), SUM(cost_kobo), SUM(commission_kobo) FROM log_entries GROUP BY ${key} ORDER BY 1, 2, 3, 4, 5`)
    .raw()
    .all();
  const table = t.app.db.prepare('SELECT * FROM log_day_totals WHERE entries <> 0 ORDER BY 1, 2, 3, 4, 5').raw().all();
  expect(table).toEqual(recount);
}

async function expectTotalsEqualServiceLog(): Promise<LogEntry[]> {
  const log = await serviceLog(t);
  expect(tableFigures()).toEqual(serviceFigures(log));
  expectTableEqualsMirrorRows();
  return log;
}

async function buyPendingElectricity(ending: string) {
  const p = await receiptOf(t.call('purchases.buyElectricity', { disco: 'IKEDC', meter: account(ending), vendType: 'PREPAID', amountKobo: 300_000, phone: PHONE }));
  expect(p.state).toBe('pending');
  return p;
}

beforeAll(async () => {
  t = await startTestApp({ seedHistory: 400 });
  pauseLoop(t);
  await t.sandboxControl.setWallet(1_000_000);
});

afterAll(async () => {
  await t?.close();
});

describe('the mirror totals per Lagos day', () => {
  it('equal the service log after a first sync, after refunds, after a requery settles pending purchases, and after the next sync', async () => {
    await t.call('sync.run', {});
    const first = await expectTotalsEqualServiceLog();
    expect(first.length).toBe(400);

    // A refunded airtime purchase and two pending electricity purchases, mirrored at their answers and by a sync.
    await buyAirtimeFor(t, [
      ['08031110001', 100],
      ['08031239999', 500], // fails and is refunded
    ]);
    const toSucceed = await buyPendingElectricity('0000');
    const toFail = await buyPendingElectricity('1111');
    await t.sandboxControl.advanceClock(6); // the airtime settles (5 s at the service); the electricity stays pending
    await t.call('sync.run', {});
    const afterBuying = await expectTotalsEqualServiceLog();
    expect(afterBuying.filter((e) => e.status === 'PENDING')).toHaveLength(2);
    expect(afterBuying.filter((e) => e.status === 'FAILED').length).toBeGreaterThan(first.filter((e) => e.status === 'FAILED').length);

    // The requery moves both, and the mirror's entries with them, without a sync.
    await advanceClocks(t, 125);
    expect((await t.call('pending.requeryNow', { id: toSucceed.id })).purchase.state).toBe('success');
    expect((await t.call('pending.requeryNow', { id: toFail.id })).purchase.state).toBe('failed');
    const afterRequery = await expectTotalsEqualServiceLog();
    expect(afterRequery.filter((e) => e.status === 'PENDING')).toHaveLength(0);

    await t.call('sync.run', {});
    await expectTotalsEqualServiceLog();
  });

  it('are counted again from the mirror when a first sync was cut short before it counted them', async () => {
    // A first load drops the insert trigger and counts the table at its end; a crash in between leaves it missing.
    t.app.db.exec('DROP TRIGGER log_day_totals_insert; DELETE FROM log_day_totals;');
    await t.call('sync.run', {});
    await expectTotalsEqualServiceLog();
    expect(t.app.db.prepare("SELECT COUNT(*) FROM sqlite_master WHERE type = 'trigger' AND name = 'log_day_totals_insert'").pluck().get()).toBe(1);
  });
});
