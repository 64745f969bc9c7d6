import { describe, expect, it } from 'vitest';
import { packPairs, unpackPairs } from '../../../src/main/reconcile/reconcileRunStore';

/** Pairs as plain arrays, to compare what comes back with what went in. */
function plain(p: { logIds: Float64Array; exportRows: Int32Array; rules: Uint8Array }) {
  return { logIds: [...p.logIds], exportRows: [...p.exportRows], rules: [...p.rules] };
}

function roundTrip(logIds: number[], exportRows: number[], rules: number[]) {
  const blob = packPairs(Float64Array.from(logIds), Int32Array.from(exportRows), Uint8Array.from(rules));
  return { blob, back: plain(unpackPairs(Buffer.from(blob))) };
}

describe("a run's matched pairs as stored", () => {
  it('come back exactly: in order, with gaps, backwards, large and negative ids, every rule', () => {
    const logIds = [1, 2, 3, 10, 9, 2 ** 40, 2 ** 50, -(2 ** 50), 0, 7, 8];
    const exportRows = [2, 3, 4, 5, 1_000_000, 7, 2 ** 31 - 1, 3, -5, 6, 7];
    const rules = [1, 1, 2, 3, 0, 1, 2, 3, 1, 1, 1];
    expect(roundTrip(logIds, exportRows, rules).back).toEqual({ logIds, exportRows, rules });
  });

  it('a million pairs in file order take about two bytes each, not thirteen', () => {
    const n = 1_000_000;
    const logIds = new Float64Array(n);
    const exportRows = new Int32Array(n);
    const rules = new Uint8Array(n).fill(1);
    for (let k = 0; k < n; k++) {
      logIds[k] = 5_000 + k + (k % 1000 === 0 ? 3 : 0) * Math.floor(k / 1000);
      exportRows[k] = 2 + k + Math.floor(k / 997);
    }
    rules[10] = 2;
    rules[20] = 3;
    const blob = packPairs(logIds, exportRows, rules);
    expect(blob.length).toBeLessThan(2.1 * n);
    const back = unpackPairs(Buffer.from(blob));
    const bytes = (a: ArrayBufferView) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
    expect(bytes(back.logIds).equals(bytes(logIds))).toBe(true);
    expect(bytes(back.exportRows).equals(bytes(exportRows))).toBe(true);
    expect(bytes(back.rules).equals(bytes(rules))).toBe(true);
  });

  it('ids the short form cannot hold exactly are kept in the fixed-width form, and read back', () => {
    for (const odd of [1.5, 2 ** 52, Number.NaN]) {
      const { blob, back } = roundTrip([1, odd, 3], [2, 3, 4], [1, 1, 1]);
      expect(blob.readUInt32LE(4)).toBe(0);
      expect(back.logIds).toEqual([1, odd, 3]);
      expect(back.exportRows).toEqual([2, 3, 4]);
    }
  });

  it('runs saved before the short form (fixed-width columns) still read', () => {
    const n = 3;
    const old = Buffer.alloc(8 + n * 13);
    old.writeUInt32LE(n, 0);
    [11, 12, 40].forEach((id, k) => old.writeDoubleLE(id, 8 + k * 8));
    [2, 3, 9].forEach((row, k) => old.writeInt32LE(row, 8 + n * 8 + k * 4));
    [1, 2, 3].forEach((rule, k) => old.writeUInt8(rule, 8 + n * 12 + k));
    expect(plain(unpackPairs(old))).toEqual({ logIds: [11, 12, 40], exportRows: [2, 3, 9], rules: [1, 2, 3] });
    expect(plain(unpackPairs(null))).toEqual({ logIds: [], exportRows: [], rules: [] });
  });
});
