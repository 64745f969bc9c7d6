/**
 * The installed command starting fast (issue 26: "a documented install that starts fast"):
 * `npm pack` of this checkout, `npm install -g` of the tarball into a throwaway prefix, then the
 * installed `vendesk --help` and `--version` beside `node -e 0`, N times each, taking turns.
 *
 * The install skips install scripts (`--ignore-scripts`): the one that matters, better-sqlite3's
 * native build, takes a minute or more on this machine and neither `--help` nor `--version`
 * loads it (the packed-install test, test/integration/cli/packedInstall.test.ts, does the full
 * install and runs `balance` and the sandbox from it). Packages come from npm's cache where they
 * are (`--prefer-offline`).
 *
 *   npm run bench -- packed [--runs 9]
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildIfStale } from '../scripts/buildIfStale.mjs';
import { reportRow } from './summary';
import { median, numberArg } from './benchArgs';

const ROOT = path.resolve(__dirname, '..');
const RUNS = numberArg('runs', 9);
const TARGET_RATIO = 3;

function time(file: string, args: string[], env: NodeJS.ProcessEnv): number {
  const started = process.hrtime.bigint();
  const r = spawnSync(file, args, { encoding: 'utf8', env });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (r.status !== 0) throw new Error(`${file} ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return ms;
}

function main(): void {
  buildIfStale(ROOT);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-packed-bench-'));
  try {
    let t0 = performance.now();
    const packed = JSON.parse(execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], { cwd: ROOT, encoding: 'utf8' })) as {
      filename: string;
      size: number;
    }[];
    const packMs = performance.now() - t0;
    const prefix = path.join(work, 'prefix');
    t0 = performance.now();
    const install = spawnSync(
      'npm',
      ['install', '--global', '--prefix', prefix, '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund', path.join(work, packed[0].filename)],
      { cwd: work, encoding: 'utf8' },
    );
    const installMs = performance.now() - t0;
    if (install.status !== 0) throw new Error(`npm install -g failed:\n${install.stdout}\n${install.stderr}`);
    const vendesk = path.join(prefix, 'bin', 'vendesk');
    // As on a server: the installed command on PATH, no checkout behind it (cwd is the prefix).
    const env = { PATH: [path.join(prefix, 'bin'), path.dirname(process.execPath), process.env.PATH ?? ''].join(path.delimiter), HOME: work };
    const times = [[], [], []] as number[][];
    for (let run = 0; run < RUNS; run++) {
      times[0].push(time(process.execPath, ['-e', '0'], env));
      times[1].push(time(vendesk, ['--help'], env));
      times[2].push(time(vendesk, ['--version'], env));
    }
    const [node, help, version] = times.map(median);
    console.log(`packed install benchmark — Node ${process.version}, ${os.cpus().length} CPUs, load average ${os.loadavg()[0].toFixed(2)}, median of ${RUNS} runs each`);
    console.log(
      `npm pack: ${packed[0].filename}, ${(packed[0].size / 1e6).toFixed(1)} MB, ${(packMs / 1000).toFixed(1)} s; npm install -g (scripts skipped, npm's cache): ${(installMs / 1000).toFixed(1)} s`,
    );
    console.log(`node -e 0 (yardstick)            ${node.toFixed(0).padStart(5)} ms`);
    console.log(`installed vendesk --help         ${help.toFixed(0).padStart(5)} ms  ${(help / node).toFixed(1)}× node -e 0`);
    console.log(`installed vendesk --version      ${version.toFixed(0).padStart(5)} ms  ${(version / node).toFixed(1)}× node -e 0`);
    reportRow({
      row: 'packed install (npm pack → npm install -g) starting',
      measured: `--help ${help.toFixed(0)} ms = ${(help / node).toFixed(1)}×, --version ${version.toFixed(0)} ms (install ${(installMs / 1000).toFixed(0)} s w/o native build)`,
      yardstick: `node -e 0: ${node.toFixed(0)} ms`,
      target: `≤ ${TARGET_RATIO}× node -e 0`,
      met: help / node <= TARGET_RATIO && version / node <= TARGET_RATIO,
    });
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

main();
