import { describe, expect, it } from 'vitest';
import { formatNaira, koboToNaira, koboToWireText, nairaToKobo, parseNairaText, wireTextToKobo } from './money';

describe('money is integer kobo', () => {
  it('converts Naira numbers without float drift', () => {
    expect(nairaToKobo(1000)).toBe(100000);
    expect(nairaToKobo(0.1 + 0.2)).toBe(30);
    expect(nairaToKobo(19.99)).toBe(1999);
    expect(nairaToKobo(1234567.89)).toBe(123456789);
    expect(koboToNaira(100050)).toBe(1000.5);
  });

  it('rounds a third decimal to the nearest kobo, not down', () => {
    // Expected values written out by hand: never computed with nairaToKobo itself.
    expect(nairaToKobo(1.006)).toBe(101);
    expect(nairaToKobo(2.999)).toBe(300);
    expect(nairaToKobo(1.004)).toBe(100);
    expect(nairaToKobo(1.005)).toBe(101);
    expect(nairaToKobo(1234.565)).toBe(123457);
    expect(nairaToKobo(0.009)).toBe(1);
    expect(nairaToKobo(-1.006)).toBe(-101);
  });

  it('writes the wire and display forms', () => {
    expect(koboToWireText(100000)).toBe('NGN 1,000.00');
    expect(formatNaira(123456789)).toBe('₦1,234,567.89');
    expect(formatNaira(-5025)).toBe('-₦50.25');
  });
});

describe('parseNairaText reads Naira as people type it', () => {
  it.each([
    ['5000', 500000],
    ['5,000', 500000],
    ['5,000.00', 500000],
    ['₦5,000', 500000],
    ['₦ 5,000.50', 500050],
    ['NGN 5,000', 500000],
    ['ngn5000', 500000],
    ['N5,000', 500000],
    ['N 500', 50000],
    ['5,000 naira', 500000],
    ['  250 ', 25000],
    ['5000.5', 500050],
    ['0.50', 50],
    ['1,234,567.89', 123456789],
    ['12,500,000', 1250000000],
    ['NGN 1,000.00', 100000],
  ])('reads %j as %i kobo', (text, kobo) => {
    expect(parseNairaText(text)).toEqual({ ok: true, kobo });
  });

  it.each([
    ['1e5', /in full, like 100,000.*exponents/],
    ['1E+5', /exponents/],
    ['5k', /in full.*does not read 5k/],
    ['2.5m', /in full/],
    ['5.000,00', /point for kobo and commas between thousands/],
    ['50,00', /point for kobo and commas between thousands/],
    ['1.234.567', /point for kobo and commas between thousands/],
    ['5.000', /three digits after the point.*5,000/],
    ['5000.555', /at most two digits after the point/],
    ['5,000.555', /at most two digits after the point/],
    ['-5000', /cannot be negative/],
    ['₦-5,000', /cannot be negative/],
    ['−5000', /cannot be negative/],
    ['(5,000)', /cannot be negative/],
    ['0', /above ₦0/],
    ['0.00', /above ₦0/],
    ['₦0', /above ₦0/],
    ['50,0000', /Commas go between groups of three digits/],
    ['5,00,000', /Commas go between groups of three digits/],
    [',5000', /Commas go between groups/],
    ['0,500', /Commas go between groups/],
    ['5 000', /Leave out spaces/],
    ['.5', /0 before the point, like 0\.5/],
    ['5000.', /kobo after the point/],
    ['', /Enter an amount/],
    ['   ', /Enter an amount/],
    ['abc', /not an amount.*5,000/],
    ['12a', /not an amount/],
    ['1.2.3', /not an amount/],
    ['NGN', /not an amount/],
    ['+5000', /not an amount/],
    ['$5,000', /not an amount/],
    ['99999999999999999', /too large/],
  ])('refuses %j with a sentence that says what to type', (text, reason) => {
    const r = parseNairaText(text);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.reason).toMatch(reason);
    expect(r.reason).toMatch(/^[A-Z0-9.,₦].*\.$/);
  });

  it('reads zero and a sign only when asked', () => {
    expect(parseNairaText('0', { allowZero: true })).toEqual({ ok: true, kobo: 0 });
    expect(parseNairaText('-50.25', { allowNegative: true })).toEqual({ ok: true, kobo: -5025 });
    expect(parseNairaText('-5000', { allowZero: true }).ok).toBe(false);
  });

  it('reads back every amount it displays', () => {
    for (const kobo of [1, 50, 99, 100, 500050, 123456789, 100000000000]) {
      expect(parseNairaText(formatNaira(kobo))).toEqual({ ok: true, kobo });
      expect(parseNairaText(koboToWireText(kobo))).toEqual({ ok: true, kobo });
    }
  });
});

describe('wireTextToKobo reads the amounts of the service log', () => {
  it('reads the log spelling, zero and a sign', () => {
    expect(wireTextToKobo('NGN 1,000.00')).toBe(100000);
    expect(wireTextToKobo('NGN 0.00')).toBe(0);
    expect(wireTextToKobo('-₦50.25')).toBe(-5025);
    expect(wireTextToKobo('1000.5')).toBe(100050);
  });

  it('never rounds or guesses: three decimals or an exponent are not an amount', () => {
    expect(wireTextToKobo('NGN 99.999')).toBeNull();
    expect(wireTextToKobo('1e+21')).toBeNull();
    expect(wireTextToKobo('')).toBeNull();
  });
});
