/**
 * The Transactions export as LibreOffice opens it: amounts are number cells in Naira that add up to
 * the face value and wallet cost of the service's own log, ids are numbers, times are dates, and no
 * cell is text where a number belongs or a formula. A refunded (FAILED) purchase's wallet cost is in
 * the Refunded column and its commission is not summed as earned; the workbook's Summary says the
 * filter and period it was made with, and the counts and totals by status (issue 38, item 11).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cellsViaLibreOffice, type ReadCell } from '../../support/libreOffice';
import { serviceLog, serviceSpend } from '../../support/serviceSpend';
import { startTestApp, type TestApp } from '../../support/testApp';
import { buyAirtimeFor } from './purchaseAirtime';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ seedHistory: 30 });
  await buyAirtimeFor(t, [
    ['08031110001', 150],
    ['08031239999', 500],
  ]);
  await t.sandboxControl.advanceClock(6);
  await t.call('sync.run', {});
});

afterAll(async () => {
  await t?.close();
});

describe('Transactions export', () => {
  it('holds amounts, ids and times as numbers and dates that add up to the service log', async () => {
    const written = await t.call('logs.export', { filter: {}, sort: 'time_desc', format: 'xlsx' });
    const log = await serviceLog(t);
    const service = serviceSpend(log, () => true);
    expect(written.rows).toBe(service.purchases);
    // The totals are what left the wallet; the refunded (FAILED) ones apart. The rows hold every entry.
    const spent = serviceSpend(log, (e) => e.status !== 'FAILED');
    const refunded = serviceSpend(log, (e) => e.status === 'FAILED');
    expect(refunded.purchases).toBeGreaterThanOrEqual(1);
    expect({ faceKobo: written.totals.amountKobo, costKobo: written.totals.costKobo }).toEqual({ faceKobo: spent.faceKobo, costKobo: spent.costKobo });
    expect(written.totals.refunded).toEqual({ count: refunded.purchases, amountKobo: refunded.faceKobo, costKobo: refunded.costKobo });

    const sheet = (await cellsViaLibreOffice(written.path)).get('Transactions');
    if (!sheet) throw new Error('no Transactions sheet');
    const header = new Map<string, string>();
    for (const [address, c] of sheet) if (/^[A-Z]+1$/.test(address)) header.set(String(c.value), address.replace(/1$/, ''));
    const column = (name: string): ReadCell[] => {
      const letter = header.get(name);
      return [...sheet].filter(([address]) => address.replace(/\d+$/, '') === letter && address !== `${letter}1`).map(([, c]) => c);
    };
    const types = (name: string) => [...new Set(column(name).map((c) => c.type))];
    expect(types('Amount')).toEqual(['Number']);
    expect(types('Cost')).toEqual(['Number']);
    expect(types('Commission')).toEqual(['Number']);
    expect(types('Refunded')).toEqual(['Number']);
    expect(types('Log id')).toEqual(['Number']);
    expect(types('Time (Lagos)')).toEqual(['Date']);
    expect(column('Amount')[0].numFmt).toMatch(/₦.*0\.00/);
    const kobo = (name: string) => column(name).reduce((s, c) => s + Math.round(Number(c.value) * 100), 0);
    // Amount is every transaction's face value; Cost and Commission sum to what was spent and
    // earned; what the failed ones were charged is in Refunded, as the service's log gives it.
    const commissionOf = (keep: (e: (typeof log)[number]) => boolean) => log.filter(keep).reduce((s, e) => s + Math.round(e.commission * 100), 0);
    expect(commissionOf((e) => e.status === 'FAILED')).toBeGreaterThan(0);
    expect({ faceKobo: kobo('Amount'), costKobo: kobo('Cost'), commission: kobo('Commission'), refunded: kobo('Refunded') }).toEqual({
      faceKobo: service.faceKobo,
      costKobo: spent.costKobo,
      commission: commissionOf((e) => e.status !== 'FAILED'),
      refunded: refunded.costKobo,
    });
    expect(column('Refunded')).toHaveLength(refunded.purchases);
    for (const [address, c] of sheet) expect(c.formula, address).toBeUndefined();
  }, 120_000);

  it('opens on a Summary that says its filter, its period and its totals by status, in number cells matching the service’s log', async () => {
    const log = await serviceLog(t);
    const airtime = log.filter((e) => e.type === 'AIRTIME');
    // A Lagos day is UTC+1, worked out here apart from vendesk's own helpers.
    const days = airtime.map((e) => new Date(Date.parse(e.created_at) + 3_600_000).toISOString().slice(0, 10)).sort();
    const filter = { type: 'AIRTIME' as const, from: days[0], to: days[days.length - 1] };
    const written = await t.call('logs.export', { filter, sort: 'time_asc', format: 'xlsx' });
    expect(written.rows).toBe(airtime.length);
    const book = await cellsViaLibreOffice(written.path);
    expect([...book.keys()]).toEqual(['Summary', 'Transactions', 'Period']);
    const summary = book.get('Summary') as Map<string, ReadCell>;
    const line = (label: string): ReadCell[] => {
      const found = [...summary].find(([address, c]) => /^A\d+$/.test(address) && c.value === label);
      if (!found) throw new Error(`no Summary line "${label}"`);
      const row = found[0].slice(1);
      return ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I'].map((col) => summary.get(`${col}${row}`) ?? { type: 'Null', value: null, formula: undefined, numFmt: undefined });
    };
    const naira = (c: ReadCell) => (c.type === 'Number' ? Math.round(Number(c.value) * 100) : null);
    expect(line('Filter: type')[1].value).toBe('AIRTIME');
    expect(line('Filter: status')[1].value).toBe('all');
    expect(line('Period: from')[2]).toMatchObject({ type: 'Date' });
    expect((line('Period: from')[2].value as Date).toISOString().slice(0, 10)).toBe(filter.from);
    expect((line('Period: to (inclusive)')[2].value as Date).toISOString().slice(0, 10)).toBe(filter.to);
    expect(line('Sorted by')[1].value).toBe('time, oldest first');
    expect(line('Made')[3].type).toBe('Date');

    for (const status of ['SUCCESS', 'PENDING'] as const) {
      const of = serviceSpend(airtime, (e) => e.status === status);
      const cells = line(status);
      expect([cells[4].value, naira(cells[5]), naira(cells[6])], status).toEqual([of.purchases, of.faceKobo, of.costKobo]);
    }
    const failed = serviceSpend(airtime, (e) => e.status === 'FAILED');
    expect(failed.purchases).toBeGreaterThanOrEqual(1);
    const refundedLine = line('FAILED (refunded)');
    expect([refundedLine[4].value, naira(refundedLine[5]), refundedLine[6].value ?? null, naira(refundedLine[8])]).toEqual([
      failed.purchases,
      failed.faceKobo,
      null,
      failed.costKobo,
    ]);
    const spent = serviceSpend(airtime, (e) => e.status !== 'FAILED');
    const spendLine = line('Counted as spend: successful and pending');
    const earned = airtime.filter((e) => e.status !== 'FAILED').reduce((s, e) => s + Math.round(e.commission * 100), 0);
    expect([spendLine[4].value, naira(spendLine[5]), naira(spendLine[6]), naira(spendLine[7])]).toEqual([spent.purchases, spent.faceKobo, spent.costKobo, earned]);
    expect(line('Rows (transactions)')[4].value).toBe(airtime.length);
  }, 120_000);
});
