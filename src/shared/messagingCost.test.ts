import { describe, expect, it } from 'vitest';
import { parseEmailList } from './emailAddresses';
import { messageCost, otpCostEstimate, smsPages } from './messagingCost';

describe('messageCost', () => {
  it('charges ₦4 per 160-character page per recipient and ₦1 per email copy', () => {
    expect(smsPages('')).toBe(1);
    expect(smsPages('x'.repeat(160))).toBe(1);
    expect(smsPages('x'.repeat(161))).toBe(2);
    expect(messageCost({ text: 'x'.repeat(320), recipients: 1_000, emails: 3 })).toEqual({
      recipients: 1_000,
      pages: 2,
      characters: 320,
      emails: 3,
      smsKobo: 2 * 1_000 * 400,
      emailKobo: 300,
      totalKobo: 800_300,
    });
  });

  it('counts characters, not UTF-16 units (₦ and emoji are one character each)', () => {
    expect(smsPages('₦'.repeat(160))).toBe(1);
    expect(smsPages('😀'.repeat(160))).toBe(1);
  });
});

describe('parseEmailList', () => {
  it('splits on commas, semicolons and spaces, drops repeats and reports what is not an address', () => {
    expect(parseEmailList('a@x.com; B@X.com, a@x.com\nnope  c@y.org.ng')).toEqual({ emails: ['a@x.com', 'b@x.com', 'c@y.org.ng'], invalid: ['nope'] });
    expect(parseEmailList('   ')).toEqual({ emails: [], invalid: [] });
  });
});

describe('otpCostEstimate', () => {
  it('is one page for a usual code and two for a very long one, plus ₦1 per email copy', () => {
    expect(otpCostEstimate(6, 0).totalKobo).toBe(400);
    expect(otpCostEstimate(6, 2).totalKobo).toBe(600);
    expect(otpCostEstimate(100, 0).pages).toBe(2);
  });
});
