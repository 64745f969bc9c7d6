/**
 * What the README's steps leave in a checkout is never committed by accident: `npm pack` writes
 * vendesk-<version>.tgz beside package.json (issue 38, 13: it showed as a new file to add).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '..', '..', '..');

/** Whether git would leave `file` (a path from the checkout's root) out of `git add`. */
function ignored(file: string): boolean {
  const r = spawnSync('git', ['check-ignore', '--no-index', '-q', file], { cwd: ROOT });
  if (r.status !== 0 && r.status !== 1) throw new Error(`git check-ignore failed: ${r.stderr.toString()}`);
  return r.status === 0;
}

describe('.gitignore', () => {
  it("ignores npm pack's tarball, of this version and the next, and nothing else that looks like it", () => {
    const { name, version } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
    expect(ignored(`${name}-${version}.tgz`)).toBe(true);
    expect(ignored(`${name}-9.10.11.tgz`)).toBe(true);
    // A tarball kept on purpose in a folder of its own (a fixture) is not hidden.
    expect(ignored(`test/fixtures/${name}-${version}.tgz`)).toBe(false);
  });
});
