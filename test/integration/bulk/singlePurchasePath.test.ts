/**
 * The path of a single airtime purchase, from the `purchases.buyTopUp` handler to its purchase
 * request, as it runs (scripts/singlePath.ts steps through it with the inspector, as
 * confirmationPath.test.ts does a bulk job's confirmation): checked at the row by the one rule a
 * file's row is checked by, no one-row table; the team's gate asked once, straight; its job written
 * and begun in one commit; and the path within the files and returns issue 39 set
 * (docs/architecture.md). A change that adds a file or a call back into one the path had left fails
 * here, and prints the path.
 */
import { describe, expect, it } from 'vitest';
import { traceOf } from '../../support/codePath';

/** Issue 39's bound: 12 files and 12 returns of the purchase's own code (27 and 35 before its work). */
const BUDGET = { files: 12, returns: 12 };

describe("a single airtime purchase's path", () => {
  // The inspector steps through some 4,500 statements, one round trip each: minutes on a busy
  // machine. The timeout is a hang guard, not a measure (docs/testing.md).
  it('validates the purchase at the row, asks the team once, writes and begins its job once, and stays within its budget', { timeout: 480_000 }, () => {
    const { own } = traceOf('scripts/singlePath.ts');
    const calls = (fn: string) => own.path.filter((p) => p === fn).length;
    // Its typed fields go to the one rule of a row: no sheet is built, read or mapped for it.
    expect(calls('validateItem:validateItem')).toBe(1);
    expect(own.files.filter((f) => /imports\/(validateRows|bulkRowReaders|cellValues|columnMapping|sheetTable)\.ts$/.test(f))).toEqual([]);
    // The team's gate answers once, a straight call: nothing of the single calls back across it.
    expect(calls('purchaseApproval:gateSinglePurchase')).toBe(1);
    expect(own.path.filter((p) => p.startsWith('↩ purchaseApproval') || p.startsWith('teamGate'))).toEqual([]);
    // Its job is written and its run begun once, in one commit, before the request.
    expect(calls('jobLifecycle:createSingleJob')).toBe(1);
    expect(calls('jobLifecycle:beginSingleRun')).toBe(1);
    expect(calls('unflushedCommit:commitUnflushed')).toBe(1);
    expect(own.path[own.path.length - 1]).toBe('airtimeDataSending:send');
    expect({ files: own.files.length, returns: own.returns }, own.path.join(' → ')).toEqual({
      files: Math.min(own.files.length, BUDGET.files),
      returns: Math.min(own.returns, BUDGET.returns),
    });
  });
});
