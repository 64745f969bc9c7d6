/**
 * Approvals benchmark (`npm run bench -- approvals [--rows N] [--runs N]`): an approver opening a
 * big team job, as people type it (issue 26: a 300,000-row job opened in under a second with
 * bounded memory).
 * 1. A throwaway PostgreSQL 15 (test/support/postgresCluster.ts); an admin's `vendesk team join`
 *    sets up the schema; `ada` (preparer) and `bola` (approver) are logins of their own.
 * 2. Preparing: `ada` prepares one N-row bulk job (default 300,000) through the real path, one
 *    call of `vendesk.prepare_bulk_job` with all items and the first 500 rows as the preview, as
 *    a desktop does; its time is printed.
 * 3. The approver: `vendesk approvals --json` (the list), `vendesk approvals JOB_ID --json` (the
 *    first page) and `--page P` near the end, each its own process (`node bin/vendesk.mjs`) in a
 *    data folder joined as `bola`; wall time and peak RSS (`/usr/bin/time`, else not printed) of
 *    each, median of `--runs` (default 5), the commands taking turns. Beside them, the server's
 *    own time of each query (EXPLAIN ANALYZE), to tell the database from the command.
 * The targets are printed beside the figures; a bench never fails on them.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { buildIfStale } from '../scripts/buildIfStale.mjs';
import { startPostgresCluster, type PostgresCluster } from '../test/support/postgresCluster';
import { joinDesk, prepareRaw, previewOf, rowsOf } from '../test/support/teamJobs';
import { reportRow } from './summary';
import { median } from './benchArgs';

const ROOT = path.resolve(__dirname, '..');
const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const at = args.indexOf(name);
  return at >= 0 ? Math.max(1, Number(args[at + 1]) || fallback) : fallback;
};
const ROWS = option('--rows', 300_000);
const RUNS = option('--runs', 5);
/** The CLI's page of a job's rows (src/cli/commands/teamCommands.ts). */
const PAGE_SIZE = 50;
const TARGET_MS = 1000;
const TARGET_MB = 150;
const TIME_BIN = '/usr/bin/time';
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

interface Run {
  ms: number;
  /** Peak resident memory in MB (null without /usr/bin/time). */
  mb: number | null;
  stdout: string;
}

/** One `vendesk` process: its wall time and peak RSS; throws when it fails. */
function vendesk(dataDir: string, cliArgs: string[]): Run {
  const argv = [path.join(ROOT, 'bin', 'vendesk.mjs'), '--data-dir', dataDir, ...cliArgs];
  const rssFile = path.join(dataDir, 'rss.txt');
  const withTime = fs.existsSync(TIME_BIN);
  const started = process.hrtime.bigint();
  const r = withTime
    ? spawnSync(TIME_BIN, ['-f', '%M', '-o', rssFile, process.execPath, ...argv], { cwd: ROOT, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 })
    : spawnSync(process.execPath, argv, { cwd: ROOT, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (r.status !== 0) throw new Error(`vendesk ${cliArgs.join(' ')} exited ${r.status}: ${r.stdout} ${r.stderr}`);
  const mb = withTime ? Number(fs.readFileSync(rssFile, 'utf8').trim().split('\n').pop()) / 1024 : null;
  return { ms, mb, stdout: r.stdout };
}

function secretFile(dir: string, secret: string): string {
  const file = path.join(dir, 'team.pw');
  fs.writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return file;
}

/** The server's own time of a query (EXPLAIN ANALYZE's execution time), as `user`. */
async function serverMs(cluster: PostgresCluster, user: string, password: string, sql: string, params: unknown[]): Promise<string> {
  const client = new pg.Client(cluster.config(user, password));
  await client.connect();
  try {
    const r = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, FORMAT TEXT) ${sql}`, params);
    const line = r.rows.map((row) => row['QUERY PLAN']).find((l) => l.startsWith('Execution Time'));
    return line ? line.replace('Execution Time: ', '') : '?';
  } finally {
    await client.end();
  }
}

async function main(): Promise<void> {
  buildIfStale(ROOT);
  const cluster = await startPostgresCluster();
  const adminDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-approvals-admin-'));
  const bolaDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-approvals-bola-'));
  const url = (user: string) => `postgres://${user}@127.0.0.1:${cluster.port}/postgres`;
  try {
    vendesk(adminDir, ['team', 'join', '--url', url(cluster.superuser), '--password-file', secretFile(adminDir, cluster.superuserPassword), '--json']);
    const adaPassword = await cluster.createLogin('ada', ['vendesk_preparer']);
    const bolaPassword = await cluster.createLogin('bola', ['vendesk_approver']);

    // Preparing, as a desktop does: all items in one call, the first 500 rows as the preview.
    const items = rowsOf(ROWS, 10_000, 7031000001);
    const preview = { ...previewOf(items.slice(0, 500)), moreRows: Math.max(0, ROWS - 500) };
    const ada = new pg.Client(cluster.config('ada', adaPassword));
    await ada.connect();
    let jobId: string;
    let prepareMs: number;
    try {
      const desk = { id: 'desk-ada', name: 'Ada PC' };
      await joinDesk(ada, desk);
      const started = process.hrtime.bigint();
      jobId = (await prepareRaw(ada, desk, { items, fileName: 'payroll.xlsx', walletKobo: ROWS * 10_000 * 2, preview })).id;
      prepareMs = Number(process.hrtime.bigint() - started) / 1e6;
    } finally {
      await ada.end();
    }
    const stored = await cluster.superQuery<{ n: string; bytes: string }>(
      "SELECT count(*)::text AS n, pg_size_pretty(pg_total_relation_size('vendesk.job_items')) AS bytes FROM vendesk.job_items WHERE job_id = $1",
      [jobId],
    );
    const prepareLine = `prepare_bulk_job, ${fmt(ROWS)} items in one call (as the preparer): ${fmt(prepareMs)} ms; job_items holds ${fmt(Number(stored.rows[0].n))} rows, ${stored.rows[0].bytes} (load ${load()})`;

    vendesk(bolaDir, ['team', 'join', '--url', url('bola'), '--password-file', secretFile(bolaDir, bolaPassword), '--desktop-name', 'Bola PC', '--json']);
    const lastPage = Math.ceil(ROWS / PAGE_SIZE);
    const latePage = lastPage;
    const cases = [
      { label: 'vendesk approvals --json (the list)', args: ['approvals', '--json'] },
      { label: 'vendesk approvals JOB_ID --json (page 1)', args: ['approvals', jobId, '--json'] },
      { label: `vendesk approvals JOB_ID --page ${latePage} --json`, args: ['approvals', jobId, '--page', String(latePage), '--json'] },
    ];
    // Each command once before timing (the build's files into the page cache), and its answer checked.
    const list = JSON.parse(vendesk(bolaDir, cases[0].args).stdout) as { jobs: { id: string; items: number }[] };
    if (list.jobs.find((j) => j.id === jobId)?.items !== ROWS) throw new Error('The approver does not see the job in the list.');
    const late = JSON.parse(vendesk(bolaDir, cases[2].args).stdout) as { rows: { row: number }[] };
    if (late.rows[0]?.row !== (latePage - 1) * PAGE_SIZE + 2) throw new Error(`Page ${latePage} starts at row ${late.rows[0]?.row}.`);
    vendesk(bolaDir, cases[1].args);
    const runs = cases.map(() => [] as Run[]);
    for (let run = 0; run < RUNS; run++) cases.forEach((c, i) => runs[i].push(vendesk(bolaDir, c.args)));

    console.log(
      `approvals benchmark — ${fmt(ROWS)}-row bulk job, PostgreSQL 15, Node ${process.version}, ${os.cpus().length} CPUs, median of ${RUNS} runs each, load average ${load()}`,
    );
    console.log(prepareLine);
    const nodeMs = median(Array.from({ length: RUNS }, () => nodeStartMs()));
    console.log(`${'yardstick: node -e 0'.padEnd(48)} ${fmt(nodeMs)} ms`);
    let slowest = { ms: 0, mb: 0 };
    for (const [i, c] of cases.entries()) {
      const ms = median(runs[i].map((r) => r.ms));
      const mbs = runs[i].map((r) => r.mb).filter((m): m is number => m !== null);
      const mb = mbs.length ? Math.max(...mbs) : null;
      const met = ms < TARGET_MS && (mb === null || mb < TARGET_MB);
      slowest = { ms: Math.max(slowest.ms, ms), mb: Math.max(slowest.mb, mb ?? 0) };
      console.log(
        `${c.label.padEnd(48)} ${fmt(ms).padStart(5)} ms (min ${fmt(Math.min(...runs[i].map((r) => r.ms)))}), peak RSS ${mb === null ? '?' : `${fmt(mb)} MB`}` +
          `   target < ${TARGET_MS} ms, < ${TARGET_MB} MB: ${met ? 'met' : 'NOT met'}`,
      );
    }
    reportRow({
      row: `vendesk approvals, ${fmt(ROWS)}-row job (list, page 1, last page)`,
      measured: `slowest median ${fmt(slowest.ms)} ms, ${fmt(slowest.mb)} MB`,
      yardstick: `node -e 0: ${fmt(nodeMs)} ms`,
      target: `< ${TARGET_MS} ms, < ${TARGET_MB} MB`,
      met: slowest.ms < TARGET_MS && slowest.mb < TARGET_MB,
    });
    // The database's share: the same queries the command sends, timed by the server.
    const { JOB_LIST_SQL: listSql, JOB_ROWS_SQL: rowsSql } = await import('../src/main/team/teamWorkspace');
    console.log(
      `server time of the list query ${await serverMs(cluster, 'bola', bolaPassword, listSql, [['awaiting_approval'], null])}; ` +
        `of page 1 ${await serverMs(cluster, 'bola', bolaPassword, rowsSql, [jobId, PAGE_SIZE, 0])}; ` +
        `of page ${latePage} ${await serverMs(cluster, 'bola', bolaPassword, rowsSql, [jobId, PAGE_SIZE, (latePage - 1) * PAGE_SIZE])}`,
    );
  } finally {
    await cluster.stop();
    fs.rmSync(adminDir, { recursive: true, force: true });
    fs.rmSync(bolaDir, { recursive: true, force: true });
  }
}

/** Wall-clock milliseconds of `node -e 0`, the yardstick of a process's start. */
function nodeStartMs(): number {
  const started = process.hrtime.bigint();
  spawnSync(process.execPath, ['-e', '0']);
  return Number(process.hrtime.bigint() - started) / 1e6;
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
