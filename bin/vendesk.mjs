#!/usr/bin/env node
// The `vendesk` command. Runs the built JavaScript (out/cli/index.js, made by `npm run build`):
// an installed package has nothing else, and starts about as fast as Node itself. In a checkout
// (src/ beside out/) the build is run only while no source file is newer than it; otherwise the
// TypeScript sources run through tsx, so `npm run cli` works with no build step and never runs
// code older than the sources.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const built = path.join(root, 'out', 'cli', 'index.js');
const require = createRequire(import.meta.url);

/** The newest modification time of a file under `dir` (0 when it does not exist). */
function newestMtime(dir) {
  let entries;
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  let newest = 0;
  for (const entry of entries) {
    const p = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : fs.statSync(p).mtimeMs);
  }
  return newest;
}

function builtIsCurrent() {
  let builtAt;
  try {
    builtAt = fs.statSync(built).mtimeMs;
  } catch {
    return false;
  }
  // The folders the command's code comes from (an installed package has none of them).
  return ['cli', 'main', 'shared', 'sandbox'].every((dir) => newestMtime(path.join(root, 'src', dir)) <= builtAt);
}

if (builtIsCurrent()) {
  require(built);
} else if (!fs.existsSync(path.join(root, 'src', 'cli', 'index.ts'))) {
  process.stderr.write(`vendesk: ${built} is missing: this copy of vendesk was packed without its build. In a checkout, run npm run build and pack it again.\n`);
  process.exitCode = 1;
} else {
  require('tsx/cjs/api').register();
  require('../src/cli/index.ts');
}
