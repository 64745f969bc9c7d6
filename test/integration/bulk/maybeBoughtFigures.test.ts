/**
 * A job's figures keep what was bought apart from what may have been (issue 37): "bought" counts
 * only items known bought (accepted, pending, successful), and uncertain items are their own
 * figure, "maybe bought" — in the job's view (what the window shows), `vendesk bulk status` and
 * `bulk list` (text and --json), and the results workbook. Checked against the service's own log
 * and wallet: a request lost on its way is maybe bought, and the service never had it.
 *
 * MTN airtime costs the wallet its amount less 3% (rounded down in kobo): ₦150.50 costs ₦145.99,
 * ₦200.00 costs ₦194.00.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/main';
import type { BulkJobView } from '../../../src/shared/contract/bulk';
import { workbookViaLibreOffice } from '../../support/libreOfficeCells';
import { sandboxLog } from '../../support/sandboxRecords';
import type { TestApp } from '../../support/testApp';
import { until } from '../../support/until';
import { mtnPhone } from './bulkTestFiles';
import { maybeBoughtRun } from './maybeBoughtRun';

const run = maybeBoughtRun();

/** `vendesk ARGS` on the test's data folder and connection, in this process; `--json` when `json`. */
async function vendesk(t: TestApp, args: string[], json: boolean): Promise<string> {
  let stdout = '';
  const code = await runCli([...args, '--base-url', t.sandbox.url, '--data-dir', t.dataDir, ...(json ? ['--json'] : [])], {
    stdout: (s) => (stdout += `${s}\n`),
    stderr: () => undefined,
    env: { VENDESK_TOKEN: t.token },
  });
  // A paused job waits for someone: status exits 1 for it; list exits 0.
  expect(code).toBe(args[1] === 'status' ? 1 : 0);
  return stdout;
}

describe("a job's figures when a row may have been bought", () => {
  it('bought counts only what the service has; the uncertain row is shown as maybe bought, in the view, the CLI and the results workbook', { timeout: 180_000 }, async () => {
    const { t } = run;
    const wallet = await run.serviceWallet();
    // Row 2's request is lost on its way; rows 3 and 4 are bought.
    const paused = await run.jobWithLostRequest('staff.csv', [
      [mtnPhone(0), 100],
      [mtnPhone(1), '150.50'],
      [mtnPhone(2), 200],
    ]);
    const jobId = paused.id;
    // Once the service has settled them (Check again reads its log), they are successful, at a known cost.
    let job: BulkJobView = paused;
    await until(async () => {
      job = await t.call('bulk.checkAgain', { jobId });
      return job.counts.success === 2 && job.bought.costKnown === 2;
    }, 'the two rows bought to be successful');

    // What the service has: two purchases, ₦350.50 of face value, ₦339.99 from the wallet.
    const log = await sandboxLog(t);
    expect(log.map((e) => e.phone_number).sort()).toEqual([mtnPhone(1), mtnPhone(2)]);
    expect(wallet - (await run.serviceWallet())).toBe(145_99 + 194_00);

    // The view (the window's job page and list read it).
    expect(job.counts).toMatchObject({ uncertain: 1, success: 2 });
    expect(job.bought).toEqual({ count: 2, faceKobo: 350_50, costKobo: 339_99, costKnown: 2 });
    expect(job.maybeBought).toEqual({ count: 1, faceKobo: 100_00, costKobo: 0, costKnown: 0 });

    // vendesk bulk status: JSON and text.
    const status = JSON.parse(await vendesk(t, ['bulk', 'status', jobId], true)) as Record<string, unknown>;
    expect(status).toMatchObject({
      uncertain: 1,
      bought: { items: 2, faceValue: 350.5, walletCost: 339.99, walletCostKnownFor: 2, walletCostOfKnown: 339.99 },
      maybeBought: { items: 1, faceValue: 100, walletCost: null, walletCostKnownFor: 0, walletCostOfKnown: 0 },
      totalCharged: 350.5,
    });
    const text = await vendesk(t, ['bulk', 'status', jobId], false);
    expect(text).toContain('  Bought: 2 item(s), ₦350.50 face value, wallet cost ₦339.99\n');
    expect(text).toContain("  Maybe bought: 1 item(s), ₦100.00 face value (no answer yet; checked against the service's log, never sent again blindly)\n");

    // vendesk bulk list: JSON and text.
    const listed = JSON.parse(await vendesk(t, ['bulk', 'list'], true)) as Record<string, unknown>[];
    expect(listed.find((j) => j.jobId === jobId)).toMatchObject({ bought: { items: 2, faceValue: 350.5 }, maybeBought: { items: 1, faceValue: 100 } });
    const listText = (await vendesk(t, ['bulk', 'list'], false)).split('\n');
    const columns = (row: string) => row.split(/ {2,}/).map((c) => c.trim());
    const head = columns(listText[0]);
    const line = columns(listText.find((l) => l.startsWith(jobId)) ?? '');
    expect(line[head.indexOf('Bought')]).toBe('₦350.50 face value, wallet cost ₦339.99');
    expect(line[head.indexOf('Maybe bought')]).toBe('₦100.00 (1 item(s))');

    // The results workbook, as LibreOffice reads it.
    const exported = await t.call('bulk.export', { jobId, format: 'xlsx' });
    const rows = workbookViaLibreOffice(exported.path).get('Summary') ?? [];
    const headers = rows[0].map((c) => c.text);
    const summaryLine = (what: string) => Object.fromEntries(headers.map((h, i) => [h, rows.find((r) => r[0]?.text === what)?.[i]?.value ?? null]));
    expect(summaryLine('Bought (successful and pending)')).toMatchObject({ Items: 2, 'Face value': 350.5, 'Wallet cost': 339.99, 'Wallet cost known for (items)': 2 });
    expect(summaryLine('Maybe bought (uncertain)')).toMatchObject({ Items: 1, 'Face value': 100, 'Wallet cost': null, 'Wallet cost known for (items)': 0 });
  });
});
