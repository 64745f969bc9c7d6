/**
 * Builds better-sqlite3 for Electron's ABI beside Node's build, so the Electron shell and the
 * Node processes (tests, web shell, CLI) each load a binary made for them. Runs only where the
 * Electron runtime is installed; needs Electron's headers (downloaded by node-gyp).
 *
 *   npm run rebuild:electron
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '..');
const outDir = path.join(root, 'build', 'electron-native');
const target = path.join(outDir, 'better_sqlite3.node');

export function electronRuntimeInstalled(): boolean {
  const electronDir = path.join(root, 'node_modules', 'electron');
  return fs.existsSync(path.join(electronDir, 'path.txt')) && fs.existsSync(path.join(electronDir, 'dist'));
}

function electronVersion(): string {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'node_modules', 'electron', 'package.json'), 'utf8')) as { version: string };
  return pkg.version;
}

function nodeGypScript(): string {
  const candidates = [
    process.env.npm_execpath ? path.join(path.dirname(process.env.npm_execpath), '..', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js') : '',
    path.join(path.dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'),
  ].filter(Boolean);
  const found = candidates.find((c) => fs.existsSync(c));
  if (!found) throw new Error('node-gyp was not found next to npm; install it with: npm install -g node-gyp');
  return found;
}

export function buildElectronSqlite(): string {
  const version = electronVersion();
  const work = path.join(outDir, 'src');
  fs.rmSync(work, { recursive: true, force: true });
  fs.mkdirSync(work, { recursive: true });
  const source = path.join(root, 'node_modules', 'better-sqlite3');
  for (const entry of ['binding.gyp', 'src', 'deps', 'package.json']) {
    fs.cpSync(path.join(source, entry), path.join(work, entry), { recursive: true });
  }
  execFileSync(process.execPath, [nodeGypScript(), 'rebuild', '--release', `--target=${version}`, '--runtime=electron', '--dist-url=https://electronjs.org/headers'], {
    cwd: work,
    stdio: 'inherit',
  });
  fs.copyFileSync(path.join(work, 'build', 'Release', 'better_sqlite3.node'), target);
  fs.rmSync(work, { recursive: true, force: true });
  return target;
}

if (require.main === module) {
  if (!electronRuntimeInstalled()) {
    console.log("The Electron runtime is not installed here; nothing to build (the web shell and CLI use Node's build).");
  } else if (fs.existsSync(target) && !process.argv.includes('--force')) {
    console.log(`Electron build of better-sqlite3 already present: ${target}`);
  } else {
    console.log(`Built ${buildElectronSqlite()}`);
  }
}
