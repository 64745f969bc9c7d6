/**
 * The duplicate checks count purchases that may have been made (issue 37): a row of a file, or a
 * single purchase, that repeats an uncertain purchase of the last 24 hours — a row of another job,
 * or a single purchase, whose request was lost on its way — is flagged like one bought, though
 * the service's log has nothing of it. Within a file, a repeated row is flagged as ever.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { refusal } from '../../support/refusal';
import { mtnPhone, waitForJob, writeCsv } from './bulkTestFiles';
import { maybeBoughtRun } from './maybeBoughtRun';

const run = maybeBoughtRun();

describe('duplicates of purchases that may have been made', () => {
  it('a file row repeating an uncertain row of another job, or an uncertain single purchase, is flagged and left out', async () => {
    const lostJob = await run.jobWithLostRequest('first.csv', [[mtnPhone(0), 100]]);
    expect(lostJob.counts.uncertain).toBe(1);
    const single = await run.singleWithLostRequest(mtnPhone(1), 150_00);
    expect(single.state).toBe('uncertain');
    // Neither reached the service: only vendesk knows they may have been bought.
    expect(await run.servicePhones()).toEqual([]);

    const preview = await run.prepare('again.csv', [
      [mtnPhone(0), 100],
      [mtnPhone(1), 150],
      [mtnPhone(2), 100],
      [mtnPhone(2), 100],
    ]);
    const flagged = preview.duplicates.map((d) => ({ row: d.row, state: d.state, duplicateOf: d.duplicateOf }));
    expect(flagged).toEqual([
      {
        row: 2,
        state: 'excluded',
        duplicateOf: expect.stringMatching(/^08031000000 already had ₦100\.00 bought in the last 24 hours \(.*, uncertain\); keep the row only if another purchase is wanted$/),
      },
      {
        row: 3,
        state: 'excluded',
        duplicateOf: expect.stringMatching(/^08031000001 already had ₦150\.00 bought in the last 24 hours \(.*, uncertain\); keep the row only if another purchase is wanted$/),
      },
      { row: 5, state: 'excluded', duplicateOf: 'Same purchase as row 4 of this file' },
    ]);
    expect(preview.includedItems).toBe(1);
  });

  it('a single purchase repeating an uncertain bulk row or an uncertain single purchase is refused unless asked again; one still uncertain is never sent again', async () => {
    const { t } = run;
    await run.jobWithLostRequest('first.csv', [[mtnPhone(0), 100]]);
    await run.singleWithLostRequest(mtnPhone(1), 150_00);

    const check = await t.call('purchases.checkTopUp', { kind: 'airtime', phone: mtnPhone(0), amountKobo: 100_00 });
    expect(check.recent).toMatch(/^₦100\.00 of airtime was already bought for 08031000000 in the last 24 hours \(.*, uncertain\)\.$/);
    expect((await refusal(t.call('purchases.buyTopUp', { kind: 'airtime', phone: mtnPhone(0), amountKobo: 100_00 }))).code).toBe('recent_duplicate');

    expect((await t.call('purchases.checkTopUp', { kind: 'airtime', phone: mtnPhone(1), amountKobo: 150_00 })).recent).toMatch(/, uncertain\)\.$/);
    expect((await refusal(t.call('purchases.buyTopUp', { kind: 'airtime', phone: mtnPhone(1), amountKobo: 150_00 }))).code).toBe('recent_duplicate');
    // Asked again, the single purchase that may have been bought is still not sent a second time.
    expect((await refusal(t.call('purchases.buyTopUp', { kind: 'airtime', phone: mtnPhone(1), amountKobo: 150_00, repeat: true }))).code).toBe('purchase_in_progress');
    expect(await run.servicePhones()).toEqual([]);
  });

  it('an electricity row repeating an uncertain row of another job (the same meter and amount) is flagged and left out', async () => {
    const { t } = run;
    const dir = fs.mkdtempSync(`${t.dataDir}/files-`);
    const meters = (name: string) =>
      writeCsv(dir, name, [
        ['Name', 'Meter number', 'Disco', 'Meter type', 'Amount', 'Phone'],
        ['Head office', '45011112345', 'IKEDC', 'PREPAID', 5000, '08031234567'],
      ]);
    const first = await t.call('bulk.prepare', { file: { path: meters('first.csv') }, kind: 'electricity' });
    run.proxy.loseRequests('/purchaseElectricity', 1);
    await t.call('bulk.confirm', { jobId: first.job.id });
    await waitForJob(t, first.job.id, (j) => j.counts.uncertain === 1);
    await t.call('bulk.pause', { jobId: first.job.id });
    await waitForJob(t, first.job.id, (j) => !j.active);

    const again = await t.call('bulk.prepare', { file: { path: meters('again.csv') }, kind: 'electricity' });
    expect(again.duplicates.map((d) => d.duplicateOf)).toEqual([
      expect.stringMatching(/^45011112345 already had ₦5,000\.00 bought in the last 24 hours \(.*, uncertain\); keep the row only if another purchase is wanted$/),
    ]);
    expect(again.includedItems).toBe(0);
    expect(await run.servicePhones()).toEqual([]);
  });
});
