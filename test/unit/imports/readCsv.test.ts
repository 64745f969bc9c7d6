import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ImportError, inspectSpreadsheet, readSpreadsheet } from '../../../src/main/imports';
import { CsvShapeGuard, MAX_RECORD_CHARS } from '../../../src/main/imports/readCsv';
import { encodeText } from '../../../bench/generate/spreadsheets';
import { importError, tempDir } from './tempFiles';

const tmp = tempDir();

describe('reading CSV files', () => {
  it('finds the header row below a title and keeps row numbers as the spreadsheet shows them, skipping blank rows', async () => {
    const file = tmp.write('title.csv', 'Airtime for March,,\n,,\nPhone,Amount,Name\n08031234567,500,Ada\n\n,,\n08051234567,200,Bola\n');
    const table = await readSpreadsheet(file);
    expect(table.format).toBe('csv');
    expect(table.sheetName).toBeNull();
    expect(table.headerRow).toBe(3);
    expect(table.headers).toEqual(['Phone', 'Amount', 'Name']);
    expect(table.rows).toEqual([
      { row: 4, cells: ['08031234567', '500', 'Ada'] },
      { row: 7, cells: ['08051234567', '200', 'Bola'] },
    ]);
  });

  it('counts a quoted cell spanning two lines as one row, like a spreadsheet does', async () => {
    const file = tmp.write('multiline.csv', 'Phone,Name\n08031234567,"Ada\nOkafor"\n08051234567,Bola\n');
    const table = await readSpreadsheet(file);
    expect(table.rows.map((r) => r.row)).toEqual([2, 3]);
    expect(table.rows[0].cells[1]).toBe('Ada\nOkafor');
  });

  it.each([
    ['semicolon', ';'],
    ['tab', '\t'],
    ['comma', ','],
  ])('detects a %s delimiter, even with 1,000-style amounts in the cells', async (_name, d) => {
    const amount = d === ',' ? '"1,000"' : '1,000';
    const file = tmp.write(`delim-${_name}.csv`, `Phone${d}Amount${d}Network\n08031234567${d}${amount}${d}MTN\n08051234567${d}200${d}Glo\n`);
    const table = await readSpreadsheet(file);
    expect(table.headers).toEqual(['Phone', 'Amount', 'Network']);
    expect(table.rows[0].cells).toEqual(['08031234567', '1,000', 'MTN']);
  });

  it('strips a UTF-8 byte-order mark (Excel "CSV UTF-8")', async () => {
    const file = tmp.write('bom.csv', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('Phone,Name\r\n08031234567,Adébáyọ̀\r\n')]));
    const table = await readSpreadsheet(file);
    expect(table.headers[0]).toBe('Phone');
    expect(table.rows[0].cells[1]).toBe('Adébáyọ̀');
  });

  it('reads UTF-16 LE with BOM (Excel "Unicode text", tab-separated) with ₦ and accents', async () => {
    const file = tmp.write('utf16le.txt', encodeText('Name\tPhone\tAmount\r\nRenée Okafor\t08031234567\t₦1,000\r\n', 'utf-16le', true));
    const table = await readSpreadsheet(file);
    expect(table.headers).toEqual(['Name', 'Phone', 'Amount']);
    expect(table.rows[0].cells).toEqual(['Renée Okafor', '08031234567', '₦1,000']);
  });

  it('reads UTF-16 BE with BOM', async () => {
    const le = Buffer.from('Name,Phone\nRenée,08031234567\n', 'utf16le');
    const be = Buffer.alloc(le.length);
    for (let i = 0; i < le.length; i += 2) {
      be[i] = le[i + 1];
      be[i + 1] = le[i];
    }
    const file = tmp.write('utf16be.csv', Buffer.concat([Buffer.from([0xfe, 0xff]), be]));
    const table = await readSpreadsheet(file);
    expect(table.rows[0].cells).toEqual(['Renée', '08031234567']);
  });

  it('reads UTF-16 LE without a BOM', async () => {
    const file = tmp.write('utf16-nobom.csv', Buffer.from('Name,Phone\nAda,08031234567\n', 'utf16le'));
    const table = await readSpreadsheet(file);
    expect(table.rows[0].cells).toEqual(['Ada', '08031234567']);
  });

  it('reads Windows-1252 (older Excel on Windows): é stays é', async () => {
    const file = tmp.write('cp1252.csv', encodeText('Name,Phone,Note\nRenée Okafor,08031234567,€5 tip\n', 'windows-1252'));
    const table = await readSpreadsheet(file);
    expect(table.rows[0].cells).toEqual(['Renée Okafor', '08031234567', '€5 tip']);
  });

  it('reads Windows-1252 even when the first accented letter is far beyond the start of the file', async () => {
    const lines = ['Name,Phone'];
    for (let i = 0; i < 6000; i++) lines.push(`Person ${i},08031234567`);
    lines.push('Zoé,08051234567');
    const file = tmp.write('cp1252-late.csv', encodeText(lines.join('\n') + '\n', 'windows-1252'));
    const table = await readSpreadsheet(file);
    expect(table.rows).toHaveLength(6001);
    expect(table.rows[6000]).toEqual({ row: 6002, cells: ['Zoé', '08051234567'] });
  });

  it('gives the file hash (sha256) and reports progress', async () => {
    const file = tmp.write('hash.csv', 'Phone\n08031234567\n');
    const info = await inspectSpreadsheet(file);
    expect(info).toMatchObject({ format: 'csv', sheetNames: [], bytes: 18 });
    expect(info.fileHash).toBe(createHash('sha256').update('Phone\n08031234567\n').digest('hex'));
    const seen: number[] = [];
    const table = await readSpreadsheet(file, { onProgress: (n) => seen.push(n) });
    expect(table.fileHash).toBe(info.fileHash);
    expect(table.fileHash).toMatch(/^[0-9a-f]{64}$/);
    expect(seen.length).toBeGreaterThan(0);
  });

  it('can be cancelled', async () => {
    const file = tmp.write('cancel.csv', 'Phone\n08031234567\n');
    const controller = new AbortController();
    controller.abort();
    await expect(readSpreadsheet(file, { signal: controller.signal })).rejects.toThrow();
  });
});

describe('CSV files that cannot be imported give a clear ImportError', () => {
  it('an empty file', async () => {
    const error = await importError(readSpreadsheet(tmp.write('empty.csv', '')));
    expect(error.code).toBe('empty');
    expect(error.message).toMatch(/empty/);
    expect((await importError(inspectSpreadsheet(tmp.path('empty.csv')))).code).toBe('empty');
  });

  it('a file of blank lines and commas', async () => {
    const error = await importError(readSpreadsheet(tmp.write('blank.csv', '\uFEFF\n,,\n \n')));
    expect(error.code).toBe('empty');
  });

  it('no header row in the first 20 rows', async () => {
    const lines = Array.from({ length: 30 }, () => '08031234567,500').join('\n');
    const error = await importError(readSpreadsheet(tmp.write('noheader.csv', lines)));
    expect(error.code).toBe('no_header');
    expect(error.message).toMatch(/header row/);
    expect(error.message).toMatch(/Phone/);
  });

  it('more rows than the limit', async () => {
    const lines = ['Phone,Amount', ...Array.from({ length: 120 }, () => '08031234567,500')].join('\n');
    const error = await importError(readSpreadsheet(tmp.write('many.csv', lines), { maxRows: 100 }));
    expect(error.code).toBe('too_many_rows');
    expect(error.message).toMatch(/more than 100 data rows/);
    expect(error.message).toMatch(/Split/);
    // exactly at the limit is fine
    const ok = await readSpreadsheet(tmp.write('exact.csv', ['Phone,Amount', ...Array.from({ length: 100 }, () => '08031234567,500')].join('\n')), { maxRows: 100 });
    expect(ok.rows).toHaveLength(100);
  });

  it('a file over the size limit', async () => {
    const file = tmp.write('big.csv', 'Phone\n' + '08031234567\n'.repeat(2000));
    const error = await importError(readSpreadsheet(file, { maxBytes: 10_000 }));
    expect(error.code).toBe('too_large');
    expect(error.message).toMatch(/largest file/);
    expect((await importError(inspectSpreadsheet(file, { maxBytes: 10_000 }))).code).toBe('too_large');
  });

  it('a binary file that is not a spreadsheet', async () => {
    const error = await importError(readSpreadsheet(tmp.write('image.csv', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0, 1, 2, 3]))));
    expect(error.code).toBe('unsupported');
  });

  it('a web page saved as .xls', async () => {
    const error = await importError(readSpreadsheet(tmp.write('report.xls', '<html><table><tr><td>Phone</td></tr></table></html>')));
    expect(error.code).toBe('unsupported');
    expect(error.message).toMatch(/save it as/);
  });

  it('a missing file', async () => {
    const error = await importError(readSpreadsheet(tmp.path('nope.csv')));
    expect(error.message).toMatch(/does not exist/);
  });
});

describe('Excel quirks', () => {
  it('honours a `sep=;` first line', async () => {
    const file = tmp.write('sep.csv', 'sep=;\r\nPhone;Amount;Note\r\n08031234567;500;a,b,c\r\n08051234567;200;d,e,f\r\n');
    const table = await readSpreadsheet(file);
    expect(table.headerRow).toBe(2);
    expect(table.rows[0].cells).toEqual(['08031234567', '500', 'a,b,c']);
  });
});

describe('a CSV record too long or too wide is refused before it is parsed', () => {
  const guardOf = (text: string[]) => () => {
    const guard = new CsvShapeGuard(','.charCodeAt(0));
    for (const chunk of text) guard.check(chunk);
  };

  it('accepts records up to 1,000,000 characters and 16,384 fields, line breaks inside quotes and CRLF, across chunks', () => {
    const longest = `${'x'.repeat(MAX_RECORD_CHARS)}`;
    expect(guardOf(['Phone,Note\r\n', longest.slice(0, 500_000), longest.slice(500_000), '\r\n', '0803,"a\nb\r\nc"\n'])).not.toThrow();
    expect(guardOf([`${','.repeat(16_383)}\n`])).not.toThrow();
    // A quote inside a field is just a character (as papaparse reads it): it opens nothing.
    expect(guardOf(['Phone,Item\n', `0803,32" TV\n${'08031234567,x\n'.repeat(80_000)}`])).not.toThrow();
    // Old Mac line ends (\r alone) end records too.
    expect(guardOf([`Phone\r${'08031234567\r'.repeat(100_000)}`])).not.toThrow();
  });

  it('refuses the record that passes either limit, naming its row and quoting only its start', () => {
    const tooLong = guardOf(['Phone\r\n0803\r\n"', 'y'.repeat(600_000), 'y'.repeat(600_000)]);
    expect(tooLong).toThrow(ImportError);
    expect(tooLong).toThrow(/^Row 3 of the file is longer than 1,000,000 characters \(it starts ""y{38}…"\)/);
    const tooWide = guardOf(['a\n', ','.repeat(16_384)]);
    expect(tooWide).toThrow(/^Row 2 of the file has more than 16,384 columns/);
  });

  it('a quote that never closes is caught within the limit, not at the end of the file', async () => {
    const file = tmp.write('unclosed.csv', `Phone,Amount\n08031234567,"500\n${'08031234567,500\n'.repeat(200_000)}`);
    const error = await importError(readSpreadsheet(file));
    expect(error.code).toBe('too_long');
    expect(error.message).toMatch(/^Row 2 of the file is longer than 1,000,000 characters \(it starts "08031234567,"500 08031234567,500 080312…"\), .*fix the quotes/);
  });
});
