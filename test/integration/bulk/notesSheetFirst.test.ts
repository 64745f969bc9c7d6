/**
 * A workbook whose first sheet is notes (no table) is read from the sheet that holds the data,
 * and the preview names that sheet; nothing is bought before the user confirms.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../support/testApp';

let t: TestApp | null = null;
afterEach(async () => {
  await t?.close();
  t = null;
});

describe('a workbook with a notes sheet first', () => {
  it('is read from the sheet that holds the data', async () => {
    t = await startTestApp();
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-notes-')), 'April airtime.xlsx');
    const wb = new ExcelJS.Workbook();
    const notes = wb.addWorksheet('Read me');
    notes.addRow(['Airtime for the field staff, April. Approved by the finance manager.']);
    notes.addRow(['Send questions to Bayo.']);
    const data = wb.addWorksheet('Staff');
    data.addRow(['Name', 'Phone', 'Amount']);
    data.addRow(['Ada', '08031110001', 100]);
    data.addRow(['Chi', '08031110003', 300]);
    await wb.xlsx.writeFile(file);

    const preview = await t.call('bulk.prepare', { file: { path: file }, kind: 'airtime' });
    expect(preview.job.sheetName).toBe('Staff');
    expect(preview.includedItems).toBe(2);
    expect(preview.includedKobo).toBe(40_000);
    expect(preview.sheetNames).toEqual(['Read me', 'Staff']);
  });
});

describe('a data bundle row whose amount is not the plan price', () => {
  it('is bought at the plan price, and the preview says the file amount is ignored', async () => {
    t = await startTestApp();
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-plan-')), 'data.csv');
    fs.writeFileSync(file, 'Phone,Plan,Amount\n08031110001,MTN-1GB-1D,5\n08031110002,MTN-1GB-1D,350\n');
    const preview = await t.call('bulk.prepare', { file: { path: file }, kind: 'data' });
    expect(preview.includedItems).toBe(2);
    expect(preview.includedKobo).toBe(70_000);
    expect(preview.job.message).toContain("Row 2: the file's amount 5 is ignored; plan MTN-1GB-1D costs ₦350.00.");
    expect(preview.job.message).not.toContain('Row 3');
  });
});
