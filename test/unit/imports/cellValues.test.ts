import { describe, expect, it } from 'vitest';
import { accountNumberFromCell, amountFromCell, dateFromCell, networkFromCell, phoneFromCell, textFromCell, vendTypeFromCell } from '../../../src/main/imports';

describe('phoneFromCell: the ways a phone number arrives in a spreadsheet', () => {
  it.each([
    ['08031234567', '08031234567'],
    [8031234567, '08031234567'],
    ['8031234567', '08031234567'],
    [2348031234567, '08031234567'],
    ['2348031234567', '08031234567'],
    ['+2348031234567', '08031234567'],
    ['+234 803 123 4567', '08031234567'],
    ['234-803-123-4567', '08031234567'],
    ['0803 123 4567', '08031234567'],
    ['0803.123.4567', '08031234567'],
    ['0803-123-4567', '08031234567'],
    ['(0803) 123 4567', '08031234567'],
    ['8031234567.0', '08031234567'],
    ['08031234567.00', '08031234567'],
    ['+234 (0) 803 123 4567', '08031234567'],
    ['002348031234567', '08031234567'],
    ["'08031234567", '08031234567'],
    ['  07061234567  ', '07061234567'],
    ['09161234567', '09161234567'],
  ])('%j → %s', (cell, phone) => {
    expect(phoneFromCell(cell)).toEqual({ ok: true, phone });
  });

  it('rejects scientific notation and says the spreadsheet rounded the number', () => {
    const result = phoneFromCell('2.34803E+12');
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.reason).toContain('2.34803E+12');
      expect(result.reason).toContain('scientific notation');
      expect(result.reason).toContain('rounded');
      expect(result.reason).toContain('Text');
    }
  });

  it('rejects a number that lost digits to rounding (what 2.34803E+12 becomes in a number cell)', () => {
    const result = phoneFromCell(2348030000000);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(/rounded.*lost digits.*Text/);
  });

  it('rejects numbers beyond exact float range', () => {
    expect(phoneFromCell(23480312345678912).ok).toBe(false);
  });

  it.each([
    ['0703123', '0703123 is not a Nigerian mobile number'],
    [703123, '703123 is not a Nigerian mobile number'],
    ['+44 7911 123456', 'country code is not +234'],
    ['N/A', 'N/A is not a Nigerian mobile number'],
    ['0803-CALL-ME', 'characters other than digits'],
    ['06031234567', 'is not a Nigerian mobile number'],
    [8031234567.5, 'fraction'],
  ])('%j is rejected (%s)', (cell, reason) => {
    const result = phoneFromCell(cell);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toContain(reason);
  });

  it('says an empty cell is empty', () => {
    expect(phoneFromCell(null)).toEqual({ ok: false, reason: 'Phone number is empty' });
    expect(phoneFromCell('   ')).toEqual({ ok: false, reason: 'Phone number is empty' });
  });

  it('refuses dates and booleans', () => {
    expect(phoneFromCell(new Date('2025-01-01')).ok).toBe(false);
    expect(phoneFromCell(true).ok).toBe(false);
  });
});

describe('amountFromCell: Naira as people write it, to kobo', () => {
  it.each([
    [1000, 100_000],
    [99.5, 9_950],
    [0.1 + 0.2, 30],
    ['1000', 100_000],
    ['1,000', 100_000],
    ['1,000.50', 100_050],
    ['₦1,000', 100_000],
    ['₦ 1,000.00', 100_000],
    ['NGN 1,000.00', 100_000],
    ['NGN1000', 100_000],
    ['N500', 50_000],
    ['n 500', 50_000],
    ['500 naira', 50_000],
    ['1000 NGN', 100_000],
    ['  250  ', 25_000],
    ['12.5', 1_250],
    ['1,234,567.89', 123_456_789],
  ])('%j → %i kobo', (cell, kobo) => {
    expect(amountFromCell(cell)).toEqual({ ok: true, kobo });
  });

  it.each([
    [null, 'empty'],
    ['', 'empty'],
    [0, 'more than zero'],
    ['0', 'more than zero'],
    [-500, 'more than zero'],
    ['-500', 'negative'],
    ['(500)', 'negative'],
    ['1000.505', 'at most two digits after the point'],
    ['100.000', 'For thousands use a comma, like 5,000'],
    [333.333, 'two decimal places'],
    ['abc', 'not an amount'],
    ['₦', 'not an amount'],
    ['1.000,50', 'Use a point for kobo and commas between thousands'],
    // The window and the CLI refuse these; so does a file (one grammar: parseNairaText).
    ['1,0,0', 'Commas go between groups of three digits'],
    ['1 000', 'Leave out spaces inside the amount'],
    ["1'000", 'Leave out spaces inside the amount'],
    [true, 'not an amount'],
  ])('%j is rejected (%s)', (cell, reason) => {
    const result = amountFromCell(cell);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toContain(reason);
  });
});

describe('other cells', () => {
  it('reads network spellings', () => {
    expect(networkFromCell('Glo')).toEqual({ ok: true, value: 'GLOBACOM' });
    expect(networkFromCell('etisalat')).toEqual({ ok: true, value: '9MOBILE' });
    expect(networkFromCell('MTN NG')).toEqual({ ok: true, value: 'MTN' });
    expect(networkFromCell(' airtel ')).toEqual({ ok: true, value: 'AIRTEL' });
    expect(networkFromCell(null)).toBeNull();
    expect(networkFromCell('Vodafone')).toMatchObject({ ok: false });
  });

  it('reads meter types', () => {
    expect(vendTypeFromCell('Prepaid')).toEqual({ ok: true, value: 'PREPAID' });
    expect(vendTypeFromCell('post-paid')).toEqual({ ok: true, value: 'POSTPAID' });
    expect(vendTypeFromCell('monthly')).toMatchObject({ ok: false });
  });

  it('keeps meter numbers as digits and refuses rounded ones', () => {
    expect(accountNumberFromCell(45701234567, 'Meter number')).toEqual({ ok: true, value: '45701234567' });
    expect(accountNumberFromCell('0101-2345-678', 'Meter number')).toEqual({ ok: true, value: '01012345678' });
    expect(accountNumberFromCell('4.57012E+10', 'Meter number')).toMatchObject({ ok: false });
    expect(accountNumberFromCell('12AB', 'Meter number')).toMatchObject({ ok: false });
  });

  it('reads dates: real dates, Excel serials, log timestamps, day-first text', () => {
    expect(dateFromCell('2025-03-01 14:05:00')).toEqual({ ok: true, value: new Date('2025-03-01T14:05:00Z') });
    expect(dateFromCell('01/03/2025 14:05')).toEqual({ ok: true, value: new Date('2025-03-01T14:05:00Z') });
    expect(dateFromCell(45717)).toEqual({ ok: true, value: new Date('2025-03-01T00:00:00Z') });
    expect(dateFromCell('31/02/2025')).toMatchObject({ ok: false });
  });

  it('shows numbers without a trailing .0', () => {
    expect(textFromCell(8031234567)).toBe('8031234567');
    expect(textFromCell('  Ada ')).toBe('Ada');
    expect(textFromCell(null)).toBe('');
  });
});

describe('phoneFromCell agrees with the shared normalizePhone', () => {
  it('accepts every spelling normalizePhone accepts, with the same result (random spellings)', async () => {
    const { normalizePhone } = await import('../../../src/shared/phone');
    let seed = 42;
    const random = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    const pieces = ['0', '8', '0', '3', '1', '2', '7', '9', '+', '234', ' ', '-', '.', '(', ')', '00', '5'];
    let accepted = 0;
    for (let i = 0; i < 20_000; i++) {
      let s = random() < 0.5 ? '0' + ['803', '702', '905', '811'][Math.floor(random() * 4)] : ['+234', '234', '+234 ', '', '(0)'][Math.floor(random() * 5)];
      const length = 4 + Math.floor(random() * 14);
      for (let k = 0; k < length; k++) s += pieces[Math.floor(random() * pieces.length)];
      const shared = normalizePhone(s);
      const ours = phoneFromCell(s);
      if (shared.ok) {
        accepted++;
        expect(ours).toEqual(shared);
      }
      if (ours.ok) expect(ours.phone).toMatch(/^0[789][01]\d{8}$/);
    }
    expect(accepted).toBeGreaterThan(100);
  });
});
