import { describe, expect, it } from 'vitest';
import { chooseSnapshots, rollWalletForward, WalletFlows, type BalanceSnapshot, type WalletFlow } from '../../../src/main/reconcile/walletRollForward';

/**
 * The wallet roll-forward a finance team reads on the Reconcile page: opening balance, what moved
 * the wallet, expected and actual closing balance, and what is missing. Every figure below is
 * worked out by hand from the movements listed (kobo), never by the code under test.
 */
const T0 = Date.parse('2026-03-02T08:00:00.000Z');
const min = (m: number) => T0 + m * 60_000;
const snap = (minute: number, kobo: number, extra: Partial<BalanceSnapshot> = {}): BalanceSnapshot => ({ atMs: min(minute), balanceKobo: kobo, ...extra });
const flow = (status: WalletFlow['status'], costKobo: number, debitMinute: number, refundMinute = debitMinute, index = 0): WalletFlow => ({
  costKobo,
  status,
  debitMs: min(debitMinute),
  refundMs: min(refundMinute),
  side: 'm',
  index,
});

describe('which balance readings open and close a range', () => {
  it('opens at the last reading at or before the start and closes at the last one inside', () => {
    const readings = [snap(-30, 1), snap(0, 2), snap(10, 3), snap(20, 4), snap(59, 5), snap(60, 6), snap(90, 7)];
    const chosen = chooseSnapshots(readings, min(0), min(60));
    expect(chosen?.opening.balanceKobo).toBe(2);
    expect(chosen?.closing.balanceKobo).toBe(5);
    expect(chosen?.between.map((s) => s.balanceKobo)).toEqual([2, 3, 4, 5]);
  });

  it('opens inside the range when no reading predates it, whatever order they were given in', () => {
    const chosen = chooseSnapshots([snap(30, 3), snap(5, 1), snap(90, 9), snap(12, 2)], min(0), min(60));
    expect(chosen?.opening.balanceKobo).toBe(1);
    expect(chosen?.closing.balanceKobo).toBe(3);
    expect(chosen?.between.map((s) => s.balanceKobo)).toEqual([1, 2, 3]);
  });

  it('keeps readings of the same instant in the order they were recorded', () => {
    const chosen = chooseSnapshots([snap(0, 1), snap(30, 2), snap(30, 3)], min(0), min(60));
    expect(chosen?.closing.balanceKobo).toBe(3);
  });

  it('needs two readings: one alone, or none before the end, gives nothing', () => {
    expect(chooseSnapshots([snap(0, 1)], min(0), min(60))).toBeNull();
    expect(chooseSnapshots([snap(-10, 1), snap(60, 2)], min(0), min(60))).toBeNull();
    expect(chooseSnapshots([snap(60, 1), snap(70, 2)], min(0), min(60))).toBeNull();
    expect(chooseSnapshots([], min(0), min(60))).toBeNull();
  });
});

describe('rolling the wallet forward', () => {
  it('adds up each kind of movement on its own line and agrees with the closing balance', () => {
    const flows = WalletFlows.of([
      flow('SUCCESS', 9_700, 10),
      flow('PENDING', 4_850, 20),
      flow('FAILED', 1_000, 30, 31), // refunded inside the range
      flow('FAILED', 2_000, 40, 70), // refunded after the closing reading
      flow('SUCCESS', 5_000, -5), // before the opening reading: in both balances
      flow('SUCCESS', 7_000, 65), // after the closing reading: in neither
    ]);
    const messaging = [
      { kobo: 400, fromMs: min(50), toMs: min(50), uncertain: false, asQuoted: true },
      { kobo: 250, fromMs: min(51), toMs: min(51), uncertain: false },
    ];
    // 100,000 − 9,700 − 4,850 − 1,000 + 1,000 − 2,000 − 400 − 250 = 82,800
    const r = rollWalletForward([snap(0, 100_000), snap(60, 82_800)], flows, min(0), min(61), messaging);
    expect(r).toMatchObject({
      available: true,
      note: null,
      openingAt: '2026-03-02T08:00:00.000Z',
      openingKobo: 100_000,
      closingAt: '2026-03-02T09:00:00.000Z',
      closingKobo: 82_800,
      successfulSpendKobo: 9_700,
      pendingSpendKobo: 4_850,
      failedDebitsKobo: 3_000,
      refundsKobo: 1_000,
      messagingKobo: 650,
      messagingCharges: 2,
      messagingAsQuoted: 1,
      expectedClosingKobo: 82_800,
      differenceKobo: 0,
      unexplainedKobo: 0,
      placedByBalance: 0,
      snapshots: 2,
      missingRefunds: [],
    });
    expect(r.missingRefundsKobo === 0).toBe(true); // (-0 or 0: the page and JSON show both as 0)
  });

  it('shows a difference nothing explains as it is, with its sign', () => {
    const r = rollWalletForward([snap(0, 50_000), snap(60, 50_300)], WalletFlows.of([flow('SUCCESS', 1_000, 10)]), min(0), min(61));
    expect(r.expectedClosingKobo).toBe(49_000);
    expect(r.differenceKobo).toBe(1_300);
    expect(r.unexplainedKobo).toBe(1_300);
    expect(r.missingRefunds).toEqual([]);
  });

  it('names the refund that never arrived between the two readings where it was due', () => {
    const late = flow('FAILED', 3_000, 25, 35, 7);
    const flows = WalletFlows.of([flow('SUCCESS', 1_000, 5, 5, 1), late, flow('FAILED', 500, 45, 46, 9)]);
    // Readings at 0, 20, 40, 60. Between 20 and 40 the 3,000 refund is missing; the 500 one arrived.
    // 0→20: 100,000 − 1,000 = 99,000; 20→40: 99,000 − 3,000 (refund missing) = 96,000; 40→60: 96,000 − 500 + 500.
    const r = rollWalletForward([snap(0, 100_000), snap(20, 99_000), snap(40, 96_000), snap(60, 96_000)], flows, min(0), min(61));
    expect(r.expectedClosingKobo).toBe(99_000);
    expect(r.differenceKobo).toBe(-3_000);
    expect(r.missingRefundsKobo).toBe(-3_000);
    expect(r.unexplainedKobo).toBe(0);
    expect(r.snapshots).toBe(4);
    expect(r.missingRefunds).toEqual([{ costKobo: 3_000, status: 'FAILED', debitMs: min(25), refundMs: min(35), side: 'm', index: 7 }]);
  });

  it('names only the one refund whose amount is the shortfall when several were due', () => {
    const flows = WalletFlows.of([flow('FAILED', 1_200, 10, 12, 1), flow('FAILED', 800, 20, 22, 2)]);
    // Both refunded in the range: expected 100,000; the wallet shows 99,200: the 800 one is missing.
    const r = rollWalletForward([snap(0, 100_000), snap(60, 99_200)], flows, min(0), min(61));
    expect(r.missingRefunds.map((f) => f.index)).toEqual([2]);
    expect(r.missingRefundsKobo).toBe(-800);
    expect(r.unexplainedKobo).toBe(0);
  });

  it('names no refund when the shortfall matches none of them', () => {
    const flows = WalletFlows.of([flow('FAILED', 1_200, 10, 12, 1), flow('FAILED', 800, 20, 22, 2)]);
    const r = rollWalletForward([snap(0, 100_000), snap(60, 99_300)], flows, min(0), min(61));
    expect(r.missingRefunds).toEqual([]);
    expect(r.unexplainedKobo).toBe(-700);
  });

  it('lets the balance decide a purchase made in the same second as the closing reading', () => {
    // The closing reading is known only to its second; the purchase falls inside that second.
    const closing = (kobo: number) => snap(60, kobo, { toMs: min(60) + 999 });
    const flows = () => WalletFlows.of([flow('SUCCESS', 500, 60)]);
    const charged = rollWalletForward([snap(0, 10_000), closing(9_500)], flows(), min(0), min(60) + 1_000);
    expect(charged).toMatchObject({ successfulSpendKobo: 500, expectedClosingKobo: 9_500, differenceKobo: 0, placedByBalance: 1 });
    const notYet = rollWalletForward([snap(0, 10_000), closing(10_000)], flows(), min(0), min(60) + 1_000);
    expect(notYet).toMatchObject({ successfulSpendKobo: 0, expectedClosingKobo: 10_000, differenceKobo: 0, placedByBalance: 1 });
  });

  it('counts a message whose answer was lost by what the balance shows', () => {
    const lost = [{ kobo: 400, fromMs: min(10), toMs: min(20), uncertain: true }];
    const charged = rollWalletForward([snap(0, 10_000), snap(60, 9_600)], new WalletFlows(0), min(0), min(61), lost);
    expect(charged).toMatchObject({ messagingKobo: 400, messagingCharges: 1, differenceKobo: 0, placedByBalance: 1 });
    const never = rollWalletForward([snap(0, 10_000), snap(60, 10_000)], new WalletFlows(0), min(0), min(61), lost);
    expect(never).toMatchObject({ messagingKobo: 0, messagingCharges: 0, differenceKobo: 0, placedByBalance: 1 });
  });

  it('says what to do when the readings do not allow a roll-forward', () => {
    expect(rollWalletForward([], new WalletFlows(0), min(0), min(61))).toMatchObject({
      available: false,
      note: 'No wallet balance was read in this range, so the wallet cannot be rolled forward. Sync the mirror (or open the Dashboard) at the start and at the end of a period — each records the balance — then reconcile that period.',
      openingKobo: null,
      differenceKobo: null,
      snapshots: 0,
    });
    expect(rollWalletForward([snap(0, 1)], new WalletFlows(0), min(0), min(61))).toMatchObject({
      available: false,
      note: 'The range needs two wallet balance readings, one at (or before) its start and a later one inside it. Sync the mirror again before the range ends, or choose a range between two syncs.',
      snapshots: 1,
    });
  });
});

describe("vendesk's own order of requests", () => {
  // As a reconcile run recorded them (27 Nov, a busy machine): a wallet reading ended in the same
  // millisecond as the next purchase's request left. The service's clock cannot order them (both in
  // the reading's second), this computer's can: vendesk sent the purchase after the reading's answer.
  const at = (iso: string) => Date.parse(`2026-11-27T17:39:${iso}Z`);
  const reading = (from: string, to: string, kobo: number, localFromMs: number, localToMs: number): BalanceSnapshot => ({
    atMs: at(from),
    toMs: at(to),
    balanceKobo: kobo,
    localFromMs,
    localToMs,
  });

  it('places a purchase sent in the millisecond a reading ended after that reading, and names the refund that never came', () => {
    const readings = [
      reading('28.092', '28.999', 100_000_000, 223, 225),
      reading('30.101', '30.999', 100_000_000, 231, 232),
      reading('30.109', '30.999', 99_604_800, 240, 241),
      reading('32.121', '32.999', 99_308_400, 252, 253),
    ];
    const flows = new WalletFlows(2);
    flows.push(395_200, 1, at('30.234'), NaN, 1, 0, 233, 234); // bought, between the second and third readings
    flows.push(296_400, 2, at('30.242'), at('30.242'), 1, 1, 241, 243); // declined; its refund never reached the wallet
    const r = rollWalletForward(readings, flows, at('28.000'), at('33.000'));
    expect(r).toMatchObject({ differenceKobo: -296_400, missingRefundsKobo: -296_400, unexplainedKobo: 0 });
    expect(r.missingRefunds.map((f) => f.index)).toEqual([1]);
  });
});
