/**
 * A bulk job against the real sandbox and the same phone and amount bought twice: held while the
 * first is in progress (429), never sent together, flagged when the service log already has it,
 * and left out as a duplicate row. (Split from bulkPaths.test.ts so the suites run side by side.)
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { allLogEntries, bulkPathRun, mtnPhone, QUICK_SETTLEMENT, waitForJob } from './bulkTestFiles';

const run = bulkPathRun();

describe('service answers during a job', () => {
  // About a purchase still in progress: the sandbox's own 5 s before an airtime purchase is final.
  beforeEach(() => run.start());

  it('429: an item whose phone and amount is already in progress is held, then bought after it', async () => {
    const first = await run.prepareAirtime(
      [
        ['Phone', 'Amount'],
        [mtnPhone(1), 100],
      ],
      'first.csv',
    );
    await run.t.call('bulk.confirm', { jobId: first.job.id });
    await waitForJob(run.t, first.job.id, (j) => j.counts.accepted + j.counts.success === 1);
    // Same phone and amount, a second job while the first is not final (5 s): the service says 429.
    const second = await run.prepareAirtime(
      [
        ['Phone', 'Amount'],
        [mtnPhone(1), 100],
      ],
      'second.csv',
      true,
    );
    expect(second.duplicates).toHaveLength(1);
    expect(second.duplicates[0].duplicateOf).toMatch(/last 24 hours/);
    await run.t.call('bulk.confirm', { jobId: second.job.id });
    const held = await waitForJob(run.t, second.job.id, (j) => j.counts.held === 1, 10_000);
    expect(held.counts.held).toBe(1);
    const items = await run.t.call('bulk.items', { jobId: second.job.id });
    expect(items.items[0].reason).toMatch(/in progress/);
    const done = await waitForJob(run.t, second.job.id, (j) => j.state === 'completed', 60_000);
    expect(done.counts.success).toBe(1);
    expect(await allLogEntries(run.t.sandbox.url, run.t.token)).toHaveLength(2);
  });

  it('the same phone and amount twice in one file (kept) is never sent together: no 429, both bought', async () => {
    const preview = await run.prepareAirtime([
      ['Phone', 'Amount'],
      [mtnPhone(1), 100],
      [mtnPhone(2), 100],
      [mtnPhone(1), 100],
    ]);
    expect(preview.duplicates.map((d) => d.row)).toEqual([4]);
    expect(preview.includedItems).toBe(2);
    const kept = await run.t.call('bulk.setIncluded', { jobId: preview.job.id, seqs: [preview.duplicates[0].seq], include: true });
    expect(kept.includedItems).toBe(3);
    const done = await run.t.call('bulk.confirm', { jobId: preview.job.id, wait: true });
    expect(done.counts.success).toBe(3);
    const items = await run.t.call('bulk.items', { jobId: preview.job.id });
    for (const item of items.items) expect(item.attempts).toBe(1);
    expect((await allLogEntries(run.t.sandbox.url, run.t.token)).filter((e) => e.phone_number === mtnPhone(1))).toHaveLength(2);
  });
});

describe('service answers during a job', () => {
  beforeEach(() => run.start(QUICK_SETTLEMENT));

  it('a row bought outside vendesk jobs in the last 24 hours (found in the service log) is flagged and left out', async () => {
    await run.t.app.client().purchaseAirtime([{ amount: 300, phoneNumber: mtnPhone(7), network: 'MTN', productCode: 'MTN-VTU', operator: 'MTN Nigeria', region: '' }]);
    const preview = await run.prepareAirtime([
      ['Phone', 'Amount'],
      [mtnPhone(7), 300],
      [mtnPhone(8), 300],
    ]);
    expect(preview.duplicates).toHaveLength(1);
    expect(preview.duplicates[0]).toMatchObject({
      row: 2,
      state: 'excluded',
      duplicateOf: expect.stringMatching(/already had ₦300\.00 bought in the last 24 hours.*reference ATM/),
    });
    expect(preview.includedItems).toBe(1);
  });

  it('a duplicate row left out is not bought and says why', async () => {
    const preview = await run.prepareAirtime([
      ['Phone', 'Amount'],
      [mtnPhone(1), 100],
      [mtnPhone(1), 100],
    ]);
    const done = await run.t.call('bulk.confirm', { jobId: preview.job.id, wait: true });
    expect(done.counts).toMatchObject({ success: 1, excluded: 1 });
    const items = await run.t.call('bulk.items', { jobId: preview.job.id, states: ['excluded'] });
    expect(items.items[0]).toMatchObject({ row: 3, duplicateOf: 'Same purchase as row 2 of this file' });
    expect(await allLogEntries(run.t.sandbox.url, run.t.token)).toHaveLength(1);
  });
});
