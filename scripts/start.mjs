#!/usr/bin/env node
// `npm start`: builds what is missing and opens vendesk — in an Electron window where the
// Electron runtime is installed (or electron's own install.js can fetch it), otherwise as the web
// shell on 127.0.0.1, printing the address to open. Runs until Ctrl-C.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIfStale } from './buildIfStale.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const electronDir = path.join(root, 'node_modules', 'electron');
const unavailableMarker = path.join(root, 'node_modules', '.vendesk-electron-unavailable');

if (!fs.existsSync(path.join(root, 'node_modules', 'better-sqlite3'))) {
  console.error("vendesk's dependencies are not installed. Run: npm install");
  process.exit(1);
}

function electronInstalled() {
  return fs.existsSync(path.join(electronDir, 'path.txt')) && fs.existsSync(path.join(electronDir, 'dist'));
}

function tryFetchElectron() {
  if (electronInstalled()) return true;
  if (fs.existsSync(unavailableMarker) || process.env.VENDESK_WEB === '1') return false;
  console.log('Fetching the Electron runtime (one time)…');
  const r = spawnSync(process.execPath, [path.join(electronDir, 'install.js')], { cwd: electronDir, stdio: 'ignore', timeout: 60_000 });
  if (r.status === 0 && electronInstalled()) return true;
  fs.writeFileSync(unavailableMarker, 'The Electron runtime could not be downloaded here; vendesk runs as the web shell.\n');
  console.log('The Electron runtime cannot be downloaded here; starting vendesk in your browser instead.');
  return false;
}

try {
  buildIfStale(root);
} catch {
  process.exit(1);
}

let child;
if (tryFetchElectron()) {
  const native = spawnSync(process.execPath, ['--import', 'tsx', path.join(root, 'scripts', 'electronNative.ts')], { cwd: root, stdio: 'inherit' });
  if (native.status !== 0) console.warn('Could not build better-sqlite3 for Electron; see the message above.');
  child = spawn(process.execPath, [path.join(electronDir, 'cli.js'), root], { cwd: root, stdio: 'inherit' });
} else {
  child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'src', 'main', 'web', 'serve.ts')], { cwd: root, stdio: 'inherit' });
}
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));
