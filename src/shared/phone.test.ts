import { describe, expect, it } from 'vitest';
import { networkOfPhone, normalizePhone, parseNetwork } from './phone';

describe('normalizePhone', () => {
  it.each([
    ['08031234567', '08031234567'],
    ['2348031234567', '08031234567'],
    ['+2348031234567', '08031234567'],
    ['8031234567', '08031234567'],
    ['+234 803 123 4567', '08031234567'],
    ['234-803-123-4567', '08031234567'],
    ['0803.123.4567', '08031234567'],
    ['(0803) 123 4567', '08031234567'],
    ['07061234567', '07061234567'],
    ['09091234567', '09091234567'],
    ['07011234567', '07011234567'],
    ['+2349111234567', '09111234567'],
  ])('accepts %s as %s', (input, expected) => {
    expect(normalizePhone(input)).toEqual({ ok: true, phone: expected });
  });

  it.each([
    ['', 'empty'],
    ['0703123', 'not a Nigerian mobile number'],
    ['+447911123456', 'country code is not +234'],
    ['08031234567x', 'characters other than digits'],
    ['06031234567', 'not a Nigerian mobile number'],
    ['080312345678', 'not a Nigerian mobile number'],
    // The third digit of a mobile number is 0 or 1 (0803, 0701, 0911): 082…, 072…, 095… are not mobiles.
    ['08231234567', 'not a Nigerian mobile number'],
    ['07231234567', 'not a Nigerian mobile number'],
    ['09531234567', 'not a Nigerian mobile number'],
    ['2348231234567', 'not a Nigerian mobile number'],
    ['8931234567', 'not a Nigerian mobile number'],
  ])('rejects %s saying why', (input, reason) => {
    const result = normalizePhone(input);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toContain(reason);
  });
});

describe('networks', () => {
  it('infers the network from the prefix', () => {
    expect(networkOfPhone('08031234567')).toBe('MTN');
    expect(networkOfPhone('08021234567')).toBe('AIRTEL');
    expect(networkOfPhone('08051234567')).toBe('GLOBACOM');
    expect(networkOfPhone('08091234567')).toBe('9MOBILE');
    expect(networkOfPhone('07025123456')).toBe('MTN');
    expect(networkOfPhone('08041234567')).toBeNull();
  });

  it('reads the spellings users write', () => {
    expect(parseNetwork('glo')).toBe('GLOBACOM');
    expect(parseNetwork(' Globacom ')).toBe('GLOBACOM');
    expect(parseNetwork('9mobile')).toBe('9MOBILE');
    expect(parseNetwork('Etisalat')).toBe('9MOBILE');
    expect(parseNetwork('mtn')).toBe('MTN');
    expect(parseNetwork('vodafone')).toBeNull();
  });
});
