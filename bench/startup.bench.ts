/**
 * Start-up benchmark: how long a person (or cron) waits for `vendesk` — `--help`, `--version`
 * and `balance --json` on the embedded sandbox — beside `node -e 0` measured in the same run, and
 * the TypeScript sources through tsx (how the command ran before it was built) for comparison.
 * Each command runs N times, the commands taking turns so that a busy moment of the machine falls
 * on all of them alike; the medians are printed with the ratio to `node -e 0`.
 * Run: npm run bench -- startup [--runs 9]
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildIfStale } from '../scripts/buildIfStale.mjs';
import { reportRow } from './summary';
import { median, numberArg } from './benchArgs';

const ROOT = path.resolve(__dirname, '..');
const RUNS = numberArg('runs', 9);
const TARGET_HELP_RATIO = 3;
const TARGET_BALANCE_MS = 600;

/** Wall-clock milliseconds of one run of node with `args`; throws when it fails. */
function time(args: string[]): number {
  const started = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8', env: { ...process.env, VENDESK_TOKEN: '' } });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (r.status !== 0) throw new Error(`node ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return ms;
}

function main(): void {
  buildIfStale(ROOT);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-startup-'));
  const vendesk = path.join(ROOT, 'bin', 'vendesk.mjs');
  const cases: { label: string; args: string[] }[] = [
    { label: 'node -e 0 (yardstick)', args: ['-e', '0'] },
    { label: 'vendesk --help', args: [vendesk, '--help'] },
    { label: 'vendesk --version', args: [vendesk, '--version'] },
    { label: 'vendesk balance --json (embedded)', args: [vendesk, 'balance', '--json', '--data-dir', dataDir] },
    { label: 'sources through tsx: --help', args: ['--import', 'tsx', path.join(ROOT, 'src', 'cli', 'index.ts'), '--help'] },
  ];
  try {
    // The first balance creates the data folder and the sandbox's demo history: once, not timed.
    const first = time([vendesk, 'balance', '--json', '--data-dir', dataDir]);
    const times = cases.map(() => [] as number[]);
    for (let run = 0; run < RUNS; run++) cases.forEach((c, i) => times[i].push(time(c.args)));

    const load = os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ');
    console.log(`vendesk start-up benchmark — Node ${process.version}, ${os.cpus().length} CPUs, load average ${load}, median of ${RUNS} runs each`);
    const yardstick = median(times[0]);
    for (const [i, c] of cases.entries()) {
      const m = median(times[i]);
      const ratio = i === 0 ? '' : `  ${(m / yardstick).toFixed(1)}× node -e 0`;
      console.log(`${c.label.padEnd(36)} ${m.toFixed(0).padStart(6)} ms (min ${Math.min(...times[i]).toFixed(0)} ms)${ratio}`);
    }
    console.log(`${'first balance (new data folder)'.padEnd(36)} ${first.toFixed(0).padStart(6)} ms (creates the sandbox's demo history; once)`);
    const helpRatio = median(times[1]) / yardstick;
    const balanceMs = median(times[3]);
    console.log(`target --help ≤ ${TARGET_HELP_RATIO}× node -e 0: ${helpRatio <= TARGET_HELP_RATIO ? 'met' : 'NOT met'} (${helpRatio.toFixed(1)}×)`);
    console.log(`target balance --json ≤ ${TARGET_BALANCE_MS} ms: ${balanceMs <= TARGET_BALANCE_MS ? 'met' : 'NOT met'} (${balanceMs.toFixed(0)} ms)`);
    reportRow({
      row: 'vendesk --help',
      measured: `${median(times[1]).toFixed(0)} ms = ${helpRatio.toFixed(1)}×`,
      yardstick: `node -e 0: ${yardstick.toFixed(0)} ms`,
      target: `≤ ${TARGET_HELP_RATIO}× node -e 0`,
      met: helpRatio <= TARGET_HELP_RATIO,
    });
    reportRow({
      row: 'vendesk balance --json (embedded sandbox)',
      measured: `${balanceMs.toFixed(0)} ms`,
      yardstick: `node -e 0: ${yardstick.toFixed(0)} ms`,
      target: `≤ ${TARGET_BALANCE_MS} ms`,
      met: balanceMs <= TARGET_BALANCE_MS,
    });
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main();
