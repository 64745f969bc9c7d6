/**
 * The one rule that ties a purchase whose request may or may not have reached the service — a
 * bulk row or a single purchase of any kind — to an entry of the service's log, or shows it was
 * not bought.
 */
import { describe, expect, it } from 'vitest';
import type { ParsedLogEntry } from '../../../src/main/api/parseLogEntry';
import { MATCH_AFTER_MS, MATCH_BEFORE_MS, matchSentPurchase, type SentPurchaseFacts } from '../../../src/main/api/logMatch';
import { itemStateOfEntry } from '../../../src/main/buying/jobStates';

const SENT = Date.parse('2026-03-02T10:00:00.000Z');
const item: SentPurchaseFacts = { phone: '08031234567', amount_kobo: 500_00, product_code: 'MTN-AIRTIME', reference: null, sent_ms: SENT };

let nextId = 1;
function entry(over: Partial<ParsedLogEntry> & { atMs?: number }): ParsedLogEntry {
  const id = nextId++;
  const created = new Date(over.atMs ?? SENT + 2_000).toISOString();
  return {
    id,
    transactionId: `REF-${id}`,
    partnerReference: '',
    phoneNumber: item.phone,
    amountKobo: item.amount_kobo,
    costKobo: 490_00,
    commissionKobo: 10_00,
    type: 'AIRTIME',
    network: 'MTN',
    operator: 'MTN',
    region: 'NG',
    description: '',
    dataPlan: '',
    status: 'SUCCESS',
    time: created,
    createdAt: created,
    updatedAt: created,
    ...over,
  };
}

const unclaimed = () => false;

describe('matchSentPurchase', () => {
  it("takes the entry with the item's reference, whatever its time", () => {
    const own = entry({ transactionId: 'MINE', atMs: SENT + 3 * 3600_000 });
    const m = matchSentPurchase({ ...item, reference: 'MINE' }, 'airtime', [entry({}), own], unclaimed);
    expect(m.byReference).toBe(own);
    expect(m.candidates).toEqual([]);
  });

  it('with no reference, offers entries of the same phone, amount and type inside the window, earliest first', () => {
    const late = entry({ atMs: SENT + 60_000 });
    const early = entry({ atMs: SENT - 60_000 });
    const otherAmount = entry({ amountKobo: 400_00 });
    const otherPhone = entry({ phoneNumber: '08039999998' });
    const data = entry({ type: 'DATA' });
    const m = matchSentPurchase(item, 'airtime', [late, otherAmount, early, otherPhone, data], unclaimed);
    expect(m.byReference).toBeNull();
    expect(m.candidates.map((e) => e.transactionId)).toEqual([early.transactionId, late.transactionId]);
    expect(m.beyondWindow).toBeNull();
  });

  it('leaves out entries another item already owns', () => {
    const owned = entry({});
    const free = entry({ atMs: SENT + 5_000 });
    const m = matchSentPurchase(item, 'airtime', [owned, free], (ref) => ref === owned.transactionId);
    expect(m.candidates).toEqual([free]);
  });

  it('keeps the window: 30 minutes before sending to 15 minutes after, edges included', () => {
    const first = entry({ atMs: SENT - MATCH_BEFORE_MS });
    const last = entry({ atMs: SENT + MATCH_AFTER_MS });
    const tooEarly = entry({ atMs: SENT - MATCH_BEFORE_MS - 1_000 });
    const m = matchSentPurchase(item, 'airtime', [tooEarly, first, last], unclaimed);
    expect(m.candidates).toEqual([first, last]);
    expect(m.beyondWindow).toBeNull();
  });

  it('an unowned entry after the window cannot be tied nor ruled out: it is reported for the user', () => {
    const beyond = entry({ atMs: SENT + MATCH_AFTER_MS + 1_000 });
    const m = matchSentPurchase(item, 'airtime', [beyond], unclaimed);
    expect(m.candidates).toEqual([]);
    expect(m.beyondWindow).toBe(beyond);
  });

  it('a data item matches only entries of its plan (or with no plan named)', () => {
    const dataItem = { ...item, product_code: 'MTN-1GB-1D', amount_kobo: 350_00 };
    const samePlan = entry({ type: 'DATA', amountKobo: 350_00, dataPlan: 'MTN-1GB-1D' });
    const otherPlan = entry({ type: 'DATA', amountKobo: 350_00, dataPlan: 'MTN-1GB-7D' });
    const noPlan = entry({ type: 'DATA', amountKobo: 350_00, dataPlan: '', atMs: SENT + 9_000 });
    const m = matchSentPurchase(dataItem, 'data', [otherPlan, samePlan, noPlan], unclaimed);
    expect(m.candidates).toEqual([samePlan, noPlan]);
  });

  it('an electricity or cable purchase matches only entries of its kind whose description names its meter or smartcard', () => {
    const meter = { ...item, amount_kobo: 5_000_00, account: '45071234567' };
    const itsMeter = entry({ type: 'ELECTRICITY', amountKobo: 5_000_00, description: 'Ikeja Electric prepaid 45071234567' });
    const otherMeter = entry({ type: 'ELECTRICITY', amountKobo: 5_000_00, description: 'Ikeja Electric prepaid 45079999999', atMs: SENT - 1_000 });
    const airtime = entry({ type: 'AIRTIME', amountKobo: 5_000_00, description: '45071234567', atMs: SENT - 2_000 });
    expect(matchSentPurchase(meter, 'electricity', [otherMeter, airtime, itsMeter], unclaimed).candidates).toEqual([itsMeter]);
    // The same rules of time as a bulk row: a cable entry after the window is for the user to judge.
    const card = { ...item, amount_kobo: 4_615_00, account: '7023456789' };
    const later = entry({ type: 'CABLETV', amountKobo: 4_615_00, description: 'DStv Compact 7023456789', atMs: SENT + MATCH_AFTER_MS + 60_000 });
    expect(matchSentPurchase(card, 'cable', [later], unclaimed)).toEqual({ byReference: null, candidates: [], beyondWindow: later });
  });

  it('an empty log shows the item was not bought', () => {
    expect(matchSentPurchase(item, 'airtime', [], unclaimed)).toEqual({ byReference: null, candidates: [], beyondWindow: null });
  });

  it("an entry's status gives the item's state: SUCCESS and FAILED are final, PENDING is accepted", () => {
    expect(itemStateOfEntry({ status: 'SUCCESS' })).toBe('success');
    expect(itemStateOfEntry({ status: 'FAILED' })).toBe('failed');
    expect(itemStateOfEntry({ status: 'PENDING' })).toBe('accepted');
  });
});
