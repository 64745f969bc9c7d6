// Builds the app and the `vendesk` command (scripts/build.mjs) when out/ is missing or older than
// any of the sources it is built from: one check for `npm start`, the packed-install test and the
// benches that run the built command or window. Dev-side only (an installed package has no src/).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { newestMtime } from '../bin/buildState.mjs';

/** The folders of src/ that out/ (the window and the command) is built from. */
const SOURCES = ['renderer', 'shared', 'main', 'preload', 'cli', 'sandbox'];

/** True when out/renderer and out/cli exist and no source file is newer than either. */
export function buildIsCurrent(root) {
  const built = [path.join(root, 'out', 'renderer', 'index.html'), path.join(root, 'out', 'cli', 'index.js')];
  const sources = Math.max(...SOURCES.map((d) => newestMtime(path.join(root, 'src', d))));
  return built.every((file) => fs.existsSync(file) && fs.statSync(file).mtimeMs >= sources);
}

/** Builds when the build is not current; throws when the build fails (its errors are on the terminal). */
export function buildIfStale(root) {
  if (buildIsCurrent(root)) return;
  console.log('Building vendesk (about a minute the first time)…');
  // Only errors reach the terminal: the bundler's file list means nothing to a user.
  const r = spawnSync(process.execPath, [path.join(root, 'scripts', 'build.mjs'), '--logLevel', 'error'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) throw new Error('The build failed (see its errors above).');
}
