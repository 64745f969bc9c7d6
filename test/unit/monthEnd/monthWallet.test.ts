/**
 * The month's wallet roll-forward sums the purchases between the readings' windows in SQL and
 * places only the rest one by one (monthWallet in src/main/monthEnd/monthFigures.ts). Its figures
 * must be the ones the roll-forward makes when it is given every entry one by one — with purchases
 * inside a reading's window (placed by the balances), on a reading's instant, failed purchases
 * refunded inside and after the month, a failed purchase of the month before refunded in it, a
 * status that is neither SUCCESS, PENDING nor FAILED, and a reading in the middle of the month.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../src/main/store/database';
import { monthQuery, monthWallet } from '../../../src/main/monthEnd/monthFigures';
import { readSnapshots } from '../../../src/main/reconcile/mirrorEntries';
import { rollWalletForward, WalletFlows } from '../../../src/main/reconcile/walletRollForward';

const P = 'p1';
let db: Db;
let nextId = 1;
beforeEach(() => {
  db = openDatabase(':memory:');
  nextId = 1;
});
afterEach(() => db.close());

function entry(createdAt: string, costKobo: number, status: string, updatedAt = createdAt): void {
  const id = nextId++;
  db.prepare(
    `INSERT INTO log_entries (profile_id, id, transaction_id, partner_reference, phone_number, amount_kobo, cost_kobo, commission_kobo, type, network, operator, region,
       description, data_plan, status, time_text, created_at, updated_at, synced_at)
     VALUES (?, ?, ?, '', '08031234567', ?, ?, ?, 'AIRTIME', 'MTN', '', '', '', '', ?, '', ?, ?, ?)`,
  ).run(P, id, `T${id}`, costKobo + 300, costKobo, 300, status, createdAt, updatedAt, createdAt);
}

function reading(at: string, to: string, balanceKobo: number): void {
  db.prepare(`INSERT INTO balance_snapshots (profile_id, taken_at, taken_to, balance_kobo, source) VALUES (?, ?, ?, ?, 'test')`).run(P, at, to, balanceKobo);
}

/** The roll-forward given every entry of the readings' window one by one (how the month's wallet was made before it summed in SQL). */
function oneByOne(month: string) {
  const q = monthQuery(db, P, month);
  const snapshots = readSnapshots(db, P);
  const from = new Date(snapshots[0].atMs).toISOString();
  const until = new Date((snapshots[snapshots.length - 1].toMs ?? snapshots[snapshots.length - 1].atMs) + 1).toISOString();
  const rows = db
    .prepare(
      `SELECT cost_kobo, status, created_at, updated_at FROM log_entries
        WHERE profile_id = ? AND ((created_at >= ? AND created_at < ?) OR (status = 'FAILED' AND updated_at >= ? AND updated_at < ? AND created_at < ?))`,
    )
    .raw()
    .all(P, from, until, from, until, until) as [number, string, string, string][];
  const flows = new WalletFlows(rows.length);
  rows.forEach(([cost, status, created, updated], i) => {
    const debit = Date.parse(created);
    flows.push(cost, status === 'SUCCESS' ? 1 : status === 'FAILED' ? 2 : 3, debit, status === 'FAILED' ? Date.parse(updated) || debit : NaN, 1, i);
  });
  const { missingRefunds: _named, ...rf } = rollWalletForward(snapshots, flows, Date.parse(q.fromIso), Date.parse(q.untilIso), []);
  return rf;
}

function october(closingKobo: number): void {
  // Readings: before the month (a one-second answer), in the middle, and near its end.
  reading('2026-09-30T22:59:00.000Z', '2026-09-30T22:59:01.000Z', 1_000_000);
  reading('2026-10-15T12:00:00.000Z', '2026-10-15T12:00:01.000Z', 1_000_000 + 7_000 - 10_000 - 20_000 - 4_000 - 500 - 2_000 - 300);
  reading('2026-10-31T22:00:00.000Z', '2026-10-31T22:00:01.000Z', closingKobo);
  entry('2026-09-20T10:00:00.000Z', 7_000, 'FAILED', '2026-10-02T09:00:00.000Z'); // September's, refunded in October
  entry('2026-09-30T22:59:00.500Z', 1_000, 'SUCCESS'); // inside the opening reading's second
  entry('2026-10-01T08:00:00.000Z', 10_000, 'SUCCESS');
  entry('2026-10-03T08:00:00.000Z', 20_000, 'SUCCESS');
  entry('2026-10-04T08:00:00.000Z', 4_000, 'PENDING');
  entry('2026-10-05T08:00:00.000Z', 3_000, 'FAILED', '2026-10-05T08:00:00.000Z'); // declined: refunded at once
  entry('2026-10-06T08:00:00.000Z', 500, 'REVERSED'); // neither spent nor failed: counted as the roll-forward counts it
  entry('2026-10-15T12:00:00.000Z', 2_000, 'SUCCESS'); // on the middle reading's instant
  entry('2026-10-15T12:00:00.400Z', 300, 'SUCCESS'); // inside the middle reading's second: before it, by the balance
  entry('2026-10-15T12:00:00.700Z', 250, 'SUCCESS'); // inside it too: after it, by the balance
  entry('2026-10-20T08:00:00.000Z', 40_000, 'SUCCESS');
  entry('2026-10-21T08:00:00.000Z', 6_000, 'FAILED', '2026-11-03T08:00:00.000Z'); // refunded after the closing reading
  entry('2026-10-22T08:00:00.000Z', 800, 'PENDING');
  entry('2026-10-31T22:00:00.300Z', 900, 'SUCCESS'); // inside the closing reading's second: before it, by the balance
  entry('2026-10-31T22:00:00.800Z', 200, 'SUCCESS'); // inside it too: after it, by the balance (not counted)
  entry('2026-10-31T22:30:00.000Z', 50_000, 'SUCCESS'); // after the closing reading
}

it('gives the figures of the roll-forward made entry by entry, when the balances agree', () => {
  october(1_000_000 + 7_000 - 10_000 - 20_000 - 4_000 - 500 - 2_000 - 300 - 250 - 40_000 - 6_000 - 800 - 900);
  const rf = monthWallet(db, monthQuery(db, P, '2026-10'));
  expect(rf).toEqual(oneByOne('2026-10'));
  expect(rf.available).toBe(true);
  expect(rf.successfulSpendKobo).toBe(10_000 + 20_000 + 2_000 + 300 + 250 + 40_000 + 900);
  expect(rf.pendingSpendKobo).toBe(4_000 + 500 + 800);
  expect(rf.placedByBalance).toBeGreaterThan(0);
  expect(rf.refundsKobo).toBe(7_000 + 3_000);
  expect(rf.unexplainedKobo).toBe(0);
});

it('gives the same figures when the closing balance is short of a refund, or off by an amount nothing explains', () => {
  october(1_000_000 - 10_000 - 20_000 - 4_000 - 500 - 2_000 - 300 - 250 - 40_000 - 6_000 - 800 - 900);
  expect(monthWallet(db, monthQuery(db, P, '2026-10'))).toEqual(oneByOne('2026-10'));
  db.prepare(`UPDATE balance_snapshots SET balance_kobo = balance_kobo - 123 WHERE taken_at LIKE '2026-10-31%'`).run();
  const rf = monthWallet(db, monthQuery(db, P, '2026-10'));
  expect(rf).toEqual(oneByOne('2026-10'));
  expect(rf.unexplainedKobo).not.toBe(0);
});

it('is not available without two readings, as before', () => {
  entry('2026-10-01T08:00:00.000Z', 10_000, 'SUCCESS');
  reading('2026-09-30T22:59:00.000Z', '2026-09-30T22:59:01.000Z', 1_000_000);
  const rf = monthWallet(db, monthQuery(db, P, '2026-10'));
  expect(rf.available).toBe(false);
  expect(rf.successfulSpendKobo).toBe(0);
});
