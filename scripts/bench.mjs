#!/usr/bin/env node
// `npm run bench -- <name> [args]` runs bench/<name>.bench.ts and prints its figures.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const benches = fs.readdirSync(path.join(root, 'bench')).filter((f) => f.endsWith('.bench.ts')).map((f) => f.replace(/\.bench\.ts$/, ''));
const [name, ...rest] = process.argv.slice(2);
if (!name || !benches.includes(name)) {
  console.log(`Usage: npm run bench -- <name>\nBenchmarks: ${benches.join(', ')}`);
  process.exit(name ? 2 : 0);
}
const r = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', path.join(root, 'bench', `${name}.bench.ts`), ...rest], { cwd: root, stdio: 'inherit' });
process.exit(r.status ?? 1);
