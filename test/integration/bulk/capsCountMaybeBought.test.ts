/**
 * Every spending cap counts money that may have left the wallet (issue 37): the cap per job at
 * confirm and before each batch of a running job, and the daily cap — over a Lagos day on the
 * service's clock, counting bulk jobs and single purchases — count uncertain items (requests lost
 * on their way: maybe bought, never in the service's log) as spent. Each cap is pinned exactly at
 * its limit, one kobo under it and one kobo over it, and what was bought is read from the
 * sandbox's own log and wallet.
 *
 * MTN airtime costs the wallet its amount less 3% (rounded down in kobo): ₦100.00 costs ₦97.00,
 * ₦100.50 costs ₦97.49, ₦150.50 costs ₦145.99.
 */
import { describe, expect, it } from 'vitest';
import type { BulkJobView, BulkPreview } from '../../../src/shared/contract/bulk';
import { refusal } from '../../support/refusal';
import { advanceClocks, lagosDayWithRoom } from '../../support/serviceClocks';
import { mtnPhone, waitForJob } from './bulkTestFiles';
import { maybeBoughtRun, type AirtimeRow } from './maybeBoughtRun';

const run = maybeBoughtRun();

/** Three ₦100 rows for the phones `first`…`first + 2`. */
const threeRows = (first: number): AirtimeRow[] => [0, 1, 2].map((i) => [mtnPhone(first + i), 100]);

describe('the cap per job, when the job is confirmed', () => {
  it('a job exactly at the cap, or one kobo under it, is bought; one kobo over it is refused and nothing is bought', async () => {
    const { t } = run;
    // ₦250.50 a job: ₦100.00 and ₦150.50.
    const rows = (first: number): AirtimeRow[] => [
      [mtnPhone(first), 100],
      [mtnPhone(first + 1), '150.50'],
    ];
    const wallet = await run.serviceWallet();

    await t.call('bulk.settings.set', { capPerJobKobo: 250_49 });
    const over = await run.prepare('over.csv', rows(0));
    expect(over.includedKobo).toBe(250_50);
    expect(over.blocker).toBe('The job total ₦250.50 is above the spending cap per job of ₦250.49. Split the file, or raise the cap per job (Purchases → Limits for bulk jobs).');
    expect((await refusal(t.call('bulk.confirm', { jobId: over.job.id }))).code).toBe('job_refused');
    expect(await run.servicePhones()).toEqual([]);
    expect(await run.serviceWallet()).toBe(wallet);

    await t.call('bulk.settings.set', { capPerJobKobo: 250_50 });
    const at = await run.prepare('at.csv', rows(10));
    expect(at.blocker).toBeNull();
    expect((await t.call('bulk.confirm', { jobId: at.job.id, wait: true })).state).toBe('completed');
    expect(await run.servicePhones()).toEqual([mtnPhone(10), mtnPhone(11)]);
    expect(wallet - (await run.serviceWallet())).toBe(97_00 + 145_99);

    await t.call('bulk.settings.set', { capPerJobKobo: 250_51 });
    const under = await run.prepare('under.csv', rows(20));
    expect(under.blocker).toBeNull();
    expect((await t.call('bulk.confirm', { jobId: under.job.id, wait: true })).state).toBe('completed');
    expect(await run.servicePhones()).toEqual([mtnPhone(10), mtnPhone(11), mtnPhone(20), mtnPhone(21)]);
    expect(wallet - (await run.serviceWallet())).toBe(2 * (97_00 + 145_99));
  });
});

describe('the cap per job, while the job runs', () => {
  /**
   * A job of three ₦100 rows sent one at a time, confirmed with no cap per job. Its first request
   * is lost on its way, and while it is, the cap per job is set to `cap`: the next row is checked
   * against it with the first row uncertain (maybe bought). Resolves once the job has stopped sending.
   */
  async function capSetWhileFirstRowIsLost(first: number, cap: number): Promise<BulkJobView> {
    const { t } = run;
    await t.call('bulk.settings.set', { batchSize: 1, concurrency: 1, capPerJobKobo: null });
    const preview = await run.prepare(`job-${first}.csv`, threeRows(first));
    run.proxy.loseRequests('/purchaseAirtime', 1, async () => {
      await t.call('bulk.settings.set', { capPerJobKobo: cap });
    });
    await t.call('bulk.confirm', { jobId: preview.job.id });
    // Stopped sending: paused by the cap, or (were the cap not to hold) every row sent, the lost one waiting for the log.
    const stopped = await waitForJob(t, preview.job.id, (j) => !j.active || j.counts.queued + j.counts.held + j.counts.sending === 0);
    expect((await t.call('bulk.settings.get', {})).capPerJobKobo).toBe(cap);
    return stopped;
  }

  /**
   * Runs that job under `cap` and checks where it stopped: paused by the cap with `soFar` bought or
   * maybe bought (as the message writes it), its first row maybe bought, and `rowsBought` rows (the
   * second, or none) bought — in the job's figures and in the service's log and wallet.
   */
  async function expectPausedByTheCap(cap: number, capText: string, soFar: string, rowsBought: 0 | 1): Promise<void> {
    const wallet = await run.serviceWallet();
    const job = await capSetWhileFirstRowIsLost(0, cap);
    expect(job.state).toBe('paused');
    expect(job.message).toBe(
      `Paused: sending more would take this job past its spending cap of ${capText} (${soFar} bought or maybe bought so far). Raise the cap per job (Purchases → Limits for bulk jobs), then resume. 1 item(s) are still being checked against the log.`,
    );
    expect(job.counts).toMatchObject({ uncertain: 1, queued: 2 - rowsBought });
    expect(job.maybeBought).toMatchObject({ count: 1, faceKobo: 100_00 });
    expect(job.bought).toMatchObject({ count: rowsBought, faceKobo: rowsBought * 100_00 });
    // The first row never reached the service; the second did only if the cap let it go.
    expect(await run.servicePhones()).toEqual(rowsBought === 1 ? [mtnPhone(1)] : []);
    expect(wallet - (await run.serviceWallet())).toBe(rowsBought * 97_00);
  }

  it('counts the uncertain row: a next row that takes the job exactly to the cap goes, the one after is held back', async () => {
    await expectPausedByTheCap(200_00, '₦200.00', '₦200.00', 1);
  });

  it('a next row that takes it one kobo under the cap goes too', async () => {
    await expectPausedByTheCap(200_01, '₦200.01', '₦200.00', 1);
  });

  it('a next row that would take it one kobo over the cap is held back: only the uncertain row was sent', async () => {
    await expectPausedByTheCap(199_99, '₦199.99', '₦100.00', 0);
  });
});

describe('the daily cap', () => {
  it("counts another job's uncertain row and an uncertain single purchase of today, at confirm and while a job runs; a Lagos day later on the service's clock they are yesterday's", async () => {
    const { t } = run;
    await lagosDayWithRoom(t);
    const wallet = await run.serviceWallet();
    // Maybe bought today, by a bulk job (₦100) and by a single purchase (₦150): neither reached the service.
    const lostJob = await run.jobWithLostRequest('lost.csv', [[mtnPhone(0), 100]]);
    expect(lostJob.maybeBought).toMatchObject({ count: 1, faceKobo: 100_00 });
    const single = await run.singleWithLostRequest(mtnPhone(1), 150_00);
    expect(single.state).toBe('uncertain');
    expect(await run.servicePhones()).toEqual([]);

    // A job of ₦200.50 (₦100.00 and ₦100.50) would take the day to ₦450.50.
    const rows = (first: number): AirtimeRow[] => [
      [mtnPhone(first), 100],
      [mtnPhone(first + 1), '100.50'],
    ];
    await t.call('bulk.settings.set', { capPerDayKobo: 450_49 });
    const over = await run.prepare('over.csv', rows(10));
    expect(over.spentTodayKobo).toBe(250_00);
    expect(over.blocker).toBe(
      "This job (₦200.50) would take today's spending on this connection to ₦450.50 (₦250.00 bought or maybe bought today), above the daily cap of ₦450.49. Buy fewer rows today, or raise the daily cap (Purchases → Limits for bulk jobs).",
    );
    expect((await refusal(t.call('bulk.confirm', { jobId: over.job.id }))).code).toBe('job_refused');
    expect(await run.servicePhones()).toEqual([]);

    // One kobo under the cap: bought (and its batch, checked again, goes).
    await t.call('bulk.settings.set', { capPerDayKobo: 450_51 });
    const under = await run.prepare('under.csv', rows(20));
    expect(under.blocker).toBeNull();
    expect((await t.call('bulk.confirm', { jobId: under.job.id, wait: true })).state).toBe('completed');
    expect(await run.servicePhones()).toEqual([mtnPhone(20), mtnPhone(21)]);

    // Exactly at the cap: ₦450.50 today and a ₦100 job under a cap of ₦550.50.
    await t.call('bulk.settings.set', { capPerDayKobo: 550_50 });
    const at = await run.prepare('at.csv', [[mtnPhone(30), 100]]);
    expect(at.spentTodayKobo).toBe(450_50);
    expect(at.blocker).toBeNull();
    expect((await t.call('bulk.confirm', { jobId: at.job.id, wait: true })).state).toBe('completed');
    expect(await run.servicePhones()).toEqual([mtnPhone(20), mtnPhone(21), mtnPhone(30)]);
    expect(wallet - (await run.serviceWallet())).toBe(97_00 + 97_49 + 97_00);

    // While a job runs: two ₦100 rows one at a time, confirmed at the cap (₦750.50); its first
    // request is lost, and meanwhile the cap goes one kobo below: its second row (₦550.50 + ₦100
    // maybe bought + ₦100) would pass it, and is held back.
    await t.call('bulk.settings.set', { capPerDayKobo: 750_50, batchSize: 1, concurrency: 1 });
    const overRun = await run.prepare('over-run.csv', [
      [mtnPhone(40), 100],
      [mtnPhone(41), 100],
    ]);
    run.proxy.loseRequests('/purchaseAirtime', 1, async () => {
      await t.call('bulk.settings.set', { capPerDayKobo: 750_49 });
    });
    await t.call('bulk.confirm', { jobId: overRun.job.id });
    const paused = await waitForJob(t, overRun.job.id, (j) => !j.active || j.counts.queued === 0);
    expect(paused.state).toBe('paused');
    expect(paused.message).toMatch(/^Paused: the daily spending cap of ₦750\.49 is reached \(₦650\.50 bought or maybe bought today on this connection\)\./);
    expect(paused.counts).toMatchObject({ uncertain: 1, queued: 1 });
    expect(await run.servicePhones()).toEqual([mtnPhone(20), mtnPhone(21), mtnPhone(30)]);

    // The same with the cap exactly where the second row takes the day (₦650.50 + ₦100 maybe bought + ₦100): it goes.
    await t.call('bulk.settings.set', { capPerDayKobo: 850_50 });
    const atRun = await run.prepare('at-run.csv', [
      [mtnPhone(50), 100],
      [mtnPhone(51), 100],
    ]);
    run.proxy.loseRequests('/purchaseAirtime', 1);
    await t.call('bulk.confirm', { jobId: atRun.job.id });
    // Every row sent, the lost one waiting for the log: paused here, as nothing more is to come.
    await waitForJob(t, atRun.job.id, (j) => !j.active || j.counts.queued + j.counts.sending === 0);
    await t.call('bulk.pause', { jobId: atRun.job.id });
    const sent = await waitForJob(t, atRun.job.id, (j) => !j.active);
    expect(sent.counts.queued).toBe(0);
    expect(sent.bought.count).toBe(1);
    expect(sent.maybeBought).toMatchObject({ count: 1, faceKobo: 100_00 });
    expect(await run.servicePhones()).toEqual([mtnPhone(20), mtnPhone(21), mtnPhone(30), mtnPhone(51)]);
    expect(wallet - (await run.serviceWallet())).toBe(97_00 + 97_49 + 97_00 + 97_00);

    // The next Lagos day on the service's clock (this computer's clock has not moved): nothing is spent today yet.
    const lagosNowMs = Date.parse((await t.sandboxControl.clock()).now) + 3_600_000;
    await advanceClocks(t, Math.ceil((86_400_000 - (lagosNowMs % 86_400_000)) / 1000) + 60);
    await t.call('bulk.settings.set', { capPerDayKobo: 100_00, batchSize: 50 });
    const tomorrow: BulkPreview = await run.prepare('tomorrow.csv', [[mtnPhone(60), 100]]);
    expect(tomorrow.spentTodayKobo).toBe(0);
    expect(tomorrow.blocker).toBeNull();
    expect((await t.call('bulk.confirm', { jobId: tomorrow.job.id, wait: true })).state).toBe('completed');
    expect(await run.servicePhones()).toEqual([mtnPhone(20), mtnPhone(21), mtnPhone(30), mtnPhone(51), mtnPhone(60)]);
  });
});
