import { describe, expect, it } from 'vitest';
import { normalizePhone, parseNetwork } from './phone';

// More of the forms people type (phone.test.ts has the main ones). Expected numbers by hand.
describe('a phone number in the forms people type', () => {
  it('reads 234 without the plus only as a 13-digit number', () => {
    expect(normalizePhone('2348031234567')).toEqual({ ok: true, phone: '08031234567' });
    // 234 followed by a local number with its 0 is 14 digits: not a number.
    expect(normalizePhone('23408031234567').ok).toBe(false);
    // A local number that happens to start 0234… is not rewritten.
    expect(normalizePhone('02341234567').ok).toBe(false);
  });

  it('adds the leading 0 only to 10 digits starting 7, 8 or 9', () => {
    expect(normalizePhone('8031234567')).toEqual({ ok: true, phone: '08031234567' });
    expect(normalizePhone('7011234567')).toEqual({ ok: true, phone: '07011234567' });
    expect(normalizePhone('9061234567')).toEqual({ ok: true, phone: '09061234567' });
    expect(normalizePhone('6031234567').ok).toBe(false);
    expect(normalizePhone('80312345678').ok).toBe(false);
  });

  it('ignores spaces around the number and refuses letters inside it', () => {
    expect(normalizePhone('  0803 123 4567  ')).toEqual({ ok: true, phone: '08031234567' });
    expect(normalizePhone('0803123456x')).toEqual({ ok: false, reason: '0803123456x is not a Nigerian mobile number (it contains characters other than digits)' });
    expect(normalizePhone('+234803123456+7').ok).toBe(false);
  });
});

describe('a network in the spellings people and the log use', () => {
  it('reads each spelling, in any case, with spaces, dashes or underscores', () => {
    expect(parseNetwork(' airtel ')).toBe('AIRTEL');
    expect(parseNetwork('Nine-Mobile')).toBe('9MOBILE');
    expect(parseNetwork('nine_mobile')).toBe('9MOBILE');
    expect(parseNetwork('Glo')).toBe('GLOBACOM');
    expect(parseNetwork('Stryker')).toBeNull();
    expect(parseNetwork('')).toBeNull();
  });
});
