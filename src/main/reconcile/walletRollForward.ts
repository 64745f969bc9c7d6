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

export function rollWalletForward(snapshots: readonly BalanceSnapshot[], flows: readonly WalletFlow[], rangeStartMs: number, rangeEndMs: number): RollForwardResult {
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
  const within = (t: number, from: number, to: number) => t > from && t <= to;
  let successful = 0;
  let pending = 0;
  let failedDebits = 0;
  let refunds = 0;
  for (const f of flows) {
    if (within(f.debitMs, opening.atMs, closing.atMs)) {
      if (f.status === 'SUCCESS') successful += f.costKobo;
      else if (f.status === 'PENDING') pending += f.costKobo;
      else failedDebits += f.costKobo;
    }
    if (f.status === 'FAILED' && within(f.refundMs, opening.atMs, closing.atMs)) refunds += f.costKobo;
  }
  const expected = opening.balanceKobo - successful - pending - failedDebits + refunds;
  const difference = closing.balanceKobo - expected;

  // Interval by interval: a shortfall the refunds due in it account for.
  const missing: WalletFlow[] = [];
  for (let k = 0; k + 1 < between.length; k++) {
    const a = between[k];
    const b = between[k + 1];
    let debits = 0;
    const due: WalletFlow[] = [];
    for (const f of flows) {
      if (within(f.debitMs, a.atMs, b.atMs)) debits += f.costKobo;
      if (f.status === 'FAILED' && within(f.refundMs, a.atMs, b.atMs)) due.push(f);
    }
    const dueTotal = due.reduce((s, f) => s + f.costKobo, 0);
    const shortfall = a.balanceKobo - debits + dueTotal - b.balanceKobo;
    if (shortfall <= 0 || due.length === 0) continue;
    if (shortfall === dueTotal) missing.push(...due);
    else {
      const one = due.find((f) => f.costKobo === shortfall);
      if (one) missing.push(one);
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
