/**
 * The wallet rolled forward between two balance snapshots: opening − charges + refunds of
 * failures = expected closing, against the closing snapshot. Between each pair of consecutive
 * snapshots the same sum is made; a shortfall equal to the refunds due in that interval (or to
 * one of them) names the failed purchases whose refund never showed. Whatever is left is the
 * unexplained difference, always shown.
 */
import type { RollForward } from '../../shared/contract/reconcile';

export interface BalanceSnapshot {
  /** Epoch ms. */
  atMs: number;
  balanceKobo: number;
}

/** One transaction's effect on the wallet: debited when created, refunded when it failed. */
export interface WalletFlow {
  costKobo: number;
  status: 'SUCCESS' | 'FAILED' | 'PENDING';
  debitMs: number;
  refundMs: number;
  /** Where it came from (export row or mirror entry), for naming it in a finding. */
  side: 'e' | 'm';
  index: number;
}

/** Many flows, column by column (a million transactions need no million objects). */
export class WalletFlows {
  length = 0;
  cost: Float64Array;
  /** 1 SUCCESS, 2 FAILED, 3 PENDING. */
  status: Uint8Array;
  debitMs: Float64Array;
  refundMs: Float64Array;
  /** 0 export row, 1 mirror entry. */
  side: Uint8Array;
  index: Int32Array;

  constructor(capacity: number) {
    this.cost = new Float64Array(capacity);
    this.status = new Uint8Array(capacity);
    this.debitMs = new Float64Array(capacity);
    this.refundMs = new Float64Array(capacity);
    this.side = new Uint8Array(capacity);
    this.index = new Int32Array(capacity);
  }

  static of(flows: readonly WalletFlow[]): WalletFlows {
    const f = new WalletFlows(flows.length);
    for (const x of flows) f.push(x.costKobo, x.status === 'SUCCESS' ? 1 : x.status === 'FAILED' ? 2 : 3, x.debitMs, x.refundMs, x.side === 'e' ? 0 : 1, x.index);
    return f;
  }

  push(cost: number, status: number, debitMs: number, refundMs: number, side: number, index: number): void {
    const i = this.length++;
    this.cost[i] = cost;
    this.status[i] = status;
    this.debitMs[i] = debitMs;
    this.refundMs[i] = refundMs;
    this.side[i] = side;
    this.index[i] = index;
  }

  flow(i: number): WalletFlow {
    return {
      costKobo: this.cost[i],
      status: this.status[i] === 1 ? 'SUCCESS' : this.status[i] === 2 ? 'FAILED' : 'PENDING',
      debitMs: this.debitMs[i],
      refundMs: this.refundMs[i],
      side: this.side[i] === 0 ? 'e' : 'm',
      index: this.index[i],
    };
  }
}

export interface RollForwardResult extends RollForward {
  missingRefunds: WalletFlow[];
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

function notAvailable(note: string, snapshots: number): RollForwardResult {
  return {
    available: false,
    note,
    openingAt: null,
    openingKobo: null,
    closingAt: null,
    closingKobo: null,
    successfulSpendKobo: 0,
    pendingSpendKobo: 0,
    failedDebitsKobo: 0,
    refundsKobo: 0,
    expectedClosingKobo: null,
    differenceKobo: null,
    missingRefundsKobo: 0,
    unexplainedKobo: null,
    snapshots,
    missingRefunds: [],
  };
}

/**
 * The opening snapshot is the last one taken at or before the start of the range (else the
 * first inside it); the closing one is the last taken before the range ends. Charges count from
 * just after the opening snapshot up to and including the closing one.
 */
export function chooseSnapshots(snapshots: readonly BalanceSnapshot[], rangeStartMs: number, rangeEndMs: number): { opening: BalanceSnapshot; closing: BalanceSnapshot; between: BalanceSnapshot[] } | null {
  const sorted = [...snapshots].sort((a, b) => a.atMs - b.atMs);
  let opening: BalanceSnapshot | undefined;
  for (const s of sorted) if (s.atMs <= rangeStartMs) opening = s;
  opening ??= sorted.find((s) => s.atMs >= rangeStartMs && s.atMs < rangeEndMs);
  if (!opening) return null;
  let closing: BalanceSnapshot | undefined;
  for (const s of sorted) if (s.atMs > opening.atMs && s.atMs < rangeEndMs) closing = s;
  if (!closing) return null;
  const open = opening;
  const close = closing;
  return { opening: open, closing: close, between: sorted.filter((s) => s.atMs >= open.atMs && s.atMs <= close.atMs) };
}

export function rollWalletForward(snapshots: readonly BalanceSnapshot[], flows: WalletFlows, rangeStartMs: number, rangeEndMs: number): RollForwardResult {
  const chosen = chooseSnapshots(snapshots, rangeStartMs, rangeEndMs);
  if (!chosen) {
    return notAvailable(
      snapshots.length === 0
        ? 'No balance snapshots were taken in this range, so the wallet cannot be rolled forward. Sync the mirror at the start and the end of a period (each sync records the balance), then reconcile that period.'
        : 'The range needs a balance snapshot at (or before) its start and another one inside it. Sync the mirror again before the range ends, or choose a range between two syncs.',
      snapshots.length,
    );
  }
  const { opening, closing, between } = chosen;
  const open = opening.atMs;
  const close = closing.atMs;
  let successful = 0;
  let pending = 0;
  let failedDebits = 0;
  let refunds = 0;
  // Per interval between consecutive snapshots: debits, and the failures whose refund is due in it.
  const k = between.length - 1;
  const debitsIn = new Float64Array(Math.max(0, k));
  const dueIn: number[][] = Array.from({ length: Math.max(0, k) }, () => []);
  const intervalOf = (t: number): number => {
    if (!(t > open && t <= close)) return -1;
    let lo = 0;
    let hi = k - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (t <= between[mid + 1].atMs) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  };
  for (let i = 0; i < flows.length; i++) {
    const cost = flows.cost[i];
    const st = flows.status[i];
    const d = flows.debitMs[i];
    if (d > open && d <= close) {
      if (st === 1) successful += cost;
      else if (st === 3) pending += cost;
      else failedDebits += cost;
      debitsIn[intervalOf(d)] += cost;
    }
    if (st === 2) {
      const r = flows.refundMs[i];
      if (r > open && r <= close) {
        refunds += cost;
        dueIn[intervalOf(r)].push(i);
      }
    }
  }
  const expected = opening.balanceKobo - successful - pending - failedDebits + refunds;
  const difference = closing.balanceKobo - expected;

  // A shortfall in an interval that the refunds due in it account for (all of them, or one).
  const missing: WalletFlow[] = [];
  for (let j = 0; j < k; j++) {
    const due = dueIn[j];
    if (due.length === 0) continue;
    const dueTotal = due.reduce((s, i) => s + flows.cost[i], 0);
    const shortfall = between[j].balanceKobo - debitsIn[j] + dueTotal - between[j + 1].balanceKobo;
    if (shortfall <= 0) continue;
    if (shortfall === dueTotal) for (const i of due) missing.push(flows.flow(i));
    else {
      const one = due.find((i) => flows.cost[i] === shortfall);
      if (one !== undefined) missing.push(flows.flow(one));
    }
  }
  const missingTotal = missing.reduce((s, f) => s + f.costKobo, 0);
  return {
    available: true,
    note: null,
    openingAt: iso(opening.atMs),
    openingKobo: opening.balanceKobo,
    closingAt: iso(closing.atMs),
    closingKobo: closing.balanceKobo,
    successfulSpendKobo: successful,
    pendingSpendKobo: pending,
    failedDebitsKobo: failedDebits,
    refundsKobo: refunds,
    expectedClosingKobo: expected,
    differenceKobo: difference,
    missingRefundsKobo: -missingTotal,
    unexplainedKobo: difference + missingTotal,
    snapshots: between.length,
    missingRefunds: missing,
  };
}
