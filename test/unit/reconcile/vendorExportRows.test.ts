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

  it('reads every row of a file whose rows grow longer after its first megabyte (the room made from the start is too small), in both readers', async () => {
    // Short rows first, then rows with a long description: the columns are sized from the first
    // MB's rows and must grow (once, to what the rest needs) without losing or shifting a row.
    const lines = ['transaction_id,id,phone_number,amount,transaction_cost,status,created_at,description'];
    const n = 60_000;
    for (let i = 1; i <= n; i++) {
      const description = i <= 20_000 ? 'x' : `MTN airtime for a long description ${'y'.repeat(120)} ${i}`;
      lines.push(`TX${i},${i},0803${String(i).padStart(7, '0')},${i}.00,${i - 1}.50,SUCCESS,2026-03-02T10:${String(i % 60).padStart(2, '0')}:00.000Z,${description}`);
    }
    const p = file('growing.csv', lines.join('\n') + '\n');
    expect(fs.statSync(p).size).toBeGreaterThan(4 * 1024 * 1024);
    for (const twoThreadsFromBytes of [Infinity, 1]) {
      const c = (await readVendorExport(p, { skipHash: true, twoThreadsFromBytes })).columns;
      expect(c.length, `two threads from ${twoThreadsFromBytes}`).toBe(n);
      for (const i of [0, 19_999, 20_000, 45_123, n - 1]) {
        expect(c.txIdOf ? c.txIdOf(i) : c.txId[i]).toBe(`TX${i + 1}`);
        expect(c.logId[i]).toBe(i + 1);
        expect(c.amountKobo[i]).toBe((i + 1) * 100);
        expect(c.costKobo[i]).toBe(i * 100 + 50);
      }
      expect(c.detail(n - 1).rowNumber).toBe(n + 1);
    }
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
