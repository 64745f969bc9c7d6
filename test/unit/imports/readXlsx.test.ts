import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { inspectSpreadsheet, readSpreadsheet } from '../../../src/main/imports';
import { writeWorkbook, writeZip } from '../../support/hostileSpreadsheets';
import { FIXTURES, importError, tempDir } from './tempFiles';

const tmp = tempDir();

/** A workbook with a sheet "Big" of `rows` rows under a Phone, Amount header. */
async function bigWorkbook(name: string, rows: number): Promise<string> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Big');
  sheet.addRow(['Phone', 'Amount']);
  for (let i = 0; i < rows; i++) sheet.addRow([8031234567, 100]);
  const file = tmp.path(name);
  await workbook.xlsx.writeFile(file);
  return file;
}

/** Offsets of the central directory entries of a zip, by entry name. */
function centralEntries(zip: Buffer): Map<string, number> {
  let eocd = zip.length - 22;
  while (zip.readUInt32LE(eocd) !== 0x06054b50) eocd--;
  const count = zip.readUInt16LE(eocd + 10);
  let p = zip.readUInt32LE(eocd + 16);
  const out = new Map<string, number>();
  for (let i = 0; i < count; i++) {
    const nameLength = zip.readUInt16LE(p + 28);
    out.set(zip.toString('utf8', p + 46, p + 46 + nameLength), p);
    p += 46 + nameLength + zip.readUInt16LE(p + 30) + zip.readUInt16LE(p + 32);
  }
  return out;
}

let workbookPath = '';

beforeAll(async () => {
  const workbook = new ExcelJS.Workbook();
  const notes = workbook.addWorksheet('Notes');
  notes.addRow(['This workbook has the list on the second sheet']);
  const hidden = workbook.addWorksheet('Old', { state: 'hidden' });
  hidden.addRow(['Phone']);
  const list = workbook.addWorksheet('Staff & Vendors');
  list.addRow(['Airtime for March']);
  list.addRow([]);
  list.addRow(['Phone', 'Amount', 'Name', 'Paid on']);
  list.addRow([8031234567, { formula: '500*2', result: 1000 }, { richText: [{ text: 'Adé' }, { text: 'báyọ̀', font: { bold: true } }] }, new Date(Date.UTC(2025, 2, 1))]);
  list.addRow([]);
  list.addRow([]);
  list.addRow(['+234 805 123 4567', 200, { text: 'Bola', hyperlink: 'mailto:bola@example.com' }, null]);
  list.addRow([{ formula: '"0"&"8061234567"', result: '08061234567' }, { formula: 'B4/0', result: { error: '#DIV/0!' } }, 'Chi', null]);
  workbook.getWorksheet('Staff & Vendors')!.getColumn(4).numFmt = 'yyyy-mm-dd';
  workbookPath = tmp.path('workbook.xlsx');
  await workbook.xlsx.writeFile(workbookPath);
});

describe('reading XLSX workbooks', () => {
  it('lists the sheets and hashes the file', async () => {
    const info = await inspectSpreadsheet(workbookPath);
    expect(info.format).toBe('xlsx');
    expect(info.sheetNames).toEqual(['Notes', 'Old', 'Staff & Vendors']);
    expect(info.fileHash).toMatch(/^[0-9a-f]{64}$/);
    expect(info.bytes).toBe(readFileSync(workbookPath).length);
  });

  it('reads the chosen sheet: formula cells give their cached result, blank rows skipped, row numbers as shown', async () => {
    const table = await readSpreadsheet(workbookPath, { sheet: 'Staff & Vendors' });
    expect(table.sheetName).toBe('Staff & Vendors');
    expect(table.headerRow).toBe(3);
    expect(table.headers).toEqual(['Phone', 'Amount', 'Name', 'Paid on']);
    expect(table.rows.map((r) => r.row)).toEqual([4, 7, 8]);
    expect(table.rows[0].cells.slice(0, 3)).toEqual([8031234567, 1000, 'Adébáyọ̀']);
    expect(table.rows[0].cells[3]).toEqual(new Date(Date.UTC(2025, 2, 1)));
    expect(table.rows[1].cells.slice(0, 3)).toEqual(['+234 805 123 4567', 200, 'Bola']);
    expect(table.rows[2].cells[0]).toBe('08061234567');
    // exceljs's streaming reader does not keep the text of a formula's error result: it reads as empty
    expect(table.rows[2].cells[1]).toBeNull();
  });

  it('reads the first visible sheet by default', async () => {
    const error = await importError(readSpreadsheet(workbookPath));
    // "Notes" has one text cell and no header: the message says what to do
    expect(['no_header', 'empty']).toContain(error.code);
  });

  it('says which sheets exist when the chosen one does not', async () => {
    const error = await importError(readSpreadsheet(workbookPath, { sheet: 'March' }));
    expect(error.code).toBe('no_sheet');
    expect(error.message).toContain('"Staff & Vendors"');
  });

  it('stops at the row limit', async () => {
    const file = await bigWorkbook('big.xlsx', 60);
    expect((await importError(readSpreadsheet(file, { maxRows: 50 }))).code).toBe('too_many_rows');
    expect((await readSpreadsheet(file, { maxRows: 60 })).rows).toHaveLength(60);
  });

  it('can be cancelled while reading', async () => {
    const file = await bigWorkbook('cancel.xlsx', 5000);
    const controller = new AbortController();
    await expect(readSpreadsheet(file, { signal: controller.signal, onProgress: () => controller.abort() })).rejects.toThrow();
  });
});

describe('LibreOffice-made workbooks (CSV saved as XLSX: phone numbers typed as numbers)', () => {
  it('reads numbers that lost the leading zero, a rounded number, a formula and a blank row', async () => {
    const table = await readSpreadsheet(join(FIXTURES, 'libreoffice-airtime.xlsx'));
    expect(table.headerRow).toBe(3);
    expect(table.rows.map((r) => r.row)).toEqual([4, 5, 6, 8, 9, 10, 11, 12, 13, 14]);
    expect(table.rows[0].cells[1]).toBe(8031234567);
    expect(table.rows[3].cells[1]).toBe(2348030000000);
    expect(table.rows[6].cells[3]).toBe(500);
  });
});

describe('workbooks that cannot be imported give a clear ImportError, never a hang', () => {
  it('a password-protected workbook (OLE container)', async () => {
    const ole = Buffer.alloc(4096);
    Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(ole);
    const file = tmp.write('protected.xlsx', ole);
    for (const error of [await importError(inspectSpreadsheet(file)), await importError(readSpreadsheet(file))]) {
      expect(error.code).toBe('encrypted');
      expect(error.message).toMatch(/password/);
      expect(error.message).toMatch(/save it as/);
    }
  });

  it('a corrupt zip (a workbook cut short)', async () => {
    const whole = readFileSync(workbookPath);
    const file = tmp.write('truncated.xlsx', whole.subarray(0, Math.floor(whole.length / 2)));
    const error = await importError(readSpreadsheet(file));
    expect(error.code).toBe('corrupt');
    expect(error.message).toMatch(/damaged/);
  });

  it('a zip with garbage where the data should be', async () => {
    const whole = Buffer.from(readFileSync(workbookPath));
    const offset = centralEntries(whole).get('xl/worksheets/sheet3.xml')!;
    const local = whole.readUInt32LE(offset + 42);
    const dataStart = local + 30 + whole.readUInt16LE(local + 26) + whole.readUInt16LE(local + 28);
    whole.fill(0xab, dataStart, dataStart + Math.min(200, whole.readUInt32LE(offset + 20)));
    const error = await importError(readSpreadsheet(tmp.write('garbage.xlsx', whole), { sheet: 'Staff & Vendors' }));
    expect(error.code).toBe('corrupt');
  });

  it('a zip bomb: a small workbook whose directory claims an enormous uncompressed size', async () => {
    const whole = Buffer.from(readFileSync(workbookPath));
    const offset = centralEntries(whole).get('xl/worksheets/sheet3.xml')!;
    whole.writeUInt32LE(0xfffffff0, offset + 24);
    const file = tmp.write('bomb.xlsx', whole);
    for (const error of [await importError(inspectSpreadsheet(file)), await importError(readSpreadsheet(file))]) {
      expect(error.code).toBe('zip_bomb');
      expect(error.message).toMatch(/not opened/);
    }
  });

  it('a zip bomb that lies: a part expands to more than its declared size', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Sheet1');
    sheet.addRow(['Phone', 'Name']);
    for (let i = 0; i < 2000; i++) sheet.addRow([8031234567, 'x'.repeat(200)]);
    const file = tmp.path('liar.xlsx');
    await workbook.xlsx.writeFile(file);
    const whole = Buffer.from(readFileSync(file));
    const offset = centralEntries(whole).get('xl/worksheets/sheet1.xml')!;
    whole.writeUInt32LE(1000, offset + 24);
    const error = await importError(readSpreadsheet(tmp.write('liar2.xlsx', whole)));
    expect(error.code).toBe('zip_bomb');
  });

  it('a zip that is not a workbook, and an OpenDocument spreadsheet', async () => {
    const zipOnly = Buffer.from('504b0506000000000000000000000000000000000000', 'hex');
    expect((await importError(readSpreadsheet(tmp.write('empty.zip.xlsx', zipOnly)))).code).toBe('unsupported');
  });

  it('an empty workbook file (0 bytes)', async () => {
    expect((await importError(readSpreadsheet(tmp.write('zero.xlsx', '')))).code).toBe('empty');
  });

  it('a workbook over the size limit', async () => {
    expect((await importError(readSpreadsheet(workbookPath, { maxBytes: 1000 }))).code).toBe('too_large');
  });

  it('a sheet with no rows', async () => {
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet('Empty');
    const file = tmp.path('nosheetdata.xlsx');
    await workbook.xlsx.writeFile(file);
    expect((await importError(readSpreadsheet(file))).code).toBe('empty');
  });
});

describe("the reader's own XML parsing gets workbooks right", () => {
  const sheet = (rows: string) =>
    `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${rows}</sheetData></worksheet>`;

  it('reads booleans, inline and rich text, entities, CDATA and cells without references; leaves out phonetic runs and error values', async () => {
    const file = tmp.path('parsing.xlsx');
    await writeWorkbook(
      file,
      sheet(
        '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c t="inlineStr"><is><t>Note</t></is></c><c t="inlineStr"><is><t>Paid</t></is></c></row>' +
          '<row r="2"><c r="A2" t="inlineStr"><is><t>0803&#32;123 4567</t></is></c><c r="B2"><v>1000.5</v></c><c r="C2" t="s"><v>2</v></c><c r="D2" t="b"><v>1</v></c></row>' +
          '<row><c r="A3" t="str"><v><![CDATA[08051234567]]></v></c><c r="B3" t="e"><v>#N/A</v></c><c r="C3" t="inlineStr"><is><t>A &amp; B &lt;ok&gt;</t></is></c><c r="D3" t="b"><v>0</v></c></row>',
      ),
      {
        sharedStrings:
          '<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="3" uniqueCount="3">' +
          '<si><t>Phone</t></si><si><r><rPr><b/></rPr><t>Amo</t></r><r><t>unt</t></r></si><si><r><t>山田</t></r><rPh sb="0" eb="2"><t>ヤマダ</t></rPh></si></sst>',
      },
    );
    const table = await readSpreadsheet(file);
    expect(table.headers).toEqual(['Phone', 'Amount', 'Note', 'Paid']);
    expect(table.rows.map((r) => r.row)).toEqual([2, 3]);
    expect(table.rows[0].cells).toEqual(['0803 123 4567', 1000.5, '山田', true]);
    expect(table.rows[1].cells).toEqual(['08051234567', null, 'A & B <ok>', false]);
  });

  it('reads namespace-prefixed elements, dates from custom and built-in date styles, and the 1904 date system', async () => {
    const file = tmp.path('dates1904.xlsx');
    const x = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
    await writeZip(file, [
      {
        name: 'xl/workbook.xml',
        text: `<x:workbook xmlns:x="${x}" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><x:workbookPr date1904="1"/><x:sheets><x:sheet name="Log" sheetId="1" r:id="rId1"/></x:sheets></x:workbook>`,
      },
      {
        name: 'xl/_rels/workbook.xml.rels',
        text: '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>',
      },
      {
        name: 'xl/styles.xml',
        text: `<x:styleSheet xmlns:x="${x}"><x:numFmts count="1"><x:numFmt numFmtId="164" formatCode="&quot;on &quot;dd/mm/yyyy"/></x:numFmts><x:cellStyleXfs count="1"><x:xf numFmtId="14"/></x:cellStyleXfs><x:cellXfs count="4"><x:xf numFmtId="0"/><x:xf numFmtId="164"/><x:xf numFmtId="14"/><x:xf numFmtId="4"/></x:cellXfs></x:styleSheet>`,
      },
      {
        name: 'xl/worksheets/sheet1.xml',
        text: `<x:worksheet xmlns:x="${x}"><x:sheetData><x:row r="1"><x:c r="A1" t="inlineStr"><x:is><x:t>Date</x:t></x:is></x:c><x:c r="B1" t="inlineStr"><x:is><x:t>Amount</x:t></x:is></x:c></x:row><x:row r="2"><x:c r="A2" s="1"><x:v>0</x:v></x:c><x:c r="B2" s="3"><x:v>500</x:v></x:c></x:row><x:row r="3"><x:c r="A3" s="2"><x:v>44621.5</x:v></x:c><x:c r="B3" s="0"><x:v>-2.5E3</x:v></x:c></x:row></x:sheetData></x:worksheet>`,
      },
    ]);
    const table = await readSpreadsheet(file);
    expect(table.headers).toEqual(['Date', 'Amount']);
    expect(table.rows[0].cells).toEqual([new Date(Date.UTC(1904, 0, 1)), 500]);
    expect(table.rows[1].cells).toEqual([new Date(Date.UTC(2026, 2, 2, 12)), -2500]);
  });

  it('keeps data rows as narrow as the header: a stray value far to the right costs nothing and the row is still reported', async () => {
    const file = tmp.path('stray.xlsx');
    await writeWorkbook(
      file,
      sheet(
        '<row r="1"><c r="A1" t="inlineStr"><is><t>Phone</t></is></c></row><row r="2"><c r="A2"><v>8031234567</v></c><c r="ZZ2"><v>1</v></c></row><row r="3"><c r="XFD3"><v>1</v></c></row>',
      ),
    );
    const table = await readSpreadsheet(file);
    expect(table.rows).toEqual([
      { row: 2, cells: [8031234567] },
      { row: 3, cells: [null] },
    ]);
  });
});
