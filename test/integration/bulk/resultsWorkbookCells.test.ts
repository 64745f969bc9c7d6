/**
 * Issue 24, finding 13: the workbooks a finance officer files.
 * - A bulk job's results: an invalid row carries the phone and name its row of the file gave (so
 *   the sheet says whose row was not bought), and "Confirmed at" / "Finished at" are real dates.
 * - A reconciliation workbook: "Made at" and the wallet readings are real dates.
 */
import ExcelJS from 'exceljs';
import { expect, it } from 'vitest';
import { lagosWallClock } from '../../../src/shared/localDates';
import { allLogEntries, bulkTestEach, waitForJob, writeCsv } from './bulkTestFiles';

const env = bulkTestEach({ seedHistory: 20 });

async function workbook(file: string): Promise<ExcelJS.Workbook> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(file);
  return wb;
}

/** The rows of a sheet as arrays of cell values (column A first). */
function rowsOf(sheet: ExcelJS.Worksheet | undefined): unknown[][] {
  const out: unknown[][] = [];
  sheet?.eachRow((row) => out.push((row.values as unknown[]).slice(1)));
  return out;
}

it('results: invalid rows with their phone and name; Confirmed at and Finished at are dates', async () => {
  const { t, dir } = env;
  const file = writeCsv(dir, 'staff.csv', [
    ['Name', 'Phone', 'Amount'],
    ['Ada Obi', '08031110001', 100],
    ['Bola Ade', '0703123', 200],
    ['Chi Eze', '08031110003', 300],
  ]);
  const preview = await t.call('bulk.prepare', { file: { path: file }, kind: 'airtime', keepDuplicates: false });
  expect(preview.job.invalidRows).toBe(1);
  await t.call('bulk.confirm', { jobId: preview.job.id });
  const done = await waitForJob(t, preview.job.id, (j) => !j.active);
  expect(done.state).toBe('completed');
  const log = await allLogEntries(t.sandbox.url, t.token);
  // The service was asked for the two valid rows only.
  expect(
    log
      .filter((e) => ['08031110001', '08031110003', '0703123'].includes(e.phone_number))
      .map((e) => e.phone_number)
      .sort(),
  ).toEqual(['08031110001', '08031110003']);

  const written = await t.call('bulk.export', { jobId: preview.job.id, format: 'xlsx' });
  const wb = await workbook(written.path);
  const items = rowsOf(wb.getWorksheet('Items'));
  const header = items[0] as string[];
  const invalid = items.find((r) => r[header.indexOf('Outcome')] === 'Invalid (not bought)');
  expect(invalid?.[header.indexOf('Row')]).toBe(3);
  expect(invalid?.[header.indexOf('Phone')]).toBe('0703123');
  expect(invalid?.[header.indexOf('Name')]).toBe('Bola Ade');

  const summary = rowsOf(wb.getWorksheet('Summary'));
  const when = (summary[0] as string[]).indexOf('When');
  const confirmed = summary.find((r) => r[0] === 'Confirmed at')?.[when];
  const finished = summary.find((r) => r[0] === 'Finished at')?.[when];
  expect(confirmed).toBeInstanceOf(Date);
  expect(finished).toBeInstanceOf(Date);
  // Excel dates have no zone: the cells hold the Lagos wall-clock time of the job's instants.
  expect((confirmed as Date).toISOString().slice(0, 19)).toBe(
    lagosWallClock(done.confirmedAt ?? '')
      .toISOString()
      .slice(0, 19),
  );
  expect((finished as Date).toISOString().slice(0, 19)).toBe(
    lagosWallClock(done.finishedAt ?? '')
      .toISOString()
      .slice(0, 19),
  );
});

it('a reconciliation workbook: Made at and the wallet readings are dates', async () => {
  const { t } = env;
  await t.call('sync.run', {});
  const vendor = await t.call('reconcile.sandboxExport', {});
  const run = await t.call('reconcile.start', { file: { path: vendor.path } });
  const written = await t.call('reconcile.exportWorkbook', { runId: run.id });
  const summary = rowsOf((await workbook(written.path)).getWorksheet('Summary'));
  const when = (summary[0] as string[]).indexOf('When (Lagos)');
  expect(when).toBeGreaterThan(0);
  const madeAt = summary.find((r) => r[0] === 'Run' && r[1] === 'Made at')?.[when];
  expect(madeAt).toBeInstanceOf(Date);
  expect((madeAt as Date).toISOString().slice(0, 19)).toBe(lagosWallClock(run.createdAt).toISOString().slice(0, 19));
  if (run.rollForward?.available) {
    const opening = summary.find((r) => r[0] === 'Wallet roll-forward' && r[1] === 'Opening balance (reading)')?.[when];
    expect(opening).toBeInstanceOf(Date);
  }
});
