/**
 * The spreadsheet templates a person downloads before filling in a bulk job or a contacts import:
 * a header row with the column names vendesk reads for that kind and two example rows (sandbox
 * catalog codes), and in the `.xlsx` a second sheet that says how to fill it in. The phone and
 * account columns of the `.xlsx` are formatted as Text so a typed `0803…` keeps its leading zero.
 *
 * Given in the window (Purchases → Bulk purchases, Messaging → Phonebooks) and by
 * `vendesk bulk template KIND --out FILE`; `resources/templates/` holds the same files.
 */
import fs from 'node:fs';
import ExcelJS from 'exceljs';
import { ImportError } from './importError';
import { HEADER_SEARCH_ROWS } from './sheetTable';

import { TEMPLATE_COLUMNS, TEMPLATE_KINDS } from '../../shared/contract/bulk';

export { TEMPLATE_KINDS };
export type TemplateKind = (typeof TEMPLATE_KINDS)[number];

export interface TemplateSpec {
  headers: readonly string[];
  rows: (string | number)[][];
  /** Columns (0-based) formatted as text in the XLSX so leading zeros survive typing. */
  textColumns: number[];
  notes: string[];
}

/** The template sheets users download: a header row and two example rows with sandbox catalog codes. */
export const TEMPLATES: Record<TemplateKind, TemplateSpec> = {
  airtime: {
    headers: TEMPLATE_COLUMNS.airtime,
    rows: [
      ['08031234567', 1000, 'MTN', 'Adaeze Okafor', 'STAFF-001'],
      ['08021234567', 500, '', 'Bola Adeyemi', 'STAFF-002'],
    ],
    textColumns: [0],
    notes: [
      'Phone: a Nigerian mobile number, e.g. 08031234567 or +234 803 123 4567.',
      'Amount: Naira, e.g. 1000 or 1,000.50 (at least 100, within the network limits).',
      "Network: MTN, Airtel, Glo or 9mobile; leave empty to use the number's network.",
      'Name and Reference are optional and kept with each purchase.',
    ],
  },
  data: {
    headers: TEMPLATE_COLUMNS.data,
    rows: [
      ['08031234567', 'MTN-1GB-1D', 'Adaeze Okafor', 'STAFF-001'],
      ['08051234567', 'GLO-1GB-1D', 'Chinedu Eze', 'STAFF-002'],
    ],
    textColumns: [0, 1],
    notes: ['Phone: a Nigerian mobile number.', 'Product Code: the exact code from the data plan list (case-sensitive). Network and price come from the plan.'],
  },
  electricity: {
    headers: TEMPLATE_COLUMNS.electricity,
    rows: [
      ['45701234567', 'IKEDC', 'PREPAID', 5000, '08031234567', 'Head office', 'METER-01'],
      ['04123456789', 'AEDC', 'POSTPAID', 20000, '08021234567', 'Abuja branch', 'METER-02'],
    ],
    textColumns: [0, 4],
    notes: [
      'Meter Number: digits only. Disco: the code from the electricity provider list (IKEDC, EKEDC, AEDC, ...).',
      "Meter Type: PREPAID or POSTPAID. Amount: Naira, within the disco's minimum and maximum. Phone: the customer's mobile number.",
    ],
  },
  cable: {
    headers: TEMPLATE_COLUMNS.cable,
    rows: [
      ['7012345678', 'GOTV', 'gotv-max', '08031234567', 'Guest house', 'TV-01'],
      ['1234567890', 'DSTV', 'dstv79', '08021234567', 'Reception', 'TV-02'],
    ],
    textColumns: [0, 2, 3],
    notes: [
      'Smartcard Number: the smartcard or IUC number. Provider: DSTV, GOTV, STARTIMES or SHOWMAX.',
      'Bouquet Code: the exact code from the cable TV list (case-sensitive); the price comes from the list.',
    ],
  },
  contacts: {
    headers: TEMPLATE_COLUMNS.contacts,
    rows: [
      ['Adaeze Okafor', '08031234567'],
      ['Bola Adeyemi', '+234 802 123 4567'],
    ],
    textColumns: [1],
    notes: ['Phone: a Nigerian mobile number; the same number twice is added once.'],
  },
};

const TEMPLATE_WORDS: Record<TemplateKind, string> = { airtime: 'airtime', data: 'data', electricity: 'electricity', cable: 'cable TV', contacts: 'contacts' };

/**
 * A file read for a kind of job whose sheet has no header row: the message names that kind's
 * columns and where its template comes from. Any other error is given back as it was.
 */
export function noHeaderForKind(error: unknown, kind: TemplateKind): unknown {
  if (!(error instanceof ImportError) || error.code !== 'no_header') return error;
  const where = kind === 'contacts' ? 'Messaging → Phonebooks → Download the template' : 'Purchases → Bulk purchases → Download the template';
  return new ImportError(
    'no_header',
    `No header row found in the first ${HEADER_SEARCH_ROWS} rows. Add a row of column names above the data — for ${TEMPLATE_WORDS[kind]}: ${TEMPLATES[kind].headers.join(', ')} — and import again. The ${TEMPLATE_WORDS[kind]} template has them (${where}, or vendesk bulk template ${kind} --out FILE).`,
    { cause: error },
  );
}

function csvField(value: string | number): string {
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Writes a kind's template to `file` as CSV (UTF-8 with a byte-order mark, so Excel reads ₦ and accents) or XLSX. */
export async function writeTemplate(kind: TemplateKind, format: 'csv' | 'xlsx', file: string): Promise<void> {
  const spec = TEMPLATES[kind];
  if (format === 'csv') {
    const lines = [spec.headers, ...spec.rows].map((row) => row.map(csvField).join(','));
    fs.writeFileSync(file, `\uFEFF${lines.join('\r\n')}\r\n`);
    return;
  }
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'vendesk';
  workbook.created = new Date(Date.UTC(2025, 0, 1));
  workbook.modified = workbook.created;
  const sheet = workbook.addWorksheet(kind[0].toUpperCase() + kind.slice(1));
  sheet.columns = spec.headers.map((header, i) => ({ header, width: Math.max(16, header.length + 4), style: spec.textColumns.includes(i) ? { numFmt: '@' } : {} }));
  sheet.getRow(1).font = { bold: true };
  for (const r of spec.rows) sheet.addRow(r.map((v) => (v === '' ? null : v)));
  sheet.views = [{ state: 'frozen', ySplit: 1 }];
  const help = workbook.addWorksheet('How to fill this in');
  help.getColumn(1).width = 110;
  help.addRow(['Fill in the first sheet, one purchase per row, keeping the header row. Delete the example rows.']);
  help.addRow(['Phone and account numbers are formatted as text so the leading 0 is kept; keep them that way.']);
  for (const note of spec.notes) help.addRow([note]);
  await workbook.xlsx.writeFile(file);
}
