/**
 * Issue 23, item 13: `--out` never writes through a symbolic link, never replaces an existing file
 * unless `--force` is given, and names a folder in a sentence. Each test plants what an attacker
 * (or a slip) would — a link in a shared folder pointing at another file, a file already there —
 * and runs the real command.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../../src/cli/commands';
import { startCliPeer, type CliPeer } from './cliHarness';

const TOKEN = 'out-file-token-6f1d2a';
let peer: CliPeer;

beforeAll(async () => {
  peer = await startCliPeer(TOKEN);
});
afterAll(async () => {
  await peer.close();
  for (const dir of folders) fs.rmSync(dir, { recursive: true, force: true });
});

const folders: string[] = [];
/** A fresh folder for one test, outside the data folder (which vendesk makes private at start). */
function folder(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-out-'));
  folders.push(dir);
  return dir;
}

/** Another file a link could point at: someone else's, readable by others (644). */
function victim(dir: string): string {
  const file = path.join(dir, 'payroll.csv');
  fs.writeFileSync(file, 'someone else’s file\n', { mode: 0o644 });
  fs.chmodSync(file, 0o644);
  return file;
}

function errorOf(stdout: string): { code: string; message: string; hint: string } {
  return (JSON.parse(stdout) as { error: { code: string; message: string; hint: string } }).error;
}

const leftovers = (dir: string) => fs.readdirSync(dir).filter((f) => f.endsWith('.part'));

describe('--out', () => {
  it('refuses a symbolic link, with or without --force, and the file it points at is untouched', async () => {
    const dir = folder();
    const target = victim(dir);
    const link = path.join(dir, 'log.csv');
    fs.symlinkSync(target, link);
    for (const extra of [[], ['--force']]) {
      const r = await peer.run(['export', 'logs', '--out', link, ...extra]);
      expect(r.code).toBe(1);
      expect(errorOf(r.stdout)).toMatchObject({
        code: 'out_is_link',
        message: `${link} is a symbolic link; vendesk does not write through links (it could be pointing at another file).`,
      });
      expect(fs.readFileSync(target, 'utf8')).toBe('someone else’s file\n');
      expect(fs.statSync(target).mode & 0o777).toBe(0o644);
      expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
    }
    // A dangling link (its target not made yet) is refused the same way: nothing is created there.
    const dangling = path.join(dir, 'later.csv');
    fs.symlinkSync(path.join(dir, 'created-by-vendesk.csv'), dangling);
    expect((await peer.run(['export', 'logs', '--out', dangling])).code).toBe(1);
    expect(fs.existsSync(path.join(dir, 'created-by-vendesk.csv'))).toBe(false);
    expect(leftovers(dir)).toEqual([]);
  });

  it('refuses to replace an existing file without --force (exit 2), and replaces it with --force as a file of the owner alone (600)', async () => {
    const dir = folder();
    const existing = path.join(dir, 'log.csv');
    fs.writeFileSync(existing, 'last month’s export\n');
    fs.chmodSync(existing, 0o644);
    const refused = await peer.run(['export', 'logs', '--out', existing]);
    expect(refused.code).toBe(2);
    expect(errorOf(refused.stdout)).toMatchObject({
      code: 'usage',
      message: `${existing} already exists; vendesk does not replace a file unless told to.`,
      hint: 'Give another file name, or add --force to replace it.',
    });
    expect(fs.readFileSync(existing, 'utf8')).toBe('last month’s export\n');

    const forced = await peer.run(['export', 'logs', '--out', existing, '--force']);
    expect(forced.code).toBe(0);
    expect(JSON.parse(forced.stdout)).toMatchObject({ path: existing });
    expect(fs.readFileSync(existing, 'utf8')).not.toContain('last month');
    expect(fs.readFileSync(existing, 'utf8')).toMatch(/Transaction ID/i);
    // Issue 37, item 6: a replaced file gets the mode of a new one, not the old file's.
    expect(fs.statSync(existing).mode & 0o777).toBe(0o600);
    expect(leftovers(dir)).toEqual([]);
  });

  it('--force over a world-writable (666) file leaves the finance export 600, not writable by others', async () => {
    const dir = folder();
    const existing = path.join(dir, 'payments.csv');
    fs.writeFileSync(existing, 'planted by anyone\n');
    fs.chmodSync(existing, 0o666);
    const r = await peer.run(['export', 'logs', '--out', existing, '--force']);
    expect(r.code).toBe(0);
    expect(fs.readFileSync(existing, 'utf8')).toMatch(/Transaction ID/i);
    expect(fs.statSync(existing).mode & 0o777).toBe(0o600);
  });

  it('refuses a symbolically linked folder on the way, with or without --force: nothing is written through it, and the real path is named', async () => {
    const dir = folder();
    // Someone else's folder, and a link to it planted in the shared folder.
    const theirs = path.join(dir, 'their-folder');
    fs.mkdirSync(theirs);
    const target = victim(theirs);
    const shared = path.join(dir, 'reports');
    fs.symlinkSync(theirs, shared);
    for (const [out, extra] of [
      [path.join(shared, 'log.csv'), []],
      [path.join(shared, 'payroll.csv'), ['--force']],
    ] as const) {
      const r = await peer.run(['export', 'logs', '--out', out, ...extra]);
      expect(r.code).toBe(1);
      expect(errorOf(r.stdout)).toEqual({
        code: 'out_is_link',
        message: `${shared} is a symbolic link; vendesk does not write through links (a link in a shared folder could send the file into another folder).`,
        hint: `If ${theirs} is where you mean to write, give that path: ${path.join(theirs, path.basename(out))}.`,
      });
    }
    expect(fs.readdirSync(theirs)).toEqual(['payroll.csv']);
    expect(fs.readFileSync(target, 'utf8')).toBe('someone else’s file\n');
    expect(fs.statSync(target).mode & 0o777).toBe(0o644);

    // A link higher up the path is refused the same way, naming that link.
    fs.mkdirSync(path.join(theirs, 'november'));
    const deep = await peer.run(['export', 'logs', '--out', path.join(shared, 'november', 'log.csv')]);
    expect(deep.code).toBe(1);
    expect(errorOf(deep.stdout).message).toBe(
      `${shared} is a symbolic link; vendesk does not write through links (a link in a shared folder could send the file into another folder).`,
    );
    expect(fs.readdirSync(path.join(theirs, 'november'))).toEqual([]);

    // Without --json the person reads the same sentence and what to do; the real path then works.
    const text = await peer.run(['export', 'logs', '--out', path.join(shared, 'log.xlsx')], 'globals first', { json: false });
    expect(text.code).toBe(1);
    expect(text.stderr).toContain(`give that path: ${path.join(theirs, 'log.xlsx')}`);
    expect((await peer.run(['export', 'logs', '--out', path.join(theirs, 'log.xlsx')])).code).toBe(0);
    expect(leftovers(theirs)).toEqual([]);
  });

  it('a new file is the owner’s alone (600)', async () => {
    const dir = folder();
    const file = path.join(dir, 'fresh.xlsx');
    expect((await peer.run(['export', 'logs', '--out', file])).code).toBe(0);
    expect(fs.lstatSync(file).isFile()).toBe(true);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(leftovers(dir)).toEqual([]);
  });

  it('a folder gets a sentence with a file name to give, never EISDIR (exit 2)', async () => {
    const dir = folder();
    for (const extra of [[], ['--force']]) {
      const r = await peer.run(['export', 'logs', '--out', dir, ...extra]);
      expect(r.code).toBe(2);
      expect(errorOf(r.stdout).message).toBe(`${dir} is a folder; give a file name, e.g. ${path.join(dir, 'vending log.xlsx')}.`);
      expect(r.stdout + r.stderr).not.toMatch(/EISDIR|EEXIST|ENOENT/);
    }
    // Without --json: the same sentence on stderr.
    const text = await peer.run(['export', 'logs', '--out', `${dir}.xlsx`], 'globals first', { json: false });
    expect(text.code).toBe(0);
    const plain = await peer.run(['export', 'logs', '--out', dir], 'globals first', { json: false });
    expect(plain.stderr).toContain('is a folder; give a file name, e.g.');
  });

  it('report spend checks the chart beside the workbook too: a link there is refused before anything is written', async () => {
    const dir = folder();
    const target = victim(dir);
    fs.symlinkSync(target, path.join(dir, 'spend chart.svg'));
    const r = await peer.run(['report', 'spend', '--from', '2026-11-01', '--to', '2026-11-02', '--out', path.join(dir, 'spend.xlsx')]);
    expect(r.code).toBe(1);
    expect(errorOf(r.stdout).code).toBe('out_is_link');
    expect(fs.existsSync(path.join(dir, 'spend.xlsx'))).toBe(false);
    expect(fs.readFileSync(target, 'utf8')).toBe('someone else’s file\n');
  });

  it('every command that takes --out also takes --force (each goes through the same safe write)', () => {
    const withOut = COMMANDS.filter((c) => c.options.some((o) => o.name === 'out'));
    expect(withOut.map((c) => c.path.join(' ')).sort()).toEqual([
      'audit export',
      'bulk export',
      'bulk template',
      'close',
      'export logs',
      'journal',
      'reconcile',
      'report spend',
      'sandbox export',
    ]);
    for (const c of withOut) expect(c.options.map((o) => o.name)).toContain('force');
  });
});
