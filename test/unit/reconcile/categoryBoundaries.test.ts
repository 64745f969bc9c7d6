import { describe, expect, it } from 'vitest';
import { reconcileEntries, type LocalSubmission } from '../../../src/main/reconcile/categorizeEntries';
import { columnsFromEntries, type PlainEntry } from '../../../src/main/reconcile/logColumns';

/**
 * The edges of reconcile's categories, as a finance person choosing a range sees them: a range
 * includes its first instant and excludes its last, a charge repeated exactly at the edge of the
 * duplicate window is still a duplicate, and the items come in category order, oldest first.
 * Counts and sums worked out by hand.
 */
const START = Date.parse('2026-03-02T00:00:00.000Z');
const END = Date.parse('2026-03-03T00:00:00.000Z');
const WINDOW = 10 * 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

let next = 5000;
function entry(createdMs: number, over: Partial<PlainEntry> = {}): PlainEntry {
  const id = next++;
  return {
    transactionId: `TX${id}`,
    id,
    amountKobo: 100_000,
    costKobo: 97_000,
    status: 'SUCCESS',
    createdAt: iso(createdMs),
    updatedAt: iso(createdMs),
    phone: `0803${String(id).padStart(7, '0')}`,
    type: 'AIRTIME',
    product: 'MTN-VTU',
    network: 'MTN',
    ...over,
  };
}
function sent(sentMs: number, over: Partial<LocalSubmission> = {}): LocalSubmission {
  return {
    localRef: `bulk:1/${next++}`,
    reference: null,
    phone: '08039990000',
    amountKobo: 150_000,
    type: 'AIRTIME',
    product: 'MTN-VTU',
    state: 'success',
    sentMs,
    refundMissing: false,
    ...over,
  };
}
function run(exp: PlainEntry[], mir: PlainEntry[], local: LocalSubmission[] = []) {
  return reconcileEntries({
    exp: columnsFromEntries(exp),
    mir: columnsFromEntries(mir),
    local,
    snapshots: [],
    messaging: [],
    rangeStartMs: START,
    rangeEndMs: END,
    matchWindowMs: 15 * 60_000,
    duplicateWindowMs: WINDOW,
  });
}

describe('the range of a reconciliation', () => {
  it('includes its first instant and excludes its last', () => {
    const atStart = entry(START);
    const atEnd = entry(END);
    const onlyMirrorAtStart = entry(START);
    const onlyMirrorAtEnd = entry(END);
    const outcome = run([atStart, atEnd], [atStart, atEnd, onlyMirrorAtStart, onlyMirrorAtEnd]);
    expect(outcome.totals.matched.count).toBe(1);
    expect(outcome.exportOutsideRange).toBe(1);
    expect(outcome.totals.missingInExport.count).toBe(1);
    expect(outcome.items.filter((i) => i.category === 'missingInExport').map((i) => i.transactionId)).toEqual([onlyMirrorAtStart.transactionId]);
  });

  it('counts a purchase vendesk sent at the first instant as lost, not one sent at the end', () => {
    const outcome = run([], [], [sent(START, { amountKobo: 150_000 }), sent(START + 1, { amountKobo: 250_000, phone: '08039990001' }), sent(END, { phone: '08039990002' })]);
    expect(outcome.totals.lostSubmissions.count).toBe(2);
    expect(outcome.totals.lostSubmissions.amountKobo).toBe(400_000);
  });
});

describe('a second charge for one request', () => {
  const phone = '08031112222';
  it('is a duplicate when it comes exactly the window after the first', () => {
    const first = entry(START + 60 * 60_000, { phone });
    const second = entry(START + 60 * 60_000 + WINDOW, { phone });
    const outcome = run([first, second], [first, second], [sent(START + 60 * 60_000, { phone, amountKobo: 100_000 })]);
    expect(outcome.totals.duplicateCharges.count).toBe(1);
    expect(outcome.items.filter((i) => i.category === 'duplicateCharges').map((i) => i.transactionId)).toEqual([second.transactionId]);
  });

  it('is not one a millisecond later: two separate purchases', () => {
    const first = entry(START + 60 * 60_000, { phone });
    const second = entry(START + 60 * 60_000 + WINDOW + 1, { phone });
    const outcome = run([first, second], [first, second], [sent(START + 60 * 60_000, { phone, amountKobo: 100_000 })]);
    expect(outcome.totals.duplicateCharges.count).toBe(0);
    expect(outcome.totals.matched.count).toBe(2);
  });

  it('counts the request vendesk made up to the window before the first charge', () => {
    const first = entry(START + 60 * 60_000, { phone });
    const second = entry(START + 61 * 60_000, { phone });
    const askedEarly = run([first, second], [first, second], [sent(START + 60 * 60_000 - WINDOW, { phone, amountKobo: 100_000 })]);
    expect(askedEarly.totals.duplicateCharges.count).toBe(1);
    const askedTooEarly = run([first, second], [first, second], [sent(START + 60 * 60_000 - WINDOW - 1, { phone, amountKobo: 100_000 })]);
    expect(askedTooEarly.totals.duplicateCharges.count).toBe(0);
  });
});

describe('the order of the items', () => {
  it('is by category, then oldest first', () => {
    const late = entry(START + 3 * 3_600_000);
    const early = entry(START + 3_600_000);
    const mirrorOnly = entry(START + 2 * 3_600_000);
    const outcome = run([late, early], [mirrorOnly]);
    expect(outcome.items.map((i) => [i.category, i.transactionId])).toEqual([
      ['missingLocally', early.transactionId],
      ['missingLocally', late.transactionId],
      ['missingInExport', mirrorOnly.transactionId],
    ]);
  });
});
