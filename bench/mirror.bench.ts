/**
 * Log mirror benchmarks (`npm run bench -- mirror [--rows N] [--skip-sync]`):
 * 1. full sync of N entries from a standalone sandbox (its own process) seeded with that history;
 * 2. SQLite upsert of N log entries with every index and the search index (in process since the
 *    trigram FTS table was dropped; its build is part of the measured upsert);
 * 3. partial phone search (first page + count) on the N-row mirror;
 * 4. the Transactions filter choices (logs.facets) of that mirror.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createApp } from '../src/main/app';
import { upsertLogEntries } from '../src/main/mirror/logStore';
import { logFacets } from '../src/main/mirror/logFacets';
import { logTotals, queryLogRows } from '../src/main/mirror/logQuery';
import { logSync } from '../src/main/mirror/logSync';
import { openDatabase } from '../src/main/store/database';
import { generateLogEntries } from './generate/logEntries';
import type { ParsedLogEntry } from '../src/main/api/parseLogEntry';

const args = process.argv.slice(2);
const rowsArg = args.indexOf('--rows');
const N = rowsArg >= 0 ? Number(args[rowsArg + 1]) : 1_000_000;
const skipSync = args.includes('--skip-sync');
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
/** CPU seconds (user + system) of this process since `from`: the machine is shared, wall time alone misleads. */
const cpu = (from: NodeJS.CpuUsage) => {
  const u = process.cpuUsage(from);
  return `cpu ${((u.user + u.system) / 1e6).toFixed(2)} s`;
};
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-mirror-bench-'));

async function startStandaloneSandbox(seed: number): Promise<{ url: string; stop: () => void }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/sandbox/runStandalone.ts', '--port', '0', '--token', 'bench', '--seed-history', String(seed), '--db', path.join(tmp, 'sandbox.db')], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /http:\/\/127\.0\.0\.1:\d+/.exec(out);
      if (m) resolve(m[0]);
    });
    child.on('exit', (code) => reject(new Error(`sandbox exited ${code}: ${out}`)));
  });
  return { url, stop: () => child.kill() };
}

async function benchSync(): Promise<void> {
  const t0 = performance.now();
  const sandbox = await startStandaloneSandbox(N);
  const seeded = performance.now() - t0;
  const app = await createApp({ dataDir: path.join(tmp, 'app'), shell: 'cli', connection: { baseUrl: sandbox.url, token: 'bench', kind: 'sandbox' } });
  try {
    const t1 = performance.now();
    const c1 = process.cpuUsage();
    const r = await logSync(app).run();
    const s = (performance.now() - t1) / 1000;
    console.log(`full sync                 ${fmt(r.fetched)} entries, ${fmt(r.pages)} pages: ${s.toFixed(1)} s (${fmt(r.fetched / s)} entries/s; app process ${cpu(c1)}; sandbox start+seed ${(seeded / 1000).toFixed(1)} s)`);
  } finally {
    await app.close();
    sandbox.stop();
  }
}

/**
 * Yardstick: the same rows inserted into a bare table of the same columns (no unique key, no
 * index, no search), one prepared INSERT per row, same pages and pragmas: what SQLite itself costs
 * here for rows this wide.
 */
function plainInsertYardstick(entries: readonly ParsedLogEntry[], syncedAt: string): void {
  const db = openDatabase(path.join(tmp, 'yardstick.db'));
  const cols = Object.keys(rowOf(entries[0], syncedAt));
  db.exec(`CREATE TABLE bare (${cols.join(', ')})`);
  const insert = db.prepare(`INSERT INTO bare VALUES (${cols.map(() => '?').join(', ')})`);
  const page = db.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++) insert.run(...Object.values(rowOf(entries[i], syncedAt)));
  });
  const t0 = performance.now();
  for (let i = 0; i < entries.length; i += 1000) page(i, Math.min(entries.length, i + 1000));
  const s = (performance.now() - t0) / 1000;
  console.log(`yardstick: plain INSERT  ${fmt(entries.length)} rows of the same ${cols.length} columns, no key or index: ${s.toFixed(1)} s (${fmt(entries.length / s)} rows/s)`);
  db.close();
}

function rowOf(e: ParsedLogEntry, syncedAt: string): Record<string, string | number> {
  return { profile_id: 'bench', ...e, synced_at: syncedAt };
}

function benchUpsertAndSearch(): void {
  const db = openDatabase(path.join(tmp, 'upsert.db'));
  const entries = [...generateLogEntries(N)];
  const syncedAt = new Date().toISOString();
  plainInsertYardstick(entries, syncedAt);
  const page = db.transaction((from: number, to: number) => upsertLogEntries(db, 'bench', entries.slice(from, to), syncedAt));
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < N; i += 1000) page(i, Math.min(N, i + 1000));
  const s = (performance.now() - t0) / 1000;
  console.log(`upsert (new rows)         ${fmt(N)} rows in pages of 1,000, all indexes + search index: ${s.toFixed(1)} s (${fmt(N / s)} rows/s, ${cpu(c0)})`);
  const again = Math.min(N, 100_000);
  const c1 = process.cpuUsage();
  const t1 = performance.now();
  for (let i = 0; i < again; i += 1000) page(i, Math.min(again, i + 1000));
  const s1 = (performance.now() - t1) / 1000;
  console.log(`upsert (unchanged rows)   ${fmt(again)} rows: ${s1.toFixed(2)} s (${fmt(again / s1)} rows/s, ${cpu(c1)})`);

  // Twenty partial phone numbers (4 to 7 digits from entries across the log): the first search
  // of the process is printed apart, as it pays for compiling the statements and warming the JIT.
  const probes = Array.from({ length: 20 }, (_, k) => {
    const phone = entries[Math.floor(((k * 7919) % 20) * (N / 20)) + (k % 7)].phoneNumber;
    return phone.slice(3 + (k % 3), 3 + (k % 3) + 4 + (k % 4));
  });
  // The app does not hold a million parsed entries in memory while searching; the benchmark lets
  // them go too, so a major GC of them does not land inside a timed search.
  entries.length = 0;
  global.gc?.();
  const times: number[] = [];
  for (const [k, term] of probes.entries()) {
    const t2 = performance.now();
    const rows = queryLogRows(db, 'bench', { search: term }, 'time_desc', 0, 100);
    const totals = logTotals(db, 'bench', { search: term });
    const ms = performance.now() - t2;
    times.push(ms);
    console.log(`phone search "${term}"${' '.repeat(Math.max(0, 9 - term.length))} first page ${rows.length} rows + count+sums (${fmt(totals.count)}): ${ms.toFixed(1)} ms${k === 0 ? ' (first search of the process)' : ''}`);
  }
  const warm = times.slice(1).sort((a, b) => a - b);
  console.log(`phone search, the ${warm.length} after the first: first page + count+sums: median ${warm[Math.floor(warm.length / 2)].toFixed(1)} ms, slowest ${warm[warm.length - 1].toFixed(1)} ms`);
  const t5 = performance.now();
  const deep = queryLogRows(db, 'bench', {}, 'time_desc', N - 100, 100);
  console.log(`window at row ${fmt(N - 100)}       ${deep.length} rows: ${(performance.now() - t5).toFixed(1)} ms`);
  const t6 = performance.now();
  const facets = logFacets(db, 'bench');
  const choices = facets.networks.reduce((n, g) => n + g.networks.length, 0) + facets.statuses.length;
  console.log(`filter choices (logs.facets) ${choices} networks and statuses: ${(performance.now() - t6).toFixed(1)} ms`);
  db.close();
}

async function main(): Promise<void> {
  console.log(`mirror benchmark, ${fmt(N)} entries, load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores`);
  benchUpsertAndSearch();
  if (!skipSync) await benchSync();
}

main()
  .catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(() => fs.rmSync(tmp, { recursive: true, force: true }));
