/**
 * The sandbox's vendor export (Reconcile → "Download the sandbox's vendor export"), 1,530 log
 * entries, along the window's path and the command line's, in the same run (issue 38, 13: the
 * window was reported at 8.5 s where the CLI took 0.9 s):
 *
 * - window: vendesk as `vendesk web` runs it (the web shell, the background loops, the embedded
 *   sandbox), over real HTTP with a tab's session — the operation (POST /api/reconcile.sandboxExport)
 *   and the file's download (GET /api/files/…), each timed;
 * - the operation alone, in the same process (what both shells dispatch);
 * - CLI: `vendesk sandbox export` in a process of its own, start to end.
 *
 * Runs take turns so that a busy moment of the machine falls on all of them alike; medians are
 * printed. Run: npm run bench -- sandboxExport [--runs 7]
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createApp } from '../src/main/app';
import { dispatch } from '../src/main/dispatch';
import { startWebShell } from '../src/main/web/webShell';
import { builtRendererDir } from '../src/main/web/serveWebShell';
import { SESSION_HEADER } from '../src/shared/webSession';
import type { ExportedFile } from '../src/shared/contract/files';
import { buildIfStale } from '../scripts/buildIfStale.mjs';
import { median, numberArg } from './benchArgs';

const ROOT = path.resolve(__dirname, '..');
const RUNS = numberArg('runs', 7);
const ENTRIES = 1_530;

/** A process run to its end: exit code and output. */
function run(command: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, env: { ...process.env, VENDESK_TOKEN: '' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

async function main(): Promise<void> {
  buildIfStale(ROOT);
  const windowDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-export-window-'));
  const cliDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-export-cli-'));
  const app = await createApp({ dataDir: windowDir, shell: 'web', background: true, sandboxSeedHistory: ENTRIES });
  const shell = await startWebShell({ app, staticDir: builtRendererDir(path.join(ROOT, 'out', 'main')) });
  const headers = { [SESSION_HEADER]: shell.secret };
  const vendesk = path.join(ROOT, 'bin', 'vendesk.mjs');
  // Run without blocking this process: the window's app goes on as it would (its loops, its sockets).
  const cli = async () => {
    const started = process.hrtime.bigint();
    const r = await run(process.execPath, [vendesk, 'sandbox', 'export', '--json', '--data-dir', cliDir]);
    if (r.code !== 0) throw new Error(`vendesk sandbox export exited ${r.code}: ${r.stderr}`);
    return { ms: Number(process.hrtime.bigint() - started) / 1e6, rows: (JSON.parse(r.stdout) as { rows: number }).rows };
  };
  const windowRun = async () => {
    const t0 = performance.now();
    const answer = await fetch(`${shell.origin}/api/reconcile.sandboxExport`, { method: 'POST', headers: { ...headers, 'Content-Type': 'application/json' }, body: '{}' });
    const result = (await answer.json()) as { ok: boolean; value: ExportedFile; error?: unknown };
    if (!result.ok) throw new Error(`the export failed: ${JSON.stringify(result.error)}`);
    const t1 = performance.now();
    const file = await fetch(`${shell.origin}/api/files/${encodeURIComponent(result.value.fileName)}`, { headers });
    const bytes = (await file.arrayBuffer()).byteLength;
    if (!file.ok || bytes !== result.value.bytes) throw new Error(`the download answered ${file.status} with ${bytes} bytes of ${result.value.bytes}`);
    const t2 = performance.now();
    return { operation: t1 - t0, download: t2 - t1, total: t2 - t0, rows: result.value.rows, bytes };
  };
  const alone = async () => {
    const t0 = performance.now();
    const r = await dispatch(app, 'reconcile.sandboxExport', {});
    if (!r.ok) throw new Error(JSON.stringify(r.error));
    return performance.now() - t0;
  };
  try {
    // Once each, not timed: the CLI's data folder gets its sandbox's demo history; the window's first export.
    await cli();
    const first = await windowRun();
    const times = { window: [] as number[], operation: [] as number[], download: [] as number[], alone: [] as number[], cli: [] as number[] };
    let cliRows = 0;
    for (let run = 0; run < RUNS; run++) {
      const w = await windowRun();
      times.window.push(w.total);
      times.operation.push(w.operation);
      times.download.push(w.download);
      times.alone.push(await alone());
      const c = await cli();
      times.cli.push(c.ms);
      cliRows = c.rows;
    }
    const load = os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ');
    console.log(`sandbox vendor export — Node ${process.version}, ${os.cpus().length} CPUs, load average ${load}, median of ${RUNS} runs each`);
    const line = (label: string, xs: number[], note = '') =>
      console.log(`${label.padEnd(64)} ${median(xs).toFixed(0).padStart(6)} ms (min ${Math.min(...xs).toFixed(0)} ms)${note}`);
    line(`window: export + download, ${first.rows} rows, ${(first.bytes / 1024).toFixed(0)} KB`, times.window);
    line('  the operation over HTTP (POST /api/reconcile.sandboxExport)', times.operation);
    line('  the download (GET /api/files/…)', times.download);
    line('the operation alone, in the window’s process', times.alone);
    line(`CLI: vendesk sandbox export, own process, ${cliRows} rows`, times.cli, ' (start-up included)');
    console.log(`${'first window export after start'.padEnd(64)} ${first.total.toFixed(0).padStart(6)} ms`);
  } finally {
    await shell.close();
    await app.close();
    fs.rmSync(windowDir, { recursive: true, force: true });
    fs.rmSync(cliDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
