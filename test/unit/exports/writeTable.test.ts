import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import Papa from 'papaparse';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../../src/shared/appError';
import { neutralizeCsvText, neutralizeFormula, writeTableCsv, writeTableXlsx, type ExportColumn } from '../../../src/main/exports/writeTable';
import { NAIRA_FORMAT } from '../../../src/main/exports/exportColumns';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-export-'));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

const columns: ExportColumn[] = [
  { header: 'Reference', kind: 'text' },
  { header: 'Amount', kind: 'naira' },
  { header: 'Created (Lagos)', kind: 'datetime' },
  { header: 'Day', kind: 'date' },
  { header: 'Units', kind: 'integer' },
  { header: 'Rate', kind: 'number' },
];

const rows: unknown[][] = [
  ['REF-1', 100_000, '2026-01-31T09:15:00.000Z', '2026-01-31', 3, 2.5],
  ['=1+1', 123_456_789, '2026-02-01T23:59:59Z', '2026-02-01', 1_000_000, 0.1],
  ['+2348031234567', -5_050, '2026-02-02 10:00:00', '2026-02-02T18:00:00Z', 0, -1],
  ['@SUM(A1:A2)', 0, null, null, null, null],
  ['-10', 1, '2026-03-01T00:00:00Z', '2026-03-01', 7, 7],
  ['\tcmd', 99, '2026-03-01T00:00:00Z', '2026-03-01', 7, 7],
  ['\rcmd', 99, '2026-03-01T00:00:00Z', '2026-03-01', 7, 7],
  ['Ọlá "Ade", Lagos ₦', 250_00, '2026-03-01T00:00:00Z', '2026-03-01', 7, 7],
];

/**
 * Addresses of the cells of the first sheet whose style carries `quotePrefix="1"` (exceljs does not
 * read that attribute back, so the XML is read directly).
 */
async function quotePrefixedCells(file: string): Promise<string[]> {
  const zip = await JSZip.loadAsync(fs.readFileSync(file));
  const styles = (await zip.file('xl/styles.xml')?.async('string')) ?? '';
  const cellXfs = /<cellXfs[^>]*>([\s\S]*?)<\/cellXfs>/.exec(styles)?.[1] ?? '';
  const quoted = new Set([...cellXfs.matchAll(/<xf\b[^>]*?\/?>/g)].flatMap((m, i) => (/quotePrefix="1"/.test(m[0]) ? [String(i)] : [])));
  const sheet = (await zip.file('xl/worksheets/sheet1.xml')?.async('string')) ?? '';
  return [...sheet.matchAll(/<c r="([A-Z]+\d+)"(?: s="(\d+)")?/g)].filter((m) => m[2] !== undefined && quoted.has(m[2])).map((m) => m[1]);
}

async function readBack(file: string): Promise<ExcelJS.Workbook> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(file);
  return wb;
}

describe('neutralizeFormula', () => {
  it.each(['=1+1', '+1', '-1', '@A1', '\tx', '\rx'])('prefixes %j with a quote', (text) => {
    expect(neutralizeFormula(text)).toBe(`'${text}`);
  });
  it.each(['', 'plain', '1+1', ' =x', "'=x", 'A=B'])('leaves %j alone', (text) => {
    expect(neutralizeFormula(text)).toBe(text);
  });
});

describe('neutralizeCsvText', () => {
  // A spreadsheet that splits the file on `;` (the list separator where the decimal mark is a
  // comma), or ends a record at a line break inside a quoted field, starts a cell after each of them.
  it.each([
    ['Lagos;=1+2', "Lagos;'=1+2"],
    ['a; =cmd|"/C calc"!A0', `a; '=cmd|"/C calc"!A0`],
    ['a;"=1+2"', `a;"'=1+2"`],
    ['a;+1;-2;@x', "a;'+1;'-2;'@x"],
    ['line one\r\n=HYPERLINK("x")', 'line one\r\n\'=HYPERLINK("x")'],
    ['line one\n@SUM(1)', "line one\n'@SUM(1)"],
    ['=1;=2', "'=1;'=2"],
    // Issue 37, item 6: after a `,` (a reader that does not honour the quotes) or a tab (the text
    // opened or pasted as tab-separated) a cell starts too.
    ['Lagos,=1+2', "Lagos,'=1+2"],
    ['a, =HYPERLINK("http://x")', `a, '=HYPERLINK("http://x")`],
    ['a,"@SUM(1)', `a,"'@SUM(1)`],
    ['a,+1,-2', "a,'+1,'-2"],
    ['Lagos\t=1+2', "Lagos\t'=1+2"],
    ['x\t\t-2', "x\t\t'-2"],
    ['note\t @cmd', "note\t '@cmd"],
  ])('neutralizes %j as %j', (text, safe) => {
    expect(neutralizeCsvText(text)).toBe(safe);
  });
  it.each(['a;b', 'a; b', '08031234567;08031234568', 'x\ny', 'A=B;C=D', 'Ikeja, Lagos', '1,500', 'a\tb', 'A=B,C=D'])('leaves %j alone', (text) => {
    expect(neutralizeCsvText(text)).toBe(text);
  });
});

describe('writeTableXlsx', () => {
  it('writes money as numbers with the Naira format, dates as dates, formulas as text', async () => {
    const file = path.join(dir, 'out.xlsx');
    const progress: number[] = [];
    const result = await writeTableXlsx(file, [{ name: 'Transactions', columns, rows }], { onProgress: (n) => progress.push(n) });
    expect(result.rows).toBe(rows.length);
    expect(result.bytes).toBe(fs.statSync(file).size);
    expect(progress.at(-1)).toBe(rows.length);
    expect(fs.readdirSync(dir)).toEqual(['out.xlsx']); // no partial file left

    const ws = (await readBack(file)).getWorksheet('Transactions')!;
    expect(ws.getRow(1).values).toEqual([undefined, 'Reference', 'Amount', 'Created (Lagos)', 'Day', 'Units', 'Rate']);
    expect(ws.getRow(1).getCell(1).font?.bold).toBe(true);

    const amount = ws.getCell('B2');
    expect(amount.type).toBe(ExcelJS.ValueType.Number);
    expect(amount.value).toBe(1000);
    expect(amount.numFmt).toBe(NAIRA_FORMAT);
    expect(ws.getCell('B3').value).toBe(1_234_567.89);
    expect(ws.getCell('B4').value).toBe(-50.5);
    expect(ws.getCell('B4').numFmt).toBe(NAIRA_FORMAT);

    const created = ws.getCell('C2');
    expect(created.type).toBe(ExcelJS.ValueType.Date);
    // Lagos wall-clock time (UTC+1): a cell has no zone, and a Lagos officer reads it as local.
    expect((created.value as Date).toISOString()).toBe('2026-01-31T10:15:00.000Z');
    expect(String(ws.getCell('C1').note)).toContain('Lagos time');
    expect((ws.getCell('C3').value as Date).toISOString()).toBe('2026-02-02T00:59:59.000Z');
    expect(created.numFmt).toMatch(/yyyy-mm-dd hh:mm/);
    expect((ws.getCell('C4').value as Date).toISOString()).toBe('2026-02-02T11:00:00.000Z');
    expect(ws.getCell('D2').type).toBe(ExcelJS.ValueType.Date);
    expect((ws.getCell('D4').value as Date).toISOString()).toBe('2026-02-02T00:00:00.000Z');
    expect(ws.getCell('E3').value).toBe(1_000_000);
    expect(ws.getCell('F2').value).toBe(2.5);

    // Formula injection: a plain string cell holding exactly the text (no apostrophe added), never a
    // formula, styled with the quote prefix so that editing it in Excel keeps it text.
    const risky = [
      ['A3', '=1+1'],
      ['A4', '+2348031234567'],
      ['A5', '@SUM(A1:A2)'],
      ['A6', '-10'],
      ['A7', '\tcmd'],
      ['A8', '\rcmd'],
    ] as const;
    for (const [address, text] of risky) {
      const cell = ws.getCell(address);
      expect(cell.type).toBe(ExcelJS.ValueType.String);
      expect(cell.formula).toBeUndefined();
      // XML normalizes a literal CR to LF when the file is read back.
      expect(String(cell.value).replace(/\n/g, '\r')).toBe(text);
    }
    expect(await quotePrefixedCells(file)).toEqual(risky.map(([address]) => address));
    expect(ws.getCell('A9').value).toBe('Ọlá "Ade", Lagos ₦');
    // Empty values stay empty.
    expect(ws.getCell('C5').value).toBeNull();
  });

  it('freezes the header, adds filter buttons and sizes columns', async () => {
    const file = path.join(dir, 'layout.xlsx');
    await writeTableXlsx(file, [{ name: 'Log', columns: [...columns, { header: 'Note', kind: 'text', width: 42 }], rows: rows.map((r) => [...r, 'x']) }]);
    const ws = (await readBack(file)).getWorksheet('Log')!;
    expect(ws.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(ws.autoFilter).toBeTruthy();
    expect(ws.getColumn(7).width).toBe(42);
    expect(ws.getColumn(2).width).toBeGreaterThanOrEqual(14);
    expect(ws.getColumn(3).width).toBeGreaterThanOrEqual(20);
    // Sized from content: the longest reference is 18 characters.
    expect(ws.getColumn(1).width).toBeGreaterThanOrEqual(18);
  });

  it('prints a summary sheet landscape, one page wide, when asked', async () => {
    const file = path.join(dir, 'print.xlsx');
    await writeTableXlsx(file, [
      { name: 'Summary', columns, rows, printOnePageWide: true },
      { name: 'Items', columns, rows },
    ]);
    const wb = await readBack(file);
    expect(wb.getWorksheet('Summary')?.pageSetup).toMatchObject({ orientation: 'landscape', fitToPage: true, fitToWidth: 1, fitToHeight: 0 });
    expect(wb.getWorksheet('Items')?.pageSetup.fitToPage).toBeFalsy();
  });

  it('writes several sheets from async iterables and makes sheet names valid and unique', async () => {
    async function* gen(n: number) {
      for (let i = 0; i < n; i++) yield [`r${i}`, i * 100];
    }
    const cols: ExportColumn[] = [
      { header: 'Ref', kind: 'text' },
      { header: 'Amount', kind: 'naira' },
    ];
    const file = path.join(dir, 'multi.xlsx');
    const result = await writeTableXlsx(file, [
      { name: 'Totals: by/type?', columns: cols, rows: gen(3) },
      { name: 'Totals: by/type?', columns: cols, rows: gen(2500), freezeHeader: false, autoFilter: false },
    ]);
    expect(result.rows).toBe(2503);
    const wb = await readBack(file);
    expect(wb.worksheets.map((w) => w.name)).toEqual(['Totals  by type', 'Totals  by type (2)']);
    expect(wb.worksheets[1].rowCount).toBe(2501);
    expect(wb.worksheets[1].getCell('B2501').value).toBe(2499);
  });

  it('refuses a value that does not fit its column, leaving no file', async () => {
    const file = path.join(dir, 'bad.xlsx');
    const err = await writeTableXlsx(file, [{ name: 'S', columns, rows: [['x', 10.5, null, null, null, null]] }]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).message).toContain('row 1, column "Amount"');
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('can be cancelled, leaving no file', async () => {
    const controller = new AbortController();
    function* many() {
      for (let i = 0; ; i++) {
        if (i === 1500) controller.abort();
        yield [`r${i}`, i, null, null, null, null];
      }
    }
    const file = path.join(dir, 'cancelled.xlsx');
    const err = await writeTableXlsx(file, [{ name: 'S', columns, rows: many() }], { signal: controller.signal }).catch((e: unknown) => e);
    expect((err as AppError).code).toBe('cancelled');
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('streams 200,000 rows without holding them', async () => {
    function* many() {
      for (let i = 0; i < 200_000; i++) yield [`0803${String(i).padStart(7, '0')}`, i * 100 + 5, '2026-01-31T09:15:00Z', '2026-01-31', i, 1.5];
    }
    const file = path.join(dir, 'big.xlsx');
    const result = await writeTableXlsx(file, [{ name: 'Big', columns, rows: many() }]);
    expect(result.rows).toBe(200_000);
    expect(result.bytes).toBeGreaterThan(1_000_000);
    // A generous limit, not a speed target (bench/ holds those): a CI box at load 28 took over 120 s.
  }, 900_000);
});

describe('writeTableCsv', () => {
  it('writes UTF-8 with BOM, CRLF, plain numbers, UTC dates and neutralized text', async () => {
    const file = path.join(dir, 'out.csv');
    const result = await writeTableCsv(file, columns, rows);
    expect(result.rows).toBe(rows.length);
    const buffer = fs.readFileSync(file);
    expect([...buffer.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(result.bytes).toBe(buffer.length);
    const text = buffer.toString('utf8').slice(1);
    const lines = text.split('\r\n');
    expect(lines.at(-1)).toBe('');
    expect(text.replace(/\r\n/g, '')).not.toMatch(/\n/);
    expect(lines[0]).toBe('Reference,Amount,Created (Lagos),Day,Units,Rate');
    expect(lines[1]).toBe('REF-1,1000.00,2026-01-31 10:15:00,2026-01-31,3,2.5');
    expect(lines[2]).toBe("'=1+1,1234567.89,2026-02-02 00:59:59,2026-02-01,1000000,0.1");
    expect(lines[3]).toBe("'+2348031234567,-50.50,2026-02-02 11:00:00,2026-02-02,0,-1");
    expect(lines[4]).toBe("'@SUM(A1:A2),0.00,,,,");
    expect(lines[5].startsWith("'-10,0.01,")).toBe(true);
    expect(lines[6].startsWith("'\tcmd,0.99,")).toBe(true);
    expect(lines[7].startsWith('"\'\rcmd",0.99,')).toBe(true);
    expect(lines[8].startsWith('"Ọlá ""Ade"", Lagos ₦",250.00,')).toBe(true);
  });

  /** A CSV of a text column (`texts`) and a number column, as written (after its byte-order mark). */
  async function csvOfTexts(name: string, texts: string[]): Promise<string> {
    const file = path.join(dir, name);
    await writeTableCsv(
      file,
      [
        { header: 'A', kind: 'text' },
        { header: 'B', kind: 'integer' },
      ],
      texts.map((t, i) => [t, i]),
    );
    return fs.readFileSync(file, 'utf8').slice(1);
  }

  /** The cells a reader sees that splits `text` at each of `separators`, ignoring quotes (quotes and spaces before a cell trimmed). */
  const cellsSplitAt = (text: string, separators: RegExp) => text.split(separators).map((c) => c.replace(/^[\s"]+/, ''));

  it('no cell starts with a formula trigger when the file is split on ";" or at every line break', async () => {
    const text = await csvOfTexts('semicolon.csv', ['Lagos;=1+2', 'x;"=HYPERLINK(""http://x"")"', 'a\r\n+1', 'note;\t@SUM(1)', 'ok;-2']);
    const cells = cellsSplitAt(text, /[;\r\n]/);
    for (const c of cells) expect(c, JSON.stringify(c)).not.toMatch(/^[=+\-@]/);
    // With "," as the separator the file still reads back as the text, with a quote before each trigger.
    const rows = Papa.parse<string[]>(text, { skipEmptyLines: true }).data;
    expect(rows[1][0]).toBe("Lagos;'=1+2");
    expect(rows[3][0]).toBe("a\r\n'+1");
  });

  it('no cell starts with a formula trigger when the file is split on every "," or tab, quotes ignored', async () => {
    const text = await csvOfTexts('comma-tab.csv', ['Lagos,=1+2', 'x, "=HYPERLINK(""http://x"")"', 'a\t+1', 'note,\t@SUM(1)', 'ok\t-2', 'a,b']);
    const cells = cellsSplitAt(text, /[,\t\r\n]/);
    expect(cells.filter((c) => c.startsWith("'")).length).toBe(5);
    for (const c of cells) expect(c, JSON.stringify(c)).not.toMatch(/^[=+\-@]/);
    // Read as CSV should be, each text comes back with only a quote before each trigger.
    const rows = Papa.parse<string[]>(text, { skipEmptyLines: true }).data;
    expect(rows.slice(1).map((r) => r[0])).toEqual(["Lagos,'=1+2", `x, "'=HYPERLINK(""http://x"")"`, "a\t'+1", "note,\t'@SUM(1)", "ok\t'-2", 'a,b']);
  });

  it('no line of the CSV starts a cell with a formula trigger', async () => {
    const file = path.join(dir, 'inj.csv');
    const nasty = ['=HYPERLINK("http://x","y")', '+1+1', '-2+3', '@SUM(1)', '\t=1', '\r=1'];
    await writeTableCsv(
      file,
      [
        { header: 'A', kind: 'text' },
        { header: 'B', kind: 'text' },
      ],
      nasty.map((t) => [t, t]),
    );
    const text = fs.readFileSync(file, 'utf8').slice(1);
    for (const t of nasty) expect(text).not.toMatch(new RegExp(`(^|,|\\n)"?${t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  });

  it('streams async rows with progress and can be cancelled without leaving a file', async () => {
    const controller = new AbortController();
    async function* many() {
      for (let i = 0; ; i++) {
        if (i === 2500) controller.abort();
        yield [`r${i}`];
      }
    }
    const progress: number[] = [];
    const file = path.join(dir, 'c.csv');
    const err = await writeTableCsv(file, [{ header: 'A', kind: 'text' }], many(), { signal: controller.signal, onProgress: (n) => progress.push(n) }).catch((e: unknown) => e);
    expect((err as AppError).code).toBe('cancelled');
    expect(progress).toEqual([1000, 2000]);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('explains a folder that does not exist', async () => {
    const err = await writeTableCsv(path.join(dir, 'missing', 'x.csv'), [{ header: 'A', kind: 'text' }], [['a']]).catch((e: unknown) => e);
    expect((err as AppError).code).toBe('export_failed');
    expect((err as AppError).hint).toMatch(/folder does not exist/);
  });
});
