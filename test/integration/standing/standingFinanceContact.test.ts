/**
 * A standing order's occurrence that waits (here: the wallet is short) is sent to the finance
 * contact as one SMS through the service's messaging, charged like any other; nothing of the
 * occurrence is bought. The sandbox's outbox, log and wallet say what happened.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { advanceClocks } from '../../support/serviceClocks';
import { sandboxLog, sandboxWalletKobo } from '../../support/sandboxRecords';
import { startTestApp, type TestApp } from '../../support/testApp';
import { until } from '../../support/until';
import { airtimeRows, fastJobs, tempDir, writeCsv } from '../bulk/bulkTestFiles';

let t: TestApp;
const FINANCE = '08095550001';
const notes = async () => (await t.sandboxControl.outbox()).filter((o) => o.channel === 'sms' && o.to === FINANCE);

/** Moves the sandbox's clock and this app's estimate of it to 10:00 in Lagos on `day`. */
async function moveTo(day: string): Promise<void> {
  const now = Date.parse((await t.sandboxControl.clock()).now);
  const target = Date.parse(`${day}T09:00:00.000Z`);
  expect(target).toBeGreaterThan(now);
  await advanceClocks(t, Math.ceil((target - now) / 1000));
}

beforeEach(async () => {
  t = await startTestApp({ creditDelayMs: 300 });
  fastJobs(t.app);
});
afterEach(async () => {
  await t.close();
});

describe('the finance contact of standing orders', () => {
  it('is sent one SMS when an occurrence waits for money, charged; nothing of the occurrence is bought', { timeout: 600_000 }, async () => {
    await moveTo('2027-03-01');
    const draft = await t.call('standing.prepare', {
      name: 'Staff airtime',
      kind: 'airtime',
      file: { path: writeCsv(tempDir(), 'staff.csv', airtimeRows(3, 1000)) },
      recurrence: { kind: 'monthly', day: 5 },
      keepDuplicates: false,
      skipInvalid: false,
    });
    await t.call('standing.confirm', { orderId: draft.order.id });
    await t.call('messaging.notifications.set', { financeContact: FINANCE });
    // ₦1,000 in the wallet: the run of ₦3,000 waits; the note (₦4) can still be paid.
    await t.sandboxControl.setWallet(1000);
    await moveTo('2027-03-05');

    const report = await t.call('standing.runDue', { wait: true });
    expect(report.waiting.map((w) => [w.scheduledDay, w.reasonCode])).toEqual([['2027-03-05', 'wallet_short']]);
    await until(async () => (await notes()).length === 1, 'the finance contact was sent a note');
    const [note] = await notes();
    expect(note.body).toBe('vendesk: Staff airtime, 5 Mar 2027, waits for you. See Standing orders in vendesk.');
    expect(await sandboxLog(t)).toEqual([]);
    // The note is charged as any SMS: the wallet lost its cost and nothing else.
    await until(async () => (await sandboxWalletKobo(t)) < 100_000, 'the note was charged');
    expect(100_000 - (await sandboxWalletKobo(t))).toBe(400);
  });
});
