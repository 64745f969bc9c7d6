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
 *   npx tsx bench/closePack.bench.ts                 # 1,000,000 entries; data cached in .tmp/bench
 *   npx tsx bench/closePack.bench.ts --rows 100000 --runs 3
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { openDatabase } from '../src/main/store/database';
import { monthFigures } from '../src/main/monthEnd/monthFigures';
import { writeClosePack } from '../src/main/monthEnd/closePack';
import { fillMirror, generateLogEntries } from './generate/vendorExport';
import { median, numberArg } from './benchArgs';

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
  fs.rmSync(file, { force: true });
  const t0 = performance.now();
  const figures = monthFigures(db, PROFILE, MONTH);
  const t1 = performance.now();
  const result = await writeClosePack(db, PROFILE, { figures, coverage: null, reconciliation: null, approvals: null }, file);
  const t2 = performance.now();
  const spend = figures.spend.reduce((s, l) => s + l.purchases, 0);
  process.stdout.write(
    `${JSON.stringify({
      figuresMs: t1 - t0,
      workbookMs: t2 - t1,
      totalMs: t2 - t0,
      peakRssMb: process.resourceUsage().maxRSS / 1024,
      rows: result.rows,
      bytes: result.bytes,
      spend,
      lines: figures.spend.length,
      refunds: figures.refunds.count,
      pending: figures.pending.count,
      unexplainedKobo: figures.wallet.unexplainedKobo,
    })}\n`,
  );
  db.close();
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

async function main(): Promise<void> {
  const rows = numberArg('rows', 1_000_000);
  const runs = numberArg('runs', 3);
  const dir = path.join(ROOT, '.tmp', 'bench', `closePack-${rows}`);
  if (process.argv.includes('--measure')) return measure(dir);
  console.log(`Close pack of ${MONTH}: ${rows.toLocaleString('en-US')} log entries (preparing the mirror once, cached in ${path.relative(ROOT, dir)})`);
  prepare(dir, rows);
  const results: {
    totalMs: number;
    figuresMs: number;
    workbookMs: number;
    peakRssMb: number;
    rows: number;
    bytes: number;
    spend: number;
    lines: number;
    unexplainedKobo: number | null;
  }[] = [];
  for (let r = 0; r < runs; r++) {
    const load = loadavg()[0].toFixed(2);
    const child = spawnSync(process.execPath, ['--import', 'tsx', __filename, '--rows', String(rows), '--measure'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
    if (child.status !== 0) throw new Error(`measurement failed: ${child.stderr}`);
    const m = JSON.parse(child.stdout.trim().split('\n').pop() as string) as (typeof results)[number];
    results.push(m);
    console.log(
      `run ${r + 1}: ${(m.totalMs / 1000).toFixed(2)} s (figures ${(m.figuresMs / 1000).toFixed(2)} s, workbook ${(m.workbookMs / 1000).toFixed(2)} s), peak RSS ${Math.round(m.peakRssMb)} MB, ` +
        `${m.spend.toLocaleString('en-US')} purchases counted in ${m.lines} cost centre × type lines, ${m.rows.toLocaleString('en-US')} workbook rows, ${(m.bytes / 1e6).toFixed(1)} MB, unexplained ${m.unexplainedKobo} kobo; load average ${load}`,
    );
  }
  const ms = median(results.map((m) => m.totalMs));
  const mb = Math.max(...results.map((m) => m.peakRssMb));
  console.log(
    `close pack, ${rows.toLocaleString('en-US')} entries: median ${(ms / 1000).toFixed(2)} s (target < ${TARGET_S} s), peak RSS ${Math.round(mb)} MB (target < ${TARGET_MB} MB); load average now ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
}

void main();
