/**
 * The Transactions page's questions answered from the mirror after a real sync: filters, partial
 * search (trigram and short), totals, sort, one row, and an export read back with exceljs.
 */
import ExcelJS from 'exceljs';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../support/testApp';
import { buyAirtimeFor } from './purchaseAirtime';

let t: TestApp | null = null;
afterEach(async () => {
  await t?.close();
  t = null;
});

describe('mirror queries', () => {
  it('filters, searches, totals, sorts and exports what the service logged', async () => {
    t = await startTestApp();
    await buyAirtimeFor(t, [
      ['08031110001', 100],
      ['08031110002', 250],
      ['08052220003', 400],
      ['08031239999', 500],
    ]);
    await t.sandboxControl.advanceClock(6);
    await t.call('sync.run', {});

    const all = await t.call('logs.totals', { filter: {} });
    // Spend is what left the wallet: the ₦500 that FAILED was refunded and is stated apart.
    expect(all).toEqual({
      count: 4,
      amountKobo: 75_000,
      costKobo: expect.any(Number),
      commissionKobo: expect.any(Number),
      refunded: { count: 1, amountKobo: 50_000, costKobo: expect.any(Number) },
    });
    expect(all.costKobo + all.commissionKobo).toBe(75_000);
    expect(all.refunded.costKobo).toBeLessThanOrEqual(50_000);

    expect((await t.call('logs.totals', { filter: { status: 'FAILED' } })).count).toBe(1);
    expect((await t.call('logs.totals', { filter: { status: 'SUCCESS', network: 'mtn' } })).amountKobo).toBe(75_000);
    expect((await t.call('logs.totals', { filter: { type: 'DATA' } })).count).toBe(0);

    const part = await t.call('logs.query', { filter: { search: '311100' }, sort: 'amount_desc', offset: 0, limit: 10 });
    expect(part.rows.map((r) => [r.phoneNumber, r.amountKobo])).toEqual([
      ['08031110002', 25_000],
      ['08031110001', 10_000],
    ]);
    // Short searches (under 3 characters) and other spellings of a full number.
    // (A short search also matches transaction ids, which are random: every row found holds it.)
    const short = await t.call('logs.query', { filter: { search: '99' }, sort: 'time_desc', offset: 0, limit: 10 });
    expect(short.rows.map((r) => r.phoneNumber)).toContain('08031239999');
    for (const r of short.rows) expect(`${r.phoneNumber} ${r.transactionId}`).toContain('99');
    expect((await t.call('logs.totals', { filter: { search: '99' } })).count).toBe(short.rows.length);
    expect((await t.call('logs.totals', { filter: { search: '2348052220003' } })).count).toBe(1);
    // By part of a transaction id.
    const ref = part.rows[0].transactionId;
    expect((await t.call('logs.query', { filter: { search: ref.slice(-10) }, sort: 'time_desc', offset: 0, limit: 10 })).rows[0].transactionId).toBe(ref);

    const asc = await t.call('logs.query', { filter: {}, sort: 'amount_asc', offset: 1, limit: 2 });
    expect(asc.rows.map((r) => r.amountKobo)).toEqual([25_000, 40_000]);
    const one = await t.call('logs.get', { rowid: asc.rows[0].rowid });
    expect(one.phoneNumber).toBe('08031110002');
    await expect(t.call('logs.get', { rowid: 999_999 })).rejects.toMatchObject({ code: 'log_row_missing' });

    const file = await t.call('logs.export', { filter: { status: 'SUCCESS' }, sort: 'amount_desc', format: 'xlsx' });
    expect(file.rows).toBe(3);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(file.path);
    const sheet = wb.getWorksheet('Transactions');
    if (!sheet) throw new Error('no Transactions sheet');
    const headers = (sheet.getRow(1).values as unknown[]).slice(1);
    const amount = sheet.getRow(2).getCell(headers.indexOf('Amount') + 1);
    expect(amount.value).toBe(400);
    expect(amount.numFmt).toContain('₦');
    expect(sheet.getRow(2).getCell(headers.indexOf('Time (Lagos)') + 1).value).toBeInstanceOf(Date);
    expect(sheet.rowCount).toBe(4);

    const csv = await t.call('logs.export', { filter: {}, sort: 'time_desc', format: 'csv' });
    expect(csv.rows).toBe(4);
  });
});
