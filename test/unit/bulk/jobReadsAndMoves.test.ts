import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readBulkSettings, writeBulkSettings } from '../../../src/main/buying/bulkSettings';
import { jobParts, type JobParts } from '../../../src/main/buying/jobLifecycle';
import type { NewItem } from '../../../src/main/buying/jobRows';
import { itemsFromValidation } from '../../../src/main/buying/prepareJob';
import type { ValidationResult, ValidRow } from '../../../src/main/imports';
import { openDatabase, type Db } from '../../../src/main/store/database';
import { Settings } from '../../../src/main/store/settings';
import { testItem, testJob } from './jobFixtures';

let db: Db;
let store: JobParts;

const item = testItem;
/** When the items are sent, on the service's clock (a fixed instant: nothing here reads this computer's). */
const SENT_MS = Date.parse('2026-03-02T10:00:00.000Z');

function job(items: NewItem[]): string {
  return testJob(store.lifecycle, items, [{ row: 9, field: 'phone', message: 'Row 9: bad' }]);
}

beforeEach(() => {
  db = openDatabase(':memory:');
  store = jobParts(db);
});
afterEach(() => db.close());

describe("a job's reads and its items' moves", () => {
  it('writes the job, its items and its invalid rows before anything is sent', () => {
    const id = job([item(0), item(1)]);
    expect(store.reads.job(id)).toMatchObject({ state: 'draft', file_name: 'f.csv', invalid_count: 1 });
    expect(store.reads.counts(id)).toMatchObject({ queued: 2 });
    expect(store.reads.invalidRows(id, 0, 10)).toEqual([{ row: 9, field: 'phone', message: 'Row 9: bad', phone: null, name: null }]);
  });

  it('an item can be marked sending only from queued or held, so it is never sent twice at once', () => {
    const id = job([item(0)]);
    store.moves.markSending(id, [1], SENT_MS);
    expect(store.reads.item(id, 1)).toMatchObject({ state: 'sending', attempts: 1 });
    expect(() => store.moves.markSending(id, [1], SENT_MS)).toThrow(/not ready to send/);
  });

  it('after a crash, items caught sending become uncertain', () => {
    const id = job([item(0), item(1)]);
    store.moves.markSending(id, [1], SENT_MS);
    expect(store.moves.recoverSending(id)).toBe(1);
    expect(store.reads.item(id, 1)?.state).toBe('uncertain');
    expect(store.reads.item(id, 2)?.state).toBe('queued');
  });

  it('one log entry can settle only one item', () => {
    const id = job([item(0), item(0, { rowNumber: 3 })]);
    store.moves.markSending(id, [1], SENT_MS);
    store.moves.recoverSending(id);
    store.moves.markSending(id, [2], SENT_MS);
    store.moves.recoverSending(id);
    expect(store.moves.claimFromLog(id, 1, 'ATM-1', 'success', 'log: phone, amount and time')).toBe(true);
    expect(store.reads.isReferenceClaimed('ATM-1')).toBe(true);
    expect(store.moves.claimFromLog(id, 2, 'ATM-1', 'success', 'log: phone, amount and time')).toBe(false);
    expect(store.reads.item(id, 2)?.state).toBe('uncertain');
  });

  it('counts what was spent since a time for the daily cap: sending, accepted, uncertain, successful and pending items', () => {
    const id = job([item(0), item(1), item(2), item(3)]);
    store.moves.markSending(id, [1, 2, 3, 4], SENT_MS);
    store.moves.accept(
      id,
      [
        { seq: 1, reference: 'R1' },
        { seq: 3, reference: 'R3' },
      ],
      null,
    );
    store.moves.refuse(id, [2], 'no');
    store.moves.outcome(id, 3, 'failed', 'refunded', 'log');
    expect(store.reads.spentSince('sandbox', SENT_MS - 60_000)).toBe(200_00);
    // Uncertain: maybe bought, so it still counts.
    store.moves.uncertain(id, [4], 'no answer');
    expect(store.reads.spentSince('sandbox', SENT_MS - 60_000)).toBe(200_00);
    // A single purchase (a one-item job) left uncertain counts too.
    const single = store.lifecycle.createSingleJob(
      'airtime',
      { profileId: 'sandbox', kind: 'sandbox', baseUrl: 'http://127.0.0.1:1' },
      'MTN airtime for x',
      item(9, { amountKobo: 250_00 }),
    );
    store.moves.markSending(single, [1], SENT_MS);
    store.moves.recoverSending(single);
    expect(store.reads.spentSince('sandbox', SENT_MS - 60_000)).toBe(450_00);
    expect(store.reads.spentSince('sandbox', SENT_MS + 60_000)).toBe(0);
    // Another connection's jobs never count toward this one's cap.
    expect(store.reads.spentSince('other-profile', SENT_MS - 60_000)).toBe(0);
  });

  it('busy keys hold back an item whose phone and amount is in progress', () => {
    const id = job([item(0), item(1)]);
    store.moves.markSending(id, [1], SENT_MS);
    expect([...store.moves.busyKeys(id)]).toEqual([`${item(0).phone}|10000`]);
  });
});

describe('bulk settings', () => {
  it('defaults, clamps and keeps caps in kobo (null = no cap)', () => {
    const settings = new Settings(db);
    expect(readBulkSettings(settings, 'sandbox')).toMatchObject({ batchSize: 50, concurrency: 3, capPerJobKobo: null, capPerDayKobo: null, uncertainSafeDelaySeconds: 120 });
    const next = writeBulkSettings(settings, 'sandbox', { batchSize: 500, concurrency: 0, capPerDayKobo: 5_000_000 });
    expect(next).toMatchObject({ batchSize: 100, concurrency: 1, capPerDayKobo: 5_000_000 });
    expect(writeBulkSettings(settings, 'sandbox', { capPerDayKobo: null }).capPerDayKobo).toBeNull();
  });

  it('are per connection: a cap set on one connection does not change another', () => {
    const settings = new Settings(db);
    writeBulkSettings(settings, 'live-a', { capPerJobKobo: 1_000_00, batchSize: 10 });
    expect(readBulkSettings(settings, 'live-a')).toMatchObject({ capPerJobKobo: 1_000_00, batchSize: 10 });
    expect(readBulkSettings(settings, 'sandbox')).toMatchObject({ capPerJobKobo: null, batchSize: 50 });
  });
});

describe('items from a validation', () => {
  const row = (r: number, phone: string): ValidRow => ({
    row: r,
    phone,
    network: 'MTN',
    amountKobo: 100_00,
    productCode: 'MTN-VTU',
    voucherCode: 'V',
    dataValue: null,
    operator: 'op',
    region: '',
    description: null,
    name: null,
    reference: 'ref',
    costCentre: null,
    meter: null,
    disco: null,
    vendType: null,
    smartcard: null,
    provider: null,
    bouquetCode: null,
    warnings: [],
  });

  it('leaves repeats and recent duplicates out unless kept, and says why', () => {
    const result: ValidationResult = {
      kind: 'airtime',
      valid: [row(2, '08031000001'), row(3, '08031000001'), row(4, '08031000002')],
      invalid: [],
      duplicates: [
        { kind: 'in_file', rows: [2, 3], account: '08031000001', amountKobo: 100_00, productCode: 'MTN-VTU', message: '' },
        { kind: 'recent', row: 4, account: '08031000002', amountKobo: 100_00, matches: [], message: 'Row 4: 08031000002 already had ₦100.00 bought in the last 24 hours' },
      ],
      networkConflicts: [],
      totalRows: [],
      totalKobo: 300_00,
      counts: { rows: 3, valid: 3, invalid: 0, duplicateRows: 3, warnings: 0 },
      errors: [],
    };
    const items = [...itemsFromValidation(result, false)];
    expect(items.map((i) => [i.rowNumber, i.state, i.duplicateOf])).toEqual([
      [2, 'queued', null],
      [3, 'excluded', 'Same purchase as row 2 of this file'],
      [4, 'excluded', '08031000002 already had ₦100.00 bought in the last 24 hours'],
    ]);
    expect([...itemsFromValidation(result, true)].every((i) => i.state === 'queued')).toBe(true);
    expect(items[0]).toMatchObject({ voucherCode: 'V', operator: 'op', note: 'ref' });
  });
});
