/**
 * Spend is what left the wallet, messaging included (issue 38, item 3): five SMS took ₦20.00 from
 * the wallet, a one-time code with an e-mail copy ₦5.00; the Dashboard's Spent cards and
 * `vendesk report spend` (and its workbook) show them on their own line beside the purchases, and
 * their totals are what the sandbox's wallet lost. A day is a Lagos day on the service's clock.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { cellsViaLibreOffice } from '../../support/libreOffice';
import { receiptOf } from '../../support/receiptOf';
import { sandboxWalletKobo } from '../../support/sandboxRecords';
import { costKoboOf, serviceLog } from '../../support/serviceSpend';
import { startTestApp, type TestApp } from '../../support/testApp';
import { advanceClocks, cli, lagosDayWithRoom } from '../purchases/purchaseHelpers';

let t: TestApp;
let today: string;
let before: number;
let purchaseCostKobo: number;

async function sendSms(to: string): Promise<void> {
  const input = { target: { kind: 'number' as const, to }, content: { kind: 'text' as const, text: 'Salaries are paid today.' }, emails: [] };
  const quote = await t.call('messaging.quote', input);
  await t.call('messaging.send', { ...input, senderId: 'VENDESK', confirmedTotalKobo: quote.totalKobo });
}

beforeAll(async () => {
  t = await startTestApp({ creditDelayMs: 500 });
  today = await lagosDayWithRoom(t, 60);
  before = await sandboxWalletKobo(t);
  const topUp = await receiptOf(t.call('purchases.buyTopUp', { kind: 'airtime', phone: '08031110101', amountKobo: 50_000 }));
  expect(topUp.state).toBe('success');
  for (let i = 0; i < 5; i++) await sendSms(`0803222000${i}`);
  await t.call('messaging.otp.send', { receiverNumber: '08032220009', senderId: 'VENDESK', numberOfDigits: 6, seconds: 300, emails: ['finance@example.com'] });
  const [entry] = (await serviceLog(t)).filter((e) => e.phone_number === '08031110101');
  purchaseCostKobo = costKoboOf(entry);
});

afterAll(async () => {
  await t?.close();
});

it('the Spent cards count the SMS and the code on their own line, and their total is what the wallet lost', async () => {
  const lost = before - (await sandboxWalletKobo(t));
  // What the sandbox delivered: five SMS and a code, with its e-mail copy.
  expect((await t.sandboxControl.outbox()).map((o) => o.channel).sort()).toEqual(['email', 'sms', 'sms', 'sms', 'sms', 'sms', 'sms']);
  // ₦4.00 a message, ₦1.00 an e-mail copy (the sandbox's prices), and the airtime's wallet cost.
  expect(lost).toBe(purchaseCostKobo + 5 * 400 + 400 + 100);

  const { spend } = await t.call('dashboard.summary', {});
  for (const figures of [spend.today, spend.week, spend.month, spend.last30Days]) {
    expect(figures).toMatchObject({
      purchases: 1,
      costKobo: purchaseCostKobo,
      messaging: { sends: 6, messages: 6, costKobo: 2500, sms: { sends: 5, messages: 5, costKobo: 2000 }, codes: { sends: 1, messages: 1, costKobo: 500 }, asQuoted: 0 },
      walletKobo: lost,
    });
  }
});

it('`vendesk report spend` gives the messaging line and what left the wallet, and so does its workbook, in number cells', async () => {
  const r = await cli(t, ['report', 'spend', '--from', today, '--to', today]);
  expect(r.code, r.stderr).toBe(0);
  const report = JSON.parse(r.stdout) as { workbook: string; walletCost: number; messaging: { sends: number; messages: number; cost: number }; leftTheWallet: number };
  const lost = before - (await sandboxWalletKobo(t));
  expect(report).toMatchObject({ walletCost: purchaseCostKobo / 100, messaging: { sends: 6, messages: 6, cost: 25 }, leftTheWallet: lost / 100 });

  // Opened in LibreOffice: the Summary's messaging line and the total are numbers.
  const summary = (await cellsViaLibreOffice(report.workbook)).get('Summary');
  const rowOf = (label: RegExp) => {
    for (const [address, cell] of summary ?? []) if (address.startsWith('A') && label.test(String(cell.value))) return address.slice(1);
    throw new Error(`no Summary row ${label}`);
  };
  const messaging = rowOf(/^Messaging sent through vendesk/);
  expect(summary?.get(`C${messaging}`)).toMatchObject({ type: 'Number', value: 6 });
  expect(summary?.get(`E${messaging}`)).toMatchObject({ type: 'Number', value: 25 });
  expect(summary?.get(`E${rowOf(/^What left the wallet/)}`)).toMatchObject({ type: 'Number', value: lost / 100 });
  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile(report.workbook);
  expect(book.getWorksheet('Summary')?.getCell(`E${messaging}`).numFmt).toMatch(/₦/);

  const text = await textOf(['report', 'spend', '--from', today, '--to', today]);
  expect(text).toContain('Messaging (SMS, e-mail copies, one-time codes): ₦25.00 for 6 messages');
  expect(text).toContain(`Left the wallet: ₦${(lost / 100).toLocaleString('en-NG', { minimumFractionDigits: 2 })}`);
});

it('places a message on the Lagos day of the service’s clock: the next day there, yesterday’s messages are not today’s', async () => {
  await advanceClocks(t, 24 * 3600);
  const wallet = await sandboxWalletKobo(t);
  await sendSms('08032220005');
  const lost = wallet - (await sandboxWalletKobo(t));
  expect(lost).toBe(400);
  const { spend, today: serviceToday } = await t.call('dashboard.summary', {});
  expect(serviceToday > today).toBe(true);
  expect(spend.today).toMatchObject({ purchases: 0, messaging: { sends: 1, costKobo: 400 }, walletKobo: lost });
  expect(spend.last30Days.messaging.costKobo).toBe(2900);
});

/** `vendesk ARGS` (text) in process, against the test's sandbox and data folder. */
async function textOf(args: string[]): Promise<string> {
  const { runCli } = await import('../../../src/cli/main');
  let out = '';
  await runCli([...args, '--base-url', t.sandbox.url, '--data-dir', t.dataDir], { stdout: (s) => (out += s), stderr: () => undefined, env: { VENDESK_TOKEN: t.token } });
  return out;
}
