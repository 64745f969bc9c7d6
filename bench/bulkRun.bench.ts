/**
 * Bulk run benchmark (issue 17): a confirmed airtime job sent by the job runner until every item
 * has its outcome from the service's log — batches, concurrency, log reads — against a sandbox
 * over real HTTP, with the production timing. Prints the time to completion, the CPU it took and
 * items per second. `--kind electricity` runs a job of prepaid meters instead: each row is checked
 * with the service and bought one by one through its purchase, which its row follows; add
 * `--pending` for meters the sandbox keeps pending, then the requery pass that settles every one
 * (each settled purchase moves its row, and its finished job, in the same write) is timed too:
 * by `vendesk requery`'s operation, or with `--loop` by one pass of the requery loop.
 *
 *   npm run bench -- bulkRun                # 5,000 airtime items
 *   npm run bench -- bulkRun --rows 20000
 *   npm run bench -- bulkRun --kind electricity --rows 800    # ₦1,000 each: the sandbox wallet holds ₦1,000,000
 *   npm run bench -- bulkRun --kind electricity --pending --loop
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { dispatch } from '../src/main/dispatch';
import { createServiceClock } from '../src/main/api/serviceClock';
import { createPendingScheduler } from '../src/main/pending';
import type { BulkJobView, BulkPreview } from '../src/shared/contract/bulk';
import { numberArg } from './benchArgs';
import { runBench, withSandboxApp } from './sandboxApp';

type Kind = 'airtime' | 'electricity';

/** The job's spreadsheet: a row per recipient (airtime) or per prepaid meter (electricity), each bought once. */
function sheet(kind: Kind, rows: number, pending: boolean): string {
  const lines = kind === 'airtime' ? ['Name,Phone,Network,Amount'] : ['Name,Meter,Disco,Type,Amount,Phone'];
  for (let i = 0; i < rows; i++) {
    // Meters end in 3: none of the sandbox's test numbers is among them; ending in 0000, the
    // sandbox keeps the purchase pending and a requery after 2 minutes finds it successful.
    const meter = pending ? `45${String(100_000 + i).slice(-5)}0000` : `45${String(100_000_000 + i * 10 + 3).slice(-9)}`;
    if (kind === 'airtime') lines.push(`Staff ${i + 1},0803${String(1_000_000 + i).slice(-7)},MTN,100`);
    else lines.push(`Shop ${i + 1},${meter},IKEDC,PREPAID,1000,08031234567`);
  }
  return `${lines.join('\n')}\n`;
}

async function main(): Promise<void> {
  const kindAt = process.argv.indexOf('--kind');
  const kind: Kind = kindAt >= 0 && process.argv[kindAt + 1] === 'electricity' ? 'electricity' : 'airtime';
  const rows = numberArg('rows', kind === 'airtime' ? 5000 : 800);
  const pending = kind === 'electricity' && process.argv.includes('--pending');
  const byLoop = pending && process.argv.includes('--loop');
  await withSandboxApp('bulk-run', async (app, sandbox, dataDir) => {
    const file = path.join(dataDir, `${kind}.csv`);
    fs.writeFileSync(file, sheet(kind, rows, pending));
    const prepared = await dispatch(app, 'bulk.prepare', { file: { path: file }, kind });
    if (!prepared.ok) throw new Error(prepared.error.message);
    const preview = prepared.value as BulkPreview;
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const done = await dispatch(app, 'bulk.confirm', { jobId: preview.job.id, wait: true });
    const ms = performance.now() - t0;
    const c = process.cpuUsage(c0);
    if (!done.ok) throw new Error(done.error.message);
    const job = done.value as BulkJobView;
    console.log(
      `bulk run benchmark: ${rows.toLocaleString('en-US')} ${kind} items sent and settled — Node ${process.version}, ${os.cpus().length} CPUs, load average ${os.loadavg()[0].toFixed(1)}`,
    );
    console.log(
      `${job.state}: ${(ms / 1000).toFixed(2)} s (cpu ${((c.user + c.system) / 1e6).toFixed(2)} s), ${Math.round(rows / (ms / 1000)).toLocaleString('en-US')} items/s; ` +
        `${job.counts.success.toLocaleString('en-US')} success, ${job.counts.pending} pending, ${job.counts.failed} failed, ${job.counts.rejected} rejected, ${job.counts.uncertain} uncertain`,
    );
    if (pending) {
      // The requery loop (started by the purchases going pending) runs no pass but the one timed.
      const loop = app.service(createPendingScheduler);
      loop.pause();
      // Two minutes on, on both clocks: every purchase is due for its requery.
      await sandbox.control('bench').advanceClock(125);
      app.service(createServiceClock).advance(125_000);
      const r0 = process.cpuUsage();
      const s0 = performance.now();
      if (byLoop) {
        loop.resume();
        await loop.tick();
        loop.pause();
      } else {
        const requeried = await dispatch(app, 'pending.requeryDue', { all: true });
        if (!requeried.ok) throw new Error(requeried.error.message);
      }
      const rms = performance.now() - s0;
      const rc = process.cpuUsage(r0);
      const after = await dispatch(app, 'bulk.status', { jobId: preview.job.id });
      if (!after.ok) throw new Error(after.error.message);
      const settled = after.value as BulkJobView;
      console.log(
        `requery pass${byLoop ? ' (the requery loop)' : ''}: ${(rms / 1000).toFixed(2)} s (cpu ${((rc.user + rc.system) / 1e6).toFixed(2)} s), ${Math.round(rows / (rms / 1000)).toLocaleString('en-US')} purchases/s; ` +
          `the job: ${settled.counts.success.toLocaleString('en-US')} success, ${settled.counts.pending} pending, message ${settled.message === null ? 'none' : `"${settled.message}"`}`,
      );
    }
  });
}

runBench(main);
