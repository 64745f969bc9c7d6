import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, describe, expect, it } from 'vitest';
import { readVendorExport } from '../../../src/main/reconcile/vendorExportRows';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-export-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function file(name: string, content: string | Buffer): string {
  const p = path.join(dir, name);
  fs.writeFileSync(p, content);
  return p;
}

describe('reading a vendor export', () => {
  it('maps columns in any order and spelling and reads NGN amounts, quotes and ISO times', async () => {
    const p = file(
      'a.csv',
      '\uFEFFStatus,Amount,Phone Number,Transaction ID,ID,Transaction Cost,Created At,Updated At,Description\r\n' +
        'SUCCESS,"NGN 1,000.00",2348031234567,TX1,11,970,2026-03-02T10:00:00.000Z,2026-03-02T10:00:05.000Z,"MTN airtime, ""VTU"""\r\n' +
        '\r\n' +
        'failed,₦250.50,08031234568,TX2,12,243,2026-03-02 11:00:00,2026-03-02 11:05:00,x\r\n' +
        'PENDING,1500,08031234569,,13,0,2026-03-02T12:00:00Z,,y\r\n',
    );
    const r = await readVendorExport(p);
    const c = r.columns;
    expect(c.length).toBe(3);
    expect(c.txId).toEqual(['TX1', 'TX2', '']);
    expect([...c.logId]).toEqual([11, 12, 13]);
    expect([...c.amountKobo]).toEqual([100_000, 25_050, 150_000]);
    expect([...c.costKobo]).toEqual([97_000, 24_300, 0]);
    expect([...c.status]).toEqual([1, 2, 3]);
    expect(new Date(c.createdMs[1]).toISOString()).toBe('2026-03-02T11:00:00.000Z');
    expect(new Date(c.updatedMs?.[1] ?? NaN).toISOString()).toBe('2026-03-02T11:05:00.000Z');
    expect(c.detail(0)).toMatchObject({ phone: '08031234567', product: 'MTN airtime, "VTU"', rowNumber: 2 });
    expect(c.detail(1).rowNumber).toBe(4);
    expect(r.fileHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('reads semicolon-separated files and lists rows it cannot read, with what to fix', async () => {
    const p = file('b.csv', 'transaction_id;phone_number;amount;status\nT1;08031234567;1000;SUCCESS\nT2;08031234567;abc;SUCCESS\nT3;08031234567;500;maybe\n');
    const r = await readVendorExport(p);
    expect(r.columns.length).toBe(1);
    expect(r.unreadableCount).toBe(2);
    expect(r.unreadable[0].message).toMatch(/^Row 3: amount: .*left out; correct it in the export/);
    expect(r.unreadable[1].message).toMatch(/^Row 4: status "maybe" is not SUCCESS, FAILED or PENDING/);
  });

  it('reads XLSX through the importer with the same result', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Log');
    ws.addRow(['created_at', 'transaction_id', 'phone_number', 'amount', 'transaction_cost', 'status']);
    ws.addRow(['2026-03-02T10:00:00.000Z', 'TX9', '08031234567', 'NGN 2,000.00', 1940, 'SUCCESS']);
    const p = path.join(dir, 'c.xlsx');
    await wb.xlsx.writeFile(p);
    const r = await readVendorExport(p);
    expect(r.format).toBe('xlsx');
    expect(r.columns.txId).toEqual(['TX9']);
    expect([...r.columns.amountKobo]).toEqual([200_000]);
    expect([...r.columns.costKobo]).toEqual([194_000]);
  });

  it('refuses a file without amount and status columns, naming the columns it has', async () => {
    await expect(readVendorExport(file('d.csv', 'Name,Phone\nAda,08031234567\n'))).rejects.toThrow(/No Amount and status column found \(the file's columns are: "Name", "Phone"\)/);
  });
});
