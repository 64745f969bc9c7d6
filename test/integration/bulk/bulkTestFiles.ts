/** Spreadsheets for the bulk tests, written to a temporary folder as CSV. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BulkJobView } from '../../../src/shared/contract/bulk';
import type { TestApp } from '../../support/testApp';

export function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-bulk-'));
}

export function writeCsv(dir: string, name: string, rows: (string | number)[][]): string {
  const file = path.join(dir, name);
  const text = rows.map((r) => r.map((c) => (/[",\n]/.test(String(c)) ? `"${String(c).replace(/"/g, '""')}"` : String(c))).join(',')).join('\n');
  fs.writeFileSync(file, `${text}\n`);
  return file;
}

/** A distinct valid MTN number per index: 0803 + 7 digits. */
export function mtnPhone(i: number): string {
  return `0803${String(1_000_000 + i).slice(-7)}`;
}

export function airtimeRows(count: number, amountNaira = 100, offset = 0): (string | number)[][] {
  const rows: (string | number)[][] = [['Name', 'Phone', 'Network', 'Amount']];
  for (let i = 0; i < count; i++) rows.push([`Staff ${i + 1}`, mtnPhone(i + offset), 'MTN', amountNaira]);
  return rows;
}

export async function waitForJob(t: TestApp, jobId: string, until: (j: BulkJobView) => boolean, timeoutMs = 60_000): Promise<BulkJobView> {
  const start = Date.now();
  for (;;) {
    const j = await t.call('bulk.status', { jobId });
    if (until(j)) return j;
    if (Date.now() - start > timeoutMs) throw new Error(`job ${jobId} did not reach the expected state: ${JSON.stringify(j)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

export interface LogRow {
  transaction_id: string;
  phone_number: string;
  amount: string;
  status: string;
  type: string;
  network: string;
}

/** Every entry of the sandbox's log for this organisation, all pages, over HTTP. */
export async function allLogEntries(baseUrl: string, token: string): Promise<LogRow[]> {
  const out: LogRow[] = [];
  for (let page = 1; ; page++) {
    const res = await fetch(`${baseUrl}/logEntries?page=${page}&perPage=100`, { headers: { Authorization: `Bearer ${token}` } });
    const body = (await res.json()) as { data: { Items: LogRow[]; TotalPages: number } };
    out.push(...body.data.Items);
    if (page >= body.data.TotalPages || body.data.Items.length === 0) return out;
  }
}
