import { describe, expect, it } from 'vitest';
import { exportFileName } from '../../../src/main/files';

describe('export file names', () => {
  it('are stamped with the Lagos time a person reads, not UTC', () => {
    // 23:30 UTC on the 26th is 00:30 on the 27th in Lagos.
    expect(exportFileName('Transactions', 'xlsx', new Date('2026-11-26T23:30:00Z'))).toBe('Transactions 2026-11-27 0030.xlsx');
    expect(exportFileName('Spend report', 'csv', new Date('2026-11-27T13:05:59Z'))).toBe('Spend report 2026-11-27 1405.csv');
  });

  it('keep only characters safe on every system', () => {
    expect(exportFileName('Job a/b:c', 'csv', new Date('2026-01-01T08:00:00Z'))).toBe('Job a-b-c 2026-01-01 0900.csv');
  });
});
