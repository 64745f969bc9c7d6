/**
 * Bulk run benchmark (issue 17): a confirmed airtime job sent by the job runner until every item
 * has its outcome from the service's log — batches, concurrency, log reads — against a sandbox
 * over real HTTP, with the production timing. Prints the time to completion, the CPU it took and
 * items per second.
 *
 *   npm run bench -- bulkRun                # 5,000 items
 *   npm run bench -- bulkRun --rows 20000
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createApp } from '../src/main/app';
import { dispatch } from '../src/main/dispatch';
import { startTestSandbox } from '../test/support/testSandbox';
import type { BulkJobView, BulkPreview } from '../src/shared/contract/bulk';
import { numberArg } from './benchArgs';

async function main(): Promise<void> {
  const rows = numberArg('rows', 5000);
  const sandbox = await startTestSandbox();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-bulk-run-bench-'));
  const app = await createApp({ dataDir, shell: 'cli', connection: { baseUrl: sandbox.url, token: 'bench', kind: 'sandbox' } });
  try {
    const file = path.join(dataDir, 'airtime.csv');
    const lines = ['Name,Phone,Network,Amount'];
    for (let i = 0; i < rows; i++) lines.push(`Staff ${i + 1},0803${String(1_000_000 + i).slice(-7)},MTN,100`);
    fs.writeFileSync(file, `${lines.join('\n')}\n`);
    const prepared = await dispatch(app, 'bulk.prepare', { file: { path: file }, kind: 'airtime' });
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
      `bulk run benchmark: ${rows.toLocaleString('en-US')} airtime items sent and settled — Node ${process.version}, ${os.cpus().length} CPUs, load average ${os.loadavg()[0].toFixed(1)}`,
    );
    console.log(
      `${job.state}: ${(ms / 1000).toFixed(2)} s (cpu ${((c.user + c.system) / 1e6).toFixed(2)} s), ${Math.round(rows / (ms / 1000)).toLocaleString('en-US')} items/s; ` +
        `${job.counts.success.toLocaleString('en-US')} success, ${job.counts.failed} failed, ${job.counts.uncertain} uncertain`,
    );
  } finally {
    await app.close();
    await sandbox.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
