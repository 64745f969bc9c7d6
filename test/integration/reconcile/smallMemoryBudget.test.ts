/**
 * Issue 42: reconcile holds a slice of the mirror and a chunk of the export at a time. With the
 * smallest budget — 3 mirror entries a slice, 64 bytes of the export a chunk — a sandbox export
 * (with rows dropped, an amount and a status changed, as a vendor's file may differ) gives the
 * run the default budget gives, and both give what the sandbox's own log says: every entry
 * matched but the ones changed, each in its category.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { EXCEPTION_CATEGORIES, RECONCILE_CATEGORIES } from '../../../src/shared/contract/reconcile';
import { reconcileFile } from '../../../src/main/reconcile/reconcileService';
import { itemsPage, matchedPairs, runView } from '../../../src/main/reconcile/reconcileRunStore';
import { readMirror } from '../../../src/main/reconcile/mirrorEntries';
import { allLogEntries } from '../../support/serviceLogEntries';
import { startTestApp, type TestApp } from '../../support/testApp';
import { exportVendorLog } from './reconcileHelpers';

let t: TestApp | null = null;
afterEach(async () => {
  await t?.close();
  t = null;
});

describe('reconcile with a tiny memory budget', () => {
  it('gives the default budget’s run, and the sandbox log’s answer, with 3-entry mirror slices and 64-byte export chunks', { timeout: 180_000 }, async () => {
    t = await startTestApp({ seedHistory: 230 });
    await t.call('sync.run', {});
    const log = await allLogEntries(t.sandbox.url, t.token);
    expect(log.length).toBeGreaterThan(200);
    const succeeded = log.filter((e) => e.status === 'SUCCESS');
    const dropped = succeeded[10].transaction_id;
    const repriced = succeeded[50].transaction_id;
    const failedInExport = succeeded[120].transaction_id;
    const file = await exportVendorLog(t, (rows) =>
      rows
        .filter((r) => r.transaction_id !== dropped)
        .map((r) => (r.transaction_id === repriced ? { ...r, amount: 'NGN 999,999.00' } : r.transaction_id === failedInExport ? { ...r, status: 'FAILED' as const } : r)),
    );

    const db = t.app.db;
    const profileId = t.app.connection.profileId;
    const request = { path: file, fileName: 'export.csv', profileId, matchWindowMinutes: 15, duplicateWindowMinutes: 10 };
    const roomy = runView(db, (await reconcileFile(db, request)).runId);
    const tiny = runView(db, (await reconcileFile(db, { ...request, mirrorSliceRows: 3, exportChunkBytes: 64 })).runId);

    // What the sandbox's log says: the three changed entries are exceptions, every other one is matched.
    expect(tiny.state).toBe('done');
    expect(tiny.totals.matched.count).toBe(log.length - 3);
    expect(tiny.totals.missingInExport.count).toBe(1);
    expect(tiny.totals.amountMismatch.count).toBe(1);
    expect(tiny.totals.statusMismatch.count).toBe(1);
    for (const category of EXCEPTION_CATEGORIES.filter((c) => !['missingInExport', 'amountMismatch', 'statusMismatch'].includes(c))) {
      expect(tiny.totals[category].count, category).toBe(0);
    }
    const itemsOf = (runId: string) =>
      RECONCILE_CATEGORIES.filter((c) => c !== 'matched').flatMap((c) => itemsPage(db, runId, c, 0, 1000).items.map((i) => ({ ...i, id: undefined, runId: undefined })));
    const exceptions = itemsOf(tiny.id);
    expect(exceptions.map((i) => [i.category, i.transactionId]).sort()).toEqual(
      [
        ['amountMismatch', repriced],
        ['missingInExport', dropped],
        ['statusMismatch', failedInExport],
      ].sort(),
    );

    // The same run as with the default budget: figures, inputs read (the mirror's fingerprint
    // included), exceptions, and every matched pair.
    const figures = (r: typeof tiny) => ({ totals: r.totals, matchedByRule: r.matchedByRule, rollForward: r.rollForward, inputs: r.inputs, unreadable: r.unreadable });
    expect(figures(tiny)).toEqual(figures(roomy));
    expect(exceptions).toEqual(itemsOf(roomy.id));
    const pairs = (runId: string) => {
      const p = matchedPairs(db, runId);
      return { logIds: [...p.logIds], exportRows: [...p.exportRows], rules: [...p.rules] };
    };
    const tinyPairs = pairs(tiny.id);
    expect(tinyPairs.logIds).toHaveLength(log.length - 3);
    expect(tinyPairs).toEqual(pairs(roomy.id));

    // The mirror read on this thread (as when days were read first) in slices of 1, 3 and 250,000: the same columns.
    const from = '2000-01-01T00:00:00.000Z';
    const to = '2100-01-01T00:00:00.000Z';
    const columns = (sliceRows?: number) => {
      const m = readMirror(db, profileId, from, to, sliceRows);
      const c = m.columns;
      return { hash: m.hash, ids: [...m.ids], tx: c.txId, amount: [...c.amountKobo], status: [...c.status], created: [...c.createdMs], updated: [...(c.updatedMs ?? [])] };
    };
    const whole = columns();
    expect(whole.ids).toHaveLength(log.length);
    expect(columns(1)).toEqual(whole);
    expect(columns(3)).toEqual(whole);

    // The columns are first sized by the mirror's totals per day; when those are behind the
    // entries (as before a first sync has counted them), they grow: the same columns, and on the
    // background worker the same run.
    db.prepare('UPDATE log_day_totals SET entries = 0 WHERE profile_id = ?').run(profileId);
    expect(columns(3)).toEqual(whole);
    expect(columns()).toEqual(whole);
    const behind = runView(db, (await reconcileFile(db, { ...request, mirrorSliceRows: 7 })).runId);
    expect(figures(behind)).toEqual(figures(roomy));
    expect(pairs(behind.id)).toEqual(pairs(roomy.id));
  });
});
