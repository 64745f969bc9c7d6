import { describe, expect, it } from 'vitest';
import { formatNaira, nairaToKobo, parseNairaText } from './money';

// What a person sees after typing an amount wrongly (money.test.ts has the main rules). Each
// sentence is written out as the window and the CLI show it.
const refused = (text: string) => {
  const r = parseNairaText(text);
  return r.ok ? `read as ${r.kobo}` : r.reason;
};

describe('the sentence a mistyped amount gets', () => {
  it('exponents and suffixes', () => {
    expect(refused('1.5e3')).toBe('Type the amount in full, like 100,000: vendesk does not read exponents such as 1.5e3.');
    expect(refused('12e+05')).toBe('Type the amount in full, like 100,000: vendesk does not read exponents such as 12e+05.');
    expect(refused('2.5 m')).toBe('Type the amount in full, like 5,000 or 2,500,000: vendesk does not read 2.5 m.');
    expect(refused('1b')).toBe('Type the amount in full, like 5,000 or 2,500,000: vendesk does not read 1b.');
    expect(refused('x1e5')).toBe('That is not an amount. Type the amount in Naira, like 5000, 5,000, 5,000.50 or ₦5,000.');
    expect(refused('5kg')).toBe('That is not an amount. Type the amount in Naira, like 5000, 5,000, 5,000.50 or ₦5,000.');
  });

  it('the European way of writing thousands and kobo', () => {
    const european = 'Use a point for kobo and commas between thousands, like 5,000.00 (not 5.000,00).';
    expect(refused('5.000,00')).toBe(european);
    expect(refused('12.500.000,5')).toBe(european);
    expect(refused('5000,5')).toBe(european);
    expect(refused('1.000.000')).toBe(european);
    expect(refused('a5.000,00')).not.toBe(european);
  });

  it('commas, spaces and points in the wrong place', () => {
    expect(refused('50,00')).toBe('Use a point for kobo and commas between thousands, like 5,000.00 (not 5.000,00).');
    expect(refused('5,0000.5')).toBe('Commas go between groups of three digits, like 5,000 or 1,250,000.50.');
    expect(refused('5,0000.')).toBe('Commas go between groups of three digits, like 5,000 or 1,250,000.50.');
    expect(refused('5 000.50')).toBe('Leave out spaces inside the amount; use commas between thousands, like 5,000.');
    expect(refused('5 000')).toBe('Leave out spaces inside the amount; use commas between thousands, like 5,000.');
    expect(refused('.75')).toBe('Put a 0 before the point, like 0.75.');
    expect(refused('.5x')).toBe('That is not an amount. Type the amount in Naira, like 5000, 5,000, 5,000.50 or ₦5,000.');
    expect(refused('5000.')).toBe('Type the kobo after the point, like 5,000.50, or leave the point out.');
    expect(refused('x5000.')).toBe('That is not an amount. Type the amount in Naira, like 5000, 5,000, 5,000.50 or ₦5,000.');
  });

  it('three digits after the point: thousands or too many kobo', () => {
    expect(refused('5.000')).toBe('5.000 has three digits after the point. For thousands use a comma, like 5,000; kobo take two digits after the point, like 5,000.50.');
    expect(refused('500.000')).toBe('500.000 has three digits after the point. For thousands use a comma, like 5,000; kobo take two digits after the point, like 5,000.50.');
    expect(refused('5000.000')).toBe('An amount has at most two digits after the point (kobo), like 5,000.50.');
    expect(refused('5,000.000')).toBe('An amount has at most two digits after the point (kobo), like 5,000.50.');
    expect(refused('5.0000')).toBe('An amount has at most two digits after the point (kobo), like 5,000.50.');
  });

  it('signs and brackets', () => {
    expect(refused('(5,000)')).toBe('An amount cannot be negative: type it without the brackets, like 5,000.');
    expect(refused('(5,000')).toBe('That is not an amount. Type the amount in Naira, like 5000, 5,000, 5,000.50 or ₦5,000.');
    expect(refused('5,000)')).toBe('That is not an amount. Type the amount in Naira, like 5000, 5,000, 5,000.50 or ₦5,000.');
    expect(parseNairaText('- 5,000', { allowNegative: true })).toEqual({ ok: true, kobo: -500_000 });
    expect(parseNairaText('₦ − 50', { allowNegative: true })).toEqual({ ok: true, kobo: -5_000 });
    expect(parseNairaText('5-', { allowNegative: true }).ok).toBe(false);
    expect(parseNairaText('-0', { allowNegative: true, allowZero: true })).toEqual({ ok: true, kobo: 0 });
  });
});

describe('amounts that are not numbers, and zero', () => {
  it('refuses to convert what is not a finite number', () => {
    expect(() => nairaToKobo(Number.NaN)).toThrow('Not an amount: NaN');
    expect(() => nairaToKobo(Number.POSITIVE_INFINITY)).toThrow('Not an amount: Infinity');
  });

  it('shows zero without a sign', () => {
    expect(formatNaira(0)).toBe('₦0.00');
  });
});
