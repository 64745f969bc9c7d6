/**
 * The path of a bulk job's confirmation, from the handler to the first purchase request, as it
 * runs (scripts/confirmationPath.ts steps through it with the inspector): the job is read once
 * and goes along as a row, and the path stays within the files and returns measured when it was
 * straightened (issue 27; docs/architecture.md). A change that adds a hop fails here and says where.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PathCount } from '../../../scripts/confirmationPath';

const ROOT = path.resolve(__dirname, '../../..');

/** As measured on the straightened path (it was 15 files and 97 returns before issue 27's work). */
const BUDGET = { files: 14, returns: 64 };

function trace(): { steps: number; all: PathCount; own: PathCount } {
  const run = spawnSync(path.join(ROOT, 'node_modules/.bin/tsx'), ['scripts/confirmationPath.ts', '--json'], { cwd: ROOT, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`The trace failed: ${run.stderr}`);
  return JSON.parse(run.stdout.trim().split('\n').pop() ?? '{}') as { steps: number; all: PathCount; own: PathCount };
}

describe("a bulk job's confirmation path", () => {
  it('reads the job once, leases it once, and stays within its budget of files and returns', () => {
    const { own } = trace();
    const visits = (fn: string) => own.path.filter((p) => p === fn).length;
    expect(visits('jobStore:job')).toBe(1);
    expect(visits('jobStore:acquireLease')).toBe(1);
    expect(own.path).not.toContain('jobViews:jobView'); // confirming builds no view of the job
    expect(own.path[own.path.length - 1]).toBe('airtimeDataSending:send');
    expect({ files: own.files.length, returns: own.returns }, own.path.join(' → ')).toEqual({
      files: Math.min(own.files.length, BUDGET.files),
      returns: Math.min(own.returns, BUDGET.returns),
    });
  });
});
