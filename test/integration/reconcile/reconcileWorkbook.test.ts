/**
 * The reconciliation workbook and the spend report open in LibreOffice (Debian's package): each
 * is converted headless, every sheet to CSV, and the numbers read back are the run's.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATEGORY_LABELS, CATEGORY_SHORT_LABELS, RECONCILE_CATEGORIES, type ReconcileRunView } from '../../../src/shared/contract/reconcile';
import { startTestApp, type TestApp } from '../../support/testApp';
import { pauseLoop } from '../purchases/purchaseHelpers';
import { buyElectricity, exportVendorLog, meter, reconcile, sync } from './reconcileHelpers';

const SOFFICE = '/usr/bin/soffice';

/** Every sheet of a workbook as rows of cells, through LibreOffice's CSV export (raw values, not as shown). */
function sheetsViaLibreOffice(file: string): Map<string, string[][]> {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-lo-'));
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-lo-profile-'));
  try {
    const r = spawnSync(
      SOFFICE,
      ['--headless', '--norestore', `-env:UserInstallation=file://${profile}`, '--convert-to', 'csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false,-1', '--outdir', out, file],
      { encoding: 'utf8', timeout: 120_000 },
    );
    if (r.status !== 0) throw new Error(`soffice failed: ${r.stderr}`);
    const base = path.basename(file, '.xlsx');
    const sheets = new Map<string, string[][]>();
    for (const f of fs.readdirSync(out)) {
      const name = f.slice(base.length + 1, -'.csv'.length);
      sheets.set(name, Papa.parse<string[]>(fs.readFileSync(path.join(out, f), 'utf8'), { skipEmptyLines: true }).data);
    }
    return sheets;
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
    fs.rmSync(profile, { recursive: true, force: true });
  }
}

const naira = (kobo: number) => kobo / 100;

let t: TestApp;
let run: ReconcileRunView;

beforeAll(async () => {
  t = await startTestApp({ seedHistory: 60 });
  pauseLoop(t);
  await sync(t);
  await buyElectricity(t, meter(), 2500);
  await buyElectricity(t, meter('0000'), 1500); // pending
  await sync(t);
  const file = await exportVendorLog(t, (rows) =>
    rows
      .filter((_, i) => i !== 10)
      .map((r, i) => (i === 12 ? { ...r, amount: 'NGN 12,345.67' } : i === 14 ? { ...r, transaction_id: '=HYPERLINK("http://evil")' } : r)),
  );
  run = await reconcile(t, file);
}, 60_000);

afterAll(async () => {
  await t?.close();
});

describe('reconciliation workbook', () => {
  it('opens in LibreOffice with the Summary and one sheet per non-empty category, numbers equal to the run', async () => {
    const written = await t.call('reconcile.exportWorkbook', { runId: run.id });
    expect(written.fileName).toMatch(/^Reconciliation .*\.xlsx$/);
    const sheets = sheetsViaLibreOffice(written.path);
    const nonEmpty = RECONCILE_CATEGORIES.filter((c) => run.totals[c].count > 0);
    expect([...sheets.keys()].sort()).toEqual(['Summary', ...nonEmpty.map((c) => CATEGORY_SHORT_LABELS[c])].sort());
    expect(nonEmpty).toEqual(expect.arrayContaining(['matched', 'missingInExport', 'amountMismatch', 'missingLocally', 'pending']));

    const summary = sheets.get('Summary') ?? [];
    expect(summary[0]).toEqual(['Section', 'Item', 'Count', 'Amount (₦)', 'Value']);
    for (const c of RECONCILE_CATEGORIES) {
      const row = summary.find((r) => r[0] === 'Categories' && r[1] === CATEGORY_LABELS[c]);
      expect(row, c).toBeDefined();
      expect(Number(row?.[2])).toBe(run.totals[c].count);
      expect(Number(row?.[3])).toBeCloseTo(naira(run.totals[c].amountKobo), 2);
    }
    const rf = run.rollForward;
    expect(rf?.available).toBe(true);
    const line = (item: string) => Number(summary.find((r) => r[0] === 'Wallet roll-forward' && r[1] === item)?.[3]);
    expect(line('Opening balance (snapshot)')).toBeCloseTo(naira(rf?.openingKobo ?? NaN), 2);
    expect(line('Closing balance (snapshot)')).toBeCloseTo(naira(rf?.closingKobo ?? NaN), 2);
    expect(line('Unexplained difference')).toBeCloseTo(naira(rf?.unexplainedKobo ?? NaN), 2);

    // Each category sheet: one row per item, and the amounts add up to the category total.
    for (const c of nonEmpty) {
      const rows = sheets.get(CATEGORY_SHORT_LABELS[c]) ?? [];
      const header = rows[0];
      const amountCol = header.indexOf('Amount (₦)');
      expect(rows.length - 1, c).toBe(run.totals[c].count);
      const sum = rows.slice(1).reduce((s, r) => s + Math.round(Number(r[amountCol]) * 100), 0);
      expect(sum, c).toBe(run.totals[c].amountKobo);
    }
    // A formula in the export is text in the workbook, never a formula.
    const cell = (sheets.get(CATEGORY_SHORT_LABELS.missingLocally) ?? []).flat().find((v) => v.includes('HYPERLINK'));
    expect(cell).toBe('\'=HYPERLINK("http://evil")');
  }, 180_000);

  it('writes one category as CSV on request', async () => {
    const written = await t.call('reconcile.exportCsv', { runId: run.id, category: 'amountMismatch' });
    const rows = Papa.parse<string[]>(fs.readFileSync(written.path, 'utf8').replace(/^\uFEFF/, ''), { skipEmptyLines: true }).data;
    expect(rows).toHaveLength(2);
    expect(rows[1][rows[0].indexOf('Export amount (₦)')]).toBe('12345.67');
  });
});

describe('spend report', () => {
  it('adds up spend by day, type and network, with a chart image beside the workbook', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const from = new Date(Date.now() - 100 * 86_400_000).toISOString().slice(0, 10);
    const written = await t.call('reports.spend', { from, to: today });
    expect(written.chart?.fileName).toMatch(/chart\.svg$/);
    expect(fs.readFileSync(written.chart?.path ?? '', 'utf8')).toMatch(/^<svg[\s\S]*Spend by day/);
    const totals = t.app.db
      .prepare("SELECT count(*) AS n, sum(cost_kobo) AS cost FROM log_entries WHERE profile_id = ? AND status = 'SUCCESS'")
      .get(t.app.connection.profileId) as { n: number; cost: number };
    const sheets = sheetsViaLibreOffice(written.path);
    expect([...sheets.keys()].sort()).toEqual(['By day', 'By day and type', 'By network', 'By type']);
    const byType = sheets.get('By type') ?? [];
    const costCol = byType[0].indexOf('Cost charged (₦)');
    expect(byType.slice(1).reduce((s, r) => s + Math.round(Number(r[costCol]) * 100), 0)).toBe(totals.cost);
    expect(byType.slice(1).reduce((s, r) => s + Number(r[1]), 0)).toBe(totals.n);
  }, 180_000);
});
