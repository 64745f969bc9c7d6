/**
 * The messages the standing orders send (issue 40), against the sandbox with a plain bulk job:
 * each bought item's recipient their own SMS from the job's columns, once however often (and
 * however concurrently) it is asked; and a note to the finance contact. The sandbox's outbox says
 * what was delivered, its wallet what was charged.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notifyFinanceContact, notifyRecipientsBought } from '../../../src/main/messaging/notifications';
import { sandboxWalletKobo } from '../../support/sandboxRecords';
import type { TestApp } from '../../support/testApp';
import { airtimeRows, mtnPhone, startBulkTestApp, tempDir, waitForJob, writeCsv } from '../bulk/bulkTestFiles';

const TEMPLATE = 'Hello {Name}, your November airtime of {Amount} has been sent.';

describe('notifying the recipients of a bought bulk job, and the finance contact', () => {
  let t: TestApp;
  let jobId: string;
  const sms = async () => (await t.sandboxControl.outbox()).filter((o) => o.channel === 'sms');

  beforeAll(async () => {
    t = await startBulkTestApp({ creditDelayMs: 500 });
    await t.sandboxControl.setWallet(100_000);
    const preview = await t.call('bulk.prepare', { file: { path: writeCsv(tempDir(), 'november.csv', airtimeRows(4, 100, 900)) }, kind: 'airtime' });
    jobId = preview.job.id;
    await t.call('bulk.confirm', { jobId });
    await waitForJob(t, jobId, (j) => !j.active && j.counts.success === 4, 120_000);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses a placeholder the job has no column for, naming the columns, and sends nothing', async () => {
    const refusal = await notifyRecipientsBought(t.app, jobId, 'Hello {Name}, grade {Grade}').catch((e: unknown) => e);
    expect(refusal).toMatchObject({ code: 'placeholder_unknown' });
    for (const said of ['{Grade}', '"Name"', '"Phone"', '"Amount"', 'Nothing was sent']) expect((refusal as Error).message).toContain(said);
    expect(await sms()).toEqual([]);
  });

  it('sends each bought item’s recipient their own text once, charged, however often and however concurrently it is asked', async () => {
    const before = await sandboxWalletKobo(t);
    const [first, second] = await Promise.all([notifyRecipientsBought(t.app, jobId, TEMPLATE), notifyRecipientsBought(t.app, jobId, TEMPLATE)]);
    const again = await notifyRecipientsBought(t.app, jobId, TEMPLATE);
    const jobs = [first.job, second.job].filter((j) => j !== null);
    expect(jobs).toHaveLength(1);
    expect(again).toMatchObject({ job: null, skipped: [] });
    expect(jobs[0]).toMatchObject({ state: 'completed', messages: 4, chargedKobo: 1600, origin: 'service', label: 'Bought: november.csv' });

    const outbox = await sms();
    expect(outbox.map((o) => [o.to, o.body]).sort()).toEqual(
      [0, 1, 2, 3].map((i) => [mtnPhone(900 + i), `Hello Staff ${i + 1}, your November airtime of ₦100.00 has been sent.`]).sort(),
    );
    expect(before - (await sandboxWalletKobo(t))).toBe(1600);
    // Counted in the spend as any message vendesk sends.
    const spent = (await t.call('dashboard.summary', {})).spend.today.messaging.sms;
    expect(spent).toMatchObject({ sends: 4, costKobo: 1600 });
  });

  it('the finance contact: nothing without one set, a bad number refused, then one SMS, charged', async () => {
    expect(await notifyFinanceContact(t.app, 'Standing order waits')).toMatchObject({ sent: false });
    await expect(t.call('messaging.notifications.set', { financeContact: '0803123' })).rejects.toMatchObject({ code: 'invalid_phone' });
    expect(await t.call('messaging.notifications.set', { financeContact: '+234 809 555 0001' })).toEqual({ senderId: null, financeContact: '08095550001' });
    const before = await sandboxWalletKobo(t);
    const note = await notifyFinanceContact(t.app, 'Standing order “Airtime” waits: the wallet is ₦12,000.00 short.');
    expect(note).toMatchObject({ sent: true, job: { state: 'completed', chargedKobo: 400 } });
    expect((await sms()).filter((o) => o.to === '08095550001').map((o) => o.body)).toEqual(['Standing order “Airtime” waits: the wallet is ₦12,000.00 short.']);
    expect(before - (await sandboxWalletKobo(t))).toBe(400);
  });
});
