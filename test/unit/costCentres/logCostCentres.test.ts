/**
 * The `log_cost_centres` view gives every mirrored entry one cost centre, by the rule its docblock
 * states: vendesk's own purchase's, else the recipients list's (meter or smartcard, then phone),
 * else Unassigned — and an own purchase of another connection never lends its cost centre.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { ParsedLogEntry } from '../../../src/main/api/parseLogEntry';
import { upsertLogEntriesInTransaction } from '../../../src/main/transactions/logStore';
import { openDatabase, type Db } from '../../../src/main/store/database';
import { generateLogEntries } from '../../../bench/generate/logEntries';
import { spendByCostCentre } from '../../../src/main/costCentres/logCostCentres';

let db: Db;
beforeEach(() => {
  db = openDatabase(':memory:');
});
afterEach(() => db.close());

function entry(id: number, over: Partial<ParsedLogEntry>): ParsedLogEntry {
  return { ...[...generateLogEntries(1, id)][0], id, status: 'SUCCESS', createdAt: '2026-10-05T10:00:00.000Z', ...over };
}

function job(id: string, profile: string): void {
  db.prepare(
    `INSERT INTO bulk_jobs (id, kind, state, profile_id, connection_kind, base_url, file_name, file_hash, headers_json, mapping_json, rows_total, invalid_count, batch_size, concurrency, created_at, updated_at)
     VALUES (?, 'airtime', 'completed', ?, 'sandbox', '', 'f.csv', '', '[]', '{}', 1, 0, 1, 1, '', '')`,
  ).run(id, profile);
}

function item(jobId: string, seq: number, reference: string, costCentre: string | null): void {
  db.prepare(
    `INSERT INTO bulk_items (job_id, seq, row_number, phone, network, product_code, amount_kobo, state, reference, updated_at, cost_centre)
     VALUES (?, ?, ?, '08030000000', 'MTN', '', 10000, 'success', ?, '', ?)`,
  ).run(jobId, seq, seq, reference, costCentre);
}

function recipient(kind: string, identifier: string, costCentre: string, name = ''): void {
  db.prepare(`INSERT INTO recipients (kind, identifier, name, cost_centre, updated_at) VALUES (?, ?, ?, ?, '')`).run(kind, identifier, name, costCentre);
}

it('follows the rule: own purchase, then meter or smartcard, then phone, then Unassigned', () => {
  upsertLogEntriesInTransaction(
    db,
    'p1',
    [
      entry(1, { transactionId: 'R1', phoneNumber: '08031111111', type: 'AIRTIME', amountKobo: 10000 }),
      entry(2, { transactionId: 'R2', phoneNumber: '08031111111', type: 'AIRTIME', amountKobo: 20000 }),
      entry(3, { transactionId: 'R3', phoneNumber: '08032222222', type: 'ELECTRICITY', description: 'ikeja-electric PREPAID 5000.00 for meter 45012345678' }),
      entry(4, { transactionId: 'R4', phoneNumber: '08033333333', type: 'CABLETV', description: 'DStv Compact for smartcard 7012345678' }),
      entry(5, { transactionId: 'R5', phoneNumber: '08034444444', type: 'DATA' }),
      entry(6, { transactionId: 'R6', phoneNumber: '08031111111', type: 'AIRTIME' }),
    ],
    '2026-10-05T11:00:00.000Z',
  );
  job('j1', 'p1');
  job('j2', 'p2');
  item('j1', 1, 'R1', 'Sales');
  item('j1', 2, 'R6', null); // own purchase with no cost centre: the list's rule applies
  item('j2', 1, 'R2', 'Other connection'); // same reference, another connection: not this entry's purchase
  recipient('phone', '08031111111', 'Field team', 'Ada');
  recipient('phone', '08032222222', 'Wrong: the meter rule comes first');
  recipient('meter', '45012345678', 'Facilities', 'Head office');
  recipient('smartcard', '7012345678', 'Reception');

  const rows = db.prepare('SELECT id, cost_centre, cost_centre_source, recipient_name FROM log_cost_centres WHERE profile_id = ? ORDER BY id').all('p1');
  expect(rows).toEqual([
    { id: 1, cost_centre: 'Sales', cost_centre_source: 'purchase', recipient_name: 'Ada' },
    { id: 2, cost_centre: 'Field team', cost_centre_source: 'recipient', recipient_name: 'Ada' },
    { id: 3, cost_centre: 'Facilities', cost_centre_source: 'recipient', recipient_name: 'Head office' },
    { id: 4, cost_centre: 'Reception', cost_centre_source: 'recipient', recipient_name: '' },
    { id: 5, cost_centre: 'Unassigned', cost_centre_source: 'unassigned', recipient_name: null },
    { id: 6, cost_centre: 'Field team', cost_centre_source: 'recipient', recipient_name: 'Ada' },
  ]);
  expect(db.prepare('SELECT count(*) FROM log_cost_centres').pluck().get()).toBe(6);

  const lines = spendByCostCentre(db, 'p1', '2026-10-01T00:00:00.000Z', '2026-11-01T00:00:00.000Z');
  expect(lines.map((l) => [l.costCentre, l.type, l.purchases])).toEqual([
    ['Facilities', 'ELECTRICITY', 1],
    ['Field team', 'AIRTIME', 2],
    ['Reception', 'CABLETV', 1],
    ['Sales', 'AIRTIME', 1],
    ['Unassigned', 'DATA', 1],
  ]);
});
