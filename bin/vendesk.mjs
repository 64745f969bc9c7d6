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
import { builtCli, cliBuildIsCurrent } from './buildState.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

if (cliBuildIsCurrent(root)) {
  require(builtCli(root));
} else if (!fs.existsSync(path.join(root, 'src', 'cli', 'index.ts'))) {
  process.stderr.write(`vendesk: ${builtCli(root)} is missing: this copy of vendesk was packed without its build. In a checkout, run npm run build and pack it again.\n`);
  process.exitCode = 1;
} else {
  // Both of tsx's hooks: the sources' import() of other sources goes through Node's ESM loader.
  (await import('tsx/esm/api')).register();
  require('tsx/cjs/api').register();
  require('../src/cli/index.ts');
}
