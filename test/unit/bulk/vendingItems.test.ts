/**
 * Electricity and cable items: how a purchase's state reads on the job's row, and how an item
 * caught mid-send finds the purchase it was bought as (none: it was never sent).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { itemKey } from '../../../src/main/buying/itemMoves';
import { jobParts, type JobParts } from '../../../src/main/buying/jobLifecycle';
import { itemFromPurchase } from '../../../src/main/buying/vendingItems';
import { openDatabase, type Db } from '../../../src/main/store/database';

let db: Db;
let store: JobParts;

beforeEach(() => {
  db = openDatabase(':memory:');
  store = jobParts(db);
});
afterEach(() => db.close());

function meterJob(): string {
  return store.lifecycle.createJob(
    {
      kind: 'electricity',
      profileId: 'sandbox',
      connectionKind: 'sandbox',
      baseUrl: 'http://x',
      fileName: 'm.csv',
      fileHash: 'h',
      sheetName: null,
      headers: [],
      mapping: {},
      rowsTotal: 2,
      batchSize: 1,
      concurrency: 1,
    },
    [1, 2].map((i) => ({
      rowNumber: i + 1,
      phone: '08031234567',
      network: 'IKEDC',
      productCode: 'IKEDC',
      voucherCode: '',
      operator: '',
      region: '',
      dataValue: null,
      description: 'Ikeja Electric',
      amountKobo: 5000_00,
      name: '',
      note: '',
      givenNetwork: null,
      prefixNetwork: null,
      duplicateOf: null,
      state: 'queued' as const,
      account: `4501234567${i}`,
      vendType: 'PREPAID',
    })),
    [],
  );
}

function insertPurchase(id: string, account: string, state: string, createdAt: string): void {
  db.prepare(
    `INSERT INTO purchases (id, kind, source, state, profile_id, connection_kind, base_url, provider_code, provider_name, account, vend_type, amount_kobo, phone, created_at, updated_at)
     VALUES (?, 'electricity', 'bulk', ?, 'sandbox', 'sandbox', 'http://x', 'IKEDC', 'Ikeja Electric', ?, 'PREPAID', 500000, '08031234567', ?, ?)`,
  ).run(id, state, account, createdAt, createdAt);
}

describe('electricity and cable items', () => {
  it('read each purchase state as the row outcome a user understands', () => {
    expect(itemFromPurchase({ state: 'success', reason: null, hint: null, refund_state: 'not_applicable' })).toEqual({ state: 'success', reason: null });
    expect(itemFromPurchase({ state: 'failed', reason: 'declined by provider', hint: null, refund_state: 'confirmed' })?.reason).toBe(
      'declined by provider. Refunded: the service records it as FAILED and gives the money back automatically.',
    );
    expect(itemFromPurchase({ state: 'rejected', reason: 'vendType does not match', hint: null, refund_state: 'not_applicable' })?.reason).toMatch(/Nothing was charged/);
    expect(itemFromPurchase({ state: 'needs_support', reason: null, hint: null, refund_state: 'not_applicable' })?.state).toBe('pending');
    expect(itemFromPurchase({ state: 'uncertain', reason: null, hint: null, refund_state: 'not_applicable' })?.reason).toMatch(/never sent again/);
    // A purchase still being sent is the runner's to follow.
    expect(itemFromPurchase({ state: 'sending', reason: null, hint: null, refund_state: 'not_applicable' })).toBeNull();
  });

  it('keep two rows of one meter and amount apart, whatever the phone', () => {
    expect(itemKey({ phone: '08031234567', amount_kobo: 100, account: '45012345671' })).not.toBe(itemKey({ phone: '08031234567', amount_kobo: 100, account: '45012345672' }));
    expect(itemKey({ phone: '08031234567', amount_kobo: 100, account: '45012345671' })).toBe(itemKey({ phone: '08039999999', amount_kobo: 100, account: '45012345671' }));
  });

  it('find the purchase a row caught mid-send was bought as, never one from before it or owned by another row', () => {
    const jobId = meterJob();
    const sentMs = Date.parse('2026-04-01T10:00:00.000Z');
    // Caught mid-send by a vendesk that stopped: marked sending, then uncertain when its run began again.
    store.moves.markSending(jobId, [1, 2], sentMs);
    store.moves.recoverSending(jobId);
    const [first, second] = store.reads.items(jobId);
    expect(store.reads.findUnlinkedPurchase('electricity', first)).toBeNull(); // no purchase: never sent

    insertPurchase('P-OLD', first.account as string, 'success', '2026-04-01T09:00:00.000Z'); // an hour before: not this row's
    expect(store.reads.findUnlinkedPurchase('electricity', first)).toBeNull();

    insertPurchase('P-NEW', first.account as string, 'sending', '2026-04-01T10:00:00.500Z');
    expect(store.reads.findUnlinkedPurchase('electricity', first)).toEqual({ id: 'P-NEW' });
    expect(store.reads.findUnlinkedPurchase('electricity', second)).toBeNull(); // another meter

    store.moves.linkPurchase(jobId, first.seq, 'P-NEW');
    db.prepare("UPDATE purchases SET state = 'pending', reference = 'REF1' WHERE id = 'P-NEW'").run();
    expect(store.moves.syncFromPurchases(jobId, itemFromPurchase)).toBe(1);
    expect(store.reads.item(jobId, first.seq)).toMatchObject({ state: 'pending', reference: 'REF1', purchase_id: 'P-NEW' });
    expect(store.moves.syncFromPurchases(jobId, itemFromPurchase)).toBe(0);
    // Linked now: it is no longer free for another row.
    expect(store.reads.findUnlinkedPurchase('electricity', first)).toBeNull();
  });
});
