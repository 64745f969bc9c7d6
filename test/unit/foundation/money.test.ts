import { describe, expect, it } from 'vitest';
import { formatNaira, koboToNaira, koboToWireText, nairaToKobo, parseNairaText } from '../../../src/shared/money';

describe('money is integer kobo', () => {
  it('converts Naira numbers without float drift', () => {
    expect(nairaToKobo(1000)).toBe(100000);
    expect(nairaToKobo(0.1 + 0.2)).toBe(30);
    expect(nairaToKobo(19.99)).toBe(1999);
    expect(nairaToKobo(1234567.89)).toBe(123456789);
    expect(koboToNaira(100050)).toBe(1000.5);
  });

  it.each([
    ['NGN 1,000.00', 100000],
    ['₦1,000', 100000],
    ['N 500', 50000],
    ['1,234,567.8', 123456780],
    ['  250 ', 25000],
    ['99.999', 9999],
    ['-50.25', -5025],
  ])('reads %s as %i kobo', (text, kobo) => {
    expect(parseNairaText(text)).toBe(kobo);
  });

  it.each(['', 'abc', '1.2.3', 'NGN', '12a'])('refuses %j', (text) => {
    expect(parseNairaText(text)).toBeNull();
  });

  it('writes the wire and display forms', () => {
    expect(koboToWireText(100000)).toBe('NGN 1,000.00');
    expect(formatNaira(123456789)).toBe('₦1,234,567.89');
    expect(formatNaira(-5025)).toBe('-₦50.25');
  });
});
