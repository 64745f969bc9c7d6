/**
 * Every path of a bulk job against the real sandbox: an unconfigured organisation, caps, the LIVE
 * confirmation, uncertain items and hand settlement, exports and the LibreOffice-made workbooks,
 * pause and cancel. Service refusals and retries are in bulkServiceAnswers.test.ts, holds and
 * duplicates in bulkSamePurchase.test.ts (split so the three run side by side). None of these is
 * about the 5 s an airtime purchase stays in progress: the sandbox settles them in 0.5 s.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '../../../src/main/app';
import { dispatch } from '../../../src/main/dispatch';
import { startTestSandbox } from '../../support/testSandbox';
import { ROOT, type TestApp, type TestAppOptions } from '../../support/testApp';
import { AppError } from '../../../src/shared/appError';
import { refusal } from '../../support/refusal';
import { airtimeRows, allLogEntries, bulkPathRun, fastJobs, QUICK_SETTLEMENT, tempDir, waitForJob, writeCsv } from './bulkTestFiles';

const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'imports');

let t: TestApp;
let dir: string;
const run = bulkPathRun();
const prepareAirtime = run.prepareAirtime;
async function start(options: TestAppOptions = {}): Promise<void> {
  await run.start(options);
  ({ t, dir } = run);
}

describe('an organisation not configured for vending (422)', () => {
  beforeEach(() => start({ token: `unconfigured-${Date.now()}` }));

  it('keeps the service reason on every item and charges nothing', async () => {
    const preview = await prepareAirtime(airtimeRows(2));
    const done = await t.call('bulk.confirm', { jobId: preview.job.id, wait: true });
    expect(done.counts.rejected).toBe(2);
    expect(done.bought.faceKobo).toBe(0);
    const items = await t.call('bulk.items', { jobId: preview.job.id });
    for (const item of items.items) expect(item.reason).toMatch(/Not possible for this organisation: .*not configured.*Nothing was charged/);
  });
});

describe('spending caps and confirmation', () => {
  beforeEach(() => start(QUICK_SETTLEMENT));

  it('a job above the cap per job is refused at confirmation; nothing is bought', async () => {
    await t.call('bulk.settings.set', { capPerJobKobo: 250_00 });
    const preview = await prepareAirtime(airtimeRows(3));
    expect(preview.blocker).toMatch(/above the spending cap per job of ₦250\.00/);
    const error = await refusal(t.call('bulk.confirm', { jobId: preview.job.id }));
    expect(error.code).toBe('job_refused');
    expect(await allLogEntries(t.sandbox.url, t.token)).toHaveLength(0);
  });

  it('the daily cap counts earlier jobs, and is enforced again while a job runs', async () => {
    const first = await prepareAirtime(airtimeRows(3), 'a.csv');
    await t.call('bulk.confirm', { jobId: first.job.id, wait: true });
    await t.call('bulk.settings.set', { capPerDayKobo: 500_00 });
    const second = await prepareAirtime(airtimeRows(3, 100, 10), 'b.csv');
    expect(second.spentTodayKobo).toBe(300_00);
    expect(second.blocker).toMatch(/daily cap of ₦500\.00/);
    expect((await refusal(t.call('bulk.confirm', { jobId: second.job.id }))).code).toBe('job_refused');

    // At execution: the cap is lowered after confirmation; the job stops at the cap.
    await t.call('bulk.settings.set', { capPerDayKobo: 10_000_00, batchSize: 1, concurrency: 1 });
    await t.sandboxControl.addFault({ path: '/purchaseAirtime', status: 503, count: 3 });
    await t.call('bulk.confirm', { jobId: second.job.id });
    await t.call('bulk.settings.set', { capPerDayKobo: 400_00 });
    const paused = await waitForJob(t, second.job.id, (j) => !j.active, 30_000);
    expect(paused.state).toBe('paused');
    expect(paused.message).toMatch(/daily spending cap of ₦400\.00 is reached/);
    expect(paused.counts.success + paused.counts.accepted).toBe(1);
    expect(paused.counts.queued).toBe(2);
    expect(await allLogEntries(t.sandbox.url, t.token)).toHaveLength(4);
  });

  it('a job is sent only to the service it was prepared for', async () => {
    const preview = await prepareAirtime(airtimeRows(2));
    const other = await startTestSandbox();
    const elsewhere = await createApp({ dataDir: t.dataDir, shell: 'test', connection: { baseUrl: other.url, token: t.token, kind: 'sandbox' } });
    try {
      const r = await dispatch(elsewhere, 'bulk.confirm', { jobId: preview.job.id });
      expect(r.ok).toBe(false);
      if (!r.ok) {
        expect(r.error.code).toBe('job_other_connection');
        expect(r.error.hint).toMatch(/Switch back to the connection the job was prepared for/);
      }
    } finally {
      await elsewhere.close();
      await other.close();
    }
    expect(await allLogEntries(t.sandbox.url, t.token)).toHaveLength(0);
  });

  it('on a LIVE connection the total must be typed to confirm', async () => {
    const liveDir = tempDir();
    const live = await createApp({ dataDir: liveDir, shell: 'test', connection: { baseUrl: t.sandbox.url, token: t.token, kind: 'live' } });
    fastJobs(live);
    try {
      const file = writeCsv(dir, 'live.csv', airtimeRows(2, 500));
      const call = async (name: string, input: unknown) => {
        const r = await dispatch(live, name, input);
        if (!r.ok) throw AppError.fromShape(r.error);
        return r.value as never;
      };
      const preview: { live: boolean; job: { id: string } } = await call('bulk.prepare', { file: { path: file }, kind: 'airtime' });
      expect(preview.live).toBe(true);
      const none = await refusal(call('bulk.confirm', { jobId: preview.job.id }));
      expect(none.code).toBe('confirmation_mismatch');
      expect(none.message).toMatch(/LIVE.*Type the job total \(₦1,000\.00\)/);
      const wrong = await refusal(call('bulk.confirm', { jobId: preview.job.id, typedTotal: '100' }));
      expect(wrong.message).toMatch(/not the job total/);
      expect(await allLogEntries(t.sandbox.url, t.token)).toHaveLength(0);
      const done: { state: string; counts: { success: number } } = await call('bulk.confirm', { jobId: preview.job.id, typedTotal: '1,000.00', wait: true });
      expect(done).toMatchObject({ state: 'completed', counts: { success: 2 } });
    } finally {
      await live.close();
      fs.rmSync(liveDir, { recursive: true, force: true });
    }
  });
});

describe('uncertain items', () => {
  beforeEach(() => start(QUICK_SETTLEMENT));

  /** A confirmed job left as a crash would leave it: the given items `sending`, nothing running. */
  function crashWith(jobId: string, sendingSeqs: number[]): void {
    const db = t.app.db;
    db.prepare("UPDATE bulk_jobs SET state = 'running', confirmed_at = ? WHERE id = ?").run(new Date().toISOString(), jobId);
    db.prepare(`UPDATE bulk_items SET state = 'sending', attempts = 1, sent_ms = ? WHERE job_id = ? AND seq IN (${sendingSeqs.join(',')})`).run(Date.now(), jobId);
  }

  it('after a crash, an item that reached the service is matched in the log and not bought again; one that did not is sent', async () => {
    const preview = await prepareAirtime(airtimeRows(3));
    crashWith(preview.job.id, [1, 2]);
    // Item 1 reached the service before the crash; item 2 never left.
    const item1 = (await t.call('bulk.items', { jobId: preview.job.id })).items[0];
    await t.app.client().purchaseAirtime([{ amount: 100, phoneNumber: item1.phone, network: 'MTN', productCode: 'MTN-VTU', operator: 'MTN Nigeria', region: '' }]);

    const before = await t.call('bulk.status', { jobId: preview.job.id });
    expect(before.interrupted).toBe(true);
    const done = await t.call('bulk.resume', { jobId: preview.job.id, wait: true });
    expect(done.counts.success).toBe(3);
    const items = (await t.call('bulk.items', { jobId: preview.job.id })).items;
    expect(items[0].settledBy).toBe('log: phone, amount and time');
    expect(items[0].attempts).toBe(1);
    expect(items[1].settledBy).toMatch(/no matching entry .* sent again/);
    const log = await allLogEntries(t.sandbox.url, t.token);
    expect(log).toHaveLength(3);
    expect(new Set(log.map((e) => e.phone_number)).size).toBe(3);
  });

  it('a log entry that cannot be tied to the item for sure (service clock far ahead) is never answered by buying again', async () => {
    const preview = await prepareAirtime(airtimeRows(2));
    crashWith(preview.job.id, [1]);
    await t.sandboxControl.advanceClock(20 * 60);
    const item1 = (await t.call('bulk.items', { jobId: preview.job.id })).items[0];
    await t.app.client().purchaseAirtime([{ amount: 100, phoneNumber: item1.phone, network: 'MTN', productCode: 'MTN-VTU', operator: 'MTN Nigeria', region: '' }]);
    const done = await t.call('bulk.resume', { jobId: preview.job.id, wait: true });
    expect(done.state).toBe('needs_attention');
    const uncertain = (await t.call('bulk.items', { jobId: preview.job.id, states: ['uncertain'] })).items;
    expect(uncertain.map((i) => i.seq)).toEqual([1]);
    expect(uncertain[0].reason).toMatch(/cannot tie to this item for sure/);
    expect((await allLogEntries(t.sandbox.url, t.token)).filter((e) => e.phone_number === item1.phone)).toHaveLength(1);
  });

  it('what the log cannot settle is put to the user, who marks it bought or not bought', async () => {
    const preview = await prepareAirtime(airtimeRows(2));
    crashWith(preview.job.id, [1]);
    t.app.db.prepare('UPDATE bulk_items SET attempts = 5 WHERE job_id = ? AND seq = 1').run(preview.job.id);
    const done = await t.call('bulk.resume', { jobId: preview.job.id, wait: true });
    expect(done.state).toBe('needs_attention');
    expect(done.counts.uncertain).toBe(1);
    expect(done.message).toMatch(/mark it bought or not bought/);
    const uncertain = (await t.call('bulk.items', { jobId: preview.job.id, states: ['uncertain'] })).items[0];
    expect(uncertain.reason).toMatch(/not found in the service log/);
    const resolved = await t.call('bulk.resolveItems', { jobId: preview.job.id, seqs: [uncertain.seq], resolution: 'not_bought', note: 'checked with the provider' });
    expect(resolved.state).toBe('completed');
    expect(resolved.counts).toMatchObject({ uncertain: 0, cancelled: 1, success: 1 });
    expect(await allLogEntries(t.sandbox.url, t.token)).toHaveLength(1);
  });
});

describe('results and real spreadsheets', () => {
  beforeEach(() => start(QUICK_SETTLEMENT));

  it('exports the results to XLSX (summary and items) and CSV', async () => {
    const preview = await prepareAirtime(airtimeRows(2).concat([['Fails', '08031239999', 'MTN', 100]]));
    await t.call('bulk.confirm', { jobId: preview.job.id, wait: true });
    const csv = await t.call('bulk.export', { jobId: preview.job.id, format: 'csv' });
    expect(csv.rows).toBe(3);
    const text = fs.readFileSync(csv.path, 'utf8');
    expect(text).toMatch(/Row,Phone,Name/);
    expect(text).toMatch(/08031239999.*Failed \(refunded\)/);
    expect(text.match(/Successful/g)).toHaveLength(2);
    const xlsx = await t.call('bulk.export', { jobId: preview.job.id, format: 'xlsx' });
    expect(xlsx.fileName).toMatch(/\.xlsx$/);
    const ExcelJS = (await import('exceljs')).default;
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(xlsx.path);
    expect(wb.worksheets.map((w) => w.name)).toEqual(['Summary', 'Items']);
    expect(wb.getWorksheet('Items')?.rowCount).toBe(4);
  });

  it('a LibreOffice-made airtime workbook: the right outcome for each row, and the network chosen for a ported number', async () => {
    const preview = await t.call('bulk.prepare', { file: { path: path.join(FIXTURES, 'libreoffice-airtime.xlsx') }, kind: 'airtime' });
    const invalid = await t.call('bulk.invalidRows', { jobId: preview.job.id });
    expect([...new Set(invalid.rows.map((r) => r.row))]).toEqual([8, 9, 13]);
    expect(invalid.rows.find((r) => r.row === 8)?.message).toMatch(/Row 8:/);
    expect(preview.duplicates.map((d) => d.row)).toEqual([12]);
    expect(preview.networkConflicts.map((c) => [c.row, c.givenNetwork, c.prefixNetwork])).toEqual([[10, 'MTN', '9MOBILE']]);
    const switched = await t.call('bulk.setNetwork', { jobId: preview.job.id, seqs: [preview.networkConflicts[0].seq], use: 'prefix' });
    expect(switched.networkConflicts[0].network).toBe('9MOBILE');
    expect(switched.includedItems).toBe(6);
    expect(switched.includedKobo).toBe(1000_00 + 500_00 + 200_00 + 1000_00 + 500_00 + 2000_00);
    const done = await t.call('bulk.confirm', { jobId: preview.job.id, wait: true });
    expect(done.counts.success).toBe(6);
    const log = await allLogEntries(t.sandbox.url, t.token);
    expect(log.find((e) => e.phone_number === '08091234567')?.network).toBe('9MOBILE');
    expect(log.filter((e) => e.phone_number === '08031234567')).toHaveLength(1);
  });

  it('a LibreOffice-made data workbook buys the catalog plans', async () => {
    const preview = await t.call('bulk.prepare', { file: { path: path.join(FIXTURES, 'libreoffice-data.xlsx') }, kind: 'data' });
    expect(preview.includedItems).toBe(3);
    expect(preview.job.invalidRows).toBe(2);
    const done = await t.call('bulk.confirm', { jobId: preview.job.id, wait: true });
    expect(done.counts.success).toBe(3);
    const log = await allLogEntries(t.sandbox.url, t.token);
    expect(log.map((e) => e.amount).sort()).toEqual(['NGN 300.00', 'NGN 350.00', 'NGN 350.00']);
  });
});

describe('pause, resume and cancel', () => {
  beforeEach(() => start(QUICK_SETTLEMENT));

  it('pause stops sending, resume buys the rest; cancel leaves the unsent rows unbought', async () => {
    await t.call('bulk.settings.set', { batchSize: 1, concurrency: 1 });
    const preview = await prepareAirtime(airtimeRows(12));
    await t.sandboxControl.addFault({ path: '/purchaseAirtime', status: 503, count: 2 });
    await t.call('bulk.confirm', { jobId: preview.job.id });
    await t.call('bulk.pause', { jobId: preview.job.id });
    const paused = await waitForJob(t, preview.job.id, (j) => !j.active);
    expect(paused.state).toBe('paused');
    expect(paused.counts.queued).toBeGreaterThan(0);
    const sentBeforeResume = (await allLogEntries(t.sandbox.url, t.token)).length;
    expect(sentBeforeResume).toBe(12 - paused.counts.queued);

    await t.call('bulk.resume', { jobId: preview.job.id });
    await waitForJob(t, preview.job.id, (j) => j.counts.queued < paused.counts.queued);
    const cancelled = await t.call('bulk.cancel', { jobId: preview.job.id });
    expect(cancelled.state).toBe('cancelled');
    const log = await allLogEntries(t.sandbox.url, t.token);
    expect(log.length).toBe(12 - cancelled.counts.cancelled);
    expect(cancelled.counts.queued + cancelled.counts.held + cancelled.counts.sending).toBe(0);
    const items = await t.call('bulk.items', { jobId: preview.job.id, states: ['cancelled'] });
    for (const item of items.items) expect(item.reason).toMatch(/nothing was charged/);
  });
});
