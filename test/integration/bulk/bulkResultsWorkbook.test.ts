/**
 * The results workbook of a bulk job, opened in LibreOffice: the Items sheet has one row per data
 * row of the uploaded spreadsheet, in file order, bought or not, each with its outcome and
 * reason; the Summary's counts and amounts are numbers (Naira amounts with a Naira format), and
 * they agree with the service's log and wallet.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LogEntry } from '../../../src/shared/wire';
import { faceKoboOf } from '../../support/serviceSpend';
import { workbookViaLibreOffice, type LibreOfficeCell } from '../../support/libreOfficeCells';
import { ROOT } from '../../support/testApp';
import { advanceClocks, walletKobo } from '../purchases/purchaseHelpers';
import { allLogEntries, bulkTestEach, waitForJob, writeCsv } from './bulkTestFiles';

const FIXTURE = path.join(ROOT, 'test', 'fixtures', 'imports', 'libreoffice-airtime.xlsx');

const env = bulkTestEach();

/** A sheet's rows as objects by header (row 1), with LibreOffice's cells. */
function table(rows: LibreOfficeCell[][]): Record<string, LibreOfficeCell>[] {
  const headers = rows[0].map((c) => c.text);
  return rows.slice(1).map((r) => Object.fromEntries(headers.map((h, i) => [h, r[i] ?? { type: 'empty', value: null, text: '' }])));
}

/** The Summary sheet by its "What" column. */
function summary(rows: LibreOfficeCell[][]): Map<string, Record<string, LibreOfficeCell>> {
  return new Map(table(rows).map((r) => [r.What.text, r]));
}

/** Row numbers of the data rows of a sheet as LibreOffice reads it: the non-empty rows after the heading row. */
function dataRowNumbers(rows: LibreOfficeCell[][], heading: string): number[] {
  const headingRow = rows.findIndex((r) => r.some((c) => c.text === heading));
  return rows.map((r, i) => (i > headingRow && r.length > 0 ? i + 1 : 0)).filter((n) => n > 0);
}

const isNumber = (c: LibreOfficeCell) => c.type === 'float' || c.type === 'currency';

describe('the results workbook', () => {
  it('has one Items row per spreadsheet row in file order, and a Summary of numbers that match the service', { timeout: 120_000 }, async () => {
    const uploaded = workbookViaLibreOffice(FIXTURE);
    const fileRows = dataRowNumbers([...uploaded.values()][0], 'Phone Number');
    expect(fileRows).toHaveLength(10);

    const walletBefore = await walletKobo(env.t);
    const preview = await env.t.call('bulk.prepare', { file: { path: FIXTURE }, kind: 'airtime' });
    const done = await env.t.call('bulk.confirm', { jobId: preview.job.id, wait: true });
    expect(done.state).toBe('completed');
    const exported = await env.t.call('bulk.export', { jobId: preview.job.id, format: 'xlsx' });
    expect(exported.rows).toBeGreaterThanOrEqual(fileRows.length);

    const book = workbookViaLibreOffice(exported.path);
    expect([...book.keys()]).toEqual(['Summary', 'Items']);
    const items = table(book.get('Items') ?? []);
    expect(items.map((r) => r.Row.value)).toEqual(fileRows);
    for (const r of items) expect(r.Row.type).toBe('float');
    const byRow = new Map(items.map((r) => [r.Row.value, r]));
    for (const invalid of [8, 9, 13]) {
      expect(byRow.get(invalid)?.Outcome.text).toBe('Invalid (not bought)');
      expect(byRow.get(invalid)?.Reason.text).toMatch(new RegExp(`^Row ${invalid}: `));
    }
    expect(byRow.get(12)?.Outcome.text).toBe('Left out: duplicate (not bought)');
    expect(byRow.get(12)?.Reason.text).toMatch(/Same purchase as row 4/);
    const bought = items.filter((r) => r.Outcome.text === 'Successful');
    expect(bought).toHaveLength(6);
    for (const r of bought) {
      expect(isNumber(r['Amount (face value)'])).toBe(true);
      expect(r['Amount (face value)'].text).toMatch(/^₦[\d,]+\.\d\d$/);
      expect(isNumber(r['Wallet cost'])).toBe(true);
    }

    const log = await allLogEntries(env.t.sandbox.url, env.t.token);
    const s = summary(book.get('Summary') ?? []);
    expect(s.get('Rows in the file')?.Items).toMatchObject({ type: 'float', value: 10 });
    expect(s.get('Invalid rows (not bought)')?.Items).toMatchObject({ type: 'float', value: 3 });
    expect(s.get('Left out (duplicates)')?.Items).toMatchObject({ type: 'float', value: 1 });
    const boughtLine = s.get('Bought (successful and pending)');
    expect(boughtLine?.Items).toMatchObject({ type: 'float', value: log.length });
    expect(isNumber(boughtLine?.['Face value'] ?? { type: 'empty', value: null, text: '' })).toBe(true);
    expect(Math.round((boughtLine?.['Face value'].value ?? 0) * 100)).toBe(log.reduce((sum, e) => sum + faceKoboOf(e as unknown as LogEntry), 0));
    expect(boughtLine?.['Face value'].text).toMatch(/^₦[\d,]+\.\d\d$/);
    expect(Math.round((boughtLine?.['Wallet cost'].value ?? 0) * 100)).toBe(walletBefore - (await walletKobo(env.t)));
    expect(boughtLine?.['Wallet cost known for (items)']).toMatchObject({ type: 'float', value: log.length });
  });

  it('a cancelled job lists every row: bought, failed, not bought and invalid', async () => {
    await env.t.call('bulk.settings.set', { batchSize: 1, concurrency: 1 });
    const file = writeCsv(env.dir, 'payroll.csv', [
      ['Name', 'Phone', 'Amount'],
      ['Ade', '08031230001', 100],
      ['Fails', '08031239999', 100],
      ['Bad', '0703123', 100],
      ['Chidi', '08031230003', 100],
      ['Dayo', '08031230004', 100],
      ['Efe', '08031230005', 100],
      ['Funmi', '08031230006', 100],
    ]);
    const preview = await env.t.call('bulk.prepare', { file: { path: file }, kind: 'airtime' });
    // The first row is slowed by 503s while the daily cap is lowered: the job stops at the cap, then is cancelled.
    await env.t.sandboxControl.addFault({ path: '/purchaseAirtime', status: 503, count: 3 });
    await env.t.call('bulk.confirm', { jobId: preview.job.id });
    await env.t.call('bulk.settings.set', { capPerDayKobo: 250_00 });
    const paused = await waitForJob(env.t, preview.job.id, (j) => !j.active, 30_000);
    expect(paused.state).toBe('paused');
    await env.t.call('bulk.cancel', { jobId: preview.job.id });
    await advanceClocks(env.t, 10);
    const job = await env.t.call('bulk.checkAgain', { jobId: preview.job.id });
    expect(job.counts).toMatchObject({ failed: 1, accepted: 0, pending: 0 });
    expect(job.notBought.count).toBeGreaterThan(0);

    const exported = await env.t.call('bulk.export', { jobId: preview.job.id, format: 'xlsx' });
    const book = workbookViaLibreOffice(exported.path);
    const items = table(book.get('Items') ?? []);
    expect(items.map((r) => r.Row.value)).toEqual([2, 3, 4, 5, 6, 7, 8]);
    expect(items.map((r) => r.Outcome.text)).toEqual([
      'Successful',
      'Failed (refunded)',
      'Invalid (not bought)',
      ...Array.from({ length: 4 - job.notBought.count }, () => 'Successful'),
      ...Array.from({ length: job.notBought.count }, () => 'Not bought (never sent)'),
    ]);
    expect(items[1].Reason.text).toMatch(/refunded/);
    expect(items[2].Reason.text).toMatch(/^Row 4: .*not a Nigerian mobile number/);
    expect(items[items.length - 1].Reason.text).toMatch(/cancelled before this item was sent; nothing was charged/);
    const s = summary(book.get('Summary') ?? []);
    expect(s.get('Not bought (never sent)')?.Items).toMatchObject({ type: 'float', value: job.notBought.count });
    expect(s.get('Not bought (never sent)')?.['Face value'].value).toBe(job.notBought.faceKobo / 100);
    expect(s.get('Failed (refunded)')?.Items).toMatchObject({ type: 'float', value: 1 });
    expect(s.get('Job state')?.Value.text).toBe('cancelled');

    // The CSV has the same rows.
    const csv = await env.t.call('bulk.export', { jobId: preview.job.id, format: 'csv' });
    expect(csv.rows).toBe(7);
  });
});
