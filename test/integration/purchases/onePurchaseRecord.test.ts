/**
 * One purchase record (issue 27): a single electricity or cable purchase is a job of one item, as
 * a single top-up and a bulk row are, its `purchases` row the vending detail linked to the item.
 * What the user reads stays as it was: the receipt, the purchase list, Reconcile's name for it;
 * the bulk jobs and the airtime and data lists do not show it. Purchases bought before are given
 * their job by migration 23. Figures are read from the service's log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLocalSubmissions } from '../../../src/main/reconcile/localSubmissions';
import { acrossMigration } from '../../support/databaseBefore';
import { refusal as refusalOf } from '../../support/refusal';
import { holdMethod } from '../../support/heldAnswer';
import { sandboxLog, sandboxWalletKobo } from '../../support/sandboxRecords';
import { until } from '../../support/until';
import type { TestApp } from '../../support/testApp';
import { PHONE, account, advanceClocks, serviceLogEntry, startPurchaseTestApp } from './purchaseHelpers';
import { receiptOf } from '../../support/receiptOf';

interface Record {
  origin: string;
  kind: string;
  job: string;
  item: string;
  reference: string | null;
  account: string;
  amount_kobo: number;
}

describe('a single electricity or cable purchase is one record with the bulk rows', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startPurchaseTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const recordOf = (purchaseId: string): Record[] =>
    t.app.db
      .prepare(
        `SELECT j.origin, j.kind, j.state AS job, b.state AS item, b.reference, b.account, b.amount_kobo FROM bulk_items b JOIN bulk_jobs j ON j.id = b.job_id WHERE b.purchase_id = ?`,
      )
      .all(purchaseId) as Record[];

  it('is a job of one item linked to its purchase, in the item state its answer means, and shown as before', async () => {
    const meter = account('1234');
    const p = await receiptOf(t.call('purchases.buyElectricity', { disco: 'IKEDC', meter, vendType: 'PREPAID', amountKobo: 400_000, phone: PHONE }));
    expect(p.state).toBe('success');
    const entry = await serviceLogEntry(t, p.reference as string);
    expect(entry?.status).toBe('SUCCESS');
    expect(recordOf(p.id)).toEqual([
      { origin: 'single', kind: 'electricity', job: 'completed', item: 'success', reference: entry?.transaction_id, account: meter, amount_kobo: 400_000 },
    ]);
    // Shown where it was: its receipt and the purchase list; not among bulk jobs nor airtime and data.
    expect((await t.call('purchases.get', { id: p.id })).token).toBe(p.token);
    expect((await t.call('purchases.recent', {})).map((x) => x.id)).toContain(p.id);
    const jobId = t.app.db.prepare('SELECT job_id FROM bulk_items WHERE purchase_id = ?').pluck().get(p.id) as string;
    expect((await t.call('bulk.list', { limit: 100 })).map((j) => j.id)).not.toContain(jobId);
    expect((await t.call('purchases.recentTopUps', {})).map((x) => x.id)).not.toContain(jobId);
    expect((await refusalOf(t.call('purchases.topUp', { id: jobId }))).code).toBe('purchase_not_found');
    // Nor is it a job anyone resumes: a single purchase is never sent later.
    expect((await refusalOf(t.call('bulk.resume', { jobId, wait: true }))).code).toBe('job_not_found');
    // Reconcile names it as the purchase it always was.
    const local = readLocalSubmissions(t.app.db, t.app.connection.profileId, 0, Number.MAX_SAFE_INTEGER).submissions.filter((s) => s.reference === p.reference);
    expect(local.map((s) => s.localRef)).toEqual([`purchase:${p.id}`]);
  });

  it('a pending purchase settled by the requery loop moves its item in the same write', async () => {
    const smartcard = account('0000');
    const cable = await t.call('purchases.cableProviders', {});
    const gotv = cable.find((c) => c.provider === 'GOTV')?.bouquets[0];
    const p = await receiptOf(t.call('purchases.buyCable', { provider: 'GOTV', smartcard, bouquetCode: gotv?.code as string, phone: PHONE }));
    expect(p.state).toBe('pending');
    expect(recordOf(p.id)).toMatchObject([{ origin: 'single', kind: 'cable', item: 'pending', account: smartcard }]);
    await advanceClocks(t, 125);
    await t.call('pending.requeryDue', {});
    expect((await t.call('purchases.get', { id: p.id })).state).toBe('success');
    expect((await serviceLogEntry(t, p.reference as string))?.status).toBe('SUCCESS');
    expect(recordOf(p.id)).toMatchObject([{ item: 'success', job: 'completed' }]);
  });

  /** The readings vendesk kept as a purchase's, oldest first. */
  const purchaseReadings = () =>
    t.app.db.prepare("SELECT balance_kobo AS balanceKobo, profile_id AS profileId FROM balance_snapshots WHERE source = 'purchase' ORDER BY id").all() as {
      balanceKobo: number;
      profileId: string;
    }[];

  it('keeps the wallet the service had just before it, with the purchase, on its own connection', async () => {
    const kept = purchaseReadings().length;
    const before = await sandboxWalletKobo(t);
    const p = await receiptOf(t.call('purchases.buyElectricity', { disco: 'IKEDC', meter: account('1234'), vendType: 'PREPAID', amountKobo: 300_000, phone: PHONE }));
    expect(p.refund.balanceBeforeKobo).toBe(before);
    // The next purchase reads the wallet as the service has it after the first one's charge.
    const between = await sandboxWalletKobo(t);
    expect(between).toBeLessThan(before);
    const q = await receiptOf(t.call('purchases.buyElectricity', { disco: 'IKEDC', meter: account('5678'), vendType: 'PREPAID', amountKobo: 200_000, phone: PHONE }));
    expect(q.refund.balanceBeforeKobo).toBe(between);
    expect(purchaseReadings().slice(kept)).toEqual([
      { balanceKobo: before, profileId: t.app.connection.profileId },
      { balanceKobo: between, profileId: t.app.connection.profileId },
    ]);
  });

  it('cancelled through its job before it is sent, buys nothing and says so in words', async () => {
    const meter = account('2345');
    const before = await sandboxWalletKobo(t);
    // The wallet read just before the purchase is written is held at the service's door.
    const atTheDoor = holdMethod(t.app.client(), 'accountBalance');
    const buying = refusalOf(t.call('purchases.buyElectricity', { disco: 'IKEDC', meter, vendType: 'PREPAID', amountKobo: 250_000, phone: PHONE }));
    let cancelling: Promise<unknown> = Promise.resolve();
    try {
      await until(() => atTheDoor.asked, 'the wallet read before the purchase');
      const jobId = t.app.db.prepare("SELECT job_id FROM bulk_items WHERE account = ? AND state = 'queued'").pluck().get(meter) as string;
      cancelling = t.call('bulk.cancel', { jobId });
      await until(() => t.app.db.prepare('SELECT state FROM bulk_items WHERE job_id = ?').pluck().get(jobId) === 'cancelled', 'the item to be cancelled');
    } finally {
      atTheDoor.release();
    }
    await cancelling;
    const refused = await buying;
    expect(refused.code).toBe('purchase_not_sent');
    expect(refused.message).toMatch(/cancelled before it was sent\. Nothing was bought\./);
    expect(refused.hint).toMatch(/Buy it again/);
    expect(t.app.db.prepare('SELECT count(*) FROM purchases WHERE account = ?').pluck().get(meter)).toBe(0);
    expect((await sandboxLog(t)).filter((e) => e.description.includes(meter))).toEqual([]);
    expect(await sandboxWalletKobo(t)).toBe(before);
  });

  it('refuses a duplicate of an unsettled purchase as before, and writes no record for it', async () => {
    const meter = account('0000');
    const first = await receiptOf(t.call('purchases.buyElectricity', { disco: 'IKEDC', meter, vendType: 'PREPAID', amountKobo: 300_000, phone: PHONE }));
    expect(first.state).toBe('pending');
    const jobs = () => t.app.db.prepare('SELECT COUNT(*) FROM bulk_items WHERE account = ?').pluck().get(meter);
    const again = await refusalOf(t.call('purchases.buyElectricity', { disco: 'IKEDC', meter, vendType: 'PREPAID', amountKobo: 300_000, phone: PHONE }));
    expect(again.code).toBe('duplicate_pending');
    expect(jobs()).toBe(1);
  });
});

describe('migration 23', () => {
  it('gives each single purchase bought before its one-item job, and leaves a bulk row as it is', () => {
    acrossMigration(
      23,
      (before) => {
        const at = '2026-11-20T10:00:00.000Z';
        const insert = before.prepare(
          `INSERT INTO purchases (id, kind, source, state, profile_id, connection_kind, base_url, provider_code, provider_name, account, vend_type, bouquet_code, bouquet_name,
           amount_kobo, phone, customer_name, reference, commission_kobo, settled_by, sent_ms, created_at, updated_at, final_at)
         VALUES (@id, @kind, @source, @state, 'sandbox', 'sandbox', 'http://127.0.0.1:1', @provider, @provider, @account, @vend, @bouquet, @bouquetName,
           @amount, '08031234567', 'ADA OBI', @reference, @commission, @settled, 1763632800000, '${at}', '${at}', @final)`,
        );
        insert.run({
          id: 'p-token',
          kind: 'electricity',
          source: 'single',
          state: 'success',
          provider: 'IKEDC',
          account: '45000011234',
          vend: 'PREPAID',
          bouquet: '',
          bouquetName: '',
          amount: 500_000,
          reference: 'ref-1',
          commission: 5_000,
          settled: 'answer',
          final: at,
        });
        insert.run({
          id: 'p-cable',
          kind: 'cable',
          source: 'single',
          state: 'needs_support',
          provider: 'GOTV',
          account: '7022345678',
          vend: null,
          bouquet: 'gotv-max',
          bouquetName: 'GOtv Max',
          amount: 720_000,
          reference: 'ref-2',
          commission: null,
          settled: null,
          final: null,
        });
        insert.run({
          id: 'p-row',
          kind: 'electricity',
          source: 'bulk',
          state: 'success',
          provider: 'IKEDC',
          account: '45000015678',
          vend: 'PREPAID',
          bouquet: '',
          bouquetName: '',
          amount: 300_000,
          reference: 'ref-3',
          commission: 3_000,
          settled: 'answer',
          final: at,
        });
      },
      (db) => {
        const rows = db
          .prepare(
            `SELECT b.purchase_id, j.origin, j.kind, j.state AS job, j.file_name, b.state, b.reference, b.account, b.vend_type, b.product_code, b.amount_kobo, b.cost_kobo, b.account_name, b.settled_by
               FROM bulk_items b JOIN bulk_jobs j ON j.id = b.job_id ORDER BY b.purchase_id`,
          )
          .all();
        expect(rows).toEqual([
          {
            purchase_id: 'p-cable',
            origin: 'single',
            kind: 'cable',
            job: 'completed',
            file_name: 'GOTV GOtv Max for 7022345678',
            state: 'pending',
            reference: 'ref-2',
            account: '7022345678',
            vend_type: null,
            product_code: 'gotv-max',
            amount_kobo: 720_000,
            cost_kobo: null,
            account_name: 'ADA OBI',
            settled_by: null,
          },
          {
            purchase_id: 'p-token',
            origin: 'single',
            kind: 'electricity',
            job: 'completed',
            file_name: 'IKEDC PREPAID electricity for 45000011234',
            state: 'success',
            reference: 'ref-1',
            account: '45000011234',
            vend_type: 'PREPAID',
            product_code: '',
            amount_kobo: 500_000,
            cost_kobo: 495_000,
            account_name: 'ADA OBI',
            settled_by: 'purchase: answer',
          },
        ]);
        // Reconcile still names each as its purchase.
        expect(
          readLocalSubmissions(db, 'sandbox', 0, Number.MAX_SAFE_INTEGER)
            .submissions.map((s) => s.localRef)
            .sort(),
        ).toEqual(['purchase:p-cable', 'purchase:p-row', 'purchase:p-token']);
      },
    );
  });
});
