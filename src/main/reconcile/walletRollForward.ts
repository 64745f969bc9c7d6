/**
 * The wallet rolled forward between two balance readings: opening − purchases debited + refunds
 * of failures − vendesk's own messaging charges = expected closing, against the closing reading.
 * Whatever is left is the unexplained difference, always shown; "unknown" is never shown as 0.
 *
 * Every time is on the service's clock: log entries carry the service's times, and each balance
 * reading and paid message is placed by its answer's `Date` header as a window (see
 * src/main/api/serviceTime.ts). A movement whose time falls inside a reading's window cannot be
 * ordered against it by the clock alone; such movements (and messages whose answer was lost, so
 * that whether they were charged is unknown) are placed the one way that makes the figures agree
 * when there is one — the balance itself says on which side of the reading they fell.
 *
 * Between each pair of consecutive readings the same sum is made; when the whole range does not
 * balance, a shortfall in an interval equal to the refunds due in it (or to one of them) names
 * the failed purchases whose refund never reached the wallet.
 *
 * Just over 400 lines on purpose: the roll-forward and the placing of movements inside a reading's
 * window are one argument about the same figures, best read in one file.
 */
import type { RollForward } from '../../shared/contract/reconcile';

export interface BalanceSnapshot {
  /** Earliest moment of the reading, epoch ms (service clock). */
  atMs: number;
  /** Latest moment of the reading (default `atMs`). */
  toMs?: number;
  balanceKobo: number;
  /** vendesk's own readings: when the request left and the answer came, on this computer's clock. */
  localFromMs?: number;
  localToMs?: number;
}

/** A charge vendesk itself made outside the vending log: an SMS, its email copies, a one-time code. */
export interface MessagingCharge {
  kobo: number;
  /** When the service charged it: a window on its clock. */
  fromMs: number;
  toMs: number;
  /** The answer was lost: it may or may not have been charged. */
  uncertain: boolean;
  /** The service's answer did not say what it charged: `kobo` is the quoted cost. */
  asQuoted?: boolean;
  /** When vendesk sent it and had its answer, on this computer's clock. */
  localFromMs?: number;
  localToMs?: number;
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
  /** vendesk's own purchases: when the request left and its answer came, this computer's clock (NaN: unknown). */
  localFrom: Float64Array;
  localTo: Float64Array;

  constructor(capacity: number) {
    this.cost = new Float64Array(capacity);
    this.status = new Uint8Array(capacity);
    this.debitMs = new Float64Array(capacity);
    this.refundMs = new Float64Array(capacity);
    this.side = new Uint8Array(capacity);
    this.index = new Int32Array(capacity);
    this.localFrom = new Float64Array(capacity).fill(NaN);
    this.localTo = new Float64Array(capacity).fill(NaN);
  }

  static of(flows: readonly WalletFlow[]): WalletFlows {
    const f = new WalletFlows(flows.length);
    for (const x of flows) f.push(x.costKobo, x.status === 'SUCCESS' ? 1 : x.status === 'FAILED' ? 2 : 3, x.debitMs, x.refundMs, x.side === 'e' ? 0 : 1, x.index);
    return f;
  }

  push(cost: number, status: number, debitMs: number, refundMs: number, side: number, index: number, localFrom = NaN, localTo = NaN): void {
    const i = this.length++;
    this.localFrom[i] = localFrom;
    this.localTo[i] = localTo;
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

const endOf = (s: BalanceSnapshot): number => s.toMs ?? s.atMs;

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
    messagingKobo: 0,
    messagingCharges: 0,
    messagingAsQuoted: 0,
    expectedClosingKobo: null,
    differenceKobo: null,
    missingRefundsKobo: 0,
    unexplainedKobo: null,
    placedByBalance: 0,
    snapshots,
    missingRefunds: [],
  };
}

/**
 * The opening reading is the last one taken at or before the start of the range (else the first
 * inside it); the closing one is the last one inside the range taken after it. Between any two
 * readings in the range the roll-forward can be made; none has to predate the range. Readings
 * come in the order they were taken (by time, then as recorded).
 */
export function chooseSnapshots(
  snapshots: readonly BalanceSnapshot[],
  rangeStartMs: number,
  rangeEndMs: number,
): { opening: BalanceSnapshot; closing: BalanceSnapshot; between: BalanceSnapshot[] } | null {
  const sorted = snapshots
    .map((s, i) => ({ s, i }))
    .sort((a, b) => a.s.atMs - b.s.atMs || a.i - b.i)
    .map((x) => x.s);
  let openAt = -1;
  sorted.forEach((s, i) => {
    if (s.atMs <= rangeStartMs) openAt = i;
  });
  if (openAt === -1) openAt = sorted.findIndex((s) => s.atMs >= rangeStartMs && s.atMs < rangeEndMs);
  if (openAt === -1) return null;
  let closeAt = -1;
  sorted.forEach((s, i) => {
    if (i > openAt && s.atMs < rangeEndMs) closeAt = i;
  });
  if (closeAt === -1) return null;
  return { opening: sorted[openAt], closing: sorted[closeAt], between: sorted.slice(openAt, closeAt + 1) };
}

/** One movement of the wallet: `delta` kobo (negative: money out) at a time or within a window. */
interface Movement {
  delta: number;
  fromMs: number;
  toMs: number;
  /** May not have happened at all (a message whose answer was lost). */
  optional: boolean;
  /** Which total it adds to. */
  line: 'successful' | 'pending' | 'failedDebits' | 'refunds' | 'messaging';
  /** It happened between these two moments of this computer's clock (vendesk's own purchases). */
  localFromMs?: number;
  localToMs?: number;
  /** A messaging charge recorded at its quoted cost (the service did not say what it charged). */
  asQuoted?: boolean;
}

/**
 * Whether the order of a movement and a reading is known from this computer's clock: vendesk sent
 * both requests, so the one answered before the other left came first. -1 before, 1 after, 0 unknown.
 */
function localOrder(m: Movement, s: BalanceSnapshot): -1 | 0 | 1 {
  if (m.localFromMs === undefined || m.localToMs === undefined || s.localFromMs === undefined || s.localToMs === undefined) return 0;
  // In the same millisecond is still in order: vendesk's code took the one time after the other
  // (an answer received, then the next request sent).
  if (m.localToMs <= s.localFromMs) return -1;
  if (m.localFromMs >= s.localToMs) return 1;
  return 0;
}

/** At most this many placements are tried (then the clock's best guess stands). */
const MAX_PLACEMENTS = 1 << 16;

const middle = (s: BalanceSnapshot) => (s.atMs + endOf(s)) / 2;

/**
 * Which movements the closing balance holds that the opening one did not. The clock settles most:
 * a movement before the opening reading's window is in both, one between the two windows is in
 * the closing one only, one after the closing window in neither. The rest touch a reading's
 * window (its answer's second), or are messages whose answer was lost; for them the balances
 * decide:
 * - the log's movements (exact times) are cut by each reading at one instant: those up to some
 *   point fall before it, the rest after, movements at the same instant on the same side, and
 *   the opening reading cuts no later than the closing one;
 * - a message known only to its answer's second, or whose answer was lost, may fall either way.
 * The placement that makes opening + movements = closing wins (of several, the one nearest the
 * clock's best guess: each reading at the middle of its window); with none, the clock's best
 * guess stands and the difference is shown. Returns which movements count, and whether the
 * balances decided.
 */
function placeMovements(movements: readonly Movement[], open: BalanceSnapshot, close: BalanceSnapshot): { counted: boolean[]; byBalance: number } {
  const counted = new Array<boolean>(movements.length).fill(false);
  let base = open.balanceKobo;
  const cuts: number[] = [];
  const free: number[] = [];
  movements.forEach((m, i) => {
    // Before the opening reading (in both balances) or after the closing one (in neither).
    if (m.toMs < open.atMs || localOrder(m, open) === -1 || m.fromMs > endOf(close) || localOrder(m, close) === 1) return;
    const afterOpen = m.fromMs > endOf(open) || localOrder(m, open) === 1;
    const beforeClose = m.toMs < close.atMs || localOrder(m, close) === -1;
    if (!m.optional && afterOpen && beforeClose) {
      counted[i] = true;
      base += m.delta;
    } else if (!m.optional && m.fromMs === m.toMs) cuts.push(i);
    else free.push(i);
  });
  const guess = (i: number): boolean => {
    const m = movements[i];
    const mid = (m.fromMs + m.toMs) / 2;
    return !m.optional && mid > middle(open) && mid <= middle(close);
  };
  // The log's movements in time order, grouped by instant.
  const groups: { t: number; members: number[]; delta: number }[] = [];
  for (const i of [...cuts].sort((a, b) => movements[a].fromMs - movements[b].fromMs)) {
    const t = movements[i].fromMs;
    const last = groups[groups.length - 1];
    if (last && last.t === t) {
      last.members.push(i);
      last.delta += movements[i].delta;
    } else groups.push({ t, members: [i], delta: movements[i].delta });
  }
  // Cut `a`: groups [0, a) are before the opening reading; cut `c`: groups [0, c) before the closing one.
  // The clock bounds each cut; vendesk's own order of requests bounds it further.
  const bound = (s: BalanceSnapshot) => {
    let min = groups.filter((g) => g.t < s.atMs).length;
    let max = groups.filter((g) => g.t <= endOf(s)).length;
    groups.forEach((g, j) => {
      for (const i of g.members) {
        const order = localOrder(movements[i], s);
        if (order === -1) min = Math.max(min, j + 1);
        if (order === 1) max = Math.min(max, j);
      }
    });
    return { min, max: Math.max(min, max) };
  };
  const oa = bound(open);
  const cc = bound(close);
  const combos = (oa.max - oa.min + 1) * (cc.max - cc.min + 1) * 2 ** free.length;
  let best: { a: number; c: number; bits: number; distance: number } | null = null;
  if (combos <= MAX_PLACEMENTS) {
    const prefix = [0];
    for (const g of groups) prefix.push(prefix[prefix.length - 1] + g.delta);
    const guessA = groups.filter((g) => g.t <= middle(open)).length;
    const guessC = groups.filter((g) => g.t <= middle(close)).length;
    for (let bits = 0; bits < 2 ** free.length; bits++) {
      let freeSum = 0;
      let freeDistance = 0;
      free.forEach((i, j) => {
        const inside = (bits & (1 << j)) !== 0;
        if (inside) freeSum += movements[i].delta;
        if (inside !== guess(i)) freeDistance++;
      });
      for (let a = oa.min; a <= oa.max; a++) {
        for (let c = Math.max(a, cc.min); c <= cc.max; c++) {
          if (base + freeSum + prefix[c] - prefix[a] !== close.balanceKobo) continue;
          const distance = freeDistance + Math.abs(a - guessA) + Math.abs(c - guessC);
          if (!best || distance < best.distance) best = { a, c, bits, distance };
        }
      }
    }
  }
  const clamp = (x: number, b: { min: number; max: number }) => Math.min(b.max, Math.max(b.min, x));
  // No placement makes the figures agree: the clock's best guess, within what the order of
  // vendesk's own requests allows, stands, and the difference is shown.
  const chosen = best ?? {
    a: clamp(groups.filter((g) => g.t <= middle(open)).length, oa),
    c: clamp(groups.filter((g) => g.t <= middle(close)).length, cc),
    bits: free.reduce((bits, i, j) => (guess(i) ? bits | (1 << j) : bits), 0),
  };
  groups.forEach((g, j) => {
    for (const i of g.members) counted[i] = j >= chosen.a && j < Math.max(chosen.a, chosen.c);
  });
  free.forEach((i, j) => {
    counted[i] = (chosen.bits & (1 << j)) !== 0;
  });
  return { counted, byBalance: best ? cuts.length + free.length : 0 };
}

export function rollWalletForward(
  snapshots: readonly BalanceSnapshot[],
  flows: WalletFlows,
  rangeStartMs: number,
  rangeEndMs: number,
  messaging: readonly MessagingCharge[] = [],
): RollForwardResult {
  const chosen = chooseSnapshots(snapshots, rangeStartMs, rangeEndMs);
  if (!chosen) {
    return notAvailable(
      snapshots.length === 0
        ? 'No wallet balance was read in this range, so the wallet cannot be rolled forward. Sync the mirror (or open the Dashboard) at the start and at the end of a period — each records the balance — then reconcile that period.'
        : 'The range needs two wallet balance readings, one at (or before) its start and a later one inside it. Sync the mirror again before the range ends, or choose a range between two syncs.',
      snapshots.length,
    );
  }
  const { opening, closing, between } = chosen;

  // Every movement: debits and refunds of the log's transactions, vendesk's messaging charges.
  const movements: Movement[] = [];
  /** For each refund movement, the flow it refunds. */
  const refundFlow: number[] = [];
  for (let i = 0; i < flows.length; i++) {
    const cost = flows.cost[i];
    const st = flows.status[i];
    const d = flows.debitMs[i];
    const local = Number.isNaN(flows.localFrom[i]) || Number.isNaN(flows.localTo[i]) ? {} : { localFromMs: flows.localFrom[i], localToMs: flows.localTo[i] };
    movements.push({ delta: -cost, fromMs: d, toMs: d, optional: false, line: st === 1 ? 'successful' : st === 3 ? 'pending' : 'failedDebits', ...local });
    if (st === 2) {
      const r = flows.refundMs[i];
      // A decline is refunded inside the purchase's own request; a later failure, whenever the service settles it.
      refundFlow[movements.length] = i;
      movements.push({ delta: cost, fromMs: r, toMs: r, optional: false, line: 'refunds', ...(r === d ? local : {}) });
    }
  }
  for (const m of messaging) {
    movements.push({
      delta: -m.kobo,
      fromMs: m.fromMs,
      toMs: m.toMs,
      optional: m.uncertain,
      line: 'messaging',
      asQuoted: m.asQuoted ?? false,
      ...(m.localFromMs !== undefined && m.localToMs !== undefined ? { localFromMs: m.localFromMs, localToMs: m.localToMs } : {}),
    });
  }

  const { counted, byBalance } = placeMovements(movements, opening, closing);
  const totals = { successful: 0, pending: 0, failedDebits: 0, refunds: 0, messaging: 0 };
  let messagingCharges = 0;
  let messagingAsQuoted = 0;
  let expected = opening.balanceKobo;
  movements.forEach((m, i) => {
    if (!counted[i]) return;
    expected += m.delta;
    totals[m.line] += Math.abs(m.delta);
    if (m.line === 'messaging') messagingCharges++;
    if (m.line === 'messaging' && m.asQuoted) messagingAsQuoted++;
  });
  const difference = closing.balanceKobo - expected;

  // A shortfall between two consecutive readings that the refunds due between them account for
  // (all of them, or one) names them — placed between the readings as the whole range is.
  const missing: WalletFlow[] = [];
  if (difference < 0) {
    const byStart = movements.map((m, i) => ({ m, i })).sort((x, y) => x.m.fromMs - y.m.fromMs);
    for (let j = 0; j + 1 < between.length; j++) {
      const a = between[j];
      const b = between[j + 1];
      const near = byStart.filter(({ m }) => m.toMs >= a.atMs && m.fromMs <= endOf(b));
      const placed = placeMovements(
        near.map((x) => x.m),
        a,
        b,
      );
      let expectedB = a.balanceKobo;
      const due: number[] = [];
      near.forEach(({ m, i }, k) => {
        if (!placed.counted[k]) return;
        expectedB += m.delta;
        if (m.line === 'refunds') due.push(refundFlow[i]);
      });
      if (due.length === 0) continue;
      const dueTotal = due.reduce((sum, f) => sum + flows.cost[f], 0);
      const shortfall = expectedB - b.balanceKobo;
      if (shortfall <= 0) continue;
      if (shortfall === dueTotal) for (const f of due) missing.push(flows.flow(f));
      else {
        const one = due.find((f) => flows.cost[f] === shortfall);
        if (one !== undefined) missing.push(flows.flow(one));
      }
    }
  }
  const missingTotal = missing.reduce((sum, f) => sum + f.costKobo, 0);
  return {
    available: true,
    note: null,
    openingAt: iso(opening.atMs),
    openingKobo: opening.balanceKobo,
    closingAt: iso(closing.atMs),
    closingKobo: closing.balanceKobo,
    successfulSpendKobo: totals.successful,
    pendingSpendKobo: totals.pending,
    failedDebitsKobo: totals.failedDebits,
    refundsKobo: totals.refunds,
    messagingKobo: totals.messaging,
    messagingCharges,
    messagingAsQuoted,
    expectedClosingKobo: expected,
    differenceKobo: difference,
    missingRefundsKobo: -missingTotal,
    unexplainedKobo: difference + missingTotal,
    placedByBalance: byBalance,
    snapshots: between.length,
    missingRefunds: missing,
  };
}
