/** A text file renamed .xlsx is said to be what it is, not read as a 0-row CSV with "recognised" columns. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { inspectSpreadsheet } from '../../../src/main/imports';

describe('a .txt renamed .xlsx', () => {
  it('is refused with what the file is and what to do', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-txt-'));
    const file = path.join(dir, 'staff airtime.xlsx');
    fs.writeFileSync(file, 'Remember to buy airtime for the field staff on Monday\nAsk Bayo for the list\n');
    await expect(inspectSpreadsheet(file)).rejects.toMatchObject({
      code: 'unsupported',
      message: expect.stringContaining('is not an Excel workbook or a CSV: it holds plain text'),
    });
  });

  it('a real CSV saved under an .xlsx name is still read as the CSV it is', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-txt-'));
    const file = path.join(dir, 'staff.xlsx');
    fs.writeFileSync(file, 'Phone,Amount\n08031110001,100\n');
    await expect(inspectSpreadsheet(file)).resolves.toMatchObject({ format: 'csv' });
  });
});
