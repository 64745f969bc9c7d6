/** A mirror read into columns (threadedReaders' `ParsedMirror`) as plain values, to compare two readings. */
import type { ParsedMirror } from '../../src/main/reconcile/threadedReaders';

/** Every entry's reference (as text), columns and the running hash, wherever its bytes sit. */
export function mirrorEntriesOf(p: ParsedMirror) {
  return {
    n: p.n,
    references: Array.from({ length: p.n }, (_, k) => p.bytes.toString('utf8', p.txStart[k], p.txEnd[k])),
    txHash: [...p.txHash],
    logId: [...p.logId],
    amountKobo: [...p.amountKobo],
    costKobo: [...p.costKobo],
    status: [...p.status],
    createdMs: [...p.createdMs],
    updatedMs: [...p.updatedMs],
    h: [p.h1, p.h2],
  };
}
