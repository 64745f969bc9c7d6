/**
 * Issue 37, item 6: `--out` never writes through a link on the path — also when the path changes
 * after vendesk looked at it. Each test is the attack: a folder of the path is swapped for a link
 * to someone else's folder between the check and the write, or while the write is under way.
 * (test/integration/cli/outFile.test.ts runs the same refusals through the command line.)
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { outFileRefusal, writeOutFile } from '../../../src/main/exports/writeOutFile';
import { AppError } from '../../../src/shared/appError';
import { until } from '../../support/until';

const ROOT = path.resolve(__dirname, '../../..');
let dir: string;
let theirs: string;
let source: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-outfile-'));
  theirs = path.join(dir, 'their-folder');
  fs.mkdirSync(theirs);
  fs.writeFileSync(path.join(theirs, 'payroll.csv'), 'someone else’s file\n', { mode: 0o644 });
  source = path.join(dir, 'export.csv');
  fs.writeFileSync(source, 'Transaction ID,Amount\r\n1,100.00\r\n');
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Their folder as it was: only their file, unchanged. */
function expectTheirsUntouched(): void {
  expect(fs.readdirSync(theirs)).toEqual(['payroll.csv']);
  expect(fs.readFileSync(path.join(theirs, 'payroll.csv'), 'utf8')).toBe('someone else’s file\n');
}

function refusalOf(run: () => unknown): AppError {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('writeOutFile and a folder swapped for a link', () => {
  it('after the check the command made before its work: refused when writing, nothing lands in the linked folder', () => {
    const mine = path.join(dir, 'reports');
    fs.mkdirSync(mine);
    for (const [name, replace] of [
      ['log.csv', false],
      ['payroll.csv', true],
    ] as const) {
      const target = path.join(mine, name);
      expect(outFileRefusal(target, { replace })).toBeNull();
      // The attack, while the command works: the folder is moved away and a link put in its place.
      fs.renameSync(mine, `${mine}-moved`);
      fs.symlinkSync(theirs, mine);
      const error = refusalOf(() => writeOutFile(source, target, { replace }));
      expect(error.code).toBe('out_is_link');
      expect(error.message).toBe(`${mine} is a symbolic link; vendesk does not write through links (a link in a shared folder could send the file into another folder).`);
      expectTheirsUntouched();
      fs.rmSync(mine);
      fs.renameSync(`${mine}-moved`, mine);
    }
  });

  it('while the file is being written: it goes into the folder that was checked, never through the link', async () => {
    // The export's content comes through a named pipe, so the write waits, its folder already open
    // and its temporary file made, until the test has swapped the folder for a link.
    const pipe = path.join(dir, 'slow-export.csv');
    execFileSync('mkfifo', [pipe]);
    const mine = path.join(dir, 'reports');
    fs.mkdirSync(mine);
    const target = path.join(mine, 'log.csv');
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'test/support/writeOutFileChild.ts'), pipe, target], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    await until(() => fs.readdirSync(mine).some((f) => f.endsWith('.part')), 'the write to make its temporary file');

    fs.renameSync(mine, `${mine}-moved`);
    fs.symlinkSync(theirs, mine);
    fs.writeFileSync(pipe, 'Transaction ID,Amount\r\n1,100.00\r\n');

    expect(await exited, stderr).toBe(0);
    expectTheirsUntouched();
    // Where there is no /proc to hold the folder by (macOS), the write is refused instead.
    if (process.platform !== 'linux') return expect(JSON.parse(stdout)).toMatchObject({ ok: false });
    expect(JSON.parse(stdout)).toEqual({ ok: true, path: target });
    // The export is in the folder vendesk checked and opened (now moved), whole and private.
    expect(fs.readdirSync(`${mine}-moved`)).toEqual(['log.csv']);
    expect(fs.readFileSync(path.join(`${mine}-moved`, 'log.csv'), 'utf8')).toBe('Transaction ID,Amount\r\n1,100.00\r\n');
    expect(fs.statSync(path.join(`${mine}-moved`, 'log.csv')).mode & 0o777).toBe(0o600);
  });

  it('a replaced file is 600 whatever mode it had', () => {
    const target = path.join(dir, 'old.csv');
    for (const mode of [0o666, 0o644, 0o600, 0o777]) {
      fs.writeFileSync(target, 'old\n');
      fs.chmodSync(target, mode);
      writeOutFile(source, target, { replace: true });
      expect(fs.statSync(target).mode & 0o777).toBe(0o600);
    }
  });
});
