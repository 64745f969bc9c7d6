/**
 * The operations the window's cost centres read (docs/cost-centres.md), against the sandbox: the
 * Transactions filter by cost centre and each row's cost centre, the cost centres in use, the
 * Dashboard's month by cost centre, a purchase's cost centre with its history and its month's
 * close (a change after the close is counted in the next open month), and the account map's check
 * of a month's journal. Every expected figure comes from the sandbox's own log.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LogEntry } from '../../../src/shared/wire';
import { costKoboOf, faceKoboOf, serviceLog } from '../../support/serviceSpend';
import { startTestApp, type TestApp } from '../../support/testApp';
import { advanceClocks, pauseLoop } from '../purchases/purchaseHelpers';
import { toNextMonth } from '../../support/serviceClocks';

const LAGOS_MS = 3_600_000;
const SALES = '08031110001'; // bought with the cost centre Sales
const OPS = '08052220003'; // bought with none; the recipients list says Ops
const LOOSE = '08063330005'; // bought with none, on no list: Unassigned
const CENTRE_OF: Record<string, string> = { [SALES]: 'Sales', [OPS]: 'Ops', [LOOSE]: 'Unassigned' };

let t: TestApp;
let month: string;
let next: string;
let monthStartMs: number;
let nextStartMs: number;
const references: Record<string, string> = {};

/** Count, face value and wallet cost of the service's spent entries (SUCCESS, PENDING) of the month for `centre`. */
function serviceFigures(log: LogEntry[], centre: string) {
  const mine = log.filter((e) => Date.parse(e.created_at) >= monthStartMs && (e.status === 'SUCCESS' || e.status === 'PENDING') && CENTRE_OF[e.phone_number] === centre);
  return { count: mine.length, faceKobo: mine.reduce((s, e) => s + faceKoboOf(e), 0), costKobo: mine.reduce((s, e) => s + costKoboOf(e), 0) };
}

beforeAll(async () => {
  t = await startTestApp({ creditDelayMs: 500 });
  pauseLoop(t);
  ({ month, next, monthStartMs, nextStartMs } = await toNextMonth(t));
  const list = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'recipients-')), 'recipients.csv');
  fs.writeFileSync(list, `Phone,Cost centre\n${OPS},Ops\n`);
  await t.call('costCentres.importRecipients', { file: { path: list } });
  for (const [phone, naira, costCentre] of [
    [SALES, 100, 'Sales'],
    [OPS, 200, ''],
    [LOOSE, 300, undefined],
  ] as const) {
    const bought = await t.call('purchases.buyTopUp', { kind: 'airtime', phone, amountKobo: naira * 100, costCentre });
    if (!('reference' in bought) || !bought.reference) throw new Error(`no reference for ${phone}`);
    references[phone] = bought.reference;
  }
  await advanceClocks(t, 6); // the airtime settles
  await t.call('sync.run', {});
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('cost centres in the window', () => {
  it('filters Transactions by cost centre, with totals equal to the service’s log for it, and gives each row its cost centre and where it came from', async () => {
    const log = await serviceLog(t);
    for (const centre of ['Sales', 'Ops', 'Unassigned']) {
      const totals = await t.call('logs.totals', { filter: { from: `${month}-01`, costCentre: centre } });
      const expected = serviceFigures(log, centre);
      expect({ count: totals.count, faceKobo: totals.amountKobo, costKobo: totals.costKobo }, centre).toEqual(expected);
      const page = await t.call('logs.query', { filter: { from: `${month}-01`, costCentre: centre } });
      expect(page.rows.length, centre).toBe(expected.count);
      expect(new Set(page.rows.map((r) => r.costCentre))).toEqual(new Set([centre]));
    }
    const all = await t.call('logs.query', { filter: { from: `${month}-01` } });
    const row = (phone: string) => all.rows.find((r) => r.phoneNumber === phone);
    expect(row(SALES)).toMatchObject({ costCentre: 'Sales', costCentreSource: 'purchase', vendeskPurchase: true });
    expect(row(OPS)).toMatchObject({ costCentre: 'Ops', costCentreSource: 'recipient', vendeskPurchase: true });
    expect(row(LOOSE)).toMatchObject({ costCentre: 'Unassigned', costCentreSource: 'unassigned' });
    const one = await t.call('logs.get', { rowid: row(SALES)!.rowid });
    expect(one.costCentre).toBe('Sales');
    // A cost centre nothing is charged to matches nothing (not everything).
    expect((await t.call('logs.totals', { filter: { costCentre: 'Nobody' } })).count).toBe(0);
  });

  it('lists the cost centres in use: those kept on purchases and the recipients list’s', async () => {
    expect(await t.call('costCentres.inUse', {})).toEqual(['Ops', 'Sales']);
  });

  it('splits the Dashboard’s month by cost centre, adding up to its Spent this month purchases', async () => {
    const log = await serviceLog(t);
    const d = await t.call('dashboard.summary', {});
    // Read apart from the summary (on a worker thread): the same month, on the service's clock.
    const byCentre = await t.call('dashboard.costCentres', {});
    expect(byCentre.from).toBe(`${month}-01`);
    expect(byCentre.shares.map((s) => s.costCentre)).toEqual(['Ops', 'Sales', 'Unassigned']);
    for (const s of byCentre.shares) {
      const expected = serviceFigures(log, s.costCentre);
      expect({ count: s.purchases, faceKobo: s.faceKobo, costKobo: s.costKobo }, s.costCentre).toEqual(expected);
    }
    expect(byCentre.shares.reduce((n, s) => n + s.purchases, 0)).toBe(d.spend.month.purchases);
    expect(byCentre.shares.reduce((n, s) => n + s.costKobo, 0)).toBe(d.spend.month.costKobo);
  });

  it('shows a purchase’s cost centre and its recorded changes; in an open month a change is counted in the month itself', async () => {
    const before = await t.call('costCentres.purchase', { reference: references[SALES] });
    expect(before).toMatchObject({ costCentre: 'Sales', chargedTo: 'Sales', vendeskPurchase: true, month, monthClosed: false, adjustmentMonth: null, history: [] });
    await t.call('costCentres.change', { reference: references[SALES], costCentre: 'Marketing' });
    const after = await t.call('costCentres.purchase', { reference: references[SALES] });
    expect(after.costCentre).toBe('Marketing');
    expect(after.history).toHaveLength(1);
    expect(after.history[0]).toMatchObject({ from: 'Sales', to: 'Marketing', actorKind: 'desktop' });
    expect(after.history[0].actor.length).toBeGreaterThan(0);
    // Bought without one: none kept, charged by the recipients list.
    expect(await t.call('costCentres.purchase', { reference: references[OPS] })).toMatchObject({ costCentre: null, chargedTo: 'Ops', vendeskPurchase: true });
    await expect(t.call('costCentres.purchase', { reference: 'no-such-reference' })).rejects.toMatchObject({ code: 'purchase_not_found' });
  });

  it('checks the account map against the month’s journal, naming every combination it lacks, until none is missing', async () => {
    const first = await t.call('accounts.check', { month });
    expect(first.unmapped).toEqual(['AIRTIME / Marketing', 'AIRTIME / Ops', 'AIRTIME / Unassigned', 'commission earned', 'the prepaid wallet']);
    await t.call('accounts.set', { kind: 'wallet', account: '1200' });
    await t.call('accounts.set', { kind: 'commission', account: '4100' });
    await t.call('accounts.set', { kind: 'expense', type: 'AIRTIME', costCentre: 'Ops', account: '6110' });
    expect((await t.call('accounts.check', { month })).unmapped).toEqual(['AIRTIME / Marketing', 'AIRTIME / Unassigned']);
    await t.call('accounts.set', { kind: 'expense', type: 'AIRTIME', costCentre: '*', account: '6100' });
    const done = await t.call('accounts.check', { month });
    expect(done.unmapped).toEqual([]);
    expect(done.lines).toBeGreaterThan(0);
  });

  it('says a purchase’s month is closed and names the next open month, where a change is counted', async () => {
    const clockNow = Date.parse((await t.sandboxControl.clock()).now);
    await advanceClocks(t, Math.ceil((nextStartMs + LAGOS_MS - clockNow) / 1000));
    await t.call('monthEnd.close', { month });
    const closed = await t.call('costCentres.purchase', { reference: references[SALES] });
    expect(closed).toMatchObject({ month, monthClosed: true, adjustmentMonth: next });
    await t.call('costCentres.change', { reference: references[SALES], costCentre: 'Sales' });
    const adjusted = await t.call('monthEnd.summary', { month: next });
    expect(adjusted.summary.adjustments.entries).toBe(1);
    // The closed month keeps what it was closed with.
    const kept = await t.call('monthEnd.summary', { month });
    expect(kept.summary.byCostCentre.map((l) => l.costCentre).sort()).toEqual(['Marketing', 'Ops', 'Unassigned']);
  });
});
