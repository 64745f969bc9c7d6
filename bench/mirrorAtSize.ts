/**
 * The mirror at a size (issue 42: 1M, 3M, 10M entries), all on one mirror made by the app's own
 * first sync, each figure printed as it is measured with its target, its yardstick, peak RSS and
 * the load average (`npm run bench -- mirror --rows N --at-size`):
 * - the sandbox seeded with N entries in its own process (its peak RSS);
 * - the full sync of N, direct, with this process's RSS sampled every 50 ms (peak, and before);
 *   the yardstick a plain INSERT of N rows of the same columns, streamed from the generator;
 * - Transactions windows of 100 rows: first, middle and last, unfiltered and under filters, while
 *   the position index builds (SQL) and once it is built, with EXPLAIN QUERY PLAN of the SQL;
 *   the yardstick raw better-sqlite3's OFFSET window in the middle on the same file;
 * - the Dashboard's figures of a month, read as the Dashboard reads them; the yardstick the same
 *   month's count and sums straight from the entries (raw better-sqlite3, covering index);
 * - `vendesk logs --from --to` of a month (`logs.stream`, what the CLI writes as it goes), against
 *   a day, with the RSS it added.
 * `--keep` leaves the synced mirror in .tmp/bench/mirror-N; `--reuse` measures that one again
 * from the windows on, without seeding and syncing (13 minutes at 10,000,000 on this machine).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createApp } from '../src/main/app';
import { openDatabase } from '../src/main/store/database';
import { logSync } from '../src/main/transactions/logSync';
import { queryLogRows, logTotals, iterateLogRows } from '../src/main/transactions/logQuery';
import { warmPositionIndex } from '../src/main/transactions/logPositionIndex';
import { dailySeries, spendSince } from '../src/main/dashboard/dashboardSummary';
import { lagosRangeIso, shiftDay } from '../src/shared/localDates';
import type { LogFilter, LogSort } from '../src/shared/contract/logs';
import { startSandboxProcess, type SandboxProcess } from '../test/support/testSandbox';
import { generateLogEntries } from './generate/logEntries';
import { reportRow } from './summary';
import { median } from './benchArgs';

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const load = () => `load ${os.loadavg()[0].toFixed(1)}`;
const mb = (bytes: number) => `${Math.round(bytes / 1048576)} MB`;

/** This process's RSS sampled every 50 ms while `work` runs: the peak seen and the RSS before. */
async function withPeakRss<T>(work: () => Promise<T>): Promise<{ value: T; before: number; peak: number }> {
  global.gc?.();
  const before = process.memoryUsage.rss();
  let peak = before;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 50);
  try {
    const value = await work();
    peak = Math.max(peak, process.memoryUsage.rss());
    return { value, before, peak };
  } finally {
    clearInterval(timer);
  }
}

/** A process's peak RSS (VmHWM, Linux), bytes; null elsewhere. */
function processPeakRss(pid: number | undefined): number | null {
  try {
    const line = fs
      .readFileSync(`/proc/${pid}/status`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('VmHWM:'));
    return line ? Number(line.replace(/\D/g, '')) * 1024 : null;
  } catch {
    return null;
  }
}

/** CPU seconds a process has used so far (Linux /proc; null elsewhere): the sandbox's share of a sync. */
export function processCpuSeconds(pid: number | undefined): number | null {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

const cpuOf = (from: NodeJS.CpuUsage) => {
  const u = process.cpuUsage(from);
  return (u.user + u.system) / 1e6;
};

/** Plain INSERT of `n` generated rows of the mirror's columns into a bare table, streamed (never all in memory). */
function plainInsert(tmp: string, n: number): { seconds: number; cpu: number } {
  const db = openDatabase(path.join(tmp, 'yardstick.db'));
  const syncedAt = new Date().toISOString();
  const entries = generateLogEntries(n);
  let next = entries.next();
  if (next.done) throw new Error('no rows');
  const cols = ['profile_id', ...Object.keys(next.value), 'synced_at'];
  db.exec(`CREATE TABLE bare (${cols.join(', ')})`);
  const insert = db.prepare(`INSERT INTO bare VALUES (${cols.map(() => '?').join(', ')})`);
  const page = db.transaction(() => {
    for (let k = 0; k < 1000 && !next.done; k++, next = entries.next()) insert.run('bench', ...Object.values(next.value), syncedAt);
  });
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  while (!next.done) page();
  const seconds = (performance.now() - t0) / 1000;
  const cpu = cpuOf(c0);
  db.close();
  fs.rmSync(path.join(tmp, 'yardstick.db'), { force: true });
  return { seconds, cpu };
}

function timeMs(f: () => unknown): number {
  const t = performance.now();
  f();
  return performance.now() - t;
}

/** Where `--keep` leaves the synced mirror of N entries and `--reuse` finds it (10,000,000: ~6 GB, 13 minutes of sync). */
const keptMirror = (n: number) => path.resolve(__dirname, '..', '.tmp', 'bench', `mirror-${n}`);

export async function benchMirrorAtSize(n: number, tmp: string): Promise<void> {
  const size = fmt(n);
  console.log(
    `mirror at ${size} entries (issue 42), load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} on ${os.cpus().length} cores`,
  );
  const kept = path.join(keptMirror(n), 'vendesk.db');
  if (process.argv.includes('--reuse') && fs.existsSync(kept)) {
    console.log(`the mirror synced by an earlier run (--keep), ${kept}: seeding and the sync not measured this run`);
    const db = openDatabase(kept);
    try {
      const profileId = (db.prepare('SELECT profile_id FROM log_entries LIMIT 1').pluck().get() as string | undefined) ?? '';
      await measureSyncedMirror(db, profileId, n);
    } finally {
      db.close();
    }
    return;
  }
  const tokenFile = path.join(tmp, 'sandbox-tokens.txt');
  fs.writeFileSync(tokenFile, 'bench\n', { mode: 0o600 });
  const t0 = performance.now();
  const sandbox: SandboxProcess = await startSandboxProcess(['--token-file', tokenFile, '--seed-history', String(n), '--db', path.join(tmp, `sandbox-${n}.db`)], {
    entry: 'runStandalone',
    timeoutMs: 60 * 60_000,
  });
  const pid = sandbox.run.child.pid;
  console.log(
    `sandbox seeded            ${size} entries in its own process: ${((performance.now() - t0) / 1000).toFixed(1)} s, peak RSS ${mb(processPeakRss(pid) ?? 0)} (${load()})`,
  );
  const dataDir = path.join(tmp, `synced-${n}`);
  let profileId = '';
  try {
    const yard = plainInsert(tmp, n);
    console.log(`yardstick: plain INSERT  ${size} rows of the same columns, no key or index, streamed: ${yard.seconds.toFixed(1)} s (cpu ${yard.cpu.toFixed(2)} s; ${load()})`);
    const sandboxCpu0 = processCpuSeconds(pid);
    const app = await createApp({ dataDir, shell: 'cli', connection: { baseUrl: sandbox.url, token: 'bench', kind: 'sandbox' } });
    profileId = app.connection.profileId;
    const c0 = process.cpuUsage();
    const t1 = performance.now();
    const run = await withPeakRss(() => logSync(app).run());
    const seconds = (performance.now() - t1) / 1000;
    const appCpu = cpuOf(c0);
    await app.close();
    const sandboxCpu = (processCpuSeconds(pid) ?? 0) - (sandboxCpu0 ?? 0);
    if (run.value.inserted !== n) throw new Error(`synced ${run.value.inserted} of ${n}`);
    console.log(
      `full sync, direct         ${size} entries, ${fmt(run.value.pages)} pages: ${seconds.toFixed(1)} s (${fmt(n / seconds)} entries/s; app cpu ${appCpu.toFixed(2)} s, sandbox cpu ${sandboxCpu.toFixed(2)} s); peak RSS ${mb(run.peak)} (${mb(run.before)} before; target < 400 MB at every size) (${load()})`,
    );
    const targetS = (60 * n) / 1_000_000;
    reportRow({
      row: `full sync of ${size} entries, direct: time, peak RSS`,
      measured: `${seconds.toFixed(1)} s (app cpu ${appCpu.toFixed(1)} s, sandbox ${sandboxCpu.toFixed(1)} s), ${mb(run.peak)}`,
      yardstick: `plain INSERT of the same rows: ${yard.seconds.toFixed(1)} s`,
      target: `< ${targetS.toFixed(0)} s (60 s a million), < 400 MB`,
      met: seconds < targetS && run.peak < 400 * 1048576,
    });
  } finally {
    await sandbox.stop();
    fs.rmSync(path.join(tmp, `sandbox-${n}.db`), { force: true });
  }

  const db = openDatabase(path.join(dataDir, 'vendesk.db'));
  try {
    await measureSyncedMirror(db, profileId, n);
  } finally {
    db.close();
  }
  if (process.argv.includes('--keep')) {
    fs.rmSync(keptMirror(n), { recursive: true, force: true });
    fs.mkdirSync(keptMirror(n), { recursive: true });
    fs.copyFileSync(path.join(dataDir, 'vendesk.db'), kept);
    console.log(`kept the synced mirror for --reuse: ${kept}`);
  }
}

/** Everything measured on the synced mirror: windows (SQL's, then the position index's), the Dashboard, `logs` of a month. */
async function measureSyncedMirror(db: Db, profileId: string, n: number): Promise<void> {
  windowsAtSize(db, profileId, n);
  await positionWindowsAtSize(db, profileId, n);
  dashboardAtSize(db, profileId, n);
  await logsOfAMonth(db, profileId, n);
}

type Db = ReturnType<typeof openDatabase>;

const FILTERS: [string, LogFilter][] = [
  ['no filter', {}],
  ['status failed', { status: 'FAILED' }],
  ['type data, network MTN', { type: 'DATA', network: 'MTN' }],
  ['airtime, success, from a date', { type: 'AIRTIME', status: 'SUCCESS', from: shiftDay(new Date().toISOString().slice(0, 10), -40) }],
];

/** First, middle and last window of each filter and sort; the slowest of each filter. */
function windowTimes(db: Db, profileId: string): { label: string; count: number; times: number[] }[] {
  return FILTERS.map(([label, filter]) => {
    const count = logTotals(db, profileId, filter).count;
    const times: number[] = [];
    for (const sort of ['time_desc', 'time_asc', 'amount_desc'] as LogSort[]) {
      for (const at of [0, 0.5, 1]) {
        const offset = Math.max(0, Math.min(count - 100, Math.floor(count * at)));
        let rows = 0;
        times.push(timeMs(() => (rows = queryLogRows(db, profileId, filter, sort, offset, 100).length)));
        if (rows !== Math.min(100, count)) throw new Error(`${label} ${sort} @${offset}: ${rows} rows`);
      }
    }
    return { label, count, times };
  });
}

/** Windows read before the position index is built: what SQL gives (keyset from the nearer end), with its plans. */
function windowsAtSize(db: Db, profileId: string, n: number): void {
  const plan = (sql: string, ...params: unknown[]) => (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((r) => r.detail).join('; ');
  console.log(`plan, window by time      ${plan('SELECT rowid FROM log_entries WHERE profile_id = ? ORDER BY created_at DESC, id DESC LIMIT 100', profileId)}`);
  console.log(`plan, window by amount    ${plan('SELECT rowid FROM log_entries WHERE profile_id = ? ORDER BY amount_kobo DESC, id DESC LIMIT 100', profileId)}`);
  console.log(
    `plan, Dashboard month     ${plan('SELECT SUM(entries), SUM(face_kobo), SUM(cost_kobo) FROM log_day_totals WHERE profile_id = ? AND day >= ?', profileId, '2026-11-01')}`,
  );
  const middle = Math.floor(n / 2);
  const raw = db.prepare('SELECT rowid FROM log_entries WHERE profile_id = ? ORDER BY created_at DESC, id DESC LIMIT 100 OFFSET ?').pluck();
  const rawMs = timeMs(() => raw.all(profileId, middle));
  console.log(`yardstick: raw better-sqlite3 OFFSET ${fmt(middle)}, 100 rows by time: ${rawMs.toFixed(1)} ms (${load()})`);
}

async function positionWindowsAtSize(db: Db, profileId: string, n: number): Promise<void> {
  const size = fmt(n);
  const built = await withPeakRss(async () => {
    const t = performance.now();
    await warmPositionIndex(db, profileId);
    return (performance.now() - t) / 1000;
  });
  console.log(`position index, built in the background after a sync: ${built.value.toFixed(1)} s, RSS ${mb(built.before)} → ${mb(built.peak)} (${load()})`);
  const all: number[] = [];
  for (const { label, count, times } of windowTimes(db, profileId)) {
    all.push(...times);
    console.log(
      `windows, ${label.padEnd(30)} ${fmt(count).padStart(10)} rows, first/middle/last × 3 sorts: median ${median(times).toFixed(1)} ms, slowest ${Math.max(...times).toFixed(1)} ms`,
    );
  }
  const slowest = Math.max(...all);
  console.log(
    `windows of 100 rows, all ${all.length}: median ${median(all).toFixed(1)} ms, slowest ${slowest.toFixed(1)} ms (target < 30 ms; RSS ${mb(process.memoryUsage.rss())}; ${load()})`,
  );
  reportRow({
    row: `Transactions windows of ${size} entries (first/middle/last, 4 filters × 3 sorts)`,
    measured: `median ${median(all).toFixed(1)} ms, slowest ${slowest.toFixed(1)} ms`,
    yardstick: 'raw OFFSET window in the middle: printed above',
    target: '< 30 ms',
    met: slowest < 30,
  });
}

/** The Dashboard's mirror figures for a month (today, week, month, 30 days, both daily charts), as the Dashboard reads them. */
function dashboardAtSize(db: Db, profileId: string, n: number): void {
  const today = new Date(Date.now() + 3_600_000).toISOString().slice(0, 10);
  const monthStart = shiftDay(today, -29);
  const days = Array.from({ length: 30 }, (_, i) => shiftDay(today, i - 29));
  const ours: number[] = [];
  const yard: number[] = [];
  const rawMonth = db.prepare(
    `SELECT COUNT(CASE WHEN status IN ('SUCCESS','PENDING') THEN 1 END), SUM(CASE WHEN status IN ('SUCCESS','PENDING') THEN amount_kobo END), SUM(CASE WHEN status IN ('SUCCESS','PENDING') THEN cost_kobo END)
       FROM log_entries WHERE profile_id = ? AND created_at >= ?`,
  );
  let figures = spendSince(db, profileId, monthStart);
  for (let i = 0; i < 5; i++) {
    ours.push(
      timeMs(() => {
        figures = spendSince(db, profileId, monthStart);
        for (const day of [today, shiftDay(today, -6), days[0]]) spendSince(db, profileId, day);
        dailySeries(db, profileId, 'type', days);
        dailySeries(db, profileId, 'network', days);
      }),
    );
    yard.push(timeMs(() => rawMonth.get(profileId, lagosRangeIso(monthStart).fromIso)));
  }
  const raw = rawMonth.raw().get(profileId, lagosRangeIso(monthStart).fromIso) as number[];
  if (raw[0] !== figures.purchases || raw[1] !== figures.faceKobo || raw[2] !== figures.costKobo)
    throw new Error(`the month's totals ${JSON.stringify(figures)} differ from the entries' ${JSON.stringify(raw)}`);
  console.log(
    `Dashboard, 30 days (${fmt(figures.purchases)} purchases; today, week, month, 30 days and both daily charts): median ${median(ours).toFixed(1)} ms, slowest ${Math.max(...ours).toFixed(1)} ms (target < 100 ms); yardstick: the month's count and sums straight from the entries ${median(yard).toFixed(1)} ms (${load()})`,
  );
  reportRow({
    row: `Dashboard figures of a month, ${fmt(n)} entries`,
    measured: `median ${median(ours).toFixed(1)} ms, slowest ${Math.max(...ours).toFixed(1)} ms`,
    yardstick: `the month's sums from the entries: ${median(yard).toFixed(0)} ms`,
    target: '< 100 ms',
    met: Math.max(...ours) < 100,
  });
}

/** What `vendesk logs --from --to --all` does: every entry of the period, each written as it is read; a day, then a month. */
async function logsOfAMonth(db: Db, profileId: string, n: number): Promise<void> {
  const today = new Date(Date.now() + 3_600_000).toISOString().slice(0, 10);
  const periods: [string, LogFilter][] = [
    ['a day', { from: shiftDay(today, -10), to: shiftDay(today, -10) }],
    ['a month', { from: shiftDay(today, -40), to: shiftDay(today, -11) }],
  ];
  const grew: number[] = [];
  for (const [label, filter] of periods) {
    const out = fs.createWriteStream('/dev/null');
    const started = performance.now();
    const r = await withPeakRss(async () => {
      let rows = 0;
      let buffer = '';
      for (const row of iterateLogRows(db, profileId, filter, 'time_desc')) {
        buffer += `${row.createdAt}  ${row.status}  ${row.type}  ${row.network}  ${row.phoneNumber}  ${row.amountKobo}  ${row.transactionId}\n`;
        rows++;
        if (buffer.length > 65536) {
          if (!out.write(buffer)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
          buffer = '';
        }
      }
      out.write(buffer);
      return rows;
    });
    out.end();
    const seconds = (performance.now() - started) / 1000;
    grew.push(r.peak - r.before);
    console.log(
      `logs --from --to, ${label.padEnd(8)} ${fmt(r.value).padStart(10)} entries written as read in ${seconds.toFixed(1)} s: RSS ${mb(r.before)} → peak ${mb(r.peak)} (+${mb(r.peak - r.before)}) (${load()})`,
    );
  }
  // The same day in amount order (`--sort amount`): read a chunk of 2,000 rows at a time, each
  // chunk timed (a day's chunks walked the amount index past the other days' entries: up to 20 s one).
  const chunkMs: number[] = [];
  const amountStarted = performance.now();
  let amountRows = 0;
  let chunkStarted = amountStarted;
  for (const _row of iterateLogRows(db, profileId, periods[0][1], 'amount_asc')) {
    if (++amountRows % 2000 === 0) {
      const now = performance.now();
      chunkMs.push(now - chunkStarted);
      chunkStarted = now;
    }
  }
  console.log(
    `logs --from --to --sort amount, a day ${fmt(amountRows).padStart(10)} entries read in ${((performance.now() - amountStarted) / 1000).toFixed(1)} s: ${fmt(chunkMs.length)} chunks of 2,000, median ${median(chunkMs).toFixed(1)} ms, slowest ${Math.max(0, ...chunkMs).toFixed(1)} ms (${load()})`,
  );
  reportRow({
    row: `logs --from --to of a month, ${fmt(n)} entries: memory`,
    measured: `+${mb(grew[1])} (a day: +${mb(grew[0])})`,
    yardstick: 'the same for a day',
    target: 'constant: < 64 MB added',
    met: grew[1] < 64 * 1048576,
  });
}
