/**
 * Log mirror benchmarks (`npm run bench -- mirror [--rows N] [--far-rows N] [--latency-ms MS] [--skip-sync] [--skip-far]`);
 * with `--at-size`, only the mirror at N entries of issue 42 (bench/mirrorAtSize.ts: sync, memory,
 * windows, Dashboard, a month of `logs`, all on the mirror the app's own sync made):
 * 1. SQLite upsert of N log entries with every index and the search index (in process since the
 *    trigram FTS table was dropped; its build is part of the measured upsert);
 * 2. partial phone search (first page + count) on the N-row mirror;
 * 3. windows of 100 rows of the Transactions table anywhere in the N rows, under every sort and
 *    the filters the table offers, once the position index is built (its build printed apart);
 * 4. the Transactions filter choices (logs.facets) of that mirror;
 * 5. full sync of N entries from a standalone sandbox (its own process) seeded with that history,
 *    directly, then with the sandbox answering MS ms later (`/__sandbox/latency`, default 150);
 * 6. the same for `--far-rows` entries (default 20,000), against the floor of reading them one
 *    page at a time (pages × latency).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createApp } from '../src/main/app';
import { beginBulkLoad, bulkLoadTransaction, endBulkLoad, upsertLogEntries } from '../src/main/transactions/logStore';
import { logFacets } from '../src/main/transactions/logFacets';
import { logTotals, queryLogRows } from '../src/main/transactions/logQuery';
import { warmPositionIndex } from '../src/main/transactions/logPositionIndex';
import { logSync } from '../src/main/transactions/logSync';
import { DEFAULT_SYNC_SETTINGS } from '../src/main/transactions/syncSettings';
import type { LogFilter } from '../src/shared/contract/logs';
import { openDatabase } from '../src/main/store/database';
import { generateLogEntries } from './generate/logEntries';
import { startSandboxProcess, type SandboxProcess } from '../test/support/testSandbox';
import type { ParsedLogEntry } from '../src/main/api/parseLogEntry';
import { reportRow } from './summary';
import { benchMirrorAtSize, processCpuSeconds } from './mirrorAtSize';
import { median } from './benchArgs';

const args = process.argv.slice(2);
const rowsArg = args.indexOf('--rows');
const N = rowsArg >= 0 ? Number(args[rowsArg + 1]) : 1_000_000;
const skipSync = args.includes('--skip-sync');
const skipFar = args.includes('--skip-far');
/** Only the direct full sync of N (not the one `--latency-ms` away): what `npm run bench` measures. */
const directOnly = args.includes('--direct-only');
/** The plain-INSERT yardstick of this run (seconds for N rows), the full sync's yardstick too. */
let yardstickSeconds = 0;
/** Seconds of CPU time the page spent on it. */
const cpuSeconds = (from: NodeJS.CpuUsage) => {
  const u = process.cpuUsage(from);
  return (u.user + u.system) / 1e6;
};
const farArg = args.indexOf('--far-rows');
const FAR_N = farArg >= 0 ? Number(args[farArg + 1]) : 20_000;
const latencyArg = args.indexOf('--latency-ms');
const LATENCY_MS = latencyArg >= 0 ? Number(args[latencyArg + 1]) : 150;
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
/** The machine is shared: each timed line says how busy it was (1-minute load average) when it ended. */
const load = () => `load ${os.loadavg()[0].toFixed(1)}`;
/** CPU seconds (user + system) of this process since `from`: the machine is shared, wall time alone misleads. */
const cpu = (from: NodeJS.CpuUsage) => {
  const u = process.cpuUsage(from);
  return `cpu ${((u.user + u.system) / 1e6).toFixed(2)} s`;
};
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-mirror-bench-'));

/**
 * Requests in flight as the client sees them: the app's client uses the global fetch, so the bench
 * counts the calls that have started and not yet been answered, and keeps the most at once.
 */
const flight = { now: 0, most: 0 };
const realFetch = globalThis.fetch;
globalThis.fetch = async (...args: Parameters<typeof fetch>) => {
  flight.most = Math.max(flight.most, ++flight.now);
  try {
    return await realFetch(...args);
  } finally {
    flight.now--;
  }
};

/** The standalone sandbox in its own process (not the measured one), seeded with `seed` entries. */
function startStandaloneSandbox(seed: number): Promise<SandboxProcess> {
  // The token is read from a file: a token on a command line is visible to every user of the machine.
  const tokenFile = path.join(tmp, 'sandbox-tokens.txt');
  fs.writeFileSync(tokenFile, 'bench\n', { mode: 0o600 });
  return startSandboxProcess(['--token-file', tokenFile, '--seed-history', String(seed), '--db', path.join(tmp, `sandbox-${seed}.db`)], {
    entry: 'runStandalone',
    timeoutMs: 30 * 60_000,
  });
}

/** A first sync of the sandbox's whole log into a fresh data folder; seconds and the result. */
async function firstSync(url: string, name: string): Promise<{ seconds: number; cpu: string; fetched: number; requests: number; inserted: number; mostInFlight: number }> {
  flight.most = 0;
  const app = await createApp({ dataDir: path.join(tmp, name), shell: 'cli', connection: { baseUrl: url, token: 'bench', kind: 'sandbox' } });
  try {
    const t1 = performance.now();
    const c1 = process.cpuUsage();
    const r = await logSync(app).run();
    const seconds = (performance.now() - t1) / 1000;
    if (r.inserted !== r.totalRecords) throw new Error(`synced ${r.inserted} of ${r.totalRecords}`);
    return { seconds, cpu: cpu(c1), fetched: r.fetched, requests: r.pages, inserted: r.inserted, mostInFlight: flight.most };
  } finally {
    await app.close();
  }
}

/** Direct, then `LATENCY_MS` away, a first sync of `rows` entries; with `floor`, against one page at a time. */
async function benchSync(rows: number, floor: boolean): Promise<void> {
  const t0 = performance.now();
  const sandbox = await startStandaloneSandbox(rows);
  const seeded = performance.now() - t0;
  const s = DEFAULT_SYNC_SETTINGS;
  try {
    const sandboxCpu0 = processCpuSeconds(sandbox.run.child.pid);
    const direct = await firstSync(sandbox.url, `direct-${rows}`);
    const sandboxCpu1 = processCpuSeconds(sandbox.run.child.pid);
    const sandboxCpu = sandboxCpu0 !== null && sandboxCpu1 !== null ? `; sandbox process cpu ${(sandboxCpu1 - sandboxCpu0).toFixed(2)} s` : '';
    console.log(
      `full sync, direct         ${fmt(direct.inserted)} entries, ${fmt(direct.requests)} pages, at most ${direct.mostInFlight} requests in flight: ${direct.seconds.toFixed(1)} s (${fmt(direct.inserted / direct.seconds)} entries/s; app process ${direct.cpu}${sandboxCpu}; sandbox start+seed ${(seeded / 1000).toFixed(1)} s; ${load()})`,
    );
    if (!floor && rows === N) {
      const targetS = (60 * rows) / 1_000_000;
      reportRow({
        row: `full sync of ${fmt(rows)} entries, direct`,
        measured: `${direct.seconds.toFixed(1)} s (app ${direct.cpu}${sandboxCpu.replace('; sandbox process', ', sandbox')})`,
        yardstick: `plain INSERT of the same rows: ${yardstickSeconds.toFixed(1)} s`,
        target: `< ${targetS.toFixed(targetS < 10 ? 1 : 0)} s`,
        met: direct.seconds < targetS,
      });
    }
    if (directOnly && !floor) return;
    await sandbox.control('bench').setLatency(LATENCY_MS);
    const far = await firstSync(sandbox.url, `far-${rows}`);
    const pages = Math.ceil(rows / 100);
    const oneAtATime = (pages * LATENCY_MS) / 1000;
    console.log(
      `full sync, ${LATENCY_MS} ms away     ${fmt(far.inserted)} entries, ${fmt(far.requests)} pages, at most ${far.mostInFlight} requests in flight (setting ${s.concurrency}, ceiling ${s.maxRequestsPerSecond}/s): ${far.seconds.toFixed(1)} s (${fmt(far.inserted / far.seconds)} entries/s; app process ${far.cpu}; ${load()})` +
        (floor ? `; one page at a time could not beat ${fmt(pages)} pages × ${LATENCY_MS} ms = ${oneAtATime.toFixed(1)} s: ${(far.seconds / oneAtATime).toFixed(2)} of it` : ''),
    );
  } finally {
    await sandbox.stop();
  }
}

/** Windows of 100 rows anywhere in the mirror, under every sort and the table's filters. */
function benchWindows(db: ReturnType<typeof openDatabase>, probe: string): void {
  const filters: [string, LogFilter][] = [
    ['no filter', {}],
    ['status failed', { status: 'FAILED' }],
    ['type data, network MTN', { type: 'DATA', network: 'MTN' }],
    ['one week', { from: '2026-11-01', to: '2026-11-07' }],
    ['airtime, success, GLO, from a date', { type: 'AIRTIME', status: 'SUCCESS', network: 'GLO', from: '2026-10-01' }],
    [`search "${probe}"`, { search: probe }],
  ];
  const all: number[] = [];
  for (const [label, filter] of filters) {
    const count = logTotals(db, 'bench', filter).count;
    const times: number[] = [];
    let firstOfFilter = 0;
    for (const sort of ['time_desc', 'time_asc', 'amount_desc', 'amount_asc'] as const) {
      for (const at of [0, 0.25, 0.5, 0.75, 1]) {
        const offset = Math.max(0, Math.min(count - 100, Math.floor(count * at)));
        const t1 = performance.now();
        const rows = queryLogRows(db, 'bench', filter, sort, offset, 100);
        const ms = performance.now() - t1;
        if (rows.length !== Math.min(100, count)) throw new Error(`${label} ${sort} @${offset}: ${rows.length} rows`);
        if (times.length === 0) firstOfFilter = ms;
        times.push(ms);
      }
    }
    all.push(...times);
    const sorted = [...times].sort((a, b) => a - b);
    console.log(
      `windows, ${label.padEnd(36)} ${fmt(count).padStart(9)} rows, 4 sorts × 5 offsets: median ${sorted[Math.floor(sorted.length / 2)].toFixed(1)} ms, slowest ${sorted[sorted.length - 1].toFixed(1)} ms (first of the filter ${firstOfFilter.toFixed(1)} ms)`,
    );
  }
  const sorted = all.sort((a, b) => a - b);
  console.log(
    `windows of 100 rows, all ${sorted.length} above: median ${sorted[Math.floor(sorted.length / 2)].toFixed(1)} ms, slowest ${sorted[sorted.length - 1].toFixed(1)} ms (target < 30 ms; ${load()})`,
  );
}

/**
 * Yardstick: the same rows inserted into a bare table of the same columns (no unique key, no
 * index, no search), one prepared INSERT per row, same pages, the pragmas the app opens a database
 * with (synchronous = FULL): what SQLite itself costs here for rows this wide.
 *
 * With `relaxed`, the same with each page committed with synchronous = NORMAL, as a bulk load's
 * batches are (logStore.ts `bulkLoadTransaction`): printed for reference, to show what that part
 * of the upsert's gain is worth; the target's yardstick stays the one above.
 */
function plainInsertYardstick(entries: readonly ParsedLogEntry[], syncedAt: string, relaxed = false): { seconds: number; cpu: number } {
  const db = openDatabase(path.join(tmp, relaxed ? 'yardstick-normal.db' : 'yardstick.db'));
  if (relaxed) db.pragma('synchronous = NORMAL');
  const cols = Object.keys(rowOf(entries[0], syncedAt));
  db.exec(`CREATE TABLE bare (${cols.join(', ')})`);
  const insert = db.prepare(`INSERT INTO bare VALUES (${cols.map(() => '?').join(', ')})`);
  const page = db.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++) insert.run(...Object.values(rowOf(entries[i], syncedAt)));
  });
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < entries.length; i += 1000) page(i, Math.min(entries.length, i + 1000));
  const s = (performance.now() - t0) / 1000;
  const c = cpuSeconds(c0);
  console.log(
    relaxed
      ? `(for reference: the same plain INSERT, pages committed with synchronous=NORMAL as a bulk load's: ${s.toFixed(1)} s (${fmt(entries.length / s)} rows/s, cpu ${c.toFixed(2)} s; ${load()}))`
      : `yardstick: plain INSERT  ${fmt(entries.length)} rows of the same ${cols.length} columns, no key or index: ${s.toFixed(1)} s (${fmt(entries.length / s)} rows/s, cpu ${c.toFixed(2)} s; ${load()})`,
  );
  db.close();
  return { seconds: s, cpu: c };
}

function rowOf(e: ParsedLogEntry, syncedAt: string): Record<string, string | number> {
  return { profile_id: 'bench', ...e, synced_at: syncedAt };
}

async function benchUpsertAndSearch(): Promise<void> {
  const db = openDatabase(path.join(tmp, 'upsert.db'));
  const entries = [...generateLogEntries(N)];
  const syncedAt = new Date().toISOString();
  const yardstick = plainInsertYardstick(entries, syncedAt);
  yardstickSeconds = yardstick.seconds;
  plainInsertYardstick(entries, syncedAt, true);
  // As a first sync into an empty mirror does (logSync.ts): the rows without the secondary
  // indexes, each page committed as a sync's batch is (bulkLoadTransaction), then the indexes
  // built, all timed.
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const bulk = beginBulkLoad(db);
  const page = (from: number, to: number) => bulkLoadTransaction(db, bulk, () => upsertLogEntries(db, 'bench', entries.slice(from, to), syncedAt));
  for (let i = 0; i < N; i += 1000) page(i, Math.min(N, i + 1000));
  const rowsS = (performance.now() - t0) / 1000;
  const tb = performance.now();
  if (bulk) endBulkLoad(db);
  const indexS = (performance.now() - tb) / 1000;
  const s = (performance.now() - t0) / 1000;
  const c = cpuSeconds(c0);
  const wallRatio = yardstick.seconds / s;
  const cpuRatio = yardstick.cpu / c;
  console.log(
    `upsert (new rows)         ${fmt(N)} rows in pages of 1,000 into an empty mirror, then its indexes: ${s.toFixed(1)} s (rows ${rowsS.toFixed(1)} s, indexes ${indexS.toFixed(1)} s; ${fmt(N / s)} rows/s, cpu ${c.toFixed(2)} s; ${load()})`,
  );
  const rowsRatio = yardstick.seconds / rowsS;
  console.log(
    `upsert against the yardstick: ${wallRatio.toFixed(2)}× its rows/s by the clock, ${cpuRatio.toFixed(2)}× by CPU time (target ≥ 0.8×); the rows alone, before the indexes: ${rowsRatio.toFixed(2)}× by the clock`,
  );
  reportRow({
    row: `upsert of ${fmt(N)} new log entries (first sync, indexes built after)`,
    measured: `${fmt(N / s)} rows/s = ${wallRatio.toFixed(2)}× (cpu ${cpuRatio.toFixed(2)}×); rows alone ${rowsRatio.toFixed(2)}×`,
    yardstick: `plain INSERT: ${fmt(N / yardstick.seconds)} rows/s (cpu ${yardstick.cpu.toFixed(1)} s)`,
    // By CPU too: the bulk load commits its pages without waiting for the disk (synchronous=NORMAL)
    // while the yardstick waits at each, so on a disk slow to sync the clock alone flatters it.
    target: '≥ 0.8× plain INSERT (clock and CPU)',
    met: wallRatio >= 0.8 && cpuRatio >= 0.8,
  });
  // New rows into a mirror that already holds them all, every index in place (an incremental sync's case).
  const more = [...generateLogEntries(Math.min(N, 100_000), N + 1)];
  const pageMore = db.transaction((from: number, to: number) => upsertLogEntries(db, 'bench', more.slice(from, to), syncedAt));
  const cm = process.cpuUsage();
  const tm = performance.now();
  for (let i = 0; i < more.length; i += 1000) pageMore(i, Math.min(more.length, i + 1000));
  const sm = (performance.now() - tm) / 1000;
  console.log(`upsert (new rows, indexes in place) ${fmt(more.length)} more rows into the ${fmt(N)}-row mirror: ${sm.toFixed(2)} s (${fmt(more.length / sm)} rows/s, ${cpu(cm)})`);
  const again = Math.min(N, 100_000);
  const pageAgain = db.transaction((from: number, to: number) => upsertLogEntries(db, 'bench', entries.slice(from, to), syncedAt));
  const c1 = process.cpuUsage();
  const t1 = performance.now();
  for (let i = 0; i < again; i += 1000) pageAgain(i, Math.min(again, i + 1000));
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
  // What the open app does after each sync by itself: the Transactions table's position index is
  // built in the background (a chunk at a time, the app answering meanwhile).
  const tw = performance.now();
  const cw = process.cpuUsage();
  await warmPositionIndex(db, 'bench');
  console.log(`position index, built in the background after a sync: ${((performance.now() - tw) / 1000).toFixed(1)} s (${cpu(cw)})`);
  const times: number[] = [];
  for (const [k, term] of probes.entries()) {
    const t2 = performance.now();
    const rows = queryLogRows(db, 'bench', { search: term }, 'time_desc', 0, 100);
    const totals = logTotals(db, 'bench', { search: term });
    const ms = performance.now() - t2;
    times.push(ms);
    console.log(
      `phone search "${term}"${' '.repeat(Math.max(0, 9 - term.length))} first page ${rows.length} rows + count+sums (${fmt(totals.count)}): ${ms.toFixed(1)} ms${k === 0 ? ' (first search of the process)' : ''}`,
    );
  }
  const warm = times.slice(1).sort((a, b) => a - b);
  console.log(
    `phone search, the ${warm.length} after the first: first page + count+sums: median ${warm[Math.floor(warm.length / 2)].toFixed(1)} ms, slowest ${warm[warm.length - 1].toFixed(1)} ms (${load()})`,
  );
  benchWindows(db, probes[1]);
  const t6 = performance.now();
  const facets = logFacets(db, 'bench');
  const choices = facets.networks.reduce((n, g) => n + g.networks.length, 0) + facets.statuses.length;
  console.log(`filter choices (logs.facets) ${choices} networks and statuses: ${(performance.now() - t6).toFixed(1)} ms`);
  whatTheIndexesBuy(db);
  db.close();
}

/**
 * What the indexes a first sync builds at its end (2 s of the upsert's time above) buy: the sums
 * the Dashboard and the Transactions page's totals ask of a period, with them and without them.
 * Run last: the mirror is thrown away after.
 */
function whatTheIndexesBuy(db: ReturnType<typeof openDatabase>): void {
  const periods: [string, string, string][] = [
    ['a day', '2026-11-05T23:00:00.000Z', '2026-11-06T23:00:00.000Z'],
    ['a week', '2026-10-31T23:00:00.000Z', '2026-11-07T23:00:00.000Z'],
    ['a month', '2026-10-31T23:00:00.000Z', '2026-11-30T23:00:00.000Z'],
  ];
  const sums = db.prepare('SELECT COUNT(*) AS n, SUM(amount_kobo) AS face, SUM(cost_kobo) AS cost FROM log_entries WHERE profile_id = ? AND created_at >= ? AND created_at < ?');
  const timeEach = () =>
    periods.map(([, from, to]) => {
      const times: number[] = [];
      for (let i = 0; i < 5; i++) {
        const t = performance.now();
        sums.get('bench', from, to);
        times.push(performance.now() - t);
      }
      return median(times);
    });
  const withIndexes = timeEach();
  db.exec('DROP INDEX log_entries_created; DROP INDEX log_entries_amount;');
  const without = timeEach();
  const parts = periods.map(([label], i) => `${label} ${withIndexes[i].toFixed(1)} ms → ${without[i].toFixed(1)} ms`);
  console.log(`what the indexes built after a first sync buy: a period's count and sums (Dashboard, Transactions totals), with them → without: ${parts.join(', ')}`);
}

async function main(): Promise<void> {
  // Issue 42: the mirror at this size, everything on the mirror the app's own sync made (bench/mirrorAtSize.ts).
  if (args.includes('--at-size')) return benchMirrorAtSize(N, tmp);
  console.log(`mirror benchmark, ${fmt(N)} entries, load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores`);
  await benchUpsertAndSearch();
  if (!skipFar) await benchSync(FAR_N, true);
  if (!skipSync) await benchSync(N, false);
}

main()
  .catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(() => fs.rmSync(tmp, { recursive: true, force: true }));
