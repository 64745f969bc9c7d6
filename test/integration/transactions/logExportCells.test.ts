/**
 * The Transactions export as LibreOffice opens it: amounts are number cells in Naira that add up to
 * the face value and wallet cost of the service's own log, ids are numbers, times are dates, and no
 * cell is text where a number belongs or a formula.
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
    expect(types('Log id')).toEqual(['Number']);
    expect(types('Time (Lagos)')).toEqual(['Date']);
    expect(column('Amount')[0].numFmt).toMatch(/₦.*0\.00/);
    const kobo = (name: string) => column(name).reduce((s, c) => s + Math.round(Number(c.value) * 100), 0);
    expect({ faceKobo: kobo('Amount'), costKobo: kobo('Cost') }).toEqual({ faceKobo: service.faceKobo, costKobo: service.costKobo });
    for (const [address, c] of sheet) expect(c.formula, address).toBeUndefined();
  }, 120_000);
});
