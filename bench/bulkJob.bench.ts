/**
 * Bulk job benchmark (issue 5): the 200,000-row limit files end to end into a ready-to-confirm
 * job — `bulk.prepare` read, validated, checked for duplicates and written to SQLite with its
 * preview — through the same operation the Purchases page and the CLI call, against a sandbox
 * over real HTTP. Each file runs in its own child process, so the peak RSS printed is that run's.
 *
 *   npm run bench -- bulkJob                 # the 200,000-row CSV and XLSX of bench/data
 *   npm run bench -- bulkJob --rows 100000   # the 100,000-row files instead
 *
 * The files are the import benchmark's (generated into bench/data when missing).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createApp } from '../src/main/app';
import { dispatch } from '../src/main/dispatch';
import { startTestSandbox } from '../test/support/testSandbox';
import type { BulkPreview } from '../src/shared/contract/bulk';
import { generateSpreadsheet } from './generate/spreadsheets';

const DATA_DIR = path.join(__dirname, 'data');

interface ChildResult {
  ms: number;
  cpuMs: number;
  peakRssMb: number;
  startRssMb: number;
  included: number;
  excluded: number;
  totalKobo: number;
}

async function child(file: string): Promise<ChildResult> {
  const sandbox = await startTestSandbox();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-bulk-bench-'));
  const app = await createApp({ dataDir, shell: 'cli', connection: { baseUrl: sandbox.url, token: 'bench', kind: 'sandbox' } });
  try {
    const startRssMb = process.memoryUsage().rss / 1024 / 1024;
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const result = await dispatch(app, 'bulk.prepare', { file: { path: file }, kind: 'airtime' });
    const ms = performance.now() - t0;
    const c = process.cpuUsage(c0);
    if (!result.ok) throw new Error(`bulk.prepare failed: ${result.error.message}`);
    const preview = result.value as BulkPreview;
    return {
      ms,
      cpuMs: (c.user + c.system) / 1000,
      peakRssMb: process.resourceUsage().maxRSS / 1024,
      startRssMb,
      included: preview.includedItems,
      excluded: preview.job.invalidRows,
      totalKobo: preview.includedKobo,
    };
  } finally {
    await app.close();
    await sandbox.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args[0] === '--child') {
    console.log(JSON.stringify(await child(args[1])));
    return;
  }
  const rowsArg = args.indexOf('--rows');
  const rows = rowsArg >= 0 ? Number(args[rowsArg + 1]) : 200_000;
  const tag = `${rows / 1000}k`;
  console.log(
    `bulk job benchmark: ${rows.toLocaleString('en-US')}-row files into a ready-to-confirm job — Node ${process.version}, ${os.cpus().length} CPUs, load average ${os.loadavg()[0].toFixed(1)}`,
  );
  for (const format of ['csv', 'xlsx'] as const) {
    const file = path.join(DATA_DIR, `airtime-${tag}.${format}`);
    if (!fs.existsSync(file)) {
      fs.mkdirSync(DATA_DIR, { recursive: true });
      await generateSpreadsheet(file, { kind: 'airtime', rows, format, seed: rows, blankEvery: 5000 });
    }
    const run = spawnSync(process.execPath, ['--import', 'tsx', __filename, '--child', file], { encoding: 'utf8', maxBuffer: 1 << 24 });
    if (run.status !== 0) throw new Error(`child failed: ${run.stderr}`);
    const r = JSON.parse(run.stdout.trim().split('\n').pop() ?? '{}') as ChildResult;
    console.log(
      `${format.toUpperCase().padEnd(4)} ${(fs.statSync(file).size / 1e6).toFixed(1)} MB → draft job: ${(r.ms / 1000).toFixed(2)} s (cpu ${(r.cpuMs / 1000).toFixed(2)} s), ` +
        `peak RSS ${Math.round(r.peakRssMb)} MB (${Math.round(r.startRssMb)} MB before, with the sandbox); ${r.included.toLocaleString('en-US')} items to buy, ${r.excluded.toLocaleString('en-US')} rows left out, total ₦${(r.totalKobo / 100).toLocaleString('en-US')}`,
    );
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
