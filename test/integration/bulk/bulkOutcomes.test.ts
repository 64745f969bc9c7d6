/**
 * What a job says it bought, against the sandbox's own records: a paused then cancelled job
 * counts as answered only what the service answered, says what was not bought, and follows the
 * items the service had accepted to their final state (by itself, and on "Check again" or
 * `vendesk bulk status`); a job's face value is the sum of its log entries' amounts and its
 * wallet cost the drop in the wallet.
 */
import { describe, expect, it } from 'vitest';
import { createBulkFollowUp } from '../../../src/main/buying/followUpLoop';
import type { BulkJobView } from '../../../src/shared/contract/bulk';
import { nairaToKobo } from '../../../src/shared/money';
import type { LogEntry } from '../../../src/shared/wire';
import { faceKoboOf } from '../../support/serviceSpend';
import { advanceClocks, cli, pauseLoop, walletKobo } from '../purchases/purchaseHelpers';
import { airtimeRows, mtnPhone, bulkTestEach, waitForJob, writeCsv } from './bulkTestFiles';

const env = bulkTestEach();

interface FullLogEntry {
  transaction_id: string;
  phone_number: string;
  amount: string;
  transaction_cost: number;
  status: string;
}

/** The sandbox's log with the cost of each entry, all pages, over HTTP. */
async function log(): Promise<FullLogEntry[]> {
  const out: FullLogEntry[] = [];
  for (let page = 1; ; page++) {
    const res = await fetch(`${env.t.sandbox.url}/logEntries?page=${page}&perPage=100`, { headers: { Authorization: `Bearer ${env.t.token}` } });
    const body = (await res.json()) as { data: { Items: FullLogEntry[]; TotalPages: number } };
    out.push(...body.data.Items);
    if (page >= body.data.TotalPages || body.data.Items.length === 0) return out;
  }
}

const face = (entries: FullLogEntry[]) => entries.reduce((s, e) => s + faceKoboOf(e as unknown as LogEntry), 0);
const cost = (entries: FullLogEntry[]) => entries.reduce((s, e) => s + nairaToKobo(e.transaction_cost), 0);

/** The job's money and each item's state agree with the sandbox's log and wallet. */
async function expectJobMatchesService(job: BulkJobView, walletBefore: number): Promise<void> {
  const entries = await log();
  const items = (await env.t.call('bulk.items', { jobId: job.id, limit: 5000 })).items;
  const byRef = new Map(entries.map((e) => [e.transaction_id, e]));
  for (const item of items) {
    const entry = item.reference ? byRef.get(item.reference) : undefined;
    if (item.state === 'cancelled')
      expect(
        entries.some((e) => e.phone_number === item.phone),
        `row ${item.row} was not bought`,
      ).toBe(false);
    else expect({ row: item.row, state: item.state }).toEqual({ row: item.row, state: entry?.status === 'SUCCESS' ? 'success' : 'failed' });
  }
  const success = entries.filter((e) => e.status === 'SUCCESS');
  const failed = entries.filter((e) => e.status === 'FAILED');
  expect(job.bought).toEqual({ count: success.length, faceKobo: face(success), costKobo: cost(success), costKnown: success.length });
  expect(job.refunded).toEqual({ count: failed.length, faceKobo: face(failed), costKobo: cost(failed), costKnown: failed.length });
  // The wallet went down by what was bought, at its cost: the failed rows were refunded.
  expect(walletBefore - (await walletKobo(env.t))).toBe(job.bought.costKobo);
  expect(job.bought.costKobo).toBeLessThan(job.bought.faceKobo);
}

describe('a paused, then cancelled job', () => {
  /**
   * 20 rows of ₦100 (row 4 fails at the network), paused with items accepted but not final, then
   * cancelled. The daily cap, lowered as it starts, pauses the job after 6 rows, before the
   * network has credited them (5 s after the service accepts them) — as a quick Pause would, but
   * at a row the test knows.
   */
  async function pausedThenCancelled(): Promise<{ cancelled: BulkJobView; walletBefore: number }> {
    await env.t.call('bulk.settings.set', { batchSize: 2, concurrency: 1 });
    const rows = airtimeRows(20, 100);
    rows[2] = ['Fails', '08031239999', 'MTN', 100];
    const preview = await env.t.call('bulk.prepare', { file: { path: writeCsv(env.dir, 'payroll.csv', rows) }, kind: 'airtime' });
    const walletBefore = await walletKobo(env.t);
    await env.t.call('bulk.confirm', { jobId: preview.job.id });
    await env.t.call('bulk.settings.set', { capPerDayKobo: 600_00 });
    const paused = await waitForJob(env.t, preview.job.id, (j) => !j.active);
    expect(paused.state).toBe('paused');
    expect(paused.counts.accepted).toBeGreaterThan(0);
    const cancelled = await env.t.call('bulk.cancel', { jobId: preview.job.id });
    return { cancelled, walletBefore };
  }

  it('answered counts only what the service answered; the rest is "not bought"; the accepted items reach their outcome by themselves', async () => {
    const { cancelled, walletBefore } = await pausedThenCancelled();
    expect(cancelled.state).toBe('cancelled');
    const sent = (await log()).length;
    expect(sent).toBeGreaterThanOrEqual(3);
    expect(sent).toBeLessThan(20);
    expect(cancelled.done).toBe(sent);
    expect(cancelled.notBought).toMatchObject({ count: 20 - sent, faceKobo: (20 - sent) * 100_00 });
    expect(cancelled.message).toMatch(/Cancelled: items not yet sent were not bought\. \d+ item\(s\) are still pending at the service; vendesk keeps checking them/);

    // The network credits them; the follow-up loop of the app reads the log and settles them.
    await advanceClocks(env.t, 10);
    await env.t.app.service(createBulkFollowUp).tick();
    const followed = await env.t.call('bulk.status', { jobId: cancelled.id });
    expect(followed.state).toBe('cancelled');
    expect(followed.counts).toMatchObject({ accepted: 0, pending: 0, failed: 1 });
    expect(followed.done).toBe(sent);
    expect(followed.message).toBe('Cancelled: items not yet sent were not bought.');
    await expectJobMatchesService(followed, walletBefore);
  });

  it('"vendesk bulk status" asks the service about them at once, and prints face value and wallet cost', async () => {
    const { cancelled, walletBefore } = await pausedThenCancelled();
    await advanceClocks(env.t, 10);
    const r = await cli(env.t, ['bulk', 'status', cancelled.id]);
    expect(r.code, r.stderr).toBe(0);
    const json = JSON.parse(r.stdout) as Record<string, unknown>;
    const entries = await log();
    const success = entries.filter((e) => e.status === 'SUCCESS');
    expect(json).toMatchObject({
      state: 'cancelled',
      pending: 0,
      failed: 1,
      answered: entries.length,
      bought: { items: success.length, faceValue: face(success) / 100, walletCost: cost(success) / 100, walletCostKnownFor: success.length },
      notBought: { items: 20 - entries.length, faceValue: (20 - entries.length) * 100 },
    });
    await expectJobMatchesService(await env.t.call('bulk.status', { jobId: cancelled.id }), walletBefore);
  });

  it('an item that may have been sent when vendesk stopped is settled from the log and never sent again', async () => {
    await env.t.call('bulk.settings.set', { uncertainSafeDelaySeconds: 0 });
    const preview = await env.t.call('bulk.prepare', { file: { path: writeCsv(env.dir, 'crash.csv', airtimeRows(3, 100)) }, kind: 'airtime' });
    // vendesk stopped while rows 2 and 3 were being sent; only row 2's request reached the service.
    env.t.app.db.prepare("UPDATE bulk_jobs SET state = 'running', confirmed_at = ? WHERE id = ?").run(new Date().toISOString(), preview.job.id);
    env.t.app.db.prepare("UPDATE bulk_items SET state = 'sending', attempts = 1, sent_ms = ? WHERE job_id = ? AND seq IN (1, 2)").run(Date.now(), preview.job.id);
    await env.t.app.client().purchaseAirtime([{ amount: 100, phoneNumber: mtnPhone(0), network: 'MTN', productCode: 'MTN-VTU', operator: 'MTN Nigeria', region: '' }]);

    const cancelled = await env.t.call('bulk.cancel', { jobId: preview.job.id });
    expect(cancelled.counts).toMatchObject({ uncertain: 2, cancelled: 1 });
    expect(cancelled.message).toMatch(/2 item\(s\) may have been bought: vendesk checks them against the service log and never sends them again/);
    await advanceClocks(env.t, 10);
    const checked = await env.t.call('bulk.checkAgain', { jobId: preview.job.id });
    expect(checked.state).toBe('cancelled');
    expect(checked.counts).toMatchObject({ success: 1, uncertain: 0, cancelled: 2 });
    const items = (await env.t.call('bulk.items', { jobId: preview.job.id })).items;
    expect(items[0]).toMatchObject({ state: 'success', settledBy: 'log: phone, amount and time' });
    expect(items[1]).toMatchObject({ state: 'cancelled', reason: expect.stringMatching(/Not in the service log: it was not bought/) });
    // Nothing was sent again: the log has the one purchase that reached it.
    expect(await log()).toHaveLength(1);
    expect((await env.t.call('bulk.resume', { jobId: preview.job.id })).state).toBe('cancelled');
    expect(await log()).toHaveLength(1);
  });
});

describe('face value and wallet cost', () => {
  it("a finished airtime job: face value is the log's amounts, wallet cost the wallet's drop", async () => {
    const rows = airtimeRows(6, 250);
    rows.push(['Fails', '08031239999', 'MTN', 400]);
    const preview = await env.t.call('bulk.prepare', { file: { path: writeCsv(env.dir, 'staff.csv', rows) }, kind: 'airtime' });
    const walletBefore = await walletKobo(env.t);
    const done = await env.t.call('bulk.confirm', { jobId: preview.job.id, wait: true });
    expect(done.state).toBe('completed');
    expect(done.bought.faceKobo).toBe(6 * 250_00);
    await expectJobMatchesService(done, walletBefore);
  });

  it('a bulk electricity job: the wallet cost follows each purchase, a pending one’s from its log entry at once', async () => {
    pauseLoop(env.t);
    const file = writeCsv(env.dir, 'meters.csv', [
      ['Meter number', 'Disco', 'Meter type', 'Amount', 'Phone'],
      ['45033312345', 'IKEDC', 'PREPAID', 5000, '08031234567'],
      ['45033310000', 'IKEDC', 'PREPAID', 3000, '08031234568'],
      ['45033319999', 'EKEDC', 'PREPAID', 2000, '08031234569'],
    ]);
    const preview = await env.t.call('bulk.prepare', { file: { path: file }, kind: 'electricity' });
    const walletBefore = await walletKobo(env.t);
    const done = await env.t.call('bulk.confirm', { jobId: preview.job.id, wait: true });
    expect(done.counts).toMatchObject({ success: 1, pending: 1, failed: 1 });
    // The pending purchase was answered without its commission; its log entry, read right after, gives
    // its wallet cost (the figure the Dashboard counts): the job's cost is known, and what the wallet lost.
    const charged = (await log()).filter((e) => e.status !== 'FAILED');
    expect(charged.map((e) => e.status).sort()).toEqual(['PENDING', 'SUCCESS']);
    expect(done.bought).toEqual({ count: 2, faceKobo: 8000_00, costKobo: cost(charged), costKnown: 2 });
    expect(walletBefore - (await walletKobo(env.t))).toBe(done.bought.costKobo);
    await advanceClocks(env.t, 125);
    await env.t.call('pending.requeryDue', {});
    const settled = await env.t.call('bulk.checkAgain', { jobId: preview.job.id });
    expect(settled.counts).toMatchObject({ success: 2, pending: 0, failed: 1 });
    const entries = await log();
    const success = entries.filter((e) => e.status === 'SUCCESS');
    expect(settled.bought).toEqual({ count: 2, faceKobo: face(success), costKobo: cost(success), costKnown: 2 });
    expect(settled.refunded).toMatchObject({ count: 1, faceKobo: 2000_00, costKnown: 1 });
    expect(walletBefore - (await walletKobo(env.t))).toBe(settled.bought.costKobo);
  });
});
