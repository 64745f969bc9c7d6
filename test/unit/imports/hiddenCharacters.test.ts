/**
 * Cells that hold characters a person cannot see but a screen obeys (issue 37): read from real
 * files (a CSV, and a workbook whose strings carry them), each such row is invalid with its row and
 * column named and what to do — never kept, never quietly cleaned. A tab or a line break inside a
 * text cell is a space; the glue of emoji stays.
 */
import { describe, expect, it } from 'vitest';
import { detectMapping, readSpreadsheet, validateBulkRows, validateContactRows, type RowIssue, type SheetTable } from '../../../src/main/imports';
import { hiddenInCell } from '../../../src/main/imports/hiddenCells';
import { writeWorkbook } from '../../support/hostileSpreadsheets';
import { catalogs } from '../../fixtures/imports/catalogs';
import { tempDir } from './tempFiles';

const tmp = tempDir();

/** The forged line of issue 37, typed into a Name cell. */
const FORGED = '\x1b[0m\r\x1b[2K2  08031111111 — MTN MTN-VTU ₦100.00\x1b[8m';

const CSV = [
  'Phone,Amount,Network,Name,Reference,Notes (not read)',
  '08031234501,500,MTN,Ada Obi,REF-1,',
  `08031234502,500,MTN,"${FORGED}",REF-2,`,
  '"0803123\r4503",500,MTN,Bola,REF-3,',
  '08031234504,500,MTN,Chidi,"REF\u202E4-FER",',
  '08031234505,500,MTN,"Dayo\nAdeyemi",REF-5,',
  '08031234506,500,MTN,"Efe\tOkoro",REF-6,',
  '08031234507,500,MTN,"Funmi\r\nBello",REF-7,',
  '08031234508,500,MTN,Mama 👩\u200d👧 ❤\ufe0f,REF-8,',
  '0803\u200b1234509,500,MTN,Gbenga,REF-9,',
  '08031234510,500,\u009b2KMTN,Hauwa,REF-10,',
  '08031234511,500,MTN,Ify,REF-11,"\x1b[2Kignored: the column is not read"',
].join('\r\n');

async function read(file: string): Promise<SheetTable> {
  return readSpreadsheet(file);
}

function messagesByRow(errors: RowIssue[]): Record<number, string> {
  return Object.fromEntries(errors.map((e) => [e.row, e.message]));
}

describe('a cell holding a character a screen obeys or hides', () => {
  it('makes its row invalid, naming the row, the column and the character, and saying to retype the cell (bulk airtime)', async () => {
    const table = await read(tmp.write('hidden.csv', CSV));
    const result = validateBulkRows(table, detectMapping(table.headers, 'airtime'), 'airtime', catalogs);
    expect(result.invalid.map((r) => r.row)).toEqual([3, 4, 5, 10, 11]);
    const said = messagesByRow(result.errors);
    expect(said[3]).toBe('Row 3: the Name cell (column D) holds a hidden character (ESC, U+001B) that can change what a screen shows; retype the cell.');
    expect(said[4]).toMatch(/^Row 4: the Phone cell \(column A\) holds a hidden character \(carriage return, U\+000D\)/);
    expect(said[5]).toMatch(/^Row 5: the Reference cell \(column E\) holds a hidden character \(right-to-left override, U\+202E\)/);
    expect(said[10]).toMatch(/^Row 10: the Phone cell \(column A\) holds a hidden character \(zero-width space, U\+200B\)/);
    expect(said[11]).toMatch(/^Row 11: the Network cell \(column C\) holds a hidden character \(CSI, U\+009B\)/);
    // Nothing of the hidden text is kept, in the valid rows or the messages.
    for (const m of Object.values(said)) for (const ch of ['\x1b', '\r', '\u202e', '\u200b', '\u009b']) expect(m).not.toContain(ch);
    expect(result.valid.map((v) => [v.row, v.phone, v.name])).toEqual([
      [2, '08031234501', 'Ada Obi'],
      [6, '08031234505', 'Dayo Adeyemi'],
      [7, '08031234506', 'Efe Okoro'],
      [8, '08031234507', 'Funmi Bello'],
      [9, '08031234508', 'Mama 👩\u200d👧 ❤\ufe0f'],
      [12, '08031234511', 'Ify'],
    ]);
    expect(result.totalKobo).toBe(6 * 50_000);
  });

  it('makes a contact row invalid the same way; a line break in a name is a space', async () => {
    const table = await read(tmp.write('contacts.csv', CSV));
    const result = validateContactRows(table, detectMapping(table.headers, 'contacts'));
    expect(result.invalid.map((r) => r.row)).toEqual([3, 4, 10]);
    const said = messagesByRow(result.invalid.flatMap((r) => r.issues));
    expect(said[3]).toMatch(/^Row 3: the Name cell \(column D\) holds a hidden character \(ESC, U\+001B\).*; retype the cell\.$/);
    expect(said[4]).toMatch(/^Row 4: the Phone cell \(column A\) holds a hidden character \(carriage return, U\+000D\)/);
    expect(said[10]).toMatch(/^Row 10: the Phone cell \(column A\) holds a hidden character \(zero-width space, U\+200B\)/);
    expect(result.valid.find((c) => c.row === 6)?.name).toBe('Dayo Adeyemi');
  });

  it('is found in a workbook too: character references and bidirectional overrides in its strings', async () => {
    const file = tmp.path('hidden.xlsx');
    const s = (ref: string, i: number) => `<c r="${ref}" t="s"><v>${i}</v></c>`;
    const strings = ['Phone', 'Amount', 'Name', '08031234521', '08031234522', 'Kemi', '&#x1B;[2K08031111111 ₦100.00', '08031234523', 'Lara\u202Eknab'];
    await writeWorkbook(
      file,
      `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>` +
        `<row r="1">${s('A1', 0)}${s('B1', 1)}${s('C1', 2)}</row>` +
        `<row r="2">${s('A2', 3)}<c r="B2"><v>500</v></c>${s('C2', 5)}</row>` +
        `<row r="3">${s('A3', 4)}<c r="B3"><v>500</v></c>${s('C3', 6)}</row>` +
        `<row r="4">${s('A4', 7)}<c r="B4"><v>500</v></c>${s('C4', 8)}</row>` +
        `</sheetData></worksheet>`,
      {
        sharedStrings: `<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">${strings.map((t) => `<si><t>${t}</t></si>`).join('')}</sst>`,
      },
    );
    const table = await read(file);
    const result = validateBulkRows(table, detectMapping(table.headers, 'airtime'), 'airtime', catalogs);
    expect(result.valid.map((v) => v.row)).toEqual([2]);
    const said = messagesByRow(result.errors);
    expect(Object.keys(said)).toEqual(['3', '4']);
    expect(said[3]).toMatch(/^Row 3: the Name cell \(column C\) holds a hidden character \(ESC, U\+001B\)/);
    expect(said[4]).toMatch(/^Row 4: the Name cell \(column C\) holds a hidden character \(right-to-left override, U\+202E\)/);
  });

  it('reads the cell as it is when nothing is hidden, and a tab or line break as a space', () => {
    expect(hiddenInCell('Ada Obi')).toBeNull();
    expect(hiddenInCell('Ada\r\nObi\tA\u2028B')).toEqual({ ok: true, text: 'Ada Obi A B' });
    expect(hiddenInCell('Ada\rObi')).toEqual({ ok: false, character: '\r' });
    expect(hiddenInCell('a\n\x07')).toEqual({ ok: false, character: '\x07' });
  });
});
