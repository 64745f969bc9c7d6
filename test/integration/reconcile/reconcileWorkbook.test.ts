/**
 * The reconciliation workbook and the spend report open in LibreOffice (Debian's package): each
 * is converted headless, every sheet to CSV and back to XLSX, and the numbers read back are the
 * run's (as number cells), text is exactly the text (no apostrophe, never a formula), and each
 * item vendesk sent itself names its record and state.
 */
import fs from 'node:fs';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBulkService } from '../../../src/main/buying/bulkService';
import { CATEGORY_LABELS, CATEGORY_SHORT_LABELS, RECONCILE_CATEGORIES, type ReconcileItemView, type ReconcileRunView } from '../../../src/shared/contract/reconcile';
import type { BulkItemView } from '../../../src/shared/contract/bulk';
import type { PurchaseView } from '../../../src/shared/contract/purchases';
import type { LogEntry } from '../../../src/shared/wire';
import { cellsViaLibreOffice, sheetsViaLibreOffice, type ReadCell } from '../../support/libreOffice';
import { serviceLog, serviceSpend } from '../../support/serviceSpend';
import { formatNaira } from '../../../src/shared/money';
import { startTestApp, type TestApp } from '../../support/testApp';
import { airtimeRows, tempDir, writeCsv } from '../bulk/bulkTestFiles';
import { cli, pauseLoop } from '../purchases/purchaseHelpers';
import { buyElectricity, CUSTOMER_PHONE, exportVendorLog, meter, reconcile, sync, vendorLog } from './reconcileHelpers';

const naira = (kobo: number) => kobo / 100;

let t: TestApp;
let run: ReconcileRunView;
let dir: string;
/** What vendesk sent in this test: two bulk airtime rows, a bulk electricity row, two single purchases. */
let bulkAirtime: { jobId: string; items: BulkItemView[] };
let bulkElectricity: { jobId: string; items: BulkItemView[] };
let bought: PurchaseView;
let pendingPurchase: PurchaseView;
let log: LogEntry[];

async function runBulk(file: string, kind: 'airtime' | 'electricity'): Promise<{ jobId: string; items: BulkItemView[] }> {
  const preview = await t.call('bulk.prepare', { file: { path: file }, kind });
  await t.call('bulk.confirm', { jobId: preview.job.id, wait: true });
  return { jobId: preview.job.id, items: (await t.call('bulk.items', { jobId: preview.job.id, limit: 100 })).items };
}

beforeAll(async () => {
  t = await startTestApp({ seedHistory: 60 });
  dir = tempDir();
  pauseLoop(t);
  const bulk = t.app.service(createBulkService);
  bulk.timing = { ...bulk.timing, pollMs: 300, tickMs: 50, backoffBaseMs: 200, holdBaseMs: 500 };
  await t.call('bulk.settings.set', { outcomeWaitSeconds: 30, uncertainSafeDelaySeconds: 1 });
  await sync(t);
  bulkAirtime = await runBulk(writeCsv(dir, 'staff.csv', airtimeRows(2, 150, 40)), 'airtime');
  bulkElectricity = await runBulk(
    writeCsv(dir, 'meters.csv', [
      ['Name', 'Meter number', 'Disco', 'Meter type', 'Amount', 'Phone'],
      ['Head office', meter(), 'IKEDC', 'PREPAID', 3000, CUSTOMER_PHONE],
    ]),
    'electricity',
  );
  bought = await buyElectricity(t, meter(), 2500);
  pendingPurchase = await buyElectricity(t, meter('0000'), 1500); // pending
  await sync(t);
  log = await vendorLog(t);
  const changed = bulkAirtime.items[0].reference;
  const file = await exportVendorLog(t, (rows) =>
    rows
      .filter((_, i) => i !== 10)
      .map((r, i) => (i === 12 ? { ...r, amount: 'NGN 12,345.67' } : i === 14 ? { ...r, transaction_id: '=HYPERLINK("http://evil")' } : r))
      // The vendor's export has one of the bulk rows at another amount.
      .map((r) => (r.transaction_id === changed ? { ...r, amount: 'NGN 175.00' } : r)),
  );
  run = await reconcile(t, file);
}, 120_000);

afterAll(async () => {
  await t?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
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
    expect(summary[0]).toEqual(['Section', 'Item', 'Count', 'Amount (₦)', 'Value', 'When (Lagos)']);
    for (const c of RECONCILE_CATEGORIES) {
      const row = summary.find((r) => r[0] === 'Categories' && r[1] === CATEGORY_LABELS[c]);
      expect(row, c).toBeDefined();
      expect(Number(row?.[2])).toBe(run.totals[c].count);
      expect(Number(row?.[3])).toBeCloseTo(naira(run.totals[c].amountKobo), 2);
    }
    const rf = run.rollForward;
    expect(rf?.available).toBe(true);
    const line = (item: string) => Number(summary.find((r) => r[0] === 'Wallet roll-forward' && r[1] === item)?.[3]);
    expect(line('Opening balance (reading)')).toBeCloseTo(naira(rf?.openingKobo ?? NaN), 2);
    expect(line('Closing balance (reading)')).toBeCloseTo(naira(rf?.closingKobo ?? NaN), 2);
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
    // A formula in the export is exactly its text in the workbook: no apostrophe added, never run.
    const cell = (sheets.get(CATEGORY_SHORT_LABELS.missingLocally) ?? []).flat().find((v) => v.includes('HYPERLINK'));
    expect(cell).toBe('=HYPERLINK("http://evil")');
    // The roll-forward's labels read as written, without a literal apostrophe.
    const labels = summary.filter((r) => r[0] === 'Wallet roll-forward').map((r) => r[1]);
    expect(labels).toEqual(expect.arrayContaining(['+ Refunds of failed purchases', '= Expected closing balance', '− Successful purchases (cost)']));
    expect(summary.flat().filter((v) => v.startsWith("'"))).toEqual([]);
  }, 180_000);

  it('stores counts and amounts as number cells and no cell is a formula, as LibreOffice reads it', async () => {
    const written = await t.call('reconcile.exportWorkbook', { runId: run.id });
    const sheets = await cellsViaLibreOffice(written.path);
    const summary = sheets.get('Summary');
    if (!summary) throw new Error('no Summary sheet');
    const rows = new Map<number, Map<string, ReadCell>>();
    for (const [address, c] of summary) {
      const [, col, row] = /^([A-Z]+)(\d+)$/.exec(address) ?? [];
      const r = rows.get(Number(row)) ?? new Map();
      r.set(col, c);
      rows.set(Number(row), r);
    }
    let counts = 0;
    let amounts = 0;
    for (const [n, r] of rows) {
      if (n === 1) continue;
      const count = r.get('C');
      const amount = r.get('D');
      if (count) {
        expect(count.type, `C${n}`).toBe('Number');
        expect(Number.isInteger(count.value)).toBe(true);
        counts++;
      }
      if (amount) {
        expect(amount.type, `D${n}`).toBe('Number');
        expect(amount.numFmt).toMatch(/₦.*0\.00/);
        amounts++;
      }
    }
    // Every category's count and amount, and the roll-forward's ten lines.
    expect(counts).toBeGreaterThanOrEqual(RECONCILE_CATEGORIES.length);
    expect(amounts).toBeGreaterThanOrEqual(RECONCILE_CATEGORIES.length + 10);
    const matchedRow = [...rows.values()].find((r) => r.get('B')?.value === CATEGORY_LABELS.matched);
    expect(matchedRow?.get('C')?.value).toBe(run.totals.matched.count);
    expect(matchedRow?.get('D')?.value).toBeCloseTo(naira(run.totals.matched.amountKobo), 2);

    for (const [name, cells] of sheets) {
      for (const [address, c] of cells) {
        expect(c.formula, `${name}!${address}`).toBeUndefined();
        expect(c.type, `${name}!${address}`).not.toBe('Formula');
      }
    }
    const evil = [...(sheets.get(CATEGORY_SHORT_LABELS.missingLocally)?.values() ?? [])].find((c) => String(c.value).includes('HYPERLINK'));
    expect(evil).toMatchObject({ type: 'String', value: '=HYPERLINK("http://evil")' });
    // An amount column of a category sheet: numbers.
    const mismatch = sheets.get(CATEGORY_SHORT_LABELS.amountMismatch);
    expect(mismatch?.get('I2')).toMatchObject({ type: 'Number' });
  }, 180_000);

  it("names vendesk's record and state on every paired item it sent itself, in the run and in the workbook", async () => {
    const items = new Map<string, ReconcileItemView>();
    for (const c of RECONCILE_CATEGORIES) {
      for (let offset = 0; ; offset += 1000) {
        const page = await t.call('reconcile.items', { runId: run.id, category: c, offset, limit: 1000 });
        for (const i of page.items) items.set(i.transactionId, i);
        if (offset + 1000 >= page.total) break;
      }
    }
    const expected = [
      ...bulkAirtime.items.map((i) => ({ reference: i.reference, localRef: `bulk:${bulkAirtime.jobId}/${i.row}`, state: i.state })),
      ...bulkElectricity.items.map((i) => ({ reference: i.reference, localRef: `bulk:${bulkElectricity.jobId}/${i.row}`, state: i.state })),
      { reference: bought.reference, localRef: `purchase:${bought.id}`, state: 'success' },
      { reference: pendingPurchase.reference, localRef: `purchase:${pendingPurchase.id}`, state: 'pending' },
    ];
    expect(expected).toHaveLength(5);
    // Each is a transaction of the service's own log, and vendesk counted each once.
    for (const x of expected)
      expect(
        log.filter((e) => e.transaction_id === x.reference),
        String(x.reference),
      ).toHaveLength(1);
    expect(run.inputs?.localSubmissions).toBe(5);
    for (const x of expected) {
      expect(items.get(x.reference ?? ''), x.localRef).toMatchObject({ localRef: x.localRef, localState: x.state });
    }
    expect(items.get(bulkAirtime.items[0].reference ?? '')?.category).toBe('amountMismatch');
    expect(items.get(pendingPurchase.reference ?? '')?.category).toBe('pending');
    expect(items.get(bought.reference ?? '')?.category).toBe('matched');
    // The rest of the log is not vendesk's.
    const ours = new Set(expected.map((x) => x.reference));
    for (const [tx, i] of items) if (!ours.has(tx)) expect(i.localRef, tx).toBeNull();

    const written = await t.call('reconcile.exportWorkbook', { runId: run.id });
    const sheets = sheetsViaLibreOffice(written.path);
    for (const x of expected) {
      const rows = [...sheets.values()].flatMap((rowsOf) => rowsOf.map((r) => ({ r, header: rowsOf[0] })));
      const hit = rows.find(({ r, header }) => r[header.indexOf('Transaction id')] === x.reference);
      expect(hit, x.localRef).toBeDefined();
      const { r, header } = hit ?? { r: [], header: [] };
      expect(r[header.indexOf('vendesk record')]).toBe(x.localRef);
      expect(r[header.indexOf('vendesk state')]).toBe(x.state);
    }
  }, 180_000);

  it('writes one category as CSV on request', async () => {
    const written = await t.call('reconcile.exportCsv', { runId: run.id, category: 'amountMismatch' });
    const rows = Papa.parse<string[]>(fs.readFileSync(written.path, 'utf8').replace(/^\uFEFF/, ''), { skipEmptyLines: true }).data;
    const col = (name: string) => rows[0].indexOf(name);
    expect(rows).toHaveLength(1 + run.totals.amountMismatch.count);
    expect(
      rows
        .slice(1)
        .map((r) => r[col('Export amount (₦)')])
        .sort(),
    ).toEqual(['12345.67', '175.00']);
    const bulkRow = rows.find((r) => r[col('Transaction id')] === bulkAirtime.items[0].reference);
    expect(bulkRow?.[col('vendesk record')]).toBe(`bulk:${bulkAirtime.jobId}/${bulkAirtime.items[0].row}`);
    expect(bulkRow?.[col('vendesk state')]).toBe('success');
  });
});

describe('spend report', () => {
  // Lagos days (UTC+1), written here apart from vendesk's helpers; spend is what left the wallet
  // (successful and pending purchases), the refunded ones apart.
  // Today is the sandbox's (the clock its log entries are made on), not this computer's.
  const LAGOS_MS = 3_600_000;
  const lagosDay = (ms: number) => new Date(ms + LAGOS_MS).toISOString().slice(0, 10);
  let today = '';
  let from = '';
  beforeAll(async () => {
    const now = Date.parse((await t.sandboxControl.clock()).now);
    today = lagosDay(now);
    from = lagosDay(now - 100 * 86_400_000);
  });
  const inDays = (e: LogEntry) => lagosDay(Date.parse(e.created_at)) >= from && lagosDay(Date.parse(e.created_at)) <= today;
  const inRange = (e: LogEntry) => e.status !== 'FAILED' && inDays(e);

  it('gives the face value and wallet cost of successful purchases as the service logged them, as numbers on every sheet', async () => {
    const written = await t.call('reports.spend', { from, to: today });
    const serviceEntries = (await serviceLog(t)).filter(inRange);
    const service = serviceSpend(serviceEntries, () => true);
    const commissionKobo = serviceEntries.reduce((sum, e) => sum + Math.round(e.commission * 100), 0);
    expect(service.costKobo).toBeLessThan(service.faceKobo);
    const refunded = serviceSpend(await serviceLog(t), (e) => e.status === 'FAILED' && inDays(e));
    // No message was sent through vendesk here: what left the wallet is the purchases' wallet cost.
    expect(written.totals).toMatchObject({ ...service, commissionKobo, refunded: { count: refunded.purchases, costKobo: refunded.costKobo }, walletKobo: service.costKobo });
    expect(written.totals.messaging).toMatchObject({ sends: 0, costKobo: 0, uncertain: { sends: 0 } });

    // The chart beside it plots the wallet cost and says both totals.
    expect(written.chart?.fileName).toMatch(/chart\.svg$/);
    const svg = fs.readFileSync(written.chart?.path ?? '', 'utf8');
    expect(svg).toMatch(/^<svg[\s\S]*Spend by day/);
    expect(svg).toContain(`Face value ${formatNaira(service.faceKobo)} · Wallet cost ${formatNaira(service.costKobo)}`);

    const sheets = sheetsViaLibreOffice(written.path);
    expect([...sheets.keys()].sort()).toEqual(['By cost centre and type', 'By day', 'By day and type', 'By network', 'By type', 'Summary']);
    for (const name of ['By day', 'By type', 'By network', 'By day and type', 'By cost centre and type']) {
      const rows = sheets.get(name) ?? [];
      const col = (h: string) => rows[0].indexOf(h);
      const sum = (h: string) => rows.slice(1).reduce((s, r) => s + Math.round(Number(r[col(h)]) * 100), 0);
      expect({ purchases: sum('Purchases') / 100, faceKobo: sum('Face value (₦)'), costKobo: sum('Wallet cost (₦)') }, name).toEqual(service);
    }
    const byType = sheets.get('By type') ?? [];
    for (const type of ['AIRTIME', 'ELECTRICITY']) {
      const row = byType.find((r) => r[0] === type);
      const expected = serviceSpend(serviceEntries, (e) => e.type === type);
      expect([Number(row?.[1]), Math.round(Number(row?.[2]) * 100), Math.round(Number(row?.[3]) * 100)], type).toEqual([expected.purchases, expected.faceKobo, expected.costKobo]);
    }

    // As LibreOffice reads it: the Summary's range as dates, its totals as number cells.
    const cells = await cellsViaLibreOffice(written.path);
    const summary = cells.get('Summary');
    expect(summary?.get('A1')?.value).toBe('Item');
    expect(summary?.get('B2')).toMatchObject({ type: 'Date' });
    expect((summary?.get('B2')?.value as Date).toISOString().slice(0, 10)).toBe(from);
    expect((summary?.get('B3')?.value as Date).toISOString().slice(0, 10)).toBe(today);
    expect(summary?.get('A4')?.value).toBe('Successful and pending purchases');
    for (const [address, expected] of [
      ['C4', service.purchases],
      ['D4', service.faceKobo / 100],
      ['E4', service.costKobo / 100],
      ['F4', commissionKobo / 100],
    ] as const) {
      expect(summary?.get(address), address).toMatchObject({ type: 'Number' });
      expect(summary?.get(address)?.value, address).toBeCloseTo(expected, 2);
    }
    expect(summary?.get('D4')?.numFmt).toMatch(/₦.*0\.00/);
    for (const [name, sheet] of cells) {
      if (name === 'Summary') continue;
      for (const [address, c] of sheet) {
        if (/^[A-Z]+1$/.test(address)) continue; // headers
        const column = address.replace(/\d+$/, '');
        const isText =
          name === 'By type' || name === 'By network'
            ? column === 'A'
            : name === 'By cost centre and type'
              ? column === 'A' || column === 'B'
              : name === 'By day and type' && column === 'B';
        const isDate = (name === 'By day' || name === 'By day and type') && column === 'A';
        expect(c.type, `${name}!${address}`).toBe(isText ? 'String' : isDate ? 'Date' : 'Number');
      }
    }
  }, 180_000);

  it('says both figures on the command line', async () => {
    const r = await cli(t, ['report', 'spend', '--from', from, '--to', today]);
    expect(r.code).toBe(0);
    const service = serviceSpend(await serviceLog(t), inRange);
    expect(JSON.parse(r.stdout)).toMatchObject({ purchases: service.purchases, faceValue: service.faceKobo / 100, walletCost: service.costKobo / 100 });
    expect(fs.existsSync(JSON.parse(r.stdout).workbook)).toBe(true);
  });
});
