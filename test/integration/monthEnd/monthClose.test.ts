/**
 * A month closed against the sandbox, with both clocks moved into a fresh month: purchases on four
 * cost centres (from the recipients list), a failed one refunded, an SMS, and two electricity
 * purchases still pending at month end (one settles SUCCESS, one FAILED after the close). The
 * close pack (opened by LibreOffice), the journal in its four layouts, the close, a late refund and
 * a cost-centre change after the close (adjustments of the next month, the closed month
 * unchanged), a reopen. Every expected figure comes from the sandbox's own log and wallet.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LogEntry } from '../../../src/shared/wire';
import { costKoboOf, faceKoboOf, serviceLog } from '../../support/serviceSpend';
import { workbookViaLibreOffice, type LibreOfficeCell } from '../../support/libreOfficeCells';
import { startTestApp, type TestApp } from '../../support/testApp';
import { advanceClocks, cli, pauseLoop } from '../purchases/purchaseHelpers';
import { buyElectricity, meter } from '../reconcile/reconcileHelpers';
import { buyAirtimeFor } from '../transactions/purchaseAirtime';

const LAGOS_MS = 3_600_000;
/** The recipients list: each phone's cost centre (what the close pack must charge its purchases to). */
const SALES = '08031110001';
const OPS = '08052220003';
const FINANCE = '08063330005';
const FIELD = '08031234567'; // the electricity purchases' customer phone
const FAILS = '08031239999'; // the sandbox fails it: refunded, on no list (Unassigned)
const CENTRES: Record<string, string> = { [SALES]: 'Sales', [OPS]: 'Ops', [FINANCE]: 'Finance', [FIELD]: 'Field' };

let t: TestApp;
let month: string;
let next: string;
let monthStartMs: number;
let monthEndMs: number;
let smsKobo: number;
let lateFail: string;
let lateSuccess: string;
const out = fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-close-'));

const json = <T>(r: { code: number; stdout: string; stderr: string }): T => {
  if (r.code !== 0) throw new Error(`exit ${r.code}: ${r.stderr}`);
  return JSON.parse(r.stdout) as T;
};
const ym = (ms: number) => new Date(ms + LAGOS_MS).toISOString().slice(0, 7);
const inMonth = (e: LogEntry) => Date.parse(e.created_at) >= monthStartMs && Date.parse(e.created_at) < monthEndMs;
const spent = (e: LogEntry) => e.status === 'SUCCESS' || e.status === 'PENDING';
const centreOf = (e: LogEntry, centres = CENTRES) => centres[e.phone_number] ?? 'Unassigned';

/** Expected spend by cost centre and type, from the sandbox's log. */
function expectedSpend(log: LogEntry[], keep: (e: LogEntry) => boolean, centres = CENTRES) {
  const lines = new Map<string, { costCentre: string; type: string; purchases: number; faceKobo: number; costKobo: number }>();
  for (const e of log.filter(keep)) {
    const key = `${centreOf(e, centres)}/${e.type}`;
    const l = lines.get(key) ?? { costCentre: centreOf(e, centres), type: e.type, purchases: 0, faceKobo: 0, costKobo: 0 };
    l.purchases++;
    l.faceKobo += faceKoboOf(e);
    l.costKobo += costKoboOf(e);
    lines.set(key, l);
  }
  return [...lines.values()].sort((a, b) => `${a.costCentre}/${a.type}`.localeCompare(`${b.costCentre}/${b.type}`));
}

/** Names each phone's cost centre in the recipients list as a finance officer does: a spreadsheet imported. */
async function setCentres(rules: Record<string, string>): Promise<void> {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'recipients-')), 'recipients.csv');
  fs.writeFileSync(file, ['Phone,Cost centre', ...Object.entries(rules).map(([phone, centre]) => `${phone},${centre}`)].join('\n'));
  await t.call('costCentres.importRecipients', { file: { path: file } });
}

interface PackJson {
  workbook: string;
  sheets: string[];
  summary: {
    closed: { by: string } | null;
    purchases: { purchases: number; faceValue: number; walletCost: number; commission: number };
    byCostCentre: { costCentre: string; type: string; purchases: number; faceValue: number; walletCost: number }[];
    pending: { count: number; walletCost: number };
    refunds: { count: number; walletCost: number };
    adjustments: { entries: number; purchases: number; faceValue: number; walletCost: number };
    sms: { messages: number; cost: number };
    wallet: { opening: number | null; closing: number | null; unexplained: number | null };
  };
}

const kobo = (naira: number) => Math.round(naira * 100);
const lines = (p: PackJson) =>
  p.summary.byCostCentre
    .map((l) => ({ costCentre: l.costCentre, type: l.type, purchases: l.purchases, faceKobo: kobo(l.faceValue), costKobo: kobo(l.walletCost) }))
    .sort((a, b) => `${a.costCentre}/${a.type}`.localeCompare(`${b.costCentre}/${b.type}`));

beforeAll(async () => {
  t = await startTestApp({ creditDelayMs: 500 });
  pauseLoop(t);
  // Both clocks to 01:00 Lagos on the first day of next month: a fresh month, all of it ahead.
  const now = Date.parse((await t.sandboxControl.clock()).now);
  const lagos = new Date(now + LAGOS_MS);
  monthStartMs = Date.UTC(lagos.getUTCFullYear(), lagos.getUTCMonth() + 1, 1) - LAGOS_MS;
  monthEndMs = Date.UTC(lagos.getUTCFullYear(), lagos.getUTCMonth() + 2, 1) - LAGOS_MS;
  month = ym(monthStartMs);
  next = ym(monthEndMs);
  await advanceClocks(t, Math.ceil((monthStartMs + LAGOS_MS - now) / 1000));
  await setCentres(CENTRES);

  await t.call('account.balance', {}); // the opening reading, inside the month
  await buyAirtimeFor(t, [
    [SALES, 100],
    [OPS, 200],
    [FINANCE, 300],
    [FAILS, 500],
  ]);
  await buyElectricity(t, meter(), 2500);
  await advanceClocks(t, 6); // the airtime settles (and the failed one is refunded) before the SMS is measured
  const before = (await t.app.client().accountBalance()).GlobalBalance[0].Balance;
  const quote = await t.call('messaging.quote', { target: { kind: 'number', to: SALES }, content: { kind: 'text', text: 'Allowances are in' }, emails: [] });
  await t.call('messaging.send', {
    target: { kind: 'number', to: SALES },
    content: { kind: 'text', text: 'Allowances are in' },
    emails: [],
    senderId: 'VENDESK',
    confirmedTotalKobo: quote.totalKobo,
  });
  smsKobo = Math.round((before - (await t.app.client().accountBalance()).GlobalBalance[0].Balance) * 100);

  // 30 s before the month ends: two electricity purchases the service answers pending (they settle 2 min 1 s after).
  const clockNow = Date.parse((await t.sandboxControl.clock()).now);
  await advanceClocks(t, Math.floor((monthEndMs - 30_000 - clockNow) / 1000));
  lateFail = meter('1111');
  lateSuccess = meter('0000');
  await buyElectricity(t, lateFail, 1500);
  await buyElectricity(t, lateSuccess, 1800);
  await t.call('sync.run', {});
  await t.call('account.balance', {}); // the closing reading, inside the month
  // Just into the next month: the two are still pending at the service.
  await advanceClocks(t, 45); // 15 s into the next month, more than a minute before they settle
}, 120_000);

afterAll(async () => {
  await t?.close();
  fs.rmSync(out, { recursive: true, force: true });
});

describe('month-end close', () => {
  let closedPack: PackJson;

  it('closes the month from the command line, and its close pack holds the service’s figures by cost centre and type', async () => {
    const closed = json<{ month: string }>(await cli(t, ['month', 'close', month]));
    expect(closed.month).toBe(month);
    const file = path.join(out, 'closed.xlsx');
    closedPack = json<PackJson>(await cli(t, ['close', month, '--out', file]));
    const log = await serviceLog(t);
    // At the close the two late ones were pending: spend, and listed as pending at month end.
    const atClose = (e: LogEntry) => inMonth(e) && (spent(e) || e.description.includes(lateFail) || e.description.includes(lateSuccess));
    expect(lines(closedPack)).toEqual(expectedSpend(log, atClose));
    expect(new Set(closedPack.summary.byCostCentre.map((l) => l.costCentre))).toEqual(new Set(['Sales', 'Ops', 'Finance', 'Field']));
    expect(closedPack.summary.pending.count).toBe(2);
    const failed = log.filter((e) => inMonth(e) && e.status === 'FAILED' && !e.description.includes(lateFail));
    expect(closedPack.summary.refunds).toEqual({ count: failed.length, walletCost: failed.reduce((s, e) => s + costKoboOf(e), 0) / 100 });
    expect(kobo(closedPack.summary.sms.cost)).toBe(smsKobo);
    expect(closedPack.summary.closed).not.toBeNull();
    // The wallet rolled forward between the readings: nothing unexplained (no top-up in the month).
    expect(closedPack.summary.wallet.unexplained).toBe(0);
  });

  it('writes a workbook LibreOffice opens with number and date cells, each sheet stating its Lagos days', () => {
    const sheets = workbookViaLibreOffice(closedPack.workbook);
    expect([...sheets.keys()]).toEqual(expect.arrayContaining(['Summary', 'By cost centre and type', 'Pending at month end', 'Refunds', 'Adjustments']));
    const days = `${month}-01 to ${month}-`;
    for (const [name, rows] of sheets) expect(rows[0][0].text, name).toContain(days);
    const summary = sheets.get('Summary') as LibreOfficeCell[][];
    const row = (label: string) => summary.find((r) => r[0]?.text === label) as LibreOfficeCell[];
    expect(row('First day of the month')[1].type).toBe('date');
    const all = row('Purchases: all types');
    expect(all[2]).toMatchObject({ type: 'float', value: closedPack.summary.purchases.purchases });
    expect(['currency', 'float']).toContain(all[3].type);
    expect(all[3].value).toBeCloseTo(closedPack.summary.purchases.walletCost, 2);
    expect(all[3].text).toContain('₦');
    const bySheet = sheets.get('By cost centre and type') as LibreOfficeCell[][];
    const total = bySheet.find((r) => r[2]?.text === 'Total') as LibreOfficeCell[];
    expect(total[4].value).toBeCloseTo(closedPack.summary.purchases.faceValue, 2);
    expect((sheets.get('Pending at month end') as LibreOfficeCell[][]).length).toBe(2 + 2); // caption, header, two purchases
  });

  it('writes a balanced journal whose totals are the close pack’s, and refuses one with an unmapped account, naming it', async () => {
    const refused = await cli(t, ['journal', month, '--format', 'plain', '--out', path.join(out, 'refused.csv')]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('the prepaid wallet');
    expect(refused.stderr).toContain('AIRTIME / Sales');
    expect(fs.existsSync(path.join(out, 'refused.csv'))).toBe(false);
    json(await cli(t, ['accounts', 'set', 'wallet', '1200']));
    json(await cli(t, ['accounts', 'set', 'commission', '4100']));
    json(await cli(t, ['accounts', 'set', 'SMS', '*', '6300']));
    json(await cli(t, ['accounts', 'set', 'ELECTRICITY', '*', '6200']));
    const refusedAgain = await cli(t, ['journal', month, '--out', path.join(out, 'refused.csv')]);
    expect(refusedAgain.code).toBe(1);
    expect(JSON.parse(refusedAgain.stdout).error.message).toContain('names no account for AIRTIME / Finance; AIRTIME / Ops; AIRTIME / Sales.');
    json(await cli(t, ['accounts', 'set', 'AIRTIME', '*', '6100']));

    const file = path.join(out, 'plain.csv');
    const j = json<{ debits: number; credits: number; date: string }>(await cli(t, ['journal', month, '--format', 'plain', '--out', file]));
    const rows = Papa.parse<string[]>(fs.readFileSync(file, 'utf8').replace(/^\uFEFF/, ''), { skipEmptyLines: true }).data;
    expect(rows[0]).toEqual(['Date', 'Account', 'Cost centre', 'Description', 'Debit', 'Credit']);
    const cents = (s: string) => (s === '' ? 0 : Math.round(Number(s) * 100));
    const debits = rows.slice(1).reduce((s, r) => s + cents(r[4]), 0);
    const credits = rows.slice(1).reduce((s, r) => s + cents(r[5]), 0);
    expect(debits).toBe(credits);
    expect(kobo(j.debits)).toBe(debits);
    expect(j.date).toBe(closedPack.summary.purchases ? `${month}-${new Date(monthEndMs - 1 + LAGOS_MS).toISOString().slice(8, 10)}` : '');
    for (const r of rows.slice(1)) expect(r[0]).toBe(j.date);
    // Debits: face value of the month's purchases and the SMS; credits: commission and the wallet at wallet cost.
    expect(debits).toBe(kobo(closedPack.summary.purchases.faceValue) + smsKobo);
    const wallet = rows.find((r) => r[1] === '1200') as string[];
    expect(cents(wallet[5])).toBe(kobo(closedPack.summary.purchases.walletCost) + smsKobo);
    const commission = rows.find((r) => r[1] === '4100') as string[];
    expect(cents(commission[5])).toBe(kobo(closedPack.summary.purchases.faceValue) - kobo(closedPack.summary.purchases.walletCost));
  });

  it('writes the Xero, QuickBooks Online and Sage layouts with the columns their import screens document, balanced', async () => {
    const layouts = {
      xero: ['Narration', 'Date', 'Description', 'AccountCode', 'TaxRate', 'Amount', 'TrackingName1', 'TrackingOption1'],
      quickbooks: ['Journal No', 'Journal Date', 'Account Name', 'Debits', 'Credits', 'Description', 'Name', 'Location', 'Class'],
      sage: ['Reference', 'Date', 'Description', 'Ledger Account Number', 'Details', 'Analysis Type 1', 'Analysis Type 2', 'Analysis Type 3', 'Tax Rate', 'Debit', 'Credit'],
    };
    const lastDay = `${new Date(monthEndMs - 1 + LAGOS_MS).toISOString().slice(8, 10)}/${month.slice(5, 7)}/${month.slice(0, 4)}`;
    for (const [format, columns] of Object.entries(layouts)) {
      const file = path.join(out, `${format}.csv`);
      json(await cli(t, ['journal', month, '--format', format, '--out', file]));
      const rows = Papa.parse<string[]>(fs.readFileSync(file, 'utf8').replace(/^\uFEFF/, ''), { skipEmptyLines: true }).data;
      expect(rows[0], format).toEqual(columns);
      const col = (name: string) => columns.indexOf(name);
      const body = rows.slice(1);
      const n = (s: string) => (s === '' ? 0 : Math.round(Number(s) * 100));
      if (format === 'xero') {
        expect(body.reduce((s, r) => s + n(r[col('Amount')]), 0)).toBe(0);
        for (const r of body) expect([r[col('Narration')], r[col('Date')], r[col('TaxRate')]]).toEqual([`vendesk ${month}`, lastDay, 'Tax Exempt']);
      } else {
        const [dr, cr, date] = format === 'quickbooks' ? ['Debits', 'Credits', 'Journal Date'] : ['Debit', 'Credit', 'Date'];
        expect(body.reduce((s, r) => s + n(r[col(dr)]), 0)).toBe(body.reduce((s, r) => s + n(r[col(cr)]), 0));
        expect(body.reduce((s, r) => s + n(r[col(dr)]), 0)).toBe(kobo(closedPack.summary.purchases.faceValue) + smsKobo);
        for (const r of body) expect(r[col(date)]).toBe(lastDay);
      }
    }
  });

  it('counts a late refund, a late settlement and a cost-centre change after the close in the next month, the closed month unchanged', async () => {
    await advanceClocks(t, 180); // the two pending purchases settle at the service: one FAILED (refunded), one SUCCESS
    await t.call('sync.run', {});
    await setCentres({ [SALES]: 'Marketing' });
    const log = await serviceLog(t);
    expect(log.find((e) => e.description.includes(lateFail))?.status).toBe('FAILED');
    expect(log.find((e) => e.description.includes(lateSuccess))?.status).toBe('SUCCESS');

    const again = json<PackJson>(await cli(t, ['close', month, '--out', path.join(out, 'closed-again.xlsx')]));
    expect(again.summary).toEqual(closedPack.summary);

    const nextPack = json<PackJson>(await cli(t, ['close', next, '--out', path.join(out, 'next.xlsx')]));
    const failedEntry = log.find((e) => e.description.includes(lateFail)) as LogEntry;
    const salesAirtime = log.filter((e) => inMonth(e) && e.phone_number === SALES && spent(e));
    expect(nextPack.summary.adjustments.entries).toBe(2 + salesAirtime.length);
    // Net: the refunded purchase leaves spend; the Sales purchase moves to Marketing (net nothing).
    expect(kobo(nextPack.summary.adjustments.walletCost)).toBe(-costKoboOf(failedEntry));
    expect(kobo(nextPack.summary.adjustments.faceValue)).toBe(-faceKoboOf(failedEntry));
    const sheets = workbookViaLibreOffice(nextPack.workbook);
    const byCentre = (sheets.get('By cost centre and type') as LibreOfficeCell[][]).filter((r) => r[2]?.text === 'Adjustment of a closed month');
    const adj = (centre: string, type: string) => byCentre.find((r) => r[0].text === centre && r[1].text === type);
    expect(adj('Marketing', 'AIRTIME')?.[5].value).toBeCloseTo(salesAirtime.reduce((s, e) => s + costKoboOf(e), 0) / 100, 2);
    expect(adj('Sales', 'AIRTIME')?.[5].value).toBeCloseTo(-salesAirtime.reduce((s, e) => s + costKoboOf(e), 0) / 100, 2);
    expect(adj('Field', 'ELECTRICITY')?.[4].value).toBeCloseTo(-faceKoboOf(failedEntry) / 100, 2);
    const adjustments = sheets.get('Adjustments') as LibreOfficeCell[][];
    expect(adjustments.some((r) => r[1]?.text.includes(`failed after ${month} was closed`))).toBe(true);
    expect(adjustments.some((r) => r[1]?.text.includes(`settled SUCCESS after ${month} was closed`))).toBe(true);
    expect(adjustments.some((r) => r[1]?.text.includes(`cost centre Sales → Marketing`))).toBe(true);

    // The next month's journal posts the adjustments as lines of their own, balanced.
    const file = path.join(out, 'next-plain.csv');
    const j = json<{ debits: number; credits: number }>(await cli(t, ['journal', next, '--format', 'plain', '--out', file]));
    expect(j.debits).toBe(j.credits);
    expect(fs.readFileSync(file, 'utf8')).toContain(`Adjustment in ${next} to closed months`);
  });

  it('refuses a second close and one of a month not over, and reopens only with a reason, audited', async () => {
    const twice = await cli(t, ['month', 'close', month]);
    expect(twice.code).toBe(1);
    expect(JSON.parse(twice.stdout).error.code).toBe('month_already_closed');
    const early = await cli(t, ['month', 'close', next]);
    expect(early.code).toBe(1);
    expect(JSON.parse(early.stdout).error.code).toBe('month_not_over');
    expect((await cli(t, ['month', 'reopen', month])).code).toBe(2);
    json(await cli(t, ['month', 'reopen', month, '--reason', 'vendor credit note arrived']));
    const list = json<{ months: { month: string; state: string }[]; events: { action: string; reason: string | null }[] }>(await cli(t, ['month', 'list']));
    expect(list.months.find((m) => m.month === month)?.state).toBe('reopened');
    expect(list.events.map((e) => [e.action, e.reason])).toEqual([
      ['close', null],
      ['reopen', 'vendor credit note arrived'],
    ]);
    // Reopened, the month is read live again: the late refund is its own again, not the next month's.
    const live = json<PackJson>(await cli(t, ['close', next, '--out', path.join(out, 'next-after-reopen.xlsx')]));
    expect(live.summary.adjustments.entries).toBe(0);
  });
});
