#!/usr/bin/env node
// `npm run bench` runs issue 26's benches one after another (each in its own process) and ends
// with one summary table: every row with its yardstick from the same run, the target and whether
// it was met. `npm run bench -- <name> [args]` runs bench/<name>.bench.ts alone and prints its
// figures. VENDESK_BENCH_SCALE=0.05 (say) runs the suite with 5 % of the issue's row counts, for a
// quick check; the default is the issue's sizes (a million log entries, a 300,000-row job; the
// mirror of issue 42 at 1M and 3M entries, and at 10M with VENDESK_BENCH_10M=1).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const benches = fs
  .readdirSync(path.join(root, 'bench'))
  .filter((f) => f.endsWith('.bench.ts'))
  .map((f) => f.replace(/\.bench\.ts$/, ''));
const [name, ...rest] = process.argv.slice(2);

function run(bench, args, env = process.env) {
  return spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', path.join(root, 'bench', `${bench}.bench.ts`), ...args], { cwd: root, stdio: 'inherit', env });
}

if (name === undefined) process.exit(suite());
if (!benches.includes(name)) {
  console.log(
    `Usage: npm run bench              issue 26's and 42's benches and their summary table (VENDESK_BENCH_SCALE=0.05 for a quick run, VENDESK_BENCH_10M=1 for the mirror at 10M)\n       npm run bench -- <name>    one bench\nBenchmarks: ${benches.join(', ')}`,
  );
  process.exit(name === '--help' || name === '-h' ? 0 : 2);
}
process.exit(run(name, rest).status ?? 1);

function suite() {
  const scale = Number(process.env.VENDESK_BENCH_SCALE ?? 1) > 0 ? Number(process.env.VENDESK_BENCH_SCALE ?? 1) : 1;
  const rows = (n) => String(Math.max(1000, Math.round(n * scale)));
  const quick = scale < 1;
  const steps = [
    ['startup', ['--runs', quick ? '5' : '9']],
    ['packed', ['--runs', quick ? '5' : '9']],
    ['approvals', ['--rows', rows(300_000), '--runs', quick ? '3' : '5']],
    ['pages', ['--runs', quick ? '3' : '5']],
    ['reconcile', ['--rows', rows(1_000_000), '--runs', '3']],
    ['reconcile', ['--rows', rows(3_000_000), '--runs', '3']],
    // 10,000,000 rows: ~1.9 GB of export and a ~3 GB mirror to generate first (over half an hour on a busy machine), so behind a flag (VENDESK_BENCH_10M=1).
    ...(process.env.VENDESK_BENCH_10M === '1' ? [['reconcile', ['--rows', rows(10_000_000), '--runs', '2']]] : []),
    ['mirror', ['--rows', rows(1_000_000), '--skip-far', '--direct-only']],
    // Issue 42: the mirror at 1M and 3M (10M with VENDESK_BENCH_10M=1: half an hour or more here), on the mirror the app's own sync made.
    ['mirror', ['--rows', rows(1_000_000), '--at-size']],
    ['mirror', ['--rows', rows(3_000_000), '--at-size']],
    ...(process.env.VENDESK_BENCH_10M === '1' ? [['mirror', ['--rows', rows(10_000_000), '--at-size']]] : []),
    // Issues 41 and 42: the close pack and journal of a month of 1M purchases, and spend by cost centre.
    ['closePack', ['--rows', rows(1_000_000), '--runs', '2']],
    ['costCentres', [rows(1_000_000)]],
    ['sentElsewhere', ['--rows', '2000']],
  ];
  const summary = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-bench-')), 'rows.jsonl');
  fs.writeFileSync(summary, '');
  const env = { ...process.env, VENDESK_BENCH_SUMMARY: summary };
  const loads = [os.loadavg()[0]];
  const started = Date.now();
  console.log(
    `npm run bench — issue 26's rows${quick ? ` at scale ${scale}` : ''}; Node ${process.version}, ${os.cpus().length} CPUs, load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  const failed = [];
  for (const [bench, args] of steps) {
    console.log(`\n=== ${bench} ${args.join(' ')}`);
    const r = run(bench, args, env);
    loads.push(os.loadavg()[0]);
    if (r.status !== 0) failed.push(bench);
  }
  const table = fs
    .readFileSync(summary, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  fs.rmSync(path.dirname(summary), { recursive: true, force: true });
  const header = ['where people wait', 'measured', 'yardstick (same run)', 'target', 'met'];
  const cells = table.map((r) => [r.row, r.measured, r.yardstick, r.target, r.met === null ? '—' : r.met ? 'yes' : 'no']);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c) => `| ${c.map((x, i) => x.padEnd(widths[i])).join(' | ')} |`;
  console.log(
    `\nSummary (${((Date.now() - started) / 60_000).toFixed(1)} min; load average ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)} on ${os.cpus().length} cores during the run)`,
  );
  console.log(line(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const c of cells) console.log(line(c));
  if (failed.length) console.log(`These benches failed and printed no row: ${failed.join(', ')}`);
  return failed.length ? 1 : 0;
}
