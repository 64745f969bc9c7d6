/**
 * Reconciliation benchmark (issue 6): 1,000,000 exported CSV rows against a 1,000,000-row
 * mirror, end to end — read the file, match, categorize, store the run — target < 4 s and peak
 * memory < 1 GB. Each measurement runs in its own child process so its peak RSS is its own.
 *
 * Yardsticks on the same data, same machine, same moment, each independent of vendesk's schema
 * (the mirror's indexes change with the app; a yardstick that leaned on one of them ran unbounded
 * once it was gone): both read the export and a CSV dump of the same mirror (made once, not
 * timed), and build what they join on themselves.
 *  - Debian's sqlite3 CLI: `.import` both CSVs into in-memory tables, index the mirror's
 *    transaction_id, FULL OUTER JOIN on it and count both sides (wall time of the process).
 *  - DuckDB (@duckdb/node-api): read both CSVs and FULL OUTER JOIN them (its hash join needs no
 *    index).
 *
 *   npx tsx bench/reconcile.bench.ts                 # 1,000,000 rows; data cached in .tmp/bench
 *   npx tsx bench/reconcile.bench.ts --rows 200000 --runs 3
 *   npx tsx bench/reconcile.bench.ts --rows 10000000 --runs 0   # only generate the data (a slice at a time)
 *
 * Before the runs, the mirror's days are let go and kept again as an app kept open keeps them
 * after each sync (`log_day_records`; the time it took is printed), so every run reads a month
 * whose days are kept; a first run of a month not kept is measured in docs/benchmarks.md.
 *
 * Each run prints its time, CPU, phases, peak RSS and the load average; the summary row (npm run
 * bench) is met when the median is ≤ 2× the median of DuckDB's join (up to three runs, after
 * vendesk's, each printed) in the same run and the peak under 1 GB.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { openDatabase } from '../src/main/store/database';
import { reconcileFile } from '../src/main/reconcile/reconcileService';
import { keepMirrorDays } from '../src/main/reconcile/backgroundReads';
import { lagosDayEndMs, lagosDayOf, lagosDayStartMs, shiftDay } from '../src/shared/localDates';
import { runView } from '../src/main/reconcile/reconcileRunStore';
import { reportRow } from './summary';
import { fillMirror, generateLogEntries, planDiscrepancies, writeVendorExportCsv, type Discrepancies } from './generate/vendorExport';
import { countArg, numberArg } from './benchArgs';
import { seededRandom } from '../src/sandbox/randomData';

const GENERATE_SLICE = 500_000;

const ROOT = path.resolve(__dirname, '..');
const PROFILE = 'bench';

interface Measured {
  totalMs: number;
  cpuMs: number;
  timings: Record<string, number>;
  peakRssMb: number;
  totals: Record<string, { count: number; amountKobo: number }>;
  matchedByRule: Record<string, number>;
}

async function measure(dir: string): Promise<void> {
  const db = openDatabase(path.join(dir, 'vendesk.db'));
  db.exec('DELETE FROM reconcile_runs');
  db.pragma('wal_checkpoint(TRUNCATE)');
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const { runId, timings } = await reconcileFile(db, {
    path: path.join(dir, 'export.csv'),
    fileName: 'export.csv',
    profileId: PROFILE,
    matchWindowMinutes: 15,
    duplicateWindowMinutes: 10,
  });
  const totalMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const run = runView(db, runId);
  db.close();
  const result: Measured = {
    totalMs: Math.round(totalMs),
    cpuMs: Math.round((cpu.user + cpu.system) / 1000),
    timings,
    peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
    totals: run.totals,
    matchedByRule: run.matchedByRule,
  };
  process.stdout.write(JSON.stringify(result));
}

function generate(dir: string, rows: number): Discrepancies {
  const plan: Discrepancies = {
    missingLocally: Math.round(rows / 2000),
    missingInExport: Math.round(rows / 2000),
    amountMismatch: Math.round(rows / 4000),
    statusMismatch: Math.round(rows / 4000),
    pending: Math.round(rows / 4000),
    byId: Math.round(rows / 1000),
    byPhoneAmountTime: Math.round(rows / 10000),
  };
  const marker = path.join(dir, `plan-${rows}.json`);
  if (fs.existsSync(marker)) return JSON.parse(fs.readFileSync(marker, 'utf8')) as Discrepancies;
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const t0 = performance.now();
  const start = Date.parse('2026-01-01T00:00:00.000Z');
  const stepMs = Math.floor((30 * 86_400_000) / rows);
  // The vendor's column order is not the spec's: the importer maps them by name.
  const columns = [
    'created_at',
    'transaction_id',
    'id',
    'phone_number',
    'amount',
    'transaction_cost',
    'commission',
    'status',
    'type',
    'network',
    'data_plan',
    'description',
    'partner_reference',
    'operator',
    'region',
    'time',
    'updated_at',
  ] as const;
  // A slice at a time (10,000,000 entries as objects would need ~6 GB); the same entries and plan as in one go.
  const random = seededRandom(6);
  const db = openDatabase(path.join(dir, 'vendesk.db'));
  let mirrorRows = 0;
  for (let at = 0; at < rows; at += GENERATE_SLICE) {
    const entries = generateLogEntries(Math.min(GENERATE_SLICE, rows - at), { startMs: start, stepMs, firstId: at + 1, random });
    const { exported, mirror } = planDiscrepancies(entries, plan, { of: rows, at });
    writeVendorExportCsv(path.join(dir, 'export.csv'), exported, { columns, append: at > 0 });
    fillMirror(db, PROFILE, mirror);
    // The same mirror as CSV, for the yardsticks.
    writeVendorExportCsv(path.join(dir, 'mirror.csv'), mirror, { columns, append: at > 0 });
    mirrorRows += mirror.length;
  }
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  const bytes = fs.statSync(path.join(dir, 'export.csv')).size;
  console.log(
    `generated ${rows.toLocaleString('en-US')} export rows (${(bytes / 1e6).toFixed(0)} MB) and a ${mirrorRows.toLocaleString('en-US')}-entry mirror in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
  fs.writeFileSync(marker, JSON.stringify(plan));
  return plan;
}

function sqliteYardstick(dir: string): { ms: number; output: string } {
  const script = [
    '.mode csv',
    `.import '${path.join(dir, 'export.csv')}' exp`,
    `.import '${path.join(dir, 'mirror.csv')}' mir`,
    // Its own index to join on (timed): without one SQLite's join is a nested loop over a million rows.
    'CREATE INDEX mir_transaction ON mir (transaction_id);',
    '.mode list',
    `SELECT sum(e.transaction_id IS NOT NULL AND l.transaction_id IS NOT NULL) AS both_sides, sum(l.transaction_id IS NULL) AS export_only, sum(e.transaction_id IS NULL) AS mirror_only
       FROM exp e FULL OUTER JOIN mir l ON l.transaction_id = e.transaction_id;`,
  ].join('\n');
  const t0 = performance.now();
  const r = spawnSync('/usr/bin/sqlite3', [':memory:'], { input: script, encoding: 'utf8' });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`sqlite3 failed: ${r.stderr}`);
  return { ms, output: r.stdout.trim() };
}

async function duckdbYardstick(dir: string): Promise<{ ms: number; cpuMs: number; output: string }> {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  // DuckDB runs in this process (its threads included): its CPU time is this process's meanwhile.
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const instance = await DuckDBInstance.create(':memory:');
  const conn = await instance.connect();
  const reader = (file: string) => `read_csv('${path.join(dir, file)}', header = true, all_varchar = true)`;
  const result = await conn.runAndReadAll(
    `SELECT count(*) FILTER (WHERE e.transaction_id IS NOT NULL AND l.transaction_id IS NOT NULL), count(*) FILTER (WHERE l.transaction_id IS NULL), count(*) FILTER (WHERE e.transaction_id IS NULL)
       FROM ${reader('export.csv')} e FULL OUTER JOIN ${reader('mirror.csv')} l ON l.transaction_id = e.transaction_id`,
  );
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const output = result
    .getRows()
    .map((row) => row.map(String).join('|'))
    .join('\n');
  conn.closeSync();
  return { ms, cpuMs: (cpu.user + cpu.system) / 1000, output };
}

/**
 * The mirror's days kept as reconcile reads them, as the app does after each sync
 * (autoSync.ts): let go first, so that keeping them is measured on every run of the benchmark.
 */
async function keepDays(dir: string): Promise<void> {
  const dbPath = path.join(dir, 'vendesk.db');
  const db = openDatabase(dbPath);
  db.exec('UPDATE log_day_records SET stamp = stamp + 1, entries = NULL, records = NULL, refs = NULL');
  const [first, last] = db.prepare('SELECT min(created_at), max(created_at) FROM log_entries WHERE profile_id = ?').raw().get(PROFILE) as [string, string];
  db.close();
  // The days a run reads: the export's, and the day after its last (reconcileService's guess).
  const fromIso = new Date(lagosDayStartMs(lagosDayOf(first))).toISOString();
  const toIso = new Date(lagosDayEndMs(shiftDay(lagosDayOf(last), 1))).toISOString();
  const t0 = performance.now();
  const days = await keepMirrorDays(dbPath, PROFILE, fromIso, toIso);
  console.log(`the mirror's days kept for reconcile, as after a sync: ${days} days in ${Math.round(performance.now() - t0)} ms (load average ${loadavg()[0].toFixed(2)})`);
}

async function main(): Promise<void> {
  const measureAt = process.argv.indexOf('--measure');
  if (measureAt >= 0) return measure(process.argv[measureAt + 1]);

  const rows = numberArg('rows', 1_000_000);
  const runs = countArg('runs', 3);
  const dir = path.join(ROOT, '.tmp', 'bench', `reconcile-${rows}`);
  const plan = generate(dir, rows);
  if (runs === 0) return; // --runs 0: the data only
  console.log(
    `reconcile: ${rows.toLocaleString('en-US')} exported CSV rows against a ${rows.toLocaleString('en-US')}-row mirror (load average ${loadavg()[0].toFixed(2)} on ${cpus().length} cores)`,
  );
  console.log(`planted: ${JSON.stringify(plan)}`);
  await keepDays(dir);

  const results: Measured[] = [];
  for (let i = 0; i < runs; i++) {
    const child = spawnSync(process.execPath, ['--import', 'tsx', __filename, '--measure', dir], { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 24 });
    if (child.status !== 0) throw new Error(`measurement failed: ${child.stderr}`);
    const m = JSON.parse(child.stdout) as Measured;
    results.push(m);
    console.log(
      `  run ${i + 1}: ${m.totalMs} ms (cpu ${m.cpuMs} ms; ${Object.entries(m.timings)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}), peak RSS ${m.peakRssMb} MB; load average ${loadavg()[0].toFixed(2)}`,
    );
  }
  const best = [...results].sort((a, b) => a.totalMs - b.totalMs)[0];
  const median = [...results].sort((a, b) => a.totalMs - b.totalMs)[Math.floor(results.length / 2)];
  const t = best.totals;
  console.log(
    `  found: matched ${t.matched.count} (by rule ${JSON.stringify(best.matchedByRule)}), missing locally ${t.missingLocally.count}, missing in export ${t.missingInExport.count}, amount ${t.amountMismatch.count}, status ${t.statusMismatch.count}, pending ${t.pending.count}`,
  );

  // The sqlite3 CLI is not the target's yardstick and takes minutes past a million rows (750 s at
  // 3,000,000 on a busy machine): measured up to 1,000,000, or with --sqlite.
  const sqlite = rows <= 1_000_000 || process.argv.includes('--sqlite') ? sqliteYardstick(dir) : null;
  if (sqlite)
    console.log(
      `sqlite3 CLI (${spawnSync('/usr/bin/sqlite3', ['--version'], { encoding: 'utf8' }).stdout.split(' ')[0]}): import both CSVs + index + full outer join: ${Math.round(sqlite.ms)} ms  [${sqlite.output}]`,
    );
  else console.log('sqlite3 CLI: not measured past 1,000,000 rows (--sqlite to measure it)');
  // DuckDB's time swings as much as vendesk's on a shared machine: its median of up to three runs
  // (as many as vendesk's, each printed) is what vendesk's median is held against.
  let duck: { ms: number; cpuMs: number; output: string } | null = null;
  try {
    const duckRuns: { ms: number; cpuMs: number; output: string }[] = [];
    for (let i = 0; i < Math.min(3, runs); i++) {
      const d = await duckdbYardstick(dir);
      duckRuns.push(d);
      console.log(
        `DuckDB (@duckdb/node-api), run ${i + 1}: read both CSVs + full outer join: ${Math.round(d.ms)} ms (cpu ${Math.round(d.cpuMs)} ms)  [${d.output}]; load average ${loadavg()[0].toFixed(2)}`,
      );
    }
    duck = [...duckRuns].sort((a, b) => a.ms - b.ms)[Math.floor(duckRuns.length / 2)];
    console.log(`DuckDB (@duckdb/node-api): median ${Math.round(duck.ms)} ms (cpu ${Math.round(duck.cpuMs)} ms)`);
  } catch (error) {
    console.log(`DuckDB: not measured (${error instanceof Error ? error.message : String(error)})`);
  }

  const verdict = (ok: boolean) => (ok ? 'PASS' : 'FAIL');
  console.log('');
  console.log(
    `vendesk end to end: best ${best.totalMs} ms, median ${median.totalMs} ms (target < 4000 ms: ${verdict(median.totalMs < 4000)}); peak RSS ${Math.max(...results.map((r) => r.peakRssMb))} MB (target < 1024 MB: ${verdict(Math.max(...results.map((r) => r.peakRssMb)) < 1024)}); load average ${loadavg()[0].toFixed(2)} at the end`,
  );
  if (sqlite) console.log(`ratio vendesk / sqlite3 CLI: ${(median.totalMs / sqlite.ms).toFixed(2)} (below 1 beats it)`);
  // The target is the issue's: the time a person waits, by the clock. DuckDB's join uses both
  // cores as reconcile does (its CPU time is above its clock time); the CPU ratio is printed beside it.
  const met = duck ? median.totalMs <= 2 * duck.ms : null;
  if (duck)
    console.log(
      `ratio vendesk / DuckDB:      ${(median.totalMs / duck.ms).toFixed(2)} by the clock (target ≤ 2: ${met ? 'met' : 'not met'}); by CPU time ${(median.cpuMs / duck.cpuMs).toFixed(2)}`,
    );
  const n = rows.toLocaleString('en-US');
  const peakMb = Math.max(...results.map((r) => r.peakRssMb));
  reportRow({
    row: `reconcile ${n} export × ${n} mirror, end to end`,
    measured: `median ${median.totalMs} ms${duck ? ` = ${(median.totalMs / duck.ms).toFixed(2)}× (cpu ${(median.cpuMs / duck.cpuMs).toFixed(2)}×)` : ''}, ${peakMb} MB (load ${loadavg()[0].toFixed(1)})`,
    yardstick: `${duck ? `DuckDB join alone: ${Math.round(duck.ms)} ms, cpu ${Math.round(duck.cpuMs)} ms` : 'DuckDB not measured'}${sqlite ? ` (sqlite3 CLI ${Math.round(sqlite.ms)} ms)` : ''}`,
    target: '≤ 2× DuckDB, < 1 GB',
    met: met === null ? null : met && peakMb < 1024,
  });
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
