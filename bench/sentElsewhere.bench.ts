/**
 * Rows another team desktop sent, settled on this one (issue 26): desktop A buys an airtime job
 * of N rows; desktop B, with the same organisation, holds the same rows as sent elsewhere and
 * settles them with `sentElsewhereSettler` (batches of 100, as the runner hands them over) through
 * a recording proxy. Prints B's log requests and time, and — as the yardstick in the same run — the
 * requests and time of reading the log once per row by phone, as settling did before.
 * The team database is left out: its answer (the earliest other claim, its clock) is given.
 *
 *   npm run bench -- sentElsewhere               # 2,000 rows
 *   npm run bench -- sentElsewhere --rows 10000
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createApp } from '../src/main/app';
import { dispatch } from '../src/main/dispatch';
import { jobParts } from '../src/main/buying/jobLifecycle';
import { teamJobs } from '../src/main/buying/teamJobs';
import { logEntriesAroundSend } from '../src/main/api/logLookup';
import { sentElsewhereSettler } from '../src/main/team/sentElsewhere';
import { startTestSandbox } from '../test/support/testSandbox';
import { startLatencyProxy } from '../test/support/latencyProxy';
import type { BulkPreview } from '../src/shared/contract/bulk';
import { reportRow } from './summary';
import { numberArg } from './benchArgs';

const BATCH = 100;

async function main(): Promise<void> {
  const rows = numberArg('rows', 2000);
  const sandbox = await startTestSandbox();
  const proxy = await startLatencyProxy(sandbox.url, 0);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-sent-elsewhere-bench-'));
  const file = path.join(root, 'airtime.csv');
  const lines = ['Name,Phone,Network,Amount'];
  for (let i = 0; i < rows; i++) lines.push(`Staff ${i + 1},0803${String(1_000_000 + i).slice(-7)},MTN,100`);
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
  const open = (name: string, baseUrl: string) => {
    fs.mkdirSync(path.join(root, name));
    return createApp({ dataDir: path.join(root, name), shell: 'cli', connection: { baseUrl, token: 'bench', kind: 'sandbox' } });
  };
  const a = await open('a', sandbox.url);
  const b = await open('b', proxy.url);
  try {
    const sentMs = Date.now();
    const prepared = await dispatch(a, 'bulk.prepare', { file: { path: file }, kind: 'airtime' });
    if (!prepared.ok) throw new Error(prepared.error.message);
    const done = await dispatch(a, 'bulk.confirm', { jobId: (prepared.value as BulkPreview).job.id, wait: true });
    if (!done.ok) throw new Error(done.error.message);

    // The same rows, kept although A's purchases of them are in the log (else they start excluded as duplicates).
    const onB = await dispatch(b, 'bulk.prepare', { file: { path: file }, kind: 'airtime', keepDuplicates: true });
    if (!onB.ok) throw new Error(onB.error.message);
    const parts = jobParts(b.db);
    const store = teamJobs(parts);
    const job = store.job((onB.value as BulkPreview).job.id);
    if (!job) throw new Error('no job on B');
    const items = store.items(job.id);
    parts.moves.markSending(
      job.id,
      items.map((i) => i.seq),
      sentMs,
    );
    const claim = { desktopId: 'A', claimedBy: 'ada', claimedMs: sentMs };

    // Yardstick: one read of the log by phone per row (what settling did before).
    let from = proxy.exchanges.length;
    let t0 = performance.now();
    for (const item of items) await logEntriesAroundSend(b.client(), 'airtime', item.phone, sentMs);
    const perRowMs = performance.now() - t0;
    const perRowReads = proxy.exchanges.slice(from).filter((e) => e.url.startsWith('/logEntries')).length;

    from = proxy.exchanges.length;
    t0 = performance.now();
    const settle = sentElsewhereSettler(b, store, job, b.client(), () => Promise.resolve({ earliestMs: sentMs, nowMs: Date.now(), count: rows }));
    for (let i = 0; i < items.length; i += BATCH) await settle(items.slice(i, i + BATCH).map((item) => ({ item, claim })));
    const oneReadMs = performance.now() - t0;
    const oneReadReads = proxy.exchanges.slice(from).filter((e) => e.url.startsWith('/logEntries')).length;
    // Settled: matched to its entry in the service's log, whatever that entry says yet (an airtime
    // purchase is PENDING for its first 5 s, so a quick machine sees pending items, a slow one success).
    const settled = store.items(job.id).filter((i) => i.reference !== null && i.state !== 'sending' && i.state !== 'uncertain').length;

    console.log(
      `rows sent elsewhere, settled on adopt/resume: ${rows.toLocaleString('en-US')} airtime rows — Node ${process.version}, ${os.cpus().length} CPUs, load average ${os.loadavg()[0].toFixed(1)}`,
    );
    console.log(
      `one paged read per run: ${oneReadReads} log requests, ${(oneReadMs / 1000).toFixed(2)} s; ${settled.toLocaleString('en-US')} of ${rows.toLocaleString('en-US')} settled`,
    );
    console.log(`yardstick, one read per row (before): ${perRowReads.toLocaleString('en-US')} log requests, ${(perRowMs / 1000).toFixed(2)} s`);
    reportRow({
      row: `adopt: ${rows.toLocaleString('en-US')} rows sent elsewhere, settled`,
      measured: `${oneReadReads} log reads, ${(oneReadMs / 1000).toFixed(2)} s, ${settled.toLocaleString('en-US')} settled`,
      yardstick: `one read per row: ${perRowReads.toLocaleString('en-US')} reads, ${(perRowMs / 1000).toFixed(2)} s`,
      target: 'one paged read per job',
      met: settled === rows && oneReadReads <= Math.ceil(rows / 100) + 1 && oneReadReads < perRowReads,
    });
  } finally {
    await b.close();
    await a.close();
    await proxy.close();
    await sandbox.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
