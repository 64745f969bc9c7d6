/** Contacts spreadsheets for tests and the benchmark: CSV or XLSX with Name and Phone columns. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';

export interface ContactLine {
  name: string;
  phone: string;
}

/** `count` distinct valid Nigerian numbers written in the mixed ways people write them. */
export function makeContacts(count: number, start = 0): ContactLine[] {
  const prefixes = ['0803', '0806', '0813', '0805', '0802', '0809', '0703', '0901'];
  const out: ContactLine[] = [];
  for (let i = start; i < start + count; i++) {
    const local = prefixes[i % prefixes.length] + String(1_000_000 + i).slice(-7);
    const spelled = i % 3 === 0 ? local : i % 3 === 1 ? `234${local.slice(1)}` : `+234 ${local.slice(1, 4)} ${local.slice(4)}`;
    out.push({ name: `Staff ${i + 1}`, phone: spelled });
  }
  return out;
}

export function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-contacts-'));
}

export function writeContactsCsv(file: string, lines: ContactLine[], extraRows: string[] = []): string {
  const body = ['Name,Phone Number', ...lines.map((l) => `${l.name},${l.phone}`), ...extraRows].join('\n');
  fs.writeFileSync(file, body + '\n');
  return file;
}

export async function writeContactsXlsx(file: string, lines: ContactLine[], extraRows: [string, string][] = []): Promise<string> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useSharedStrings: false });
  const sheet = workbook.addWorksheet('Contacts');
  sheet.addRow(['Name', 'Phone']).commit();
  for (const l of lines) sheet.addRow([l.name, l.phone]).commit();
  for (const r of extraRows) sheet.addRow(r).commit();
  sheet.commit();
  await workbook.commit();
  return file;
}
