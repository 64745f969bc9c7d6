/**
 * Import benchmarks (issue 5): read + validate a 100,000-row CSV (target < 0.5 s), a
 * 100,000-row XLSX (target < 3 s), and the 200,000-row limit files end to end, each with peak
 * memory (target < 300 MB). Every measurement runs in its own child process so the peak RSS is
 * that run's alone. Baselines (papaparse alone, exceljs alone) are printed for comparison.
 *
 *   npx tsx bench/imports.bench.ts            # generates bench/data/*.{csv,xlsx} when missing
 *   npx tsx bench/imports.bench.ts --runs 5
 */
import { spawnSync } from 'node:child_process';
import { createReadStream, existsSync, mkdirSync, statSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import ExcelJS from 'exceljs';
import Papa from 'papaparse';
import { detectMapping, readSpreadsheet, validateBulkRows } from '../src/main/imports';
import { generateSpreadsheet, sandboxCatalogs } from './generate/spreadsheets';
import { median, numberArg } from './benchArgs';

const DATA_DIR = resolve(__dirname, 'data');

interface ChildResult {
  readMs: number;
  validateMs: number;
  totalMs: number;
  /** CPU time (user + system, all threads) of the same spans: less disturbed by other load on the machine. */
  readCpuMs: number;
  validateCpuMs: number;
  totalCpuMs: number;
  rows: number;
  valid: number;
  invalid: number;
  peakRssMb: number;
}

async function measure(path: string): Promise<ChildResult> {
  const cpu = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  const c0 = cpu();
  const t0 = performance.now();
  const table = await readSpreadsheet(path);
  const t1 = performance.now();
  const c1 = cpu();
  const mapping = detectMapping(table.headers, 'airtime');
  const result = validateBulkRows(table, mapping, 'airtime', sandboxCatalogs());
  const t2 = performance.now();
  const c2 = cpu();
  return {
    readMs: t1 - t0,
    validateMs: t2 - t1,
    totalMs: t2 - t0,
    readCpuMs: c1 - c0,
    validateCpuMs: c2 - c1,
    totalCpuMs: c2 - c0,
    rows: table.rows.length,
    valid: result.counts.valid,
    invalid: result.counts.invalid,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
  };
}

async function baseline(path: string): Promise<{ ms: number; cpuMs: number; rows: number; peakRssMb: number }> {
  const u0 = process.cpuUsage();
  const t0 = performance.now();
  let rows = 0;
  if (path.endsWith('.csv')) {
    await new Promise<void>((done) => {
      Papa.parse<string[]>(createReadStream(path, { encoding: 'utf8' }), { chunk: (r) => void (rows += r.data.length), complete: () => done() });
    });
  } else {
    const reader = new ExcelJS.stream.xlsx.WorkbookReader(path, { sharedStrings: 'cache', styles: 'ignore', hyperlinks: 'ignore', worksheets: 'emit', entries: 'ignore' });
    for await (const sheet of reader) for await (const _row of sheet) rows++;
  }
  const u = process.cpuUsage(u0);
  return { ms: performance.now() - t0, cpuMs: (u.user + u.system) / 1000, rows, peakRssMb: process.resourceUsage().maxRSS / 1024 };
}

function runChild(mode: 'measure' | 'baseline' | 'idle', path: string): ChildResult & { ms?: number; cpuMs?: number } {
  const child = spawnSync(process.execPath, ['--import', 'tsx', __filename, `--child-${mode}`, path], { encoding: 'utf8', maxBuffer: 1 << 20 });
  if (child.status !== 0) throw new Error(`child failed: ${child.stderr}`);
  const line = child.stdout.trim().split('\n').pop() as string;
  return JSON.parse(line) as ChildResult & { ms?: number; cpuMs?: number };
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args[0] === '--child-measure') {
    console.log(JSON.stringify(await measure(args[1])));
    return;
  }
  if (args[0] === '--child-idle') {
    console.log(JSON.stringify({ peakRssMb: process.resourceUsage().maxRSS / 1024 }));
    return;
  }
  if (args[0] === '--child-baseline') {
    console.log(JSON.stringify(await baseline(args[1])));
    return;
  }
  const runs = numberArg('runs', 3);
  mkdirSync(DATA_DIR, { recursive: true });
  const files = [
    { label: '100,000-row CSV', path: join(DATA_DIR, 'airtime-100k.csv'), rows: 100_000, format: 'csv' as const, target: 'read+validate < 500 ms' },
    { label: '100,000-row XLSX', path: join(DATA_DIR, 'airtime-100k.xlsx'), rows: 100_000, format: 'xlsx' as const, target: 'read+validate < 3000 ms' },
    { label: '200,000-row CSV (limit)', path: join(DATA_DIR, 'airtime-200k.csv'), rows: 200_000, format: 'csv' as const, target: 'end to end, < 300 MB' },
    { label: '200,000-row XLSX (limit)', path: join(DATA_DIR, 'airtime-200k.xlsx'), rows: 200_000, format: 'xlsx' as const, target: 'end to end, < 300 MB' },
  ];
  for (const f of files) {
    if (!existsSync(f.path)) {
      const t = performance.now();
      await generateSpreadsheet(f.path, { kind: 'airtime', rows: f.rows, format: f.format, seed: f.rows, blankEvery: 5000 });
      console.log(`generated ${f.path} in ${Math.round(performance.now() - t)} ms`);
    }
  }
  const load = loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  console.log(`\nvendesk import benchmark — Node ${process.version}, ${cpus().length} CPUs, load average ${load}`);
  console.log(`${runs} runs each, each in a fresh process; wall-clock and CPU time, median [min]`);
  const idle = runChild('idle', '');
  console.log(`a process that only loads node + tsx + the importer (exceljs, papaparse) peaks at ${Math.round(idle.peakRssMb)} MB RSS\n`);
  for (const f of files) {
    const size = (statSync(f.path).size / 1024 / 1024).toFixed(1);
    const results: ChildResult[] = [];
    for (let i = 0; i < runs; i++) results.push(runChild('measure', f.path));
    const base = runChild('baseline', f.path);
    const r0 = results[0];
    const fmt = (key: 'readMs' | 'validateMs' | 'totalMs') => {
      const cpuKey = key.replace('Ms', 'CpuMs') as 'readCpuMs' | 'validateCpuMs' | 'totalCpuMs';
      const wall = results.map((r) => r[key]);
      const cpuTimes = results.map((r) => r[cpuKey]);
      return `${String(Math.round(median(wall))).padStart(5)} ms [${Math.round(Math.min(...wall))}]   cpu ${String(Math.round(median(cpuTimes))).padStart(5)} ms [${Math.round(Math.min(...cpuTimes))}]`;
    };
    console.log(`${f.label} (${size} MB, ${r0.rows} data rows: ${r0.valid} valid, ${r0.invalid} invalid) — target ${f.target}`);
    console.log(`  read      ${fmt('readMs')}`);
    console.log(`  validate  ${fmt('validateMs')}`);
    console.log(`  total     ${fmt('totalMs')}  (${Math.round(r0.rows / (median(results.map((r) => r.totalMs)) / 1000)).toLocaleString('en-US')} rows/s)`);
    console.log(`  peak RSS  ${Math.round(Math.max(...results.map((r) => r.peakRssMb)))} MB`);
    const totalCpu = median(results.map((r) => r.totalCpuMs));
    console.log(
      `  baseline  ${f.format === 'csv' ? 'papaparse' : 'exceljs streaming'} alone (rows discarded): ${Math.round(base.ms as number)} ms, cpu ${Math.round(base.cpuMs as number)} ms, peak RSS ${Math.round(base.peakRssMb)} MB; read+validate costs ${(totalCpu / (base.cpuMs as number)).toFixed(1)}× its CPU\n`,
    );
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
