/**
 * The path of a bulk job's confirmation, from the handler to the first purchase request, as it
 * runs (scripts/confirmationPath.ts steps through it with the inspector): the job is read once
 * and goes along as a row, and the path stays within the files and returns measured when it was
 * straightened (issue 27; docs/architecture.md). A change that adds a file or a call back into one
 * the path had left fails here, and prints the path.
 */
import { describe, expect, it } from 'vitest';
import { traceOf } from '../../support/codePath';

/**
 * Issue 27's bound: at most half the files (15 of the job's own code before its work, 28 of all
 * of src/; the issue counted 19) and fewer than 10 returns (43 before; the issue counted 28).
 * Issue 39 gave each state machine one door: the job's store became its lifecycle (the draft's
 * read, the confirming write, the connection's rule) and its items' moves (the batch to send and
 * its `sending` write), one file more on the path than the one store; the confirming write begins
 * the run, so the path comes back two times fewer (7 files and 9 returns before it).
 */
const BUDGET = { files: 8, returns: 7 };

describe("a bulk job's confirmation path", () => {
  // The inspector steps through some 2,000 statements, one round trip each: minutes on a busy
  // machine (beside the single purchase's trace, singlePurchasePath.test.ts). A hang guard, not a measure.
  it('reads the job once, begins its run once, and stays within its budget of files and returns', { timeout: 480_000 }, () => {
    const { own } = traceOf('scripts/confirmationPath.ts');
    const calls = (fn: string) => own.path.filter((p) => p === fn).length;
    // The draft and its totals are read once; nothing else reads the job again, nor builds a view of it.
    expect(calls('jobLifecycle:draftToConfirm')).toBe(1);
    expect(own.path.filter((p) => /^jobReads:/.test(p))).toEqual([]);
    expect(own.path).not.toContain('jobViews:jobView');
    // The run begins, its lease taken, in the confirming write: one statement.
    expect(calls('jobLifecycle:confirm')).toBe(1);
    expect(own.path).not.toContain('jobLifecycle:beginRun');
    // The batch's items move to `sending` by their one door, before the request leaves.
    expect(own.path.slice(-3)).toEqual(['itemMoves:markSending', '↩ jobRunner:launchBatches', 'airtimeDataSending:send']);
    expect({ files: own.files.length, returns: own.returns }, own.path.join(' → ')).toEqual({
      files: Math.min(own.files.length, BUDGET.files),
      returns: Math.min(own.returns, BUDGET.returns),
    });
  });
});
