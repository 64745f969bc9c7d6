import { describe, expect, it } from 'vitest';
import { localItem, pairItem, type LocalSubmission } from '../../../src/main/reconcile/reconcileItemDrafts';
import { columnsFromEntries, type PlainEntry } from '../../../src/main/reconcile/logColumns';

/**
 * The item a finance person reads on the Reconcile page for each finding: its figures from each
 * side and the sentence that says what it means and what to do. Written out by hand.
 */
const base: PlainEntry = {
  transactionId: 'TX-7001',
  id: 7001,
  amountKobo: 100_000,
  costKobo: 97_000,
  status: 'SUCCESS',
  createdAt: '2026-03-02T09:15:00.000Z',
  updatedAt: '2026-03-02T09:15:00.000Z',
  phone: '08031234567',
  type: 'AIRTIME',
  product: 'MTN-VTU',
  network: 'MTN',
};
const cols = (over: Partial<PlainEntry> = {}) => columnsFromEntries([{ ...base, ...over }]);

describe('the item of an export row or a mirror entry', () => {
  it('a charge the mirror does not have: figures from the export only', () => {
    const item = pairItem('missingLocally', cols({ rowNumber: 14 }), 0, null, 0, 0, null, null);
    expect(item).toEqual({
      category: 'missingLocally',
      rule: null,
      exportRow: 14,
      transactionId: 'TX-7001',
      logId: 7001,
      phone: '08031234567',
      type: 'AIRTIME',
      product: 'MTN-VTU',
      network: 'MTN',
      createdAt: '2026-03-02T09:15:00.000Z',
      exportAmountKobo: 100_000,
      mirrorAmountKobo: null,
      exportCostKobo: 97_000,
      mirrorCostKobo: null,
      exportStatus: 'SUCCESS',
      mirrorStatus: null,
      localRef: null,
      localState: null,
      amountKobo: 100_000,
      detail:
        'The vendor charged this but the local mirror does not have it. Sync the mirror (Transactions → Sync) and reconcile again; if it is still missing, ask the vendor for the transaction details.',
    });
  });

  it('an entry the export leaves out: figures from the mirror, and what vendesk sent', () => {
    const sent: LocalSubmission = {
      localRef: 'bulk:12/3',
      reference: 'TX-7001',
      phone: '08031234567',
      amountKobo: 100_000,
      type: 'AIRTIME',
      product: 'MTN-VTU',
      state: 'success',
      sentMs: 0,
      refundMissing: false,
    };
    const item = pairItem('missingInExport', null, 0, cols({ costKobo: Number.NaN }), 0, 0, null, sent);
    expect(item).toMatchObject({
      exportRow: null,
      transactionId: 'TX-7001',
      logId: 7001,
      exportAmountKobo: null,
      mirrorAmountKobo: 100_000,
      mirrorCostKobo: null,
      exportStatus: null,
      mirrorStatus: 'SUCCESS',
      localRef: 'bulk:12/3',
      localState: 'success',
    });
    expect(item.detail).toBe(
      'The local mirror has this entry but the vendor export does not. Check that the export covers the whole range and every status; otherwise ask the vendor why it is left out.',
    );
  });

  it('a pair whose figures differ names each figure that differs, and the rule that paired them', () => {
    const both = pairItem('amountMismatch', cols({ amountKobo: 150_000, costKobo: 99_000, transactionId: '' }), 0, cols(), 0, 2, null, null);
    expect(both.rule).toBe('id');
    expect(both.transactionId).toBe('TX-7001'); // the export had none: the mirror's
    expect(both.detail).toBe(
      'The vendor charged a different figure: amount ₦1,500.00 in the export, ₦1,000.00 locally; cost ₦990.00 in the export, ₦970.00 locally. Raise it with the vendor with the transaction id.',
    );
    const costOnly = pairItem('amountMismatch', cols({ costKobo: 99_000 }), 0, cols(), 0, 1, null, null);
    expect(costOnly.rule).toBe('transaction_id');
    expect(costOnly.detail).toBe('The vendor charged a different figure: cost ₦990.00 in the export, ₦970.00 locally. Raise it with the vendor with the transaction id.');
    const amountOnly = pairItem('amountMismatch', cols({ amountKobo: 120_000, costKobo: Number.NaN }), 0, cols(), 0, 3, null, null);
    expect(amountOnly.rule).toBe('phone_amount_time');
    expect(amountOnly.detail).toBe('The vendor charged a different figure: amount ₦1,200.00 in the export, ₦1,000.00 locally. Raise it with the vendor with the transaction id.');
  });

  it('the other findings say what to do', () => {
    expect(pairItem('statusMismatch', cols({ status: 'SUCCESS' }), 0, cols({ status: 'FAILED' }), 0, 1, null, null).detail).toBe(
      'The export says SUCCESS but the mirror says FAILED. Sync the mirror; if they still differ, ask the vendor which is right and whether the wallet was charged or refunded.',
    );
    expect(pairItem('pending', cols({ status: 'PENDING' }), 0, cols({ status: 'PENDING' }), 0, 1, null, null).detail).toBe(
      'Not final yet. Use "Requery all pending" to ask the service for the outcome; sync and reconcile again once it is final.',
    );
    expect(pairItem('duplicateCharges', cols({ phone: '08059998888' }), 0, null, 0, 0, null, null).detail).toBe(
      'Charged more than once for 08059998888 with the same amount within minutes, where vendesk asked once. Ask the vendor to reverse the extra charge.',
    );
    expect(pairItem('missingRefunds', null, 0, cols({ status: 'FAILED' }), 0, 0, 296_700, null).detail).toBe(
      'This purchase failed, but its refund of ₦2,967.00 never showed in the wallet balance. Ask the vendor to refund it, quoting the transaction id.',
    );
    expect(pairItem('missingRefunds', null, 0, cols({ status: 'FAILED' }), 0, 0, null, null).detail).toBe(
      'This purchase failed, but its refund never showed in the wallet balance. Ask the vendor to refund it, quoting the transaction id.',
    );
  });
});

describe('the item of something only vendesk knows', () => {
  const sent: LocalSubmission = {
    localRef: 'purchase:9',
    reference: 'REF-55',
    phone: '08031234567',
    amountKobo: 500_000,
    type: 'ELECTRICITY',
    product: 'IKEDC-PREPAID',
    state: 'uncertain',
    sentMs: Date.parse('2026-03-02T10:00:00.000Z'),
    refundMissing: false,
  };

  it('a purchase neither side has: check the wallet before buying again', () => {
    expect(localItem('lostSubmissions', sent)).toEqual({
      category: 'lostSubmissions',
      rule: null,
      exportRow: null,
      transactionId: 'REF-55',
      logId: null,
      phone: '08031234567',
      type: 'ELECTRICITY',
      product: 'IKEDC-PREPAID',
      network: '',
      createdAt: '2026-03-02T10:00:00.000Z',
      exportAmountKobo: null,
      mirrorAmountKobo: null,
      exportCostKobo: null,
      mirrorCostKobo: null,
      exportStatus: null,
      mirrorStatus: null,
      localRef: 'purchase:9',
      localState: 'uncertain',
      amountKobo: 500_000,
      detail:
        'vendesk sent this purchase (uncertain) but neither the vendor export nor the mirror has it. Check the wallet was not charged; ask the vendor with the reference REF-55 before buying again.',
    });
    const noRef = localItem('lostSubmissions', { ...sent, reference: null });
    expect(noRef.transactionId).toBe('');
    expect(noRef.detail).toBe(
      'vendesk sent this purchase (uncertain) but neither the vendor export nor the mirror has it. Check the wallet was not charged; ask the vendor with the reference and the time it was sent before buying again.',
    );
  });

  it('a refund vendesk saw missing that the log does not list', () => {
    expect(localItem('missingRefunds', { ...sent, state: 'failed', refundMissing: true }).detail).toBe(
      'vendesk saw that the refund of this failed purchase did not reach the wallet, and the vendor log does not list it. Ask the vendor to refund it.',
    );
  });
});
