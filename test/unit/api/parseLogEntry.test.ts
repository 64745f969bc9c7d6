import { describe, expect, it } from 'vitest';
import { AppError } from '../../../src/shared/appError';
import { parseLogEntry, utcTimestampToIso } from '../../../src/main/api/parseLogEntry';
import type { LogEntry } from '../../../src/shared/wire';

const entry: LogEntry = {
  id: 42,
  transaction_id: 'ATM123',
  partner_reference: 'P-9',
  phone_number: '2348031234567',
  amount: 'NGN 1,234,567.89',
  transaction_cost: 1_212_345.67,
  commission: 22_222.22,
  type: 'AIRTIME',
  network: 'MTN',
  operator: 'MTN Nigeria',
  region: '',
  description: 'Airtime',
  data_plan: '',
  status: 'SUCCESS',
  time: '31 Jan 2026, 10:15',
  created_at: '2026-01-31 09:15:00',
  updated_at: '2026-01-31T09:15:05.120Z',
};

describe('parseLogEntry', () => {
  it('turns amounts into exact kobo and timestamps into UTC ISO-8601', () => {
    expect(parseLogEntry(entry)).toEqual({
      id: 42,
      transactionId: 'ATM123',
      partnerReference: 'P-9',
      phoneNumber: '08031234567',
      amountKobo: 123_456_789,
      costKobo: 121_234_567,
      commissionKobo: 2_222_222,
      type: 'AIRTIME',
      network: 'MTN',
      operator: 'MTN Nigeria',
      region: '',
      description: 'Airtime',
      dataPlan: '',
      status: 'SUCCESS',
      time: '31 Jan 2026, 10:15',
      createdAt: '2026-01-31T09:15:00.000Z',
      updatedAt: '2026-01-31T09:15:05.120Z',
    });
  });

  it('keeps a phone number that is not Nigerian mobile as written (meters, smartcards)', () => {
    expect(parseLogEntry({ ...entry, phone_number: '12345670000' }).phoneNumber).toBe('12345670000');
  });

  it('refuses an unreadable amount or date with the entry id', () => {
    expect(() => parseLogEntry({ ...entry, amount: 'lots' })).toThrow(AppError);
    expect(() => parseLogEntry({ ...entry, amount: 'lots' })).toThrow(/Log entry 42 has an unreadable amount/);
    expect(() => parseLogEntry({ ...entry, created_at: 'yesterday' })).toThrow(/created_at/);
  });
});

describe('utcTimestampToIso', () => {
  it.each([
    ['2026-01-31T09:15:00Z', '2026-01-31T09:15:00.000Z'],
    ['2026-01-31T09:15:00', '2026-01-31T09:15:00.000Z'],
    ['2026-01-31 09:15', '2026-01-31T09:15:00.000Z'],
    ['2026-01-31T10:15:00+01:00', '2026-01-31T09:15:00.000Z'],
    ['2026-01-31T10:15:00+0100', '2026-01-31T09:15:00.000Z'],
    ['2026-01-31 09:15:00 UTC', '2026-01-31T09:15:00.000Z'],
    ['2026-01-31', '2026-01-31T00:00:00.000Z'],
  ])('%s → %s', (text, iso) => {
    expect(utcTimestampToIso(text)).toBe(iso);
  });
  it('returns null for nonsense', () => {
    expect(utcTimestampToIso('31/01/2026')).toBeNull();
    // The service's own form is kept as it is; one that is not a real date or time is read the slow way, as before.
    for (const iso of ['2026-01-31T09:15:00.000Z', '2024-02-29T23:59:59.999Z', '0999-12-31T00:00:00.000Z']) expect(utcTimestampToIso(iso)).toBe(new Date(iso).toISOString());
    for (const odd of ['2026-02-29T10:00:00.000Z', '2026-04-31T10:00:00.000Z', '2026-01-31T24:00:00.000Z', '2026-01-31T09:60:00.000Z', '2026-1a-31T09:15:00.000Z']) {
      expect(utcTimestampToIso(odd), odd).toBe(Number.isNaN(Date.parse(odd)) ? null : new Date(odd).toISOString());
    }
    expect(utcTimestampToIso('2026-13-45')).toBeNull();
  });
});
