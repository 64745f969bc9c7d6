import { describe, expect, it } from 'vitest';
import { reconcileEntries, type LocalSubmission } from '../../../src/main/reconcile/categorizeEntries';
import { columnsFromEntries, type PlainEntry } from '../../../src/main/reconcile/logColumns';
import type { BalanceSnapshot, MessagingCharge } from '../../../src/main/reconcile/walletRollForward';
import { EXCEPTION_CATEGORIES, rollForwardLines, type ReconcileCategory } from '../../../src/shared/contract/reconcile';

const DAY = Date.parse('2026-03-02T00:00:00.000Z');
const at = (minutes: number) => new Date(DAY + minutes * 60_000).toISOString();

let nextId = 1000;
function entry(over: Partial<PlainEntry> & { minute?: number } = {}): PlainEntry {
  const id = nextId++;
  const { minute = 60, ...rest } = over;
  return {
    transactionId: `TX${id}`,
    id,
    amountKobo: 100_000,
    costKobo: 97_000,
    status: 'SUCCESS',
    createdAt: at(minute),
    updatedAt: at(minute),
    phone: `0803${String(id).padStart(7, '0')}`,
    type: 'AIRTIME',
    product: 'MTN-VTU',
    network: 'MTN',
    ...rest,
  };
}

function run(exportEntries: PlainEntry[], mirrorEntries: PlainEntry[], extra: { local?: LocalSubmission[]; snapshots?: BalanceSnapshot[]; messaging?: MessagingCharge[] } = {}) {
  return reconcileEntries({
    exp: columnsFromEntries(exportEntries),
    mir: columnsFromEntries(mirrorEntries),
    local: extra.local ?? [],
    snapshots: extra.snapshots ?? [],
    messaging: extra.messaging ?? [],
    rangeStartMs: DAY,
    rangeEndMs: DAY + 86_400_000,
    matchWindowMs: 15 * 60_000,
    duplicateWindowMs: 10 * 60_000,
  });
}

/** Counts of every exception category, so a test also sees that nothing else was reported. */
function exceptions(outcome: ReturnType<typeof run>): Partial<Record<ReconcileCategory, number>> {
  const out: Partial<Record<ReconcileCategory, number>> = {};
  for (const c of EXCEPTION_CATEGORIES) if (outcome.totals[c].count > 0) out[c] = outcome.totals[c].count;
  return out;
}

describe('matching', () => {
  it('pairs by transaction_id first and records the rule', () => {
    const a = entry();
    const b = entry();
    const outcome = run([a, b], [{ ...b }, { ...a }]);
    expect(outcome.totals.matched).toEqual({ count: 2, amountKobo: 200_000 });
    expect(outcome.matchedByRule).toEqual({ transaction_id: 2, id: 0, phone_amount_time: 0 });
    expect(exceptions(outcome)).toEqual({});
  });

  it('falls back to the id when the export has no transaction_id', () => {
    const a = entry();
    const outcome = run([{ ...a, transactionId: '' }], [a]);
    expect(outcome.matchedByRule).toEqual({ transaction_id: 0, id: 1, phone_amount_time: 0 });
    expect(exceptions(outcome)).toEqual({});
  });

  it('does not pair by id when the references say they are different transactions', () => {
    const a = entry();
    const outcome = run([{ ...a, transactionId: 'OTHER' }], [a]);
    expect(exceptions(outcome)).toEqual({ missingLocally: 1, missingInExport: 1 });
  });

  it('pairs by phone, amount and nearest time within the window when references are missing', () => {
    const a = entry({ minute: 100 });
    const far = entry({ minute: 300, phone: a.phone });
    const outcome = run([{ ...a, transactionId: '', id: null, createdAt: at(104) }], [far, { ...a, transactionId: 'M1', id: 1 }]);
    expect(outcome.matchedByRule.phone_amount_time).toBe(1);
    expect(exceptions(outcome)).toEqual({ missingInExport: 1 });
    expect(outcome.items[0].transactionId).toBe(far.transactionId);
  });

  it('leaves rows apart when the time is outside the window', () => {
    const a = entry({ minute: 100 });
    const outcome = run([{ ...a, transactionId: '', id: null, createdAt: at(130) }], [a]);
    expect(exceptions(outcome)).toEqual({ missingLocally: 1, missingInExport: 1 });
  });
});

describe('categories', () => {
  it('finds each mismatch and nothing else', () => {
    const ok = entry();
    const amount = entry();
    const cost = entry();
    const status = entry({ status: 'FAILED' });
    const pending = entry({ status: 'PENDING' });
    const onlyExport = entry();
    const onlyMirror = entry();
    const outcome = run(
      [ok, { ...amount, amountKobo: 150_000 }, { ...cost, costKobo: 99_000 }, { ...status, status: 'SUCCESS' }, { ...pending, status: 'PENDING' }, onlyExport],
      [ok, amount, cost, status, pending, onlyMirror],
    );
    expect(exceptions(outcome)).toEqual({ amountMismatch: 2, statusMismatch: 1, pending: 1, missingLocally: 1, missingInExport: 1 });
    expect(outcome.totals.matched.count).toBe(1);
    expect(outcome.totals.amountMismatch.amountKobo).toBe(250_000);
    const statusItem = outcome.items.find((i) => i.category === 'statusMismatch');
    expect(statusItem).toMatchObject({ exportStatus: 'SUCCESS', mirrorStatus: 'FAILED', transactionId: status.transactionId });
    expect(statusItem?.detail).toMatch(/export says SUCCESS but the mirror says FAILED/);
  });

  it('leaves export rows outside the range out and says how many', () => {
    const inside = entry();
    const before = entry({ minute: -30 });
    const outcome = run([inside, before], [inside]);
    expect(outcome.exportOutsideRange).toBe(1);
    expect(exceptions(outcome)).toEqual({});
  });

  it('reports a purchase vendesk sent that neither side has as a lost submission', () => {
    const sold = entry();
    const local: LocalSubmission[] = [
      {
        localRef: 'bulk:J1/1',
        reference: sold.transactionId,
        phone: sold.phone,
        amountKobo: 100_000,
        type: 'AIRTIME',
        product: 'MTN-VTU',
        state: 'success',
        sentMs: Date.parse(sold.createdAt ?? ''),
        refundMissing: false,
      },
      {
        localRef: 'bulk:J1/2',
        reference: 'REF-NOWHERE',
        phone: '08030000001',
        amountKobo: 50_000,
        type: 'AIRTIME',
        product: 'MTN-VTU',
        state: 'accepted',
        sentMs: DAY + 3_600_000,
        refundMissing: false,
      },
      {
        localRef: 'bulk:J1/3',
        reference: null,
        phone: '08030000002',
        amountKobo: 50_000,
        type: 'AIRTIME',
        product: 'MTN-VTU',
        state: 'rejected',
        sentMs: DAY + 3_600_000,
        refundMissing: false,
      },
    ];
    const outcome = run([sold], [sold], { local });
    expect(exceptions(outcome)).toEqual({ lostSubmissions: 1 });
    expect(outcome.items[0]).toMatchObject({ localRef: 'bulk:J1/2', transactionId: 'REF-NOWHERE', amountKobo: 50_000 });
  });

  it("names vendesk's record and state on every paired item it sent, by the log's transaction_id", () => {
    const bulkItem = entry();
    const purchase = entry({ type: 'ELECTRICITY', status: 'PENDING' });
    const byId = entry();
    const notOurs = entry();
    const sent = (localRef: string, e: PlainEntry, state: string): LocalSubmission => ({
      localRef,
      reference: e.transactionId,
      phone: e.phone,
      amountKobo: e.amountKobo,
      type: e.type,
      product: e.product,
      state,
      sentMs: Date.parse(e.createdAt ?? ''),
      refundMissing: false,
    });
    const local = [sent('bulk:J1/4', bulkItem, 'success'), sent('purchase:P1', purchase, 'pending'), sent('bulk:J2/2', byId, 'success')];
    const outcome = run(
      // The export has the bulk item at another amount, and lost the transaction_id of the third (paired by id).
      [{ ...bulkItem, amountKobo: 120_000 }, purchase, { ...byId, transactionId: '', costKobo: 1 }, { ...notOurs, status: 'FAILED' }],
      [bulkItem, purchase, byId, notOurs],
      { local },
    );
    expect(exceptions(outcome)).toEqual({ amountMismatch: 2, pending: 1, statusMismatch: 1 });
    const item = (tx: string) => outcome.items.find((i) => i.transactionId === tx);
    expect(item(bulkItem.transactionId)).toMatchObject({ category: 'amountMismatch', localRef: 'bulk:J1/4', localState: 'success' });
    expect(item(purchase.transactionId)).toMatchObject({ category: 'pending', localRef: 'purchase:P1', localState: 'pending' });
    expect(item(byId.transactionId)).toMatchObject({ category: 'amountMismatch', rule: 'id', localRef: 'bulk:J2/2', localState: 'success' });
    expect(item(notOurs.transactionId)).toMatchObject({ category: 'statusMismatch', localRef: null, localState: null });
  });

  it('flags a second charge for the same phone, amount and type where vendesk asked once', () => {
    const first = entry({ minute: 100 });
    const second = entry({ minute: 102, phone: first.phone });
    const later = entry({ minute: 200, phone: first.phone });
    const local: LocalSubmission[] = [
      {
        localRef: 'bulk:J1/1',
        reference: first.transactionId,
        phone: first.phone,
        amountKobo: 100_000,
        type: 'AIRTIME',
        product: 'MTN-VTU',
        state: 'success',
        sentMs: DAY + 100 * 60_000,
        refundMissing: false,
      },
    ];
    const outcome = run([first, second, later], [first, second, later], { local });
    expect(exceptions(outcome)).toEqual({ duplicateCharges: 1 });
    expect(outcome.items[0].transactionId).toBe(second.transactionId);
  });
});

describe('wallet roll-forward', () => {
  const snap = (minute: number, naira: number): BalanceSnapshot => ({ atMs: DAY + minute * 60_000, balanceKobo: naira * 100 });

  it('explains the wallet from opening to closing with spend and refunds', () => {
    const ok = entry({ minute: 10, costKobo: 97_000 });
    const failed = entry({ minute: 20, status: 'FAILED', costKobo: 48_500, amountKobo: 50_000 });
    const outcome = run([ok, failed], [ok, failed], { snapshots: [snap(0, 10_000), snap(30, 9_030)] });
    const rf = outcome.rollForward;
    expect(rf).toMatchObject({
      available: true,
      openingKobo: 1_000_000,
      closingKobo: 903_000,
      successfulSpendKobo: 97_000,
      failedDebitsKobo: 48_500,
      refundsKobo: 48_500,
      expectedClosingKobo: 903_000,
      differenceKobo: 0,
      unexplainedKobo: 0,
    });
    expect(exceptions(outcome)).toEqual({});
  });

  it('names a failed purchase whose refund never reached the wallet', () => {
    const ok = entry({ minute: 10 });
    const failed = entry({ minute: 20, status: 'FAILED', costKobo: 48_500, amountKobo: 50_000 });
    // 10,000 − 970 (ok) − 485 (failed, debited) and no refund: 8,545.
    const outcome = run([ok, failed], [ok, failed], { snapshots: [snap(0, 10_000), snap(15, 9_030), snap(30, 8_545)] });
    expect(exceptions(outcome)).toEqual({ missingRefunds: 1 });
    expect(outcome.items[0]).toMatchObject({ transactionId: failed.transactionId, category: 'missingRefunds' });
    expect(outcome.rollForward).toMatchObject({ differenceKobo: -48_500, missingRefundsKobo: -48_500, unexplainedKobo: 0 });
  });

  it('shows a difference nothing explains, never hides it', () => {
    const ok = entry({ minute: 10 });
    const outcome = run([ok], [ok], { snapshots: [snap(0, 10_000), snap(30, 14_030)] });
    expect(outcome.rollForward).toMatchObject({ available: true, differenceKobo: 500_000, unexplainedKobo: 500_000 });
  });

  it("explains vendesk's own messaging charges on their own line, so a range where only vendesk moved the wallet leaves nothing unexplained", () => {
    const ok = entry({ minute: 10, costKobo: 97_000 });
    const sms = Array.from({ length: 11 }, (_, i) => ({ kobo: 400, fromMs: DAY + (12 + i) * 60_000, toMs: DAY + (12 + i) * 60_000 + 999, uncertain: false }));
    // 10,000 − 970 − 11 × 4 = 8,986
    const outcome = run([ok], [ok], { snapshots: [snap(0, 10_000), snap(30, 8_986)], messaging: sms });
    expect(outcome.rollForward).toMatchObject({ available: true, successfulSpendKobo: 97_000, messagingKobo: 4_400, messagingCharges: 11, differenceKobo: 0, unexplainedKobo: 0 });
  });

  it('says how many messaging charges are at the quoted cost, because the service did not say what it charged', () => {
    const sms = [
      { kobo: 400, fromMs: DAY + 12 * 60_000, toMs: DAY + 12 * 60_000 + 999, uncertain: false },
      { kobo: 800, fromMs: DAY + 13 * 60_000, toMs: DAY + 13 * 60_000 + 999, uncertain: false, asQuoted: true },
    ];
    const outcome = run([], [], { snapshots: [snap(0, 10_000), snap(30, 9_988)], messaging: sms });
    expect(outcome.rollForward).toMatchObject({ messagingKobo: 1_200, messagingCharges: 2, messagingAsQuoted: 1, unexplainedKobo: 0 });
    expect(rollForwardLines(outcome.rollForward).find((l) => l.label.startsWith('− vendesk'))?.label).toBe(
      "− vendesk's own messaging (2 SMS, email copies or codes; 1 at the quoted cost — the service did not say what it charged)",
    );
  });

  it('works between two readings inside the range when none predates it', () => {
    const ok = entry({ minute: 40, costKobo: 97_000 });
    const outcome = run([ok], [ok], { snapshots: [snap(30, 10_000), snap(50, 9_030)] });
    expect(outcome.rollForward).toMatchObject({ available: true, openingKobo: 1_000_000, closingKobo: 903_000, unexplainedKobo: 0 });
  });

  it('places a refund stamped inside a reading’s second by what the balance already holds, not by the clock alone', () => {
    const failed = entry({ minute: 10, status: 'FAILED', costKobo: 48_500, amountKobo: 50_000, updatedAt: new Date(DAY + 30 * 60_000 + 600).toISOString() });
    // The closing reading's answer said 00:30:00 (its Date header); the refund at 00:30:00.600 is already in it.
    const closing: BalanceSnapshot = { atMs: DAY + 30 * 60_000, toMs: DAY + 30 * 60_000 + 999, balanceKobo: 1_000_000 };
    const outcome = run([failed], [failed], { snapshots: [snap(0, 10_000), closing] });
    expect(outcome.rollForward).toMatchObject({ available: true, failedDebitsKobo: 48_500, refundsKobo: 48_500, differenceKobo: 0, unexplainedKobo: 0, placedByBalance: 1 });
    expect(exceptions(outcome)).toEqual({});
  });

  it('counts a message whose answer was lost only if the balance shows it was charged', () => {
    const lost = { kobo: 800, fromMs: DAY + 5 * 60_000, toMs: DAY + 5 * 60_000 + 30_000, uncertain: true };
    const charged = run([], [], { snapshots: [snap(0, 10_000), snap(30, 9_992)], messaging: [lost] });
    expect(charged.rollForward).toMatchObject({ messagingKobo: 800, unexplainedKobo: 0 });
    const notCharged = run([], [], { snapshots: [snap(0, 10_000), snap(30, 10_000)], messaging: [lost] });
    expect(notCharged.rollForward).toMatchObject({ messagingKobo: 0, unexplainedKobo: 0 });
  });

  it('says why when there are no snapshots to roll forward from', () => {
    const outcome = run([entry()], []);
    expect(outcome.rollForward.available).toBe(false);
    expect(outcome.rollForward.note).toMatch(/Sync the mirror/);
  });
});
