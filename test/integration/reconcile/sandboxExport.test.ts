/**
 * Issue 24, finding 10: a new user on the built-in sandbox can try Reconcile end to end. The
 * sandbox's log comes as a vendor export in the service's own export format (GET /logEntries with
 * download=true: the page as CSV), from the window's operation and from `vendesk sandbox export`;
 * every transaction of the service's log is in it once, and reconciling it matches every one.
 * A LIVE connection is refused: its export comes from the vendor.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EXCEPTION_CATEGORIES } from '../../../src/shared/contract/reconcile';
import { allLogEntries } from '../../support/serviceLogEntries';
import { startTestApp, type TestApp } from '../../support/testApp';
import { refusal } from '../../support/refusal';
import { runInProcess } from '../cli/cliHarness';

let t: TestApp | null = null;
afterEach(async () => {
  await t?.close();
  t = null;
});

/** The transaction ids of a CSV export, from its transaction_id column. */
function transactionIds(file: string): string[] {
  const [header, ...rows] = fs.readFileSync(file, 'utf8').trim().split(/\r?\n/);
  const column = header.split(',').indexOf('transaction_id');
  expect(column).toBeGreaterThanOrEqual(0);
  return rows.map((r) => r.split(',')[column]);
}

describe('the sandbox vendor export', () => {
  it('holds every transaction of the service log once, and reconciles with every one matched', { timeout: 120_000 }, async () => {
    // 230 entries: three pages of 100, so the pages are joined under one header.
    t = await startTestApp({ seedHistory: 230 });
    await t.call('sync.run', {});
    const written = await t.call('reconcile.sandboxExport', {});
    const log = await allLogEntries(t.sandbox.url, t.token);
    expect(log.length).toBeGreaterThan(200);
    const ids = transactionIds(written.path);
    expect(written.rows).toBe(log.length);
    expect(ids.sort()).toEqual(log.map((e) => e.transaction_id).sort());
    expect(written.fileName).toMatch(/^Sandbox vendor export .*\.csv$/);

    const run = await t.call('reconcile.start', { file: { path: written.path } });
    expect(run.state).toBe('done');
    expect(run.totals.matched.count).toBe(log.length);
    for (const category of EXCEPTION_CATEGORIES) expect(run.totals[category].count, category).toBe(0);
    expect(run.unreadable).toEqual([]);
  });

  it('a LIVE connection is refused: its vendor export comes from the vendor', async () => {
    t = await startTestApp({ live: true });
    const refused = await refusal(t.call('reconcile.sandboxExport', {}));
    expect(refused.code).toBe('not_sandbox');
    expect(refused.hint).toMatch(/vendor's portal/);
  });
});

describe('vendesk sandbox export', () => {
  it("writes the embedded sandbox's export, and vendesk reconcile matches every row of it", { timeout: 120_000 }, async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-sandbox-export-'));
    try {
      // The embedded sandbox (no --base-url): what a new user has. Buy something, sync, export.
      const env = {};
      const bought = await runInProcess(['--data-dir', dataDir, '--json', 'buy', 'airtime', '--phone', '08031234567', '--amount', '500', '--yes'], env);
      expect(bought.code, bought.stderr).toBe(0);
      expect((await runInProcess(['--data-dir', dataDir, '--json', 'sync'], env)).code).toBe(0);
      const out = path.join(dataDir, 'vendor export.csv');
      const exported = await runInProcess(['sandbox', 'export', '--out', out, '--data-dir', dataDir, '--json'], env);
      expect(exported.code, exported.stderr).toBe(0);
      const doc = JSON.parse(exported.stdout) as { path: string; rows: number };
      expect(doc.path).toBe(out);
      expect(transactionIds(out)).toHaveLength(doc.rows);
      const reconciled = await runInProcess(['--data-dir', dataDir, '--json', 'reconcile', out], env);
      expect(reconciled.code, reconciled.stderr).toBe(0);
      const runs = JSON.parse((await runInProcess(['--data-dir', dataDir, '--json', 'reconcile', 'runs'], env)).stdout) as { matched: number; exceptions: number }[];
      // Every row of the export (the demo history and the purchase just made) is matched; nothing to look at.
      expect(runs[0]).toMatchObject({ matched: doc.rows, exceptions: 0 });
      expect(doc.rows).toBeGreaterThan(1);

      const text = await runInProcess(['sandbox', 'export', '--data-dir', dataDir], env);
      expect(text.stdout).toMatch(/Wrote the sandbox's log \(\d+ transactions\) as a vendor export to .*Sandbox vendor export .*\.csv\.\nReconcile it: vendesk reconcile/);
      const wrongExt = await runInProcess(['sandbox', 'export', '--out', path.join(dataDir, 'x.xlsx'), '--data-dir', dataDir], env);
      expect(wrongExt.code).toBe(2);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
