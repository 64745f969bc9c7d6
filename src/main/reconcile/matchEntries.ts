/**
 * Pairs export rows with mirror entries, in three passes, each pass only over what the earlier
 * ones left: the same `transaction_id`; then the same `id` (when the references do not
 * contradict each other); then, where a reference is missing on one side, the same phone and
 * amount with the nearest time inside the window. Each pair records the rule that made it.
 */
import type { MatchRule } from '../../shared/contract/reconcile';
import { spanIs, txIdAt, type LogColumns } from './logColumns';
import { findReference, hashText, indexReferences } from './threadedReaders';

export const RULE_NONE = 0;
export const RULE_TRANSACTION_ID = 1;
export const RULE_ID = 2;
export const RULE_PHONE_AMOUNT_TIME = 3;
export const RULE_NAMES: readonly (MatchRule | null)[] = [null, 'transaction_id', 'id', 'phone_amount_time'];

export interface MatchOptions {
  /** Largest time difference the phone + amount + time rule accepts, ms. */
  windowMs: number;
  /** Export rows to consider (1) or leave out (0), e.g. outside the range; all when absent. */
  exportInRange?: Uint8Array;
}

export interface MatchResult {
  /** For each export row: the mirror index it is paired with, or -1. */
  exportToMirror: Int32Array;
  /** For each export row: RULE_*. */
  exportRule: Uint8Array;
  /** For each mirror entry: the export row it is paired with, or -1. */
  mirrorToExport: Int32Array;
  pairs: number;
  byRule: [number, number, number, number];
  /** Mirror entries sharing a transaction_id with an earlier one (kept apart, never paired twice). */
  mirrorDuplicateReferences: number;
}

/** What pass 1 reads of the mirror: its references only (so it can run before the rest of the mirror is read). */
export type MirrorReferences = Pick<LogColumns, 'length' | 'txId' | 'txIdOf' | 'hasTxId' | 'txSpans' | 'txHash' | 'txIndex'>;

/** The pairs of pass 1 (by transaction_id), in the form matchEntries goes on from. */
export interface ReferencePairs {
  exportToMirror: Int32Array;
  exportRule: Uint8Array;
  mirrorToExport: Int32Array;
  pairs: number;
  mirrorDuplicateReferences: number;
}

/**
 * Each side's references through its own accessors when it makes strings only on demand (the
 * CSV export's are bytes of the file, the mirror's spans of SQLite's text).
 */
function referenceAccess(exp: LogColumns, mir: MirrorReferences) {
  const eTx = exp.txIdOf ? null : exp.txId;
  const eHas = exp.hasTxId ?? ((e: number) => (eTx as string[])[e] !== '');
  const eIs = exp.txIdIs ?? ((e: number, bytes: Uint8Array, start: number, end: number) => spanIs((eTx as string[])[e], bytes, start, end));
  const mSpans = mir.txSpans;
  const mTx = mSpans ? null : mir.txId;
  const mHas = mir.hasTxId ?? ((m: number) => (mTx as string[])[m] !== '');
  const same = mSpans
    ? (e: number, m: number) => eIs(e, mSpans.bytes, mSpans.start[m], mSpans.end[m])
    : (e: number, m: number) => {
        const t = Buffer.from((mTx as string[])[m], 'utf8');
        return eIs(e, t, 0, t.length);
      };
  return { eHas, mHas, same };
}

/**
 * Pass 1: transaction_id, through an open-addressing table of the mirror's references (a JS Map
 * of a million strings costs about a second; this, a tenth of that). Each export row in
 * `exportInRange` is paired with the first mirror entry with its reference, unless an earlier row
 * took it. It needs only the mirror's references: reconcileService runs it while the worker
 * still reads the rest of the mirror.
 */
export function pairByReference(exp: LogColumns, mir: MirrorReferences, exportInRange?: Uint8Array): ReferencePairs {
  const exportToMirror = new Int32Array(exp.length).fill(-1);
  const exportRule = new Uint8Array(exp.length);
  const mirrorToExport = new Int32Array(mir.length).fill(-1);
  const inRange = exportInRange;
  let pairs = 0;
  const { eHas, mHas, same } = referenceAccess(exp, mir);
  const mSpans = mir.txSpans;
  // (A reader may have hashed the references on the way, `txHash`, and the mirror's reader built
  // this table where it read them, `txIndex`.)
  const mHash = mir.txHash;
  const eHash = exp.txHash;
  const {
    slots,
    first: firstWithReference,
    duplicates: mirrorDuplicateReferences,
  } = mir.txIndex ?? indexReferences(mir.length, mHash ?? Uint32Array.from(mir.txId, hashText), mHas, (a, b) => txIdAt(mir, a) === txIdAt(mir, b));
  const pair = (e: number, m: number) => {
    exportToMirror[e] = m;
    exportRule[e] = RULE_TRANSACTION_ID;
    mirrorToExport[m] = e;
    pairs++;
  };
  // An export and the mirror are mostly in the same order: the entry after the last one found is
  // tried first (neighbours in memory), the table (a cache miss or more a row) only when it is not it.
  let next = 0;
  const eBytes = exp.txIdIs ? exp.txBytes : undefined;
  if (eBytes && mSpans && mHash && eHash) {
    // The usual case (a CSV export against the mirror's text), in one loop with its comparisons
    // written out: through the accessors this pass took ~80 ms a million rows.
    const { bytes, start: eStart, end: eEnd, inFile } = eBytes;
    const { bytes: mBytes, start: mStart, end: mEnd } = mSpans;
    const mask = (slots.length >> 1) - 1;
    const mLength = mir.length;
    let paired = 0;
    const sameBytes = (e: number, m: number): boolean => {
      const at = eStart[e];
      const from = mStart[m];
      const length = eEnd[e] - at;
      if (mEnd[m] - from !== length) return false;
      for (let k = 0; k < length; k++) if (mBytes[from + k] !== bytes[at + k]) return false;
      return true;
    };
    for (let e = 0; e < exp.length; e++) {
      if (inRange && inRange[e] === 0) continue;
      let m = -1;
      const h = eHash[e];
      if (inFile[e] === 1) {
        if (next < mLength && firstWithReference[next] === 1 && mHash[next] === h && sameBytes(e, next)) m = next;
        else {
          for (let at = h & mask; ; at = (at + 1) & mask) {
            const slot = slots[2 * at];
            if (slot === -1) break;
            if (slots[2 * at + 1] === (h | 0) && sameBytes(e, slot)) {
              m = slot;
              break;
            }
          }
        }
      } else {
        if (!eHas(e)) continue;
        m = next < mLength && firstWithReference[next] === 1 && mHash[next] === h && same(e, next) ? next : findReference(slots, h, e, same);
      }
      if (m === -1) continue;
      next = m + 1;
      if (mirrorToExport[m] === -1) {
        exportToMirror[e] = m;
        exportRule[e] = RULE_TRANSACTION_ID;
        mirrorToExport[m] = e;
        paired++;
      }
    }
    pairs += paired;
  } else {
    for (let e = 0; e < exp.length; e++) {
      if (inRange && inRange[e] === 0) continue;
      if (!eHas(e)) continue;
      const h = eHash ? eHash[e] : hashText(txIdAt(exp, e));
      const m = next < mir.length && firstWithReference[next] === 1 && (!mHash || mHash[next] === h) && same(e, next) ? next : findReference(slots, h, e, same);
      if (m === -1) continue;
      next = m + 1;
      if (mirrorToExport[m] === -1) pair(e, m);
    }
  }
  return { exportToMirror, exportRule, mirrorToExport, pairs, mirrorDuplicateReferences };
}

/**
 * All three passes. `byReference`: pass 1 already done by {@link pairByReference} for this very
 * export, mirror and `exportInRange` (it is then not done again).
 */
export function matchEntries(exp: LogColumns, mir: LogColumns, options: MatchOptions & { byReference?: ReferencePairs }): MatchResult {
  const inRange = options.exportInRange;
  const first = options.byReference ?? pairByReference(exp, mir, inRange);
  const { exportToMirror, exportRule, mirrorToExport, mirrorDuplicateReferences } = first;
  const byRule: [number, number, number, number] = [0, 0, 0, 0];
  byRule[RULE_TRANSACTION_ID] = first.pairs;
  let pairs = first.pairs;
  const pair = (e: number, m: number, rule: number) => {
    exportToMirror[e] = m;
    exportRule[e] = rule;
    mirrorToExport[m] = e;
    byRule[rule]++;
    pairs++;
  };
  const { eHas, mHas, same } = referenceAccess(exp, mir);

  // Pass 2: id, among what is left, when the references do not say they are different entries.
  const byId = new Map<number, number>();
  for (let m = 0; m < mir.length; m++) {
    if (mirrorToExport[m] !== -1) continue;
    const id = mir.logId[m];
    if (!Number.isNaN(id) && !byId.has(id)) byId.set(id, m);
  }
  if (byId.size > 0) {
    for (let e = 0; e < exp.length; e++) {
      if (exportToMirror[e] !== -1 || (inRange && inRange[e] === 0)) continue;
      const id = exp.logId[e];
      if (Number.isNaN(id)) continue;
      const m = byId.get(id);
      if (m === undefined || mirrorToExport[m] !== -1) continue;
      if (eHas(e) && mHas(m) && !same(e, m)) continue;
      pair(e, m, RULE_ID);
    }
  }

  // Pass 3: phone + amount + nearest time, where one side has no reference.
  const candidates = new Map<string, number[]>();
  for (let m = 0; m < mir.length; m++) {
    if (mirrorToExport[m] !== -1) continue;
    const d = mir.detail(m);
    const key = `${d.phone}|${mir.amountKobo[m]}`;
    const list = candidates.get(key);
    if (list) list.push(m);
    else candidates.set(key, [m]);
  }
  if (candidates.size > 0) {
    for (let e = 0; e < exp.length; e++) {
      if (exportToMirror[e] !== -1 || (inRange && inRange[e] === 0)) continue;
      const t = exp.createdMs[e];
      if (Number.isNaN(t)) continue;
      const list = candidates.get(`${exp.detail(e).phone}|${exp.amountKobo[e]}`);
      if (!list) continue;
      let best = -1;
      let bestGap = Infinity;
      for (const m of list) {
        if (mirrorToExport[m] !== -1) continue;
        if (eHas(e) && mHas(m)) continue;
        const gap = Math.abs(mir.createdMs[m] - t);
        if (gap <= options.windowMs && gap < bestGap) {
          best = m;
          bestGap = gap;
        }
      }
      if (best >= 0) pair(e, best, RULE_PHONE_AMOUNT_TIME);
    }
  }

  return { exportToMirror, exportRule, mirrorToExport, pairs, byRule, mirrorDuplicateReferences };
}
