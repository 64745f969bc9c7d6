/**
 * The path tests' one way to read a trace (scripts/confirmationPath.ts, scripts/singlePath.ts):
 * the script runs in a process of its own, which debugs itself through the inspector, and prints
 * one JSON document with `--json`.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import type { PathCount } from '../../scripts/confirmationPath';
import { ROOT } from './vendeskProcess';

export interface Trace {
  steps: number;
  /** All of src/. */
  all: PathCount;
  /** The code's own: without the service client, shared, the composition root's accessors, redaction. */
  own: PathCount;
}

/** Runs `script` (a path under scripts/) with `--json` and answers its counts; throws what it said when it failed. */
export function traceOf(script: string): Trace {
  const run = spawnSync(path.join(ROOT, 'node_modules/.bin/tsx'), [script, '--json'], { cwd: ROOT, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`The trace failed: ${run.stderr}`);
  return JSON.parse(run.stdout.trim().split('\n').pop() ?? '{}') as Trace;
}
