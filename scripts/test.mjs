#!/usr/bin/env node
// `npm test`: type-check, lint, build, Vitest (unit + integration against the sandbox over real
// HTTP), then Playwright end-to-end tests in Chromium against the web shell. Finds a Chromium or
// gets one first (Debian's package when running as root, else Playwright's own download), and
// LibreOffice for the spreadsheet round-trip tests, PostgreSQL 15 for the team workspace tests; says what to do where it can do neither.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
fs.mkdirSync(path.join(root, '.tmp'), { recursive: true });

function step(title, command, args, options = {}) {
  console.log(`\n━━ ${title}`);
  const started = Date.now();
  const r = spawnSync(command, args, { cwd: root, stdio: 'inherit', ...options });
  console.log(`━━ ${title}: ${r.status === 0 ? 'ok' : 'FAILED'} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  return r.status === 0;
}

function have(file) {
  return fs.existsSync(file);
}

function aptInstall(pkg) {
  if (!isRoot || !have('/usr/bin/apt-get')) return false;
  console.log(`Installing Debian's ${pkg} (apt-get)…`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  return spawnSync('apt-get', ['install', '-y', '-qq', pkg], { stdio: 'inherit', env }).status === 0;
}

function ensureChromium() {
  const known = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => p && have(p));
  if (known) return true;
  if (aptInstall('chromium') && have('/usr/bin/chromium')) return true;
  console.log("Trying Playwright's own Chromium download…");
  if (spawnSync(bin('playwright'), ['install', 'chromium'], { cwd: root, stdio: 'inherit', timeout: 300_000 }).status === 0) return true;
  console.error(
    '\nNo Chromium for the end-to-end tests, and none could be installed.\n' +
      'Install one, then run npm test again:\n' +
      '  Debian/Ubuntu:  sudo apt-get install -y chromium\n' +
      '  anywhere else:  npx playwright install chromium   (or set CHROMIUM_PATH to a Chromium/Chrome binary)\n',
  );
  return false;
}

function ensureLibreOffice() {
  if (have('/usr/bin/soffice') || have('/usr/bin/libreoffice')) return true;
  if (aptInstall('libreoffice-calc-nogui') && have('/usr/bin/soffice')) return true;
  console.error(
    '\nLibreOffice is needed by the spreadsheet round-trip tests and could not be installed.\n' +
      'Install it, then run npm test again:  sudo apt-get install -y libreoffice-calc-nogui\n',
  );
  return false;
}

function ensureZsh() {
  if (have('/usr/bin/zsh') || have('/bin/zsh')) return true;
  if (aptInstall('zsh') && have('/usr/bin/zsh')) return true;
  console.error('\nzsh is needed by the shell completion tests and could not be installed.\nInstall it, then run npm test again:  sudo apt-get install -y zsh\n');
  return false;
}

function ensurePostgres() {
  const bin = process.env.POSTGRES_BIN ?? '/usr/lib/postgresql/15/bin';
  if (have(path.join(bin, 'initdb'))) return true;
  if (aptInstall('postgresql') && have(path.join(bin, 'initdb'))) return true;
  console.error(
    '\nPostgreSQL 15 is needed by the team workspace tests (each starts a throwaway cluster) and could not be installed.\n' +
      'Install it, then run npm test again:  sudo apt-get install -y postgresql   (or set POSTGRES_BIN to its bin folder)\n',
  );
  return false;
}

const counts = { passed: 0, failed: 0, skipped: 0 };
/** Each failed test, named with its file and the first line of why, repeated at the very end of the run. */
const failures = [];
const firstLine = (text) =>
  stripVTControlCharacters(String(text ?? ''))
    .split('\n')
    .find((l) => l.trim())
    ?.trim()
    .slice(0, 200) ?? 'no message';
/** Seconds each test file took, for the slowest-files list printed at the end of every run. */
const fileSeconds = [];
function addVitest(file) {
  try {
    const r = JSON.parse(fs.readFileSync(file, 'utf8'));
    for (const f of r.testResults ?? []) {
      if (typeof f.startTime === 'number' && typeof f.endTime === 'number') fileSeconds.push([path.relative(root, f.name), (f.endTime - f.startTime) / 1000]);
    }
    for (const f of r.testResults ?? []) {
      for (const t of f.assertionResults ?? []) {
        if (t.status === 'failed') failures.push(`${path.relative(root, f.name)} › ${t.fullName ?? t.title} — ${firstLine(t.failureMessages?.[0])}`);
      }
      if (f.status === 'failed' && !(f.assertionResults ?? []).some((t) => t.status === 'failed')) failures.push(`${path.relative(root, f.name)} — ${firstLine(f.message)}`);
    }
    counts.passed += r.numPassedTests ?? 0;
    counts.failed += r.numFailedTests ?? 0;
    counts.skipped += (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
  } catch {
    counts.failed += 1;
  }
}
function addPlaywright(file) {
  try {
    const r = JSON.parse(fs.readFileSync(file, 'utf8'));
    const perFile = new Map();
    const sum = (suite) => {
      for (const spec of suite.specs ?? []) {
        const ms = (spec.tests ?? []).flatMap((t) => t.results ?? []).reduce((total, res) => total + (res.duration ?? 0), 0);
        const name = path.join('test', 'e2e', spec.file ?? suite.file ?? '?');
        perFile.set(name, (perFile.get(name) ?? 0) + ms);
      }
      for (const child of suite.suites ?? []) sum(child);
    };
    for (const suite of r.suites ?? []) sum(suite);
    for (const [name, ms] of perFile) fileSeconds.push([name, ms / 1000]);
    counts.passed += r.stats?.expected ?? 0;
    counts.failed += (r.stats?.unexpected ?? 0) + (r.stats?.flaky ?? 0);
    counts.skipped += r.stats?.skipped ?? 0;
    // Say why anything was skipped (only the Electron-runtime test may be).
    const walk = (suite, trail) => {
      for (const spec of suite.specs ?? []) {
        for (const t of spec.tests ?? []) {
          if (t.status === 'unexpected' || t.status === 'flaky') {
            const error = (t.results ?? []).flatMap((res) => res.errors ?? (res.error ? [res.error] : []))[0];
            failures.push(
              `test/e2e/${spec.file ?? suite.file ?? '?'} › ${[...trail.slice(1), spec.title].join(' › ')} — ${t.status === 'flaky' ? 'passed only on retry: ' : ''}${firstLine(error?.message)}`,
            );
          }
          if (t.status !== 'skipped') continue;
          const why = (t.annotations ?? []).find((a) => a.type === 'skip')?.description ?? 'no reason given';
          console.log(`Skipped: ${[...trail, spec.title].join(' › ')} — ${why}`);
        }
      }
      for (const child of suite.suites ?? []) walk(child, [...trail, child.title]);
    };
    for (const suite of r.suites ?? []) walk(suite, [suite.title]);
  } catch {
    counts.failed += 1;
  }
}

const runStarted = Date.now();
let ok = true;
ok = step('Type-check', bin('tsc'), ['-b', 'tsconfig.json']) && ok;
ok = step('Lint', bin('eslint'), ['--max-warnings', '0', '.']) && ok;
ok = step('Format (prettier --check; npm run format fixes it)', bin('prettier'), ['--check', '--log-level', 'warn', '.']) && ok;
// The app and the `vendesk` command (out/cli), which the CLI tests and the packed-install test run.
ok = step('Build', process.execPath, [path.join(root, 'scripts', 'build.mjs')]) && ok;
const tools = ensureChromium() & ensureLibreOffice() & ensureZsh() & ensurePostgres();
if (!tools) ok = false;

const vitestJson = path.join(root, '.tmp', 'vitest.json');
fs.rmSync(vitestJson, { force: true });
ok = step('Unit and integration tests (Vitest)', bin('vitest'), ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestJson}`]) && ok;
addVitest(vitestJson);

if (tools) {
  const pwJson = path.join(root, '.tmp', 'playwright.json');
  fs.rmSync(pwJson, { force: true });
  ok =
    step('End-to-end tests (Playwright, Chromium, web shell)', bin('playwright'), ['test', '--reporter=list,json'], {
      env: { ...process.env, PLAYWRIGHT_JSON_OUTPUT_NAME: pwJson },
    }) && ok;
  addPlaywright(pwJson);
}

if (fileSeconds.length) {
  console.log('\nThe ten slowest test files (seconds):');
  for (const [name, seconds] of [...fileSeconds].sort((a, b) => b[1] - a[1]).slice(0, 10)) console.log(`  ${seconds.toFixed(1).padStart(7)}  ${name}`);
}
if (failures.length) {
  console.log('\nFailed tests:');
  for (const line of failures) console.log(`  ✘ ${line}`);
}
console.log(`\n${ok ? 'All checks passed.' : 'Some checks FAILED (see above).'}`);
console.log(`tests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
console.log(`npm test took ${((Date.now() - runStarted) / 1000).toFixed(0)} s`);
process.exit(ok ? 0 : 1);
