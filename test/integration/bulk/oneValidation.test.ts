/**
 * One validation, one answer (issue 38, item 4): the same spreadsheet checked in the window
 * (`bulk.prepare`, the preview) and on the command line (`vendesk bulk validate`, `bulk submit`)
 * gives the same counts, the same total to buy and the same rows left out as duplicates. The file
 * is made as a user makes it: typed as CSV, opened in LibreOffice Calc and saved as .xlsx (phone
 * numbers become numbers and lose their leading zero), with a row that repeats another row of the
 * file and one that repeats a purchase an earlier job made. Against the sandbox over HTTP.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/main';
import { xlsxFromCsvViaLibreOffice } from '../../support/libreOffice';
import type { TestApp } from '../../support/testApp';
import { cli } from '../purchases/purchaseHelpers';
import { QUICK_SETTLEMENT, allLogEntries, mtnPhone, startBulkTestApp, tempDir, waitForJob, writeCsv, type BulkValidateJson } from './bulkTestFiles';

let t: TestApp;
let dir: string;
let workbook: string;
/** The earlier job's purchase: row 17 of the file buys it again. */
const EARLIER = { phone: mtnPhone(900), naira: 750 };

beforeAll(async () => {
  t = await startBulkTestApp(QUICK_SETTLEMENT);
  dir = tempDir();
  const earlier = await t.call('bulk.prepare', {
    file: {
      path: writeCsv(dir, 'earlier.csv', [
        ['Phone', 'Amount'],
        [EARLIER.phone, EARLIER.naira],
      ]),
    },
    kind: 'airtime',
  });
  await t.call('bulk.confirm', { jobId: earlier.job.id });
  await waitForJob(t, earlier.job.id, (j) => j.state === 'completed' && j.counts.success === 1);
  expect((await allLogEntries(t.sandbox.url, t.token)).map((e) => [e.phone_number, e.status])).toEqual([[EARLIER.phone, 'SUCCESS']]);

  // 26 data rows under a title row, as a finance officer types them: amounts with thousands
  // separators and a kobo part, one number too short, row 12 repeating row 5, row 17 the earlier job.
  const rows: (string | number)[][] = [['Staff airtime - November'], [], ['Name', 'Phone Number', 'Network', 'Amount']];
  for (let i = 0; i < 26; i++) rows.push([`Staff ${i + 1}`, mtnPhone(100 + i), 'MTN', i % 3 === 0 ? '1,500.50' : 1000]);
  rows[11] = ['Staff 9 again', mtnPhone(101), 'MTN', 1000]; // sheet row 12 = row 5's purchase (mtnPhone(101), ₦1,000)
  rows[16] = ['Staff 14', EARLIER.phone, 'MTN', EARLIER.naira]; // sheet row 17
  rows[21] = ['Staff 19', '0803123', 'MTN', 1000]; // sheet row 22: too short
  const csv = writeCsv(dir, 'staff airtime.csv', rows);
  workbook = xlsxFromCsvViaLibreOffice(csv);
  fs.rmSync(csv);
});

afterAll(async () => {
  await t?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

it('the window and `bulk validate` give the same counts, the same total to buy and the same rows left out', async () => {
  const preview = await t.call('bulk.prepare', { file: { path: workbook }, kind: 'airtime' });
  const r = await cli(t, ['bulk', 'validate', workbook, '--kind', 'airtime']);
  expect(r.code, r.stderr).toBe(3); // row 22 is invalid
  const v = JSON.parse(r.stdout) as BulkValidateJson;

  // What the window shows: "Buy 23 for ₦…", one invalid row, two rows left out.
  const windowLeftOut = preview.duplicates.filter((d) => d.state === 'excluded').map((d) => d.row);
  expect(windowLeftOut).toEqual([12, 17]);
  expect(preview.job.invalidRows).toBe(1);
  expect(preview.includedItems).toBe(23);
  // The total written out by hand: rows 4, 7, 10, 13, 16, 19, 22, 25, 28 have ₦1,500.50 (row 22 is invalid).
  expect(preview.includedKobo).toBe(8 * 150_050 + 15 * 100_000);

  // The command line says the same.
  expect(v).toMatchObject({ rows: 26, valid: 25, invalid: 1, duplicates: 2, toBuy: preview.includedItems, totalAmount: preview.includedKobo / 100 });
  expect(v.leftOut.map((l) => l.row)).toEqual(windowLeftOut);
  const [earlier] = (await allLogEntries(t.sandbox.url, t.token)).filter((e) => e.phone_number === EARLIER.phone);
  expect(v.leftOut).toEqual([
    { row: 12, phone: mtnPhone(101), account: null, amount: 1000, sameAsRow: 5, boughtRecently: null, reason: 'Same purchase as row 5 of this file' },
    {
      row: 17,
      phone: EARLIER.phone,
      account: null,
      amount: EARLIER.naira,
      sameAsRow: null,
      boughtRecently: { at: expect.any(String), reference: earlier.transaction_id },
      reason: expect.stringMatching(/already had ₦750\.00 bought in the last 24 hours/),
    },
  ]);
  // The window says the same of each.
  expect(preview.duplicates.map((d) => [d.row, d.duplicateOf])).toEqual(v.leftOut.map((l) => [l.row, l.reason]));
  expect(v.errors.map((e) => e.row)).toEqual([22]);
  await t.call('bulk.discard', { jobId: preview.job.id });
});

it('the text of `bulk validate` lists every row it leaves out, with its phone, amount and why', async () => {
  const { code, text } = await textOf(['bulk', 'validate', workbook, '--kind', 'airtime']);
  expect(code).toBe(3);
  expect(text).toContain('26 row(s): 25 valid, 1 invalid. To buy: 23 for ₦27,004.00; 2 left out as duplicates (bulk submit --keep-duplicates buys them).');
  expect(text).toContain(`Row 12: ${mtnPhone(101)}, ₦1,000.00 — left out: same purchase as row 5 of this file`);
  // The earlier purchase's time in Lagos, as every time the CLI prints.
  expect(text).toMatch(
    new RegExp(`Row 17: ${EARLIER.phone}, ₦750\\.00 — left out: ${EARLIER.phone} already had ₦750\\.00 bought in the last 24 hours \\(\\d+ [A-Z][a-z]{2} \\d{4}, \\d\\d:\\d\\d`),
  );
  expect(text).toMatch(/Row 22: .*not a Nigerian mobile number/);
});

it('`bulk submit` buys what the window would: the same rows, the same total, the duplicates left out and named', async () => {
  const before = (await allLogEntries(t.sandbox.url, t.token)).length;
  const r = await cli(t, ['bulk', 'submit', workbook, '--kind', 'airtime', '--yes', '--skip-invalid', '--confirm-total', '27,004']);
  expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0);
  expect(r.stderr).toMatch(/23 item\(s\), face value ₦27,004\.00/);
  expect(r.stderr).toContain(`Row 12: ${mtnPhone(101)}, ₦1,000.00 — left out: same purchase as row 5 of this file`);
  expect(r.stderr).toContain(`Row 17: ${EARLIER.phone}, ₦750.00 — left out: ${EARLIER.phone} already had ₦750.00 bought in the last 24 hours`);
  const job = JSON.parse(r.stdout) as { items: number; bought: { faceValue: number } };
  expect(job.bought.faceValue).toBe(27_004);
  // The service's own log: 23 purchases more, none for the rows left out beyond the earlier job's.
  const log = await allLogEntries(t.sandbox.url, t.token);
  expect(log.length - before).toBe(23);
  expect(log.filter((e) => e.phone_number === EARLIER.phone)).toHaveLength(1);
  expect(log.filter((e) => e.phone_number === mtnPhone(101))).toHaveLength(1);
});

/** The CLI's text (no --json), in process against the test's sandbox and data folder. */
async function textOf(args: string[]): Promise<{ code: number; text: string }> {
  let text = '';
  const code = await runCli([...args, '--base-url', t.sandbox.url, '--data-dir', t.dataDir], {
    stdout: (s) => (text += s),
    stderr: () => undefined,
    env: { VENDESK_TOKEN: t.token },
  });
  return { code, text };
}
