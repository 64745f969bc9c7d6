import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ImportError,
  assertMappingComplete,
  detectMapping,
  readSpreadsheet,
  validateBulkRows,
  validateContactRows,
  totalRowsNote,
  type RecentMatch,
  type SheetTable,
} from '../../../src/main/imports';
import { catalogs } from '../../fixtures/imports/catalogs';
import { FIXTURES, tempDir } from './tempFiles';

const tmp = tempDir();

function table(headers: string[], rows: (string | number | null)[][], firstRow = 2): SheetTable {
  return { format: 'csv', sheetName: null, fileHash: 'x', headerRow: firstRow - 1, headers, rows: rows.map((cells, i) => ({ row: firstRow + i, cells })) };
}

function airtime(rows: (string | number | null)[][], headers = ['Phone', 'Amount', 'Network']) {
  const t = table(headers, rows);
  return validateBulkRows(t, detectMapping(headers, 'airtime'), 'airtime', catalogs);
}

describe('bulk airtime rows', () => {
  it('normalizes numbers, infers the network, takes operator and voucher from the catalog', () => {
    const result = airtime([
      [8031234567, '₦1,000', null],
      ['+234 802 123 4567', 'NGN 500.50', 'airtel'],
    ]);
    expect(result.invalid).toEqual([]);
    expect(result.valid[0]).toMatchObject({
      row: 2,
      phone: '08031234567',
      network: 'MTN',
      amountKobo: 100_000,
      productCode: 'MTN-VTU',
      voucherCode: 'MTNV1',
      operator: 'MTN Nigeria',
      warnings: [],
    });
    expect(result.valid[1]).toMatchObject({ row: 3, phone: '08021234567', network: 'AIRTEL', amountKobo: 50_050, voucherCode: null });
    expect(result.totalKobo).toBe(150_050);
    expect(result.counts).toMatchObject({ rows: 2, valid: 2, invalid: 0 });
  });

  it('says exactly what is wrong with a row, in one sentence ended once (what to do is said where the rows are listed)', () => {
    const result = airtime([['0703123', 500, null]], ['Phone', 'Amount', 'Network']);
    expect(result.errors).toEqual([{ row: 2, field: 'phone', message: 'Row 2: 0703123 is not a Nigerian mobile number (expected 11 digits like 08031234567, or 2348031234567).' }]);
    // A reason that is already a sentence keeps its own full stop: no ".;", and no "exclude" control that does not exist.
    const words = airtime([['08031234567', 'one thousand', null]], ['Phone', 'Amount', 'Network']);
    expect(words.errors.map((e) => e.message)).toEqual(['Row 2: Amount one thousand: That is not an amount. Type the amount in Naira, like 5000, 5,000, 5,000.50 or ₦5,000.']);
  });

  it('rejects a number in scientific notation, saying the spreadsheet rounded it', () => {
    const result = airtime([
      ['2.34803E+12', 500, null],
      [2348030000000, 500, null],
    ]);
    expect(result.invalid.map((r) => r.row)).toEqual([2, 3]);
    for (const r of result.invalid) expect(r.issues[0].message).toMatch(/rounded/);
  });

  it('keeps amounts within the network catalog range and never under ₦100', () => {
    const result = airtime([
      [8031234567, 99, null], // MTN catalog min is ₦50, the floor ₦100 still applies
      [8031234567, 100, null],
      [8051234567, 20_001, null], // Glo max ₦20,000
      [8031234567, 50_001, null],
      [8031234567, 0, null],
    ]);
    expect(result.valid.map((r) => r.row)).toEqual([3]);
    expect(result.errors.map((e) => e.message)).toEqual([
      expect.stringContaining('below the MTN airtime minimum of ₦100.00'),
      expect.stringContaining('above the Glo airtime maximum of ₦20,000.00'),
      expect.stringContaining('above the MTN airtime maximum'),
      expect.stringContaining('more than zero'),
    ]);
  });

  it('warns when the given network disagrees with the prefix (ported number) and keeps the given network', () => {
    const result = airtime([[8031234567, 500, 'Airtel']]);
    expect(result.valid[0]).toMatchObject({ network: 'AIRTEL', productCode: 'AIRTEL-VTU' });
    expect(result.valid[0].warnings[0].message).toMatch(/MTN prefix but the file says Airtel/);
    expect(result.networkConflicts).toEqual([{ row: 2, phone: '08031234567', given: 'AIRTEL', inferred: 'MTN', message: expect.stringContaining('ported') }]);
  });

  it('refuses an unknown network name, and a number whose network cannot be told', () => {
    const result = airtime([
      [8031234567, 500, 'Vodafone'],
      ['07001234567', 500, null],
    ]);
    expect(result.errors[0].message).toMatch(/Vodafone is not a network/);
    expect(result.errors[1].message).toMatch(/cannot tell the network of 07001234567/);
  });

  it('collects every issue of a row', () => {
    const result = airtime([['123', 'abc', 'Vodafone']]);
    expect(result.invalid[0].issues.map((i) => i.field).sort()).toEqual(['amount', 'network', 'phone']);
  });

  it('flags duplicates within the file (same phone and amount) and keeps both rows valid for the user to decide', () => {
    const result = airtime([
      [8031234567, 500, null],
      ['08031234567', '₦500', null],
      [8031234567, 1000, null],
      ['+2348031234567', 500, 'MTN'],
    ]);
    expect(result.counts.valid).toBe(4);
    expect(result.duplicates).toEqual([expect.objectContaining({ kind: 'in_file', rows: [2, 3, 5], account: '08031234567', amountKobo: 50_000 })]);
    expect(result.valid[1].warnings[0].message).toMatch(/same phone and amount as row 2/);
    expect(result.counts.duplicateRows).toBe(3);
  });

  it('flags rows bought in the last 24 hours, from the injected lookup', () => {
    const seen: [string, number][] = [];
    const recent = (phone: string, kobo: number): RecentMatch[] => {
      seen.push([phone, kobo]);
      return phone === '08031234567' && kobo === 50_000 ? [{ source: 'log', reference: 'REF-1', at: '2025-03-01T09:00:00Z', amountKobo: 50_000, status: 'SUCCESS' }] : [];
    };
    const headers = ['Phone', 'Amount'];
    const result = validateBulkRows(
      table(headers, [
        [8031234567, 500],
        [8051234567, 500],
      ]),
      detectMapping(headers, 'airtime'),
      'airtime',
      { ...catalogs, recentPurchases: recent },
    );
    expect(seen).toEqual([
      ['08031234567', 50_000],
      ['08051234567', 50_000],
    ]);
    expect(result.duplicates).toEqual([expect.objectContaining({ kind: 'recent', row: 2, matches: [expect.objectContaining({ reference: 'REF-1' })] })]);
    expect(result.valid[0].warnings[0].message).toMatch(/last 24 hours.*REF-1/);
  });

  it('throws missing_column when there is no phone column', () => {
    const headers = ['Name', 'Amount'];
    expect(() => validateBulkRows(table(headers, [['Ada', 500]]), detectMapping(headers, 'airtime'), 'airtime', catalogs)).toThrow(ImportError);
  });
});

describe('bulk data rows', () => {
  const headers = ['Phone', 'Plan Code', 'Network', 'Amount'];
  const run = (rows: (string | number | null)[][]) => validateBulkRows(table(headers, rows), detectMapping(headers, 'data'), 'data', catalogs);

  it('takes network, amount, voucher code and data value from the catalog, never from the file', () => {
    const result = run([[8031234567, 'MTN-1GB-1D', 'Glo', 5]]);
    expect(result.valid[0]).toMatchObject({ network: 'MTN', amountKobo: 35_000, productCode: 'MTN-1GB-1D', voucherCode: 'MTND01', dataValue: 1024, operator: 'MTN Nigeria' });
    const warnings = result.valid[0].warnings.map((w) => w.message).join('\n');
    expect(warnings).toMatch(/file says Glo but plan MTN-1GB-1D is an MTN plan/);
    expect(warnings).toMatch(/amount 5 is ignored; plan MTN-1GB-1D costs ₦350.00/);
  });

  it('matches product codes case-sensitively and suggests the right spelling', () => {
    const result = run([
      [8031234567, 'mtn-1gb-1d', null, null],
      [8031234567, 'MTN-9GB', null, null],
    ]);
    expect(result.valid).toEqual([]);
    expect(result.errors[0].message).toMatch(/mtn-1gb-1d is not in the catalog; did you mean MTN-1GB-1D\? \(codes are case-sensitive\)/);
    expect(result.errors[1].message).toMatch(/MTN-9GB is not in the catalog/);
  });

  it('warns when the number looks like another network than the plan (ported)', () => {
    const result = run([[8021234567, 'MTN-1GB-1D', null, null]]);
    expect(result.networkConflicts).toEqual([expect.objectContaining({ row: 2, given: 'MTN', inferred: 'AIRTEL' })]);
  });

  it('treats the same phone and plan twice as a duplicate', () => {
    const result = run([
      [8031234567, 'MTN-1GB-1D', null, null],
      ['08031234567', 'MTN-1GB-1D', null, null],
      ['08031234567', 'MTN-2GB-30D', null, null],
    ]);
    expect(result.duplicates).toEqual([expect.objectContaining({ rows: [2, 3] })]);
  });
});

describe('bulk electricity and cable rows', () => {
  it('electricity: disco from the catalog, meter, PREPAID/POSTPAID, amount in the disco range', () => {
    const headers = ['Meter Number', 'Disco', 'Meter Type', 'Amount', 'Phone'];
    const t = table(headers, [
      [45701234567, 'IKEDC', 'prepaid', '₦5,000', 8031234567],
      ['0101-2345-678', 'Ibadan Electricity Distribution Company', 'POSTPAID', 600, '08051234567'],
      [45701234567, 'ikedc', 'PREPAID', 5000, 8031234567],
      [45701234567, 'IKEDC', 'monthly', 500, 8031234567],
    ]);
    const result = validateBulkRows(t, detectMapping(headers, 'electricity'), 'electricity', catalogs);
    expect(result.valid).toEqual([
      expect.objectContaining({ row: 2, meter: '45701234567', disco: 'IKEDC', vendType: 'PREPAID', amountKobo: 500_000, phone: '08031234567', network: null }),
      expect.objectContaining({ row: 3, meter: '01012345678', disco: 'IBEDC', vendType: 'POSTPAID', amountKobo: 60_000 }),
    ]);
    expect(result.errors.map((e) => e.message)).toEqual([
      expect.stringMatching(/Row 4: disco ikedc is not in the catalog; did you mean IKEDC\?/),
      expect.stringMatching(/Row 5: Meter type monthly is not PREPAID or POSTPAID/),
      expect.stringMatching(/Row 5: ₦500.00 is below Ikeja Electric's minimum of ₦1,000.00/),
    ]);
  });

  it('cable: provider, smartcard, bouquet from the catalog with its price', () => {
    const headers = ['Smartcard Number', 'Provider', 'Bouquet Code', 'Amount', 'Phone'];
    const t = table(headers, [
      [7012345678, 'GOtv', 'gotv-max', 1, 8031234567],
      ['7012345679', null, 'dstv79', null, 8031234567],
      ['7012345670', 'DSTV', 'gotv-max', null, 8031234567],
      ['7012345671', 'GOTV', 'GOTV-MAX', null, 8031234567],
    ]);
    const result = validateBulkRows(t, detectMapping(headers, 'cable'), 'cable', catalogs);
    expect(result.valid).toEqual([
      expect.objectContaining({
        row: 2,
        smartcard: '7012345678',
        provider: 'GOTV',
        bouquetCode: 'gotv-max',
        amountKobo: 850_000,
        warnings: [expect.objectContaining({ field: 'amount' })],
      }),
      expect.objectContaining({ row: 3, provider: 'DSTV', bouquetCode: 'dstv79', amountKobo: 1_900_000 }),
    ]);
    expect(result.errors.map((e) => e.message)).toEqual([
      expect.stringMatching(/Row 4: bouquet gotv-max is a GOTV bouquet, not DSTV/),
      expect.stringMatching(/Row 5: bouquet code GOTV-MAX is not in the catalog; did you mean gotv-max\?/),
    ]);
  });
});

describe('contacts', () => {
  it('normalizes numbers, drops repeats, lists bad rows', () => {
    const headers = ['Name', 'Phone'];
    const result = validateContactRows(
      table(headers, [
        ['Ada', 8031234567],
        ['Ada again', '+234 803 123 4567'],
        ['Bola', '0703123'],
        [null, '08051234567'],
      ]),
      detectMapping(headers, 'contacts'),
    );
    expect(result.valid).toEqual([
      { row: 2, name: 'Ada', phone: '08031234567' },
      { row: 5, name: '', phone: '08051234567' },
    ]);
    expect(result.duplicates).toEqual([{ row: 3, phone: '08031234567', firstRow: 2, message: expect.stringContaining('already on row 2') }]);
    expect(result.invalid[0]).toMatchObject({ row: 4 });
  });
});

describe('a sheet\'s total row (docs/imports.md, "A total row")', () => {
  it('skips a trailing TOTAL row with no phone: not bought, not invalid, and says it agrees with the rows above', () => {
    const result = airtime(
      [
        ['08031234567', 1000, null],
        ['08051234567', 500, null],
        ['TOTAL', 1500, null],
      ],
      ['Phone', 'Amount', 'Network'],
    );
    expect(result.valid.map((r) => r.row)).toEqual([2, 3]);
    expect(result.invalid).toEqual([]);
    expect(result.errors).toEqual([]);
    expect(result.totalRows).toEqual([{ row: 4, label: 'TOTAL', statedKobo: 150_000 }]);
    expect(result.counts).toMatchObject({ rows: 2, valid: 2, invalid: 0 });
    expect(totalRowsNote(result)).toBe(
      "Row 4 (“TOTAL”) is the sheet's total, not a purchase, so it is not bought; the ₦1,500.00 it states is what the valid rows above it add up to.",
    );
  });

  it('takes Grand total, Sub-total, Total amount (₦) and Sum, in any case, in the first filled column; says so when the figures differ', () => {
    for (const label of ['Grand Total', 'grand total:', 'Sub-total', 'SUBTOTAL', 'Total amount (₦)', 'Totals', 'Sum']) {
      const result = airtime(
        [
          ['Ada', '08031234567', 1000],
          [label, null, 1200],
        ],
        ['Name', 'Phone', 'Amount'],
      );
      expect(result.totalRows, label).toEqual([{ row: 3, label, statedKobo: 120_000 }]);
      expect(result.errors, label).toEqual([]);
      expect(totalRowsNote(result)).toContain('it states ₦1,200.00, the valid rows above it add up to ₦1,000.00.');
    }
  });

  it('never takes a row that names a phone for a total, nor a total in the middle of the sheet, nor another word', () => {
    // A customer called "Total" is bought.
    const named = airtime([['Total', '08031234567', 1000]], ['Name', 'Phone', 'Amount']);
    expect(named.valid.map((r) => r.row)).toEqual([2]);
    expect(named.totalRows).toEqual([]);
    // A subtotal above purchase rows is no trailing total: it is reported, as before.
    const middle = airtime([
      ['08031234567', 1000, null],
      ['Subtotal', 1000, null],
      ['08051234567', 500, null],
    ]);
    expect(middle.totalRows).toEqual([]);
    expect(middle.invalid.map((r) => r.row)).toEqual([3]);
    // "VAT" is not a total's label: reported invalid; the Grand total below it is skipped.
    const vat = airtime([
      ['08031234567', 1000, null],
      ['VAT', 75, null],
      ['Grand total', 1075, null],
    ]);
    expect(vat.invalid.map((r) => r.row)).toEqual([3]);
    expect(vat.totalRows.map((t) => t.row)).toEqual([4]);
  });

  it('electricity: the account of a total row is its Meter Number cell', () => {
    const headers = ['Meter Number', 'Disco', 'Meter Type', 'Amount', 'Phone'];
    const t = table(headers, [
      ['45012345678', 'IKEDC', 'PREPAID', 5000, '08031234567'],
      ['Total', null, null, 5000, '08031234567'],
    ]);
    const result = validateBulkRows(t, detectMapping(headers, 'electricity'), 'electricity', catalogs);
    expect(result.totalRows).toEqual([{ row: 3, label: 'Total', statedKobo: 500_000 }]);
    expect(result.valid.map((r) => r.row)).toEqual([2]);
    expect(result.errors).toEqual([]);
  });
});

describe('real spreadsheet files end to end', () => {
  it('a LibreOffice workbook whose last row is TOTAL with =SUM(): the total is skipped and agrees with the rows', async () => {
    const t = await readSpreadsheet(join(FIXTURES, 'libreoffice-airtime-total.xlsx'));
    const result = validateBulkRows(t, detectMapping(t.headers, 'airtime'), 'airtime', catalogs);
    expect(result.valid.map((r) => [r.row, r.phone, r.amountKobo])).toEqual([
      [2, '08031234567', 100_000],
      [3, '08051234567', 50_000],
      [4, '08021234567', 150_000],
    ]);
    expect(result.errors).toEqual([]);
    expect(result.totalRows).toEqual([{ row: 6, label: 'TOTAL', statedKobo: 300_000 }]);
    expect(totalRowsNote(result)).toBe(
      "Row 6 (“TOTAL”) is the sheet's total, not a purchase, so it is not bought; the ₦3,000.00 it states is what the valid rows above it add up to.",
    );
    // Its CSV source: the formula is only text there, so the total row states no amount, and is still skipped.
    const csv = await readSpreadsheet(join(FIXTURES, 'libreoffice-airtime-total.csv'));
    const fromCsv = validateBulkRows(csv, detectMapping(csv.headers, 'airtime'), 'airtime', catalogs);
    expect(fromCsv.errors).toEqual([]);
    expect(totalRowsNote(fromCsv)).toBe("Row 6 (“TOTAL”) is the sheet's total, not a purchase, so it is not bought.");
  });

  it('LibreOffice airtime workbook: the right outcome for each row', async () => {
    const t = await readSpreadsheet(join(FIXTURES, 'libreoffice-airtime.xlsx'));
    const result = validateBulkRows(t, detectMapping(t.headers, 'airtime'), 'airtime', catalogs);
    const outcome = Object.fromEntries([
      ...result.valid.map((r) => [r.row, `${r.phone} ${r.network} ${r.amountKobo}`]),
      ...result.invalid.map((r) => [r.row, r.issues.map((i) => i.field).join(',')]),
    ]);
    expect(outcome).toEqual({
      4: '08031234567 MTN 100000',
      5: '08021234567 AIRTEL 50000',
      6: '08051234567 GLOBACOM 20000',
      8: 'phone', // 2.34803E+12 became 2348030000000: rounded
      9: 'phone', // 0703123 became 703123
      10: '08091234567 MTN 100000', // 9mobile prefix, file says MTN: kept, warned
      11: '08061234567 MTN 50000', // =250*2
      12: '08031234567 MTN 100000', // duplicate of row 4
      13: 'amount', // ₦50
      14: '08031234568 MTN 200000',
    });
    expect(result.networkConflicts.map((c) => c.row)).toEqual([10]);
    expect(result.duplicates).toEqual([expect.objectContaining({ kind: 'in_file', rows: [4, 12] })]);
    expect(result.valid.find((r) => r.row === 4)?.name).toBe('Adébáyọ̀ Okafor');
  });

  it('LibreOffice data workbook: catalog values, case-sensitive codes', async () => {
    const t = await readSpreadsheet(join(FIXTURES, 'libreoffice-data.xlsx'));
    const result = validateBulkRows(t, detectMapping(t.headers, 'data'), 'data', catalogs);
    expect(result.valid.map((r) => [r.row, r.phone, r.productCode, r.amountKobo])).toEqual([
      [2, '08031234567', 'MTN-1GB-1D', 35_000],
      [4, '08051234567', 'GLO-1GB-1D', 30_000],
      [6, '08021234599', 'MTN-1GB-1D', 35_000],
    ]);
    expect(result.invalid.map((r) => r.row)).toEqual([3, 5]);
    expect(result.networkConflicts.map((c) => c.row)).toEqual([6]);
  });

  it('the CSV source of the same sheet gives the same outcome as the workbook (text instead of numbers)', async () => {
    const csv = await readSpreadsheet(join(FIXTURES, 'libreoffice-airtime.csv'));
    const result = validateBulkRows(csv, detectMapping(csv.headers, 'airtime'), 'airtime', catalogs);
    expect(result.valid.map((r) => r.row)).toEqual([4, 5, 6, 10, 12, 14]);
    // In the CSV the formula is just text: "=250*2" is not an amount
    expect(result.invalid.map((r) => r.row)).toEqual([8, 9, 11, 13]);
  });

  it('a semicolon CSV saved by a European-locale Excel in Windows-1252', async () => {
    const file = tmp.write('eu.csv', Buffer.from('Name;Phone;Amount\r\nRenée;08031234567;500\r\n', 'latin1'));
    const t = await readSpreadsheet(file);
    const result = validateBulkRows(t, detectMapping(t.headers, 'airtime'), 'airtime', catalogs);
    expect(result.valid[0]).toMatchObject({ phone: '08031234567', amountKobo: 50_000, name: 'Renée' });
  });
});

describe('a message quotes at most a short excerpt of a cell, whatever the file holds', () => {
  const long = (c: string) => `${c}${'Z'.repeat(30_000)}`;
  const headers: Record<string, string[]> = {
    airtime: ['Phone', 'Amount', 'Network', 'Product code'],
    data: ['Phone', 'Product code', 'Network', 'Amount'],
    electricity: ['Meter number', 'Disco', 'Meter type', 'Amount', 'Phone'],
    cable: ['Smartcard number', 'Bouquet code', 'Provider', 'Phone', 'Amount'],
  };

  it.each(['airtime', 'data', 'electricity', 'cable'] as const)('%s: every row message stays short when every cell holds 30,000 characters', (kind) => {
    const h = headers[kind];
    const rows = [h.map((_, i) => long(String(i))), h.map(() => long('+')), h.map(() => long('1 '))];
    const result = validateBulkRows(table(h, rows), detectMapping(h, kind), kind, catalogs);
    const messages = [...result.errors, ...result.valid.flatMap((r) => r.warnings)].map((e) => e.message);
    expect(messages.length).toBeGreaterThan(0);
    for (const message of messages) {
      expect(message.length).toBeLessThan(400);
      expect(message).not.toMatch(/Z{40}/);
    }
  });

  it('contacts: a 30,000-character phone cell is quoted as an excerpt with its length', () => {
    const t = table(['Name', 'Phone'], [['Ada', long('0803')]]);
    const result = validateContactRows(t, detectMapping(t.headers, 'contacts'));
    expect(result.invalid[0].issues[0].message).toBe(
      `Row 2: 0803${'Z'.repeat(35)}… (30,004 characters) is not a Nigerian mobile number (it contains characters other than digits).`,
    );
  });

  it("a missing column lists at most a few of the file's column names, each shortened", () => {
    const many = Array.from({ length: 5000 }, (_, i) => long(`Column ${i} `));
    let thrown: unknown = null;
    try {
      assertMappingComplete(detectMapping(many, 'airtime'), 'airtime', many);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(ImportError);
    expect((thrown as ImportError).code).toBe('missing_column');
    expect((thrown as ImportError).message).toMatch(/^No Phone and Amount column found \(the file's columns are: "Column 0 ZZZ.*and 4,99\d more\)\. Rename/);
    expect((thrown as ImportError).message.length).toBeLessThan(700);
  });
});
