/**
 * Generators of bulk spreadsheets with the values real finance teams send: phone numbers that
 * lost their leading zero, `+234 803 …`, `234-803-…`, amounts with ₦, NGN and commas, a title
 * row above the header, blank rows, names with accents, and a small share of bad rows
 * (short numbers, scientific notation, amounts under ₦100). Deterministic for a given seed.
 * Used by bench/imports.bench.ts and by anyone who needs a big realistic file.
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import ExcelJS from 'exceljs';
import { AIRTIME_CATALOG, CABLE_CATALOG, DATA_CATALOG, ELECTRICITY_CATALOG } from '../../src/sandbox/catalogs';
import { randomDraws, seededRandom } from '../../src/sandbox/randomData';
import type { Network } from '../../src/shared/phone';
import { TEMPLATE_KINDS, writeTemplate } from '../../src/main/imports/templates';

export type GeneratedKind = 'airtime' | 'data' | 'electricity' | 'cable' | 'contacts';
export type GeneratedCell = string | number | null;

export interface GeneratedTable {
  headers: string[];
  /** Rows above the header (a title, an empty line), as a spreadsheet user adds them. */
  preamble: GeneratedCell[][];
  /** Data rows; an empty array is a blank row. */
  rows: GeneratedCell[][];
}

export interface GenerateOptions {
  kind: GeneratedKind;
  rows: number;
  seed?: number;
  /** Spell values the many ways people do (default true); false gives clean canonical values. */
  messy?: boolean;
  /** Share of rows that must fail validation (default 0.01). */
  invalidRate?: number;
  /** Insert a blank row every N rows (default 0 = never). */
  blankEvery?: number;
  /** Put a title row and an empty row above the header (default true when messy). */
  title?: boolean;
  /**
   * For XLSX: write phone, meter and smartcard cells as numbers (losing the leading zero), as
   * Excel and LibreOffice do when the column is not formatted as text (default true when messy).
   */
  numbersAsNumbers?: boolean;
}

const NETWORK_WEIGHTS: [Network, number][] = [
  ['MTN', 0.5],
  ['AIRTEL', 0.28],
  ['GLOBACOM', 0.14],
  ['9MOBILE', 0.08],
];
const NETWORK_SPELLINGS: Record<Network, string[]> = {
  MTN: ['MTN', 'mtn', 'Mtn', 'MTN NG'],
  AIRTEL: ['Airtel', 'AIRTEL', 'airtel'],
  GLOBACOM: ['Glo', 'GLO', 'Globacom'],
  '9MOBILE': ['9mobile', '9MOBILE', 'Etisalat'],
};
const FIRST = [
  'Adébáyọ̀',
  'Chiamaka',
  'Ngozi',
  'Emeka',
  'Fatima',
  'Ifeoma',
  'Oluwaseun',
  'Musa',
  'Aisha',
  'Tunde',
  'Chukwudi',
  'Zainab',
  'Olúwádámilọ́lá',
  'Ibrahim',
  'Blessing',
  'Kelechi',
  'Halima',
  'Yusuf',
  'Funmilayo',
  'Efe',
];
const LAST = ['Okafor', 'Adeyemi', 'Bello', 'Eze', 'Ogunleye', 'Abubakar', 'Nwosu', 'Okonkwo', 'Danjuma', 'Ekanem', 'Oyelaran', 'Chukwu', 'Ibekwe', 'Sanusi', 'Akpan'];
/** Sandbox test endings that change outcomes (docs/sandbox.md); generated numbers avoid them. */
const SPECIAL_ENDINGS = ['0000', '1111', '2222', '4444', '5555', '9999'];

export function generateTable(options: GenerateOptions): GeneratedTable {
  const { random, pick, digits, network: weightedNetwork, mobileNumber } = randomDraws(seededRandom(options.seed ?? 20251122));
  const messy = options.messy ?? true;
  const invalidRate = options.invalidRate ?? 0.01;
  const blankEvery = options.blankEvery ?? 0;
  const network = (): Network => weightedNetwork(NETWORK_WEIGHTS);
  const localPhone = (n: Network): string => {
    for (;;) {
      const p = mobileNumber(n);
      if (!SPECIAL_ENDINGS.some((e) => p.endsWith(e))) return p;
    }
  };
  const messyPhone = (p: string): GeneratedCell => {
    if (!messy) return p;
    const x = random();
    const rest = p.slice(1);
    if (x < 0.45) return p;
    if (x < 0.7) return Number(rest); // leading zero lost
    if (x < 0.8) return `+234 ${rest.slice(0, 3)} ${rest.slice(3, 6)} ${rest.slice(6)}`;
    if (x < 0.87) return `234-${rest.slice(0, 3)}-${rest.slice(3, 6)}-${rest.slice(6)}`;
    if (x < 0.92) return `${p.slice(0, 4)} ${p.slice(4, 7)} ${p.slice(7)}`;
    if (x < 0.96) return `${rest}.0`;
    return `${p.slice(0, 4)}.${p.slice(4, 7)}.${p.slice(7)}`;
  };
  const badPhone = (): GeneratedCell => pick(['0703123', '2.34803E+12', '080312345', '+44 7911 123456', 'N/A', '0803-CALL-ME']);
  const messyAmount = (naira: number): GeneratedCell => {
    if (!messy) return naira;
    const x = random();
    const grouped = naira.toLocaleString('en-US');
    if (x < 0.4) return naira;
    if (x < 0.55) return String(naira);
    if (x < 0.7) return `₦${grouped}`;
    if (x < 0.8) return `NGN ${grouped}.00`;
    if (x < 0.9) return `${grouped}.00`;
    return `N${naira}`;
  };
  const name = (): string => `${pick(FIRST)} ${pick(LAST)}`;
  const reference = (i: number): string => `STAFF-${String(1000 + i).padStart(6, '0')}`;

  let headers: string[];
  let makeRow: (i: number, bad: boolean) => GeneratedCell[];
  switch (options.kind) {
    case 'airtime':
      headers = messy ? ['S/N', 'Full Name', 'Phone Number', 'Network', 'Amount (₦)', 'Reference'] : ['Phone', 'Amount', 'Network', 'Name', 'Reference'];
      makeRow = (i, bad) => {
        const n = network();
        const phone = bad && random() < 0.7 ? badPhone() : messyPhone(localPhone(n));
        const amount = bad ? pick([50, 0, 99]) : pick([100, 200, 500, 1000, 1500, 2000, 5000, 10000]);
        const net = messy && random() < 0.3 ? null : pick(NETWORK_SPELLINGS[n]);
        return messy ? [i + 1, name(), phone, net, messyAmount(amount), reference(i)] : [phone, amount, net, name(), reference(i)];
      };
      break;
    case 'data': {
      headers = messy ? ['S/N', 'Name', 'MSISDN', 'Plan Code', 'Network', 'Amount'] : ['Phone', 'Product Code', 'Name'];
      makeRow = (i, bad) => {
        const plan = pick(DATA_CATALOG);
        const phone = bad && random() < 0.5 ? badPhone() : messyPhone(localPhone(plan.network));
        const code = bad ? pick([plan.productCode.toLowerCase(), 'MTN-999GB-1D']) : plan.productCode;
        return messy ? [i + 1, name(), phone, code, pick(NETWORK_SPELLINGS[plan.network]), messyAmount(plan.amount)] : [phone, code, name()];
      };
      break;
    }
    case 'electricity':
      headers = ['Customer Name', 'Meter Number', 'Disco', 'Meter Type', 'Amount', 'Phone'];
      makeRow = (i, bad) => {
        const disco = pick(ELECTRICITY_CATALOG);
        let meter = digits(11);
        while (SPECIAL_ENDINGS.some((e) => meter.endsWith(e))) meter = digits(11);
        const amount = bad ? 100 : pick([2000, 5000, 10000, 20000, 50000]);
        const useNumbers = messy && random() < 0.5 && !meter.startsWith('0');
        return [
          name(),
          useNumbers ? Number(meter) : meter,
          disco.productCode,
          pick(messy ? ['PREPAID', 'Prepaid', 'prepaid'] : ['PREPAID']),
          messyAmount(amount),
          messyPhone(localPhone(network())),
        ];
      };
      break;
    case 'cable':
      headers = ['Customer Name', 'Smartcard Number', 'Provider', 'Bouquet Code', 'Phone'];
      makeRow = (i, bad) => {
        const bouquet = pick(CABLE_CATALOG);
        let card = `7${digits(9)}`;
        while (SPECIAL_ENDINGS.some((e) => card.endsWith(e))) card = `7${digits(9)}`;
        const code = bad ? bouquet.productCode.toUpperCase() + 'X' : bouquet.productCode;
        return [name(), messy && random() < 0.5 ? Number(card) : card, bouquet.network, code, messyPhone(localPhone(network()))];
      };
      break;
    case 'contacts':
      headers = ['Name', 'Phone'];
      makeRow = (_i, bad) => [name(), bad ? badPhone() : messyPhone(localPhone(network()))];
      break;
  }

  const rows: GeneratedCell[][] = [];
  for (let i = 0; i < options.rows; i++) {
    if (blankEvery > 0 && i > 0 && i % blankEvery === 0) rows.push([]);
    rows.push(makeRow(i, random() < invalidRate));
  }
  const title = options.title ?? messy;
  const preamble: GeneratedCell[][] = title ? [[`Bulk ${options.kind} purchase - generated ${options.rows} rows`], []] : [];
  return { headers, preamble, rows };
}

function csvField(value: GeneratedCell, delimiter: string): string {
  if (value === null) return '';
  const s = typeof value === 'number' ? String(value) : value;
  return s.includes(delimiter) || s.includes('"') || s.includes('\n') || s.includes('\r') ? `"${s.replace(/"/g, '""')}"` : s;
}

export interface CsvWriteOptions {
  delimiter?: ',' | ';' | '\t';
  encoding?: 'utf-8' | 'utf-16le' | 'windows-1252';
  /** Byte-order mark (default: true for UTF-16, false otherwise). */
  bom?: boolean;
  lineEnding?: '\n' | '\r\n';
}

/** Windows-1252 bytes for text (characters it cannot hold become `?`, as Excel does). */
function encodeWindows1252(text: string): Buffer {
  const special: Record<number, number> = {
    0x20ac: 0x80,
    0x201a: 0x82,
    0x0192: 0x83,
    0x201e: 0x84,
    0x2026: 0x85,
    0x2020: 0x86,
    0x2021: 0x87,
    0x02c6: 0x88,
    0x2030: 0x89,
    0x0160: 0x8a,
    0x2039: 0x8b,
    0x0152: 0x8c,
    0x017d: 0x8e,
    0x2018: 0x91,
    0x2019: 0x92,
    0x201c: 0x93,
    0x201d: 0x94,
    0x2022: 0x95,
    0x2013: 0x96,
    0x2014: 0x97,
    0x02dc: 0x98,
    0x2122: 0x99,
    0x0161: 0x9a,
    0x203a: 0x9b,
    0x0153: 0x9c,
    0x017e: 0x9e,
    0x0178: 0x9f,
  };
  const out = Buffer.alloc(text.length);
  let n = 0;
  for (const ch of text.normalize('NFC')) {
    const c = ch.codePointAt(0) as number;
    out[n++] = c < 0x80 || (c >= 0xa0 && c <= 0xff) ? c : (special[c] ?? 0x3f);
  }
  return out.subarray(0, n);
}

export function tableToCsvText(table: GeneratedTable, options: CsvWriteOptions = {}): string {
  const d = options.delimiter ?? ',';
  const eol = options.lineEnding ?? '\r\n';
  const lines: string[] = [];
  for (const r of table.preamble) lines.push(r.map((v) => csvField(v, d)).join(d));
  lines.push(table.headers.map((v) => csvField(v, d)).join(d));
  for (const r of table.rows) lines.push(r.map((v) => csvField(v, d)).join(d));
  return lines.join(eol) + eol;
}

export function encodeText(text: string, encoding: CsvWriteOptions['encoding'] = 'utf-8', bom?: boolean): Buffer {
  const withBom = bom ?? encoding === 'utf-16le';
  if (encoding === 'utf-16le') return Buffer.concat([withBom ? Buffer.from([0xff, 0xfe]) : Buffer.alloc(0), Buffer.from(text, 'utf16le')]);
  if (encoding === 'windows-1252') return encodeWindows1252(text);
  return Buffer.concat([withBom ? Buffer.from([0xef, 0xbb, 0xbf]) : Buffer.alloc(0), Buffer.from(text, 'utf8')]);
}

/** Writes the table as CSV, streaming (fine for 200,000 rows). */
export async function writeCsv(path: string, table: GeneratedTable, options: CsvWriteOptions = {}): Promise<void> {
  const d = options.delimiter ?? ',';
  const eol = options.lineEnding ?? '\r\n';
  const encoding = options.encoding ?? 'utf-8';
  const out = createWriteStream(path);
  const write = async (text: string) => {
    if (!out.write(encodeText(text, encoding, false))) await once(out, 'drain');
  };
  const withBom = options.bom ?? encoding === 'utf-16le';
  if (withBom) out.write(encoding === 'utf-16le' ? Buffer.from([0xff, 0xfe]) : Buffer.from([0xef, 0xbb, 0xbf]));
  const lines: string[] = [];
  for (const r of table.preamble) lines.push(r.map((v) => csvField(v, d)).join(d));
  lines.push(table.headers.map((v) => csvField(v, d)).join(d));
  await write(lines.join(eol) + eol);
  let buffer = '';
  for (let i = 0; i < table.rows.length; i++) {
    buffer += table.rows[i].map((v) => csvField(v, d)).join(d) + eol;
    if (buffer.length > 256 * 1024) {
      await write(buffer);
      buffer = '';
    }
  }
  if (buffer) await write(buffer);
  out.end();
  await once(out, 'finish');
}

/** Writes the table as XLSX with exceljs's streaming writer (shared strings, like Excel). */
export async function writeXlsx(path: string, table: GeneratedTable, options: { sheetName?: string } = {}): Promise<void> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: path, useSharedStrings: true, useStyles: false });
  const sheet = workbook.addWorksheet(options.sheetName ?? 'Sheet1');
  for (const r of table.preamble) sheet.addRow(r).commit();
  sheet.addRow(table.headers).commit();
  for (const r of table.rows) sheet.addRow(r).commit();
  sheet.commit();
  await workbook.commit();
}

/** A whole generated file in one call. */
export async function generateSpreadsheet(path: string, options: GenerateOptions & { format: 'csv' | 'xlsx'; csv?: CsvWriteOptions }): Promise<GeneratedTable> {
  const numbersAsNumbers = options.numbersAsNumbers ?? options.messy ?? true;
  const table = generateTable(options);
  if (options.format === 'csv') await writeCsv(path, table, options.csv);
  else await writeXlsx(path, numbersAsNumbers ? table : { ...table, rows: table.rows.map((r) => r.map((v) => (typeof v === 'number' ? String(v) : v))) });
  return table;
}

/** The catalogs the generated codes come from (the sandbox's), in the shape validateBulkRows takes. */
export function sandboxCatalogs() {
  return { airtime: [...AIRTIME_CATALOG], data: [...DATA_CATALOG], electricity: [...ELECTRICITY_CATALOG], cable: [...CABLE_CATALOG] };
}

// ---- Downloadable templates (resources/templates) ----
// Their contents live with the app, which gives them in the window and the CLI.

export { TEMPLATES, TEMPLATE_KINDS, type TemplateKind } from '../../src/main/imports/templates';

/** Writes `<kind>.csv` and `<kind>.xlsx` for every template kind into `dir`. */
export async function writeTemplates(dir: string): Promise<string[]> {
  const written: string[] = [];
  for (const kind of TEMPLATE_KINDS) {
    for (const format of ['csv', 'xlsx'] as const) {
      const file = `${dir}/${kind}.${format}`;
      await writeTemplate(kind, format, file);
      written.push(file);
    }
  }
  return written;
}
