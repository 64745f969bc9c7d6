/**
 * From pairs to findings. Every export row in the range and every mirror entry lands in exactly
 * one category; vendesk's own purchases that neither side knows are lost submissions; charges
 * repeated where vendesk asked once are duplicate charges; failures whose refund never reached
 * the wallet are missing refunds; and the wallet is rolled forward between balance snapshots.
 */
import { RECONCILE_CATEGORIES, type CategoryTotal, type MatchRule, type ReconcileCategory } from '../../shared/contract/reconcile';
import { maskedColumns, STATUS_FAILED, STATUS_PENDING, STATUS_SUCCESS, txIdAt, type LogColumns } from './logColumns';
import { matchEntries, RULE_NAMES, RULE_NONE, type MatchResult, type ReferencePairs } from './matchEntries';
import { localItem, pairItem, type ItemDraft, type LocalSubmission } from './reconcileItemDrafts';
import { chooseSnapshots, rollWalletForward, WalletFlows, type BalanceSnapshot, type MessagingCharge, type RollForwardResult } from './walletRollForward';

export type { ItemDraft, LocalSubmission } from './reconcileItemDrafts';

export interface ReconcileInput {
  exp: LogColumns;
  mir: LogColumns;
  local: readonly LocalSubmission[];
  snapshots: readonly BalanceSnapshot[];
  /** vendesk's own messaging charges (SMS, email copies, one-time codes), for the wallet. */
  messaging?: readonly MessagingCharge[];
  rangeStartMs: number;
  /** Exclusive. */
  rangeEndMs: number;
  matchWindowMs: number;
  duplicateWindowMs: number;
  /** `inRange` of the export's times, when the caller worked it out already (while waiting for the mirror). */
  exportInRange?: { mask: Uint8Array; count: number };
  /**
   * Matching's first pass over `exp` and `mir`'s references with that mask, when the caller ran
   * it already (while the rest of the mirror was read): used when every mirror entry is in the
   * range (else matching leaves the others out and pairs again).
   */
  byReference?: ReferencePairs;
}

export interface ReconcileOutcome {
  match: MatchResult;
  /** Category index (into RECONCILE_CATEGORIES) per export row; 255 outside the range. */
  exportCategory: Uint8Array;
  /** Category index per mirror entry (its pair's for paired entries); 255 when only used for the wallet. */
  mirrorCategory: Uint8Array;
  totals: Record<ReconcileCategory, CategoryTotal>;
  matchedByRule: Record<MatchRule, number>;
  /** Every item of every category but `matched`, in category order. */
  items: ItemDraft[];
  rollForward: RollForwardResult;
  exportInRange: number;
  exportOutsideRange: number;
  mirrorInRange: number;
}

export const OUTSIDE = 255;
const CAT = Object.fromEntries(RECONCILE_CATEGORIES.map((c, i) => [c, i])) as Record<ReconcileCategory, number>;

/** Local states in which money may have left the wallet, so the vendor must know the purchase. */
const CHARGED_LOCAL_STATES = new Set(['sending', 'accepted', 'uncertain', 'success', 'pending', 'needs_support', 'not_found']);

/** Every category at zero. */
export function emptyTotals(): Record<ReconcileCategory, CategoryTotal> {
  const t = {} as Record<ReconcileCategory, CategoryTotal>;
  for (const c of RECONCILE_CATEGORIES) t[c] = { count: 0, amountKobo: 0 };
  return t;
}

function dupKey(phone: string, amountKobo: number, type: string): string {
  return `${phone}|${amountKobo}|${type.toUpperCase()}`;
}

/**
 * 1 for each entry created in [startMs, endMs), and for each entry without a time (it cannot be
 * placed, so it is kept: its source was given for this range); with how many are 1.
 */
export function inRange(created: Float64Array, startMs: number, endMs: number): { mask: Uint8Array; count: number } {
  const mask = new Uint8Array(created.length);
  let count = 0;
  for (let i = 0; i < mask.length; i++) {
    const t = created[i];
    if (Number.isNaN(t) || (t >= startMs && t < endMs)) {
      mask[i] = 1;
      count++;
    }
  }
  return { mask, count };
}

export function reconcileEntries(input: ReconcileInput): ReconcileOutcome {
  const { exp, mir, rangeStartMs, rangeEndMs } = input;
  const { mask: exportInRangeMask, count: exportInRange } = input.exportInRange ?? inRange(exp.createdMs, rangeStartMs, rangeEndMs);
  // Mirror entries before the range are read only to roll the wallet forward from an earlier snapshot.
  const { mask: mirrorInRangeMask, count: mirrorInRange } = inRange(mir.createdMs, rangeStartMs, rangeEndMs);
  const mirForMatch = mirrorInRange === mir.length ? mir : maskedColumns(mir, mirrorInRangeMask);
  const byReference = mirForMatch === mir && input.exportInRange ? input.byReference : undefined;
  const match = matchEntries(exp, mirForMatch, { windowMs: input.matchWindowMs, exportInRange: exportInRangeMask, byReference });
  const { exportToMirror, mirrorToExport } = match;

  const exportCategory = new Uint8Array(exp.length).fill(OUTSIDE);
  const mirrorCategory = new Uint8Array(mir.length).fill(OUTSIDE);
  categorizePairs(exp, mir, exportInRangeMask, exportToMirror, exportCategory, mirrorCategory);
  const missingInExport = CAT.missingInExport;
  for (let m = 0; m < mir.length; m++) {
    if (mirrorInRangeMask[m] === 1 && mirrorToExport[m] === -1) mirrorCategory[m] = missingInExport;
  }

  // vendesk's own purchases: which ones the vendor knows, and the asks per phone/amount/type.
  const inRangeLocal = input.local.filter((l) => l.sentMs >= rangeStartMs - input.matchWindowMs && l.sentMs < rangeEndMs + input.matchWindowMs);
  const exportByTx = new Map<string, number>();
  const mirrorByTx = new Map<string, number>();
  const localRefs = new Set<string>();
  for (const l of inRangeLocal) if (l.reference) localRefs.add(l.reference);
  if (localRefs.size > 0) {
    for (let e = 0; e < exp.length; e++) if (localRefs.has(txIdAt(exp, e))) exportByTx.set(txIdAt(exp, e), e);
    for (let m = 0; m < mir.length; m++) if (localRefs.has(txIdAt(mir, m))) mirrorByTx.set(txIdAt(mir, m), m);
  }
  const localAmounts = new Set(inRangeLocal.map((l) => l.amountKobo));
  const byPhoneAmount = new Map<string, { side: 'e' | 'm'; i: number; t: number }[]>();
  const addByPhoneAmount = (cols: LogColumns, side: 'e' | 'm') => {
    for (let i = 0; i < cols.length; i++) {
      if (!localAmounts.has(cols.amountKobo[i])) continue;
      const key = `${cols.detail(i).phone}|${cols.amountKobo[i]}`;
      const list = byPhoneAmount.get(key) ?? [];
      list.push({ side, i, t: cols.createdMs[i] });
      byPhoneAmount.set(key, list);
    }
  };
  if (localAmounts.size > 0) {
    addByPhoneAmount(exp, 'e');
    addByPhoneAmount(mir, 'm');
  }

  const lost: LocalSubmission[] = [];
  for (const l of inRangeLocal) {
    if (l.sentMs < rangeStartMs || l.sentMs >= rangeEndMs) continue;
    if (!CHARGED_LOCAL_STATES.has(l.state)) continue;
    if (l.reference && (exportByTx.has(l.reference) || mirrorByTx.has(l.reference))) continue;
    const near = (byPhoneAmount.get(`${l.phone}|${l.amountKobo}`) ?? []).some((c) => Math.abs(c.t - l.sentMs) <= input.matchWindowMs);
    if (!l.reference && near) continue;
    lost.push(l);
  }

  // Duplicate charges: more charges for one phone, amount and type inside the window than vendesk asked for.
  const duplicateExportRows = new Set<number>();
  if (inRangeLocal.length > 0) {
    const asks = new Map<string, number[]>();
    for (const l of inRangeLocal) {
      if (!CHARGED_LOCAL_STATES.has(l.state) && l.state !== 'failed') continue;
      const key = dupKey(l.phone, l.amountKobo, l.type);
      const list = asks.get(key) ?? [];
      list.push(l.sentMs);
      asks.set(key, list);
    }
    const charges = new Map<string, { e: number; t: number }[]>();
    for (const list of byPhoneAmount.values()) {
      for (const c of list) {
        if (c.side !== 'e' || exportInRangeMask[c.i] === 0) continue;
        const st = exp.status[c.i];
        if (st !== STATUS_SUCCESS && st !== STATUS_PENDING) continue;
        const d = exp.detail(c.i);
        const key = dupKey(d.phone, exp.amountKobo[c.i], d.type);
        if (!asks.has(key)) continue;
        const group = charges.get(key) ?? [];
        group.push({ e: c.i, t: c.t });
        charges.set(key, group);
      }
    }
    for (const [key, group] of charges) {
      if (group.length < 2) continue;
      group.sort((a, b) => a.t - b.t);
      const askTimes = asks.get(key) ?? [];
      // Clusters of charges no further apart than the window.
      let start = 0;
      for (let i = 1; i <= group.length; i++) {
        if (i < group.length && group[i].t - group[i - 1].t <= input.duplicateWindowMs) continue;
        const cluster = group.slice(start, i);
        start = i;
        if (cluster.length < 2) continue;
        const from = cluster[0].t - input.duplicateWindowMs;
        const to = cluster[cluster.length - 1].t + input.duplicateWindowMs;
        const asked = askTimes.filter((t) => t >= from && t <= to).length;
        if (asked === 0) continue;
        for (const c of cluster.slice(asked)) duplicateExportRows.add(c.e);
      }
    }
  }
  for (const e of duplicateExportRows) {
    if (exportCategory[e] === CAT.matched || exportCategory[e] === CAT.missingLocally) {
      exportCategory[e] = CAT.duplicateCharges;
      const m = exportToMirror[e];
      if (m !== -1) mirrorCategory[m] = CAT.duplicateCharges;
    }
  }

  // Money movements for the wallet: each transaction once (the export's values when paired).
  // Only needed when there are snapshots to roll forward between.
  const haveSnapshots = chooseSnapshots(input.snapshots, rangeStartMs, rangeEndMs) !== null;
  const flows = new WalletFlows(haveSnapshots ? exp.length + mir.length : 0);
  if (haveSnapshots) {
    const updatedOf = (cols: LogColumns, i: number): number => (cols.updatedMs ? cols.updatedMs[i] : cols.detail(i).updatedMs);
    // vendesk's own purchases: when they left and were answered on this computer's clock.
    const ownTimes = new Map<string, [number, number]>();
    for (const l of input.local) if (l.reference && l.localSentMs != null && l.localAnsweredMs != null) ownTimes.set(l.reference, [l.localSentMs, l.localAnsweredMs]);
    const own = (txId: string): [number, number] => ownTimes.get(txId) ?? [NaN, NaN];
    for (let e = 0; e < exp.length; e++) {
      if (exportInRangeMask[e] === 0 || Number.isNaN(exp.createdMs[e])) continue;
      const m = exportToMirror[e];
      const st = exp.status[e];
      let cost = exp.costKobo[e];
      if (Number.isNaN(cost)) cost = m !== -1 ? mir.costKobo[m] : exp.amountKobo[e];
      let refundAt = NaN;
      if (st === STATUS_FAILED) {
        refundAt = updatedOf(exp, e);
        if (Number.isNaN(refundAt) && m !== -1) refundAt = updatedOf(mir, m);
        if (Number.isNaN(refundAt)) refundAt = exp.createdMs[e];
      }
      flows.push(cost, st === STATUS_SUCCESS ? 1 : st === STATUS_FAILED ? 2 : 3, exp.createdMs[e], refundAt, 0, e, ...own(txIdAt(exp, e)));
    }
    for (let m = 0; m < mir.length; m++) {
      if (mirrorToExport[m] !== -1 || Number.isNaN(mir.createdMs[m])) continue;
      const st = mir.status[m];
      let refundAt = st === STATUS_FAILED ? updatedOf(mir, m) : NaN;
      if (st === STATUS_FAILED && Number.isNaN(refundAt)) refundAt = mir.createdMs[m];
      flows.push(mir.costKobo[m], st === STATUS_SUCCESS ? 1 : st === STATUS_FAILED ? 2 : 3, mir.createdMs[m], refundAt, 1, m, ...own(txIdAt(mir, m)));
    }
  }
  const rollForward = rollWalletForward(input.snapshots, flows, rangeStartMs, rangeEndMs, input.messaging ?? []);

  // Missing refunds: seen in the balance, or noted by vendesk on the purchase itself.
  const missingRefundExport = new Set<number>();
  const missingRefundMirror = new Set<number>();
  for (const f of rollForward.missingRefunds) (f.side === 'e' ? missingRefundExport : missingRefundMirror).add(f.index);
  const localRefundMissing: LocalSubmission[] = [];
  for (const l of inRangeLocal) {
    if (!l.refundMissing) continue;
    const e = l.reference ? exportByTx.get(l.reference) : undefined;
    const m = l.reference ? mirrorByTx.get(l.reference) : undefined;
    if (e !== undefined && exportInRangeMask[e] === 1) missingRefundExport.add(e);
    else if (m !== undefined && mirrorToExport[m] === -1) missingRefundMirror.add(m);
    else if (e === undefined && m === undefined) localRefundMissing.push(l);
  }
  for (const e of missingRefundExport) {
    if (exportCategory[e] === CAT.matched) {
      exportCategory[e] = CAT.missingRefunds;
      const m = exportToMirror[e];
      if (m !== -1) mirrorCategory[m] = CAT.missingRefunds;
    }
  }
  for (const m of missingRefundMirror) {
    if (mirrorCategory[m] === CAT.missingInExport) mirrorCategory[m] = CAT.missingRefunds;
  }

  // Totals and items.
  const totals = emptyTotals();
  const matchedByRule: Record<MatchRule, number> = { transaction_id: 0, id: 0, phone_amount_time: 0 };
  const items: ItemDraft[] = [];
  const refundSet = new Map<string, number>();
  for (const f of rollForward.missingRefunds) refundSet.set(`${f.side}${f.index}`, f.costKobo);
  // vendesk's record of each paired transaction it sent: the log's transaction_id is the reference it kept.
  const sentByRef = new Map<string, LocalSubmission>();
  for (const l of input.local) if (l.reference) sentByRef.set(l.reference, l);
  const sentAs = (txIds: string[]): LocalSubmission | null => {
    for (const tx of txIds) {
      const l = tx ? sentByRef.get(tx) : undefined;
      if (l) return l;
    }
    return null;
  };

  // Matched rows (nearly all of them) are counted apart; the others become items.
  const counted = countMatched(exportCategory, exp.amountKobo, match.exportRule);
  for (const e of counted.others) {
    const cat = exportCategory[e];
    const name = RECONCILE_CATEGORIES[cat];
    totals[name].count++;
    totals[name].amountKobo += exp.amountKobo[e];
    const m = exportToMirror[e];
    const sent = sentAs(m === -1 ? [txIdAt(exp, e)] : [txIdAt(exp, e), txIdAt(mir, m)]);
    items.push(pairItem(name, exp, e, m === -1 ? null : mir, m, match.exportRule[e], refundSet.get(`e${e}`) ?? null, sent));
  }
  totals.matched.count += counted.count;
  totals.matched.amountKobo += counted.amountKobo;
  for (let rule = 0; rule < RULE_NAMES.length; rule++) {
    const name = RULE_NAMES[rule];
    if (name) matchedByRule[name] += counted.byRule[rule];
  }
  for (let m = 0; m < mir.length; m++) {
    const cat = mirrorCategory[m];
    if (cat === OUTSIDE || mirrorToExport[m] !== -1) continue;
    const name = RECONCILE_CATEGORIES[cat];
    totals[name].count++;
    totals[name].amountKobo += mir.amountKobo[m];
    items.push(pairItem(name, null, -1, mir, m, RULE_NONE, refundSet.get(`m${m}`) ?? null, sentAs([txIdAt(mir, m)])));
  }
  for (const l of lost) {
    totals.lostSubmissions.count++;
    totals.lostSubmissions.amountKobo += l.amountKobo;
    items.push(localItem('lostSubmissions', l));
  }
  for (const l of localRefundMissing) {
    totals.missingRefunds.count++;
    totals.missingRefunds.amountKobo += l.amountKobo;
    items.push(localItem('missingRefunds', l));
  }
  const order = new Map(RECONCILE_CATEGORIES.map((c, i) => [c, i]));
  items.sort((a, b) => (order.get(a.category) ?? 0) - (order.get(b.category) ?? 0) || (a.createdAt ?? '').localeCompare(b.createdAt ?? ''));

  return {
    match,
    exportCategory,
    mirrorCategory,
    totals,
    matchedByRule,
    items,
    rollForward,
    exportInRange,
    exportOutsideRange: exp.length - exportInRange,
    mirrorInRange,
  };
}

/**
 * The category of each export row in the range and of its mirror entry: missing locally, pending,
 * status, amount, else matched. (Its own function, with the columns in locals: a million rows
 * read through the column objects' properties inside reconcileEntries took ~60 ms.)
 */
function categorizePairs(
  exp: LogColumns,
  mir: LogColumns,
  exportInRangeMask: Uint8Array,
  exportToMirror: Int32Array,
  exportCategory: Uint8Array,
  mirrorCategory: Uint8Array,
): void {
  const { status: eStatus, amountKobo: eAmount, costKobo: eCost } = exp;
  const { status: mStatus, amountKobo: mAmount, costKobo: mCost } = mir;
  const { missingLocally, pending, statusMismatch, amountMismatch, matched } = CAT;
  for (let e = 0; e < exportCategory.length; e++) {
    if (exportInRangeMask[e] === 0) continue;
    const m = exportToMirror[e];
    if (m === -1) {
      exportCategory[e] = missingLocally;
      continue;
    }
    const es = eStatus[e];
    const ms = mStatus[m];
    let cat: number;
    if (es === STATUS_PENDING || ms === STATUS_PENDING) cat = pending;
    else if (es !== ms) cat = statusMismatch;
    else if (eAmount[e] !== mAmount[m] || (!Number.isNaN(eCost[e]) && !Number.isNaN(mCost[m]) && eCost[e] !== mCost[m])) {
      cat = amountMismatch;
    } else cat = matched;
    exportCategory[e] = cat;
    mirrorCategory[m] = cat;
  }
}

/**
 * The matched export rows' count, amount and count by rule (in locals, in a function of its own:
 * a million rows through totals[name] inside reconcileEntries took ~60 ms), and the rows in the
 * range that are not matched, in order.
 */
function countMatched(exportCategory: Uint8Array, amountKobo: Float64Array, exportRule: Uint8Array): { count: number; amountKobo: number; byRule: Float64Array; others: number[] } {
  const matchedCat = CAT.matched;
  let count = 0;
  let kobo = 0;
  const byRule = new Float64Array(RULE_NAMES.length);
  const others: number[] = [];
  for (let e = 0; e < exportCategory.length; e++) {
    const cat = exportCategory[e];
    if (cat === OUTSIDE) continue;
    if (cat === matchedCat) {
      count++;
      kobo += amountKobo[e];
      byRule[exportRule[e]]++;
    } else others.push(e);
  }
  return { count, amountKobo: kobo, byRule, others };
}
