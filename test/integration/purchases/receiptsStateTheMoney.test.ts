/**
 * Receipts state the money (issue 38, item 9): a failed airtime or data receipt says what came back
 * to the wallet — its FAILED log entry's wallet cost, stated once and never assumed —, a pending
 * receipt shows the wallet cost the service's log already has (the figure the Dashboard counts),
 * and a failed electricity receipt shows its wallet cost and refund. The window's operations,
 * `vendesk receipt --json` and `vendesk purchases --json` say the same. Every figure is checked
 * against the sandbox's own log and wallet, over HTTP.
 */
import { afterEach, expect, it } from 'vitest';
import type { PurchaseView, TopUpView } from '../../../src/shared/contract/purchases';
import type { LogEntry } from '../../../src/shared/wire';
import { receiptOf } from '../../support/receiptOf';
import { sandboxWalletKobo } from '../../support/sandboxRecords';
import { costKoboOf, serviceLog } from '../../support/serviceSpend';
import { startTestApp, type TestApp } from '../../support/testApp';
import { buyElectricity, meter } from '../reconcile/reconcileHelpers';
import { cli, lagosDayWithRoom, pauseLoop, startPendingTopUpApp } from './purchaseHelpers';

let t: TestApp | null = null;
afterEach(async () => {
  await t?.close();
  t = null;
});

async function quickApp(): Promise<TestApp> {
  const app = await startTestApp({ creditDelayMs: 500 });
  pauseLoop(app);
  return app;
}

async function entryOf(app: TestApp, reference: string | null): Promise<LogEntry> {
  const entry = (await serviceLog(app)).find((e) => e.transaction_id === reference);
  if (!entry) throw new Error(`no log entry ${reference}`);
  return entry;
}

type ReceiptJson = { id: string; status: string; walletCost: number | null; refunded: number | null; createdAt: string };

/** The purchase as `vendesk receipt ID --json` and `vendesk purchases --json` print it. */
async function fromCli(app: TestApp, id: string): Promise<{ receipt: ReceiptJson; listed: ReceiptJson | undefined }> {
  const receipt = await cli(app, ['receipt', id]);
  expect(receipt.code, receipt.stderr).not.toBe(2);
  const list = await cli(app, ['purchases']);
  return { receipt: JSON.parse(receipt.stdout) as ReceiptJson, listed: (JSON.parse(list.stdout) as ReceiptJson[]).find((p) => p.id === id) };
}

/** How many sentences of the receipt speak of the refund. */
function refundMentions(p: TopUpView): number {
  return [p.statusText, p.reason ?? '', p.whatToDo ?? ''].join(' ').match(/refund/gi)?.length ?? 0;
}

it('a failed airtime receipt states once what came back to the wallet: its log entry’s wallet cost, which the wallet got back', async () => {
  t = await quickApp();
  const before = await sandboxWalletKobo(t);
  const p = await receiptOf(t.call('purchases.buyTopUp', { kind: 'airtime', phone: '08031239999', amountKobo: 50_000 }));
  const entry = await entryOf(t, p.reference);
  expect(entry.status).toBe('FAILED');
  // MTN airtime earns 3 %: the ₦500.00 cost the wallet ₦485.00, which the service gave back.
  expect(costKoboOf(entry)).toBe(48_500);
  expect(await sandboxWalletKobo(t)).toBe(before);

  expect(p).toMatchObject({ state: 'failed', costKobo: 48_500, refundedKobo: 48_500 });
  expect(p.statusText).toBe(
    'Failed at the network: 08031239999 did not receive it. The service refunds what it charged for it, ₦485.00 as its log records, to the wallet automatically.',
  );
  expect(refundMentions(p)).toBe(1);
  expect(await t.call('purchases.topUp', { id: p.id })).toMatchObject({ statusText: p.statusText, costKobo: 48_500, refundedKobo: 48_500 });

  const { receipt, listed } = await fromCli(t, p.id);
  expect(receipt).toMatchObject({ status: p.statusText, walletCost: 485, refunded: 485 });
  expect(listed).toEqual(receipt);
  expect(await textOf(t, ['receipt', p.id])).toContain('Wallet cost: ₦485.00 (refunded)');
});

it('a failed data receipt states the refund once and marks its wallet cost refunded', async () => {
  t = await quickApp();
  const before = await sandboxWalletKobo(t);
  const p = await receiptOf(t.call('purchases.buyTopUp', { kind: 'data', phone: '08031249999', productCode: 'MTN-2GB-30D' }));
  const entry = await entryOf(t, p.reference);
  expect([entry.status, costKoboOf(entry)]).toEqual(['FAILED', 147_000]);
  expect(await sandboxWalletKobo(t)).toBe(before);
  expect(p).toMatchObject({ state: 'failed', costKobo: 147_000, refundedKobo: 147_000 });
  expect(p.statusText).toContain('₦1,470.00');
  expect(refundMentions(p)).toBe(1);
  const { receipt, listed } = await fromCli(t, p.id);
  expect(receipt).toMatchObject({ status: p.statusText, walletCost: 1470, refunded: 1470 });
  expect(listed).toEqual(receipt);
  expect(await textOf(t, ['receipt', p.id])).toContain('Wallet cost: ₦1,470.00 (refunded)');
});

it('a pending receipt shows the wallet cost the service’s log already has: the figure the Dashboard counts', async () => {
  // Airtime stays in progress at the service for 10 minutes of its clock; the receipt does not wait.
  t = await startPendingTopUpApp();
  await lagosDayWithRoom(t); // "today" on the service's clock holds the purchase however long the test takes
  const before = await sandboxWalletKobo(t);
  const p = await receiptOf(t.call('purchases.buyTopUp', { kind: 'airtime', phone: '08031236666', amountKobo: 100_000 }));
  expect(p.state).toBe('pending');
  const entry = await entryOf(t, p.reference);
  expect([entry.status, costKoboOf(entry)]).toEqual(['PENDING', 97_000]);
  expect(before - (await sandboxWalletKobo(t))).toBe(97_000);
  expect(p).toMatchObject({ costKobo: 97_000, refundedKobo: null });
  expect((await t.call('dashboard.summary', {})).spend.today.costKobo).toBe(97_000);
  const { receipt, listed } = await fromCli(t, p.id);
  expect(receipt).toMatchObject({ walletCost: 970, refunded: null });
  expect(listed).toEqual(receipt);

  // A pending electricity token: its answer gives no commission; its log entry does.
  const token = await buyElectricity(t, meter('0000'), 3000);
  expect(token.state).toBe('pending');
  const tokenEntry = await entryOf(t, token.reference);
  expect(tokenEntry.status).toBe('PENDING');
  expect(token.costKobo).toBe(costKoboOf(tokenEntry));
  expect((await fromCli(t, token.id)).receipt).toMatchObject({ walletCost: costKoboOf(tokenEntry) / 100, refunded: null });
});

it('a failed electricity receipt shows its wallet cost and what came back, as its log entry and the wallet say', async () => {
  t = await quickApp();
  const before = await sandboxWalletKobo(t);
  const p: PurchaseView = await buyElectricity(t, meter('9999'), 3000); // declined: debited, then refunded
  const entry = await entryOf(t, p.reference);
  expect([entry.status, costKoboOf(entry)]).toEqual(['FAILED', 296_400]);
  expect(await sandboxWalletKobo(t)).toBe(before);
  expect(p).toMatchObject({ state: 'failed', costKobo: 296_400, refund: { state: 'confirmed', refundedKobo: 296_400 } });
  const { receipt, listed } = await fromCli(t, p.id);
  expect(receipt).toMatchObject({ walletCost: 2964, refunded: 2964, createdAt: p.createdAt });
  expect(listed).toEqual(receipt);
  expect(await textOf(t, ['receipt', p.id])).toContain('Wallet cost: ₦2,964.00 (refunded)');
});

/** `vendesk ARGS` (text) in process, against the test's sandbox and data folder. */
async function textOf(app: TestApp, args: string[]): Promise<string> {
  const { runCli } = await import('../../../src/cli/main');
  let out = '';
  await runCli([...args, '--base-url', app.sandbox.url, '--data-dir', app.dataDir], { stdout: (s) => (out += s), stderr: () => undefined, env: { VENDESK_TOKEN: app.token } });
  return out;
}
