/**
 * Close pack benchmark (issue 41): the close pack of a month of 1,000,000 purchases — the
 * month's figures by cost centre and type through the cost-centre view, the wallet rolled forward
 * over every entry between two balance readings, and the workbook written with exceljs's streaming
 * writer (its pending and refund sheets hold ~1,000 and ~60,000 rows) — target < 30 s and < 1 GB.
 * The measurement runs in a child process so its peak RSS is its own; time, peak RSS and the load
 * average are printed (a busy machine is slower; the load says how busy).
 *
 * Data: October 2026 (Lagos days), one entry every 2.68 s, the generator's airtime and data (6 %
 * failed), one in a thousand left pending, 2,000 phones on a recipients list under four cost
 * centres (the rest Unassigned), and balance readings just before and just after the month.
 *
 * Each run prints the total (the month's figures, the workbook, and the journal from the same
 * figures), each phase (spend by cost centre and type, adjustments, messaging, wallet, workbook,
 * journal), CPU time, peak RSS and the load average before and after; then, in a process of their
 * own and on the same rows, two yardsticks: a plain better-sqlite3 GROUP BY of the month's rows by
 * type and status (no cost centres: the floor of one pass over the month), and DuckDB's GROUP BY of
 * the same month's rows (from a CSV written once) joined with the recipients list by phone.
 *
 *   npx tsx bench/closePack.bench.ts                 # 1,000,000 entries; data cached in .tmp/bench
 *   npx tsx bench/closePack.bench.ts --rows 100000 --runs 3
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { openDatabase } from '../src/main/store/database';
import { monthFigures, type FigureTimings } from '../src/main/monthEnd/monthFigures';
import { writeClosePack } from '../src/main/monthEnd/closePack';
import { buildJournal, writeJournalCsv } from '../src/main/monthEnd/journal';
import { AccountResolver, JOURNAL_TYPES } from '../src/main/monthEnd/accountMap';
import { fillMirror, generateLogEntries } from './generate/vendorExport';
import { median, numberArg } from './benchArgs';
import { reportRow } from './summary';

const ROOT = path.resolve(__dirname, '..');
const PROFILE = 'bench';
const MONTH = '2026-10';
const START_MS = Date.parse('2026-09-30T23:00:00Z'); // 1 October 2026, 00:00 Lagos
const END_MS = Date.parse('2026-10-31T23:00:00Z');
const TARGET_S = 30;
const TARGET_MB = 1024;
const CENTRES = ['Sales', 'Operations', 'Finance', 'Field'];

async function measure(dir: string): Promise<void> {
  const db = openDatabase(path.join(dir, 'vendesk.db'));
  const file = path.join(dir, 'close pack.xlsx');
  const journalFile = path.join(dir, 'journal.csv');
  fs.rmSync(file, { force: true });
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const timings: FigureTimings = {};
  const figures = monthFigures(db, PROFILE, MONTH, timings);
  const t1 = performance.now();
  const cpu1 = process.cpuUsage(cpu0);
  const result = await writeClosePack(db, PROFILE, { figures, coverage: null, reconciliation: null, approvals: null }, file);
  const t2 = performance.now();
  const cpu2 = process.cpuUsage(cpu0);
  // The journal from the same figures, every type mapped for every cost centre.
  const resolver = new AccountResolver([
    { kind: 'wallet', type: '', costCentre: '', account: '1200' },
    { kind: 'commission', type: '', costCentre: '', account: '4100' },
    ...JOURNAL_TYPES.map((type, i) => ({ kind: 'expense' as const, type, costCentre: '*', account: String(6100 + 50 * i) })),
  ]);
  const journal = buildJournal(figures, resolver);
  await writeJournalCsv(journal, 'xero', journalFile);
  const t3 = performance.now();
  const cpu = process.cpuUsage(cpu0);
  const spend = figures.spend.reduce((s, l) => s + l.purchases, 0);
  process.stdout.write(
    `${JSON.stringify({
      figuresMs: t1 - t0,
      timings,
      workbookMs: t2 - t1,
      journalMs: t3 - t2,
      totalMs: t3 - t0,
      cpuMs: (cpu.user + cpu.system) / 1000,
      figuresCpuMs: (cpu1.user + cpu1.system) / 1000,
      workbookCpuMs: (cpu2.user + cpu2.system - cpu1.user - cpu1.system) / 1000,
      peakRssMb: process.resourceUsage().maxRSS / 1024,
      rows: result.rows,
      bytes: result.bytes,
      spend,
      lines: figures.spend.length,
      journalLines: journal.lines.length,
      refunds: figures.refunds.count,
      pending: figures.pending.count,
      unexplainedKobo: figures.wallet.unexplainedKobo,
    })}\n`,
  );
  db.close();
}

/** The yardsticks, in a process of their own: SQLite's plain GROUP BY of the month, and DuckDB's GROUP BY of the same rows with the recipients joined. */
async function yardsticks(dir: string): Promise<void> {
  const db = openDatabase(path.join(dir, 'vendesk.db'));
  const from = new Date(START_MS).toISOString();
  const until = new Date(END_MS).toISOString();
  let t0 = performance.now();
  const plain = db
    .prepare(
      `SELECT type, status, count(*), sum(amount_kobo), sum(cost_kobo), sum(commission_kobo) FROM log_entries WHERE profile_id = ? AND created_at >= ? AND created_at < ? GROUP BY type, status`,
    )
    .all(PROFILE, from, until);
  const sqliteMs = performance.now() - t0;
  db.close();
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const cpu0 = process.cpuUsage();
  t0 = performance.now();
  const instance = await DuckDBInstance.create(':memory:');
  const conn = await instance.connect();
  const read = (f: string) => `read_csv('${path.join(dir, f)}', header = true, all_varchar = false)`;
  const duck = await conn.runAndReadAll(
    `SELECT coalesce(r.cost_centre, 'Unassigned') AS cost_centre, m.type, count(*), sum(m.amount_kobo), sum(m.cost_kobo), sum(m.commission_kobo)
       FROM ${read('month.csv')} m LEFT JOIN ${read('recipients.csv')} r ON r.phone = m.phone_number
      WHERE m.status IN ('SUCCESS', 'PENDING') GROUP BY ALL`,
  );
  const duckMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const lines = duck.getRows().length;
  conn.closeSync();
  process.stdout.write(`${JSON.stringify({ sqliteMs, sqliteGroups: plain.length, duckMs, duckCpuMs: (cpu.user + cpu.system) / 1000, duckLines: lines })}\n`);
}

function prepare(dir: string, rows: number): void {
  const marker = path.join(dir, `ready-${rows}`);
  if (fs.existsSync(marker)) return;
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const db = openDatabase(path.join(dir, 'vendesk.db'));
  const stepMs = Math.floor((END_MS - START_MS) / rows);
  const entries = generateLogEntries(rows, { seed: 41, startMs: START_MS + 1000, stepMs });
  fillMirror(db, PROFILE, entries);
  db.prepare(`UPDATE log_entries SET status = 'PENDING' WHERE profile_id = ? AND id % 1000 = 7`).run(PROFILE);
  const insert = db.prepare(`INSERT OR IGNORE INTO recipients (kind, identifier, name, cost_centre, source, updated_at) VALUES ('phone', ?, '', ?, 'bench', ?)`);
  db.transaction(() => {
    for (let i = 0; i < 2000; i++) insert.run(entries[i * Math.floor(rows / 2000)].phone_number, CENTRES[i % CENTRES.length], new Date().toISOString());
  })();
  // The wallet: a reading before the month and one after it, the closing one what the month left (so nothing is unexplained).
  const spent = (db.prepare(`SELECT sum(cost_kobo) AS k FROM log_entries WHERE profile_id = ? AND status <> 'FAILED'`).get(PROFILE) as { k: number }).k;
  const opening = 50_000_000_000;
  const snap = db.prepare(`INSERT INTO balance_snapshots (profile_id, taken_at, balance_kobo, source) VALUES (?, ?, ?, 'bench')`);
  snap.run(PROFILE, new Date(START_MS - 60_000).toISOString(), opening);
  snap.run(PROFILE, new Date(END_MS - 500).toISOString(), opening - spent);
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  fs.writeFileSync(marker, '');
}

/** The same month's rows and the recipients list as CSV, once, for DuckDB's yardstick. */
function prepareCsv(dir: string): void {
  if (fs.existsSync(path.join(dir, 'recipients.csv'))) return;
  const db = openDatabase(path.join(dir, 'vendesk.db'));
  const csv = fs.openSync(path.join(dir, 'month.csv'), 'w');
  fs.writeSync(csv, 'type,status,phone_number,amount_kobo,cost_kobo,commission_kobo\n');
  let chunk = '';
  for (const [type, status, phone, amount, cost, commission] of db
    .prepare(`SELECT type, status, phone_number, amount_kobo, cost_kobo, commission_kobo FROM log_entries WHERE profile_id = ? AND created_at >= ? AND created_at < ?`)
    .raw()
    .iterate(PROFILE, new Date(START_MS).toISOString(), new Date(END_MS).toISOString()) as IterableIterator<[string, string, string, number, number, number]>) {
    chunk += `${type},${status},'${phone},${amount},${cost},${commission}\n`;
    if (chunk.length > 1 << 20) {
      fs.writeSync(csv, chunk);
      chunk = '';
    }
  }
  fs.writeSync(csv, chunk);
  fs.closeSync(csv);
  const recipients = db.prepare(`SELECT identifier, cost_centre FROM recipients WHERE kind = 'phone'`).raw().all() as [string, string][];
  fs.writeFileSync(path.join(dir, 'recipients.csv'), `phone,cost_centre\n${recipients.map(([phone, centre]) => `'${phone},${centre}`).join('\n')}\n`);
  db.close();
}

interface Measured {
  totalMs: number;
  figuresMs: number;
  timings: FigureTimings;
  workbookMs: number;
  journalMs: number;
  cpuMs: number;
  figuresCpuMs: number;
  workbookCpuMs: number;
  peakRssMb: number;
  rows: number;
  bytes: number;
  spend: number;
  lines: number;
  journalLines: number;
  unexplainedKobo: number | null;
}

const s1 = (ms: number | undefined) => `${((ms ?? 0) / 1000).toFixed(2)} s`;
const loads = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

function child(rows: number, mode: string): string {
  const run = spawnSync(process.execPath, ['--import', 'tsx', __filename, '--rows', String(rows), mode], { cwd: ROOT, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
  if (run.status !== 0) throw new Error(`${mode} failed: ${run.stderr}`);
  return run.stdout.trim().split('\n').pop() as string;
}

async function main(): Promise<void> {
  const rows = numberArg('rows', 1_000_000);
  const runs = numberArg('runs', 3);
  const dir = path.join(ROOT, '.tmp', 'bench', `closePack-${rows}`);
  if (process.argv.includes('--measure')) return measure(dir);
  if (process.argv.includes('--yardsticks')) return yardsticks(dir);
  console.log(`Close pack of ${MONTH}: ${rows.toLocaleString('en-US')} log entries (preparing the mirror once, cached in ${path.relative(ROOT, dir)})`);
  prepare(dir, rows);
  prepareCsv(dir);
  const results: Measured[] = [];
  for (let r = 0; r < runs; r++) {
    const before = loads();
    const m = JSON.parse(child(rows, '--measure')) as Measured;
    results.push(m);
    const t = m.timings;
    console.log(
      `run ${r + 1}: ${s1(m.totalMs)} (figures ${s1(m.figuresMs)}: spend by cost centre ${s1(t.spend)}, adjustments ${s1(t.adjustments)}, messaging ${s1(t.messaging)}, wallet ${s1(t.wallet)}; ` +
        `workbook ${s1(m.workbookMs)}; journal ${s1(m.journalMs)}), cpu ${s1(m.cpuMs)} (figures ${s1(m.figuresCpuMs)}, workbook ${s1(m.workbookCpuMs)}), peak RSS ${Math.round(m.peakRssMb)} MB, ` +
        `${m.spend.toLocaleString('en-US')} purchases counted in ${m.lines} cost centre × type lines, ${m.rows.toLocaleString('en-US')} workbook rows, ${(m.bytes / 1e6).toFixed(1)} MB, ` +
        `${m.journalLines} journal lines, unexplained ${m.unexplainedKobo} kobo; load average ${before} → ${loads()}`,
    );
  }
  const y = JSON.parse(child(rows, '--yardsticks')) as { sqliteMs: number; sqliteGroups: number; duckMs: number; duckCpuMs: number; duckLines: number };
  console.log(
    `yardsticks (same rows, own process): better-sqlite3 GROUP BY type, status of the month, no cost centres ${Math.round(y.sqliteMs)} ms (${y.sqliteGroups} groups); ` +
      `DuckDB read_csv + recipients join + GROUP BY cost centre, type ${Math.round(y.duckMs)} ms (cpu ${Math.round(y.duckCpuMs)} ms, ${y.duckLines} lines); load average ${loads()}`,
  );
  const ms = median(results.map((m) => m.totalMs));
  const mb = Math.max(...results.map((m) => m.peakRssMb));
  const spendMs = median(results.map((m) => m.timings.spend ?? 0));
  console.log(
    `close pack + journal, ${rows.toLocaleString('en-US')} entries: median ${s1(ms)} (target < ${TARGET_S} s: ${ms < TARGET_S * 1000 ? 'met' : 'NOT met'}), ` +
      `peak RSS ${Math.round(mb)} MB (target < ${TARGET_MB} MB: ${mb < TARGET_MB ? 'met' : 'NOT met'}); spend by cost centre median ${s1(spendMs)} = ${(spendMs / y.sqliteMs).toFixed(1)}× the plain GROUP BY; ` +
      `load average now ${loads()}`,
  );
  reportRow({
    row: `close pack + journal of a ${rows.toLocaleString('en-US')}-purchase month`,
    measured: `median ${s1(ms)} (cpu ${s1(median(results.map((m) => m.cpuMs)))}), ${Math.round(mb)} MB; spend by cost centre ${s1(spendMs)}`,
    yardstick: `SQLite GROUP BY of the month ${Math.round(y.sqliteMs)} ms; DuckDB ${Math.round(y.duckMs)} ms`,
    target: `< ${TARGET_S} s, < ${TARGET_MB} MB`,
    met: ms < TARGET_S * 1000 && mb < TARGET_MB,
  });
}

void main();
