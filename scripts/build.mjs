#!/usr/bin/env node
// `npm run build`: the app (electron-vite: out/main, out/preload, out/renderer), then the `vendesk`
// command (vite.cli.config.ts: out/cli), which bin/vendesk.mjs runs. Extra arguments (such as
// `--logLevel error`) go to both builds. `npm test` and `npm start` build through here.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const extra = process.argv.slice(2);
const builds = [
  [path.join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build', ...extra],
  [path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', path.join(root, 'vite.cli.config.ts'), ...extra],
];
for (const args of builds) {
  const r = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
