/**
 * `vendesk completion bash|zsh`: the scripts, run by the real shells, complete the commands of the
 * table, their options and file names, with the global options before or after the command.
 * zsh's completion system is replaced by stubs that print what it was given to offer.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GLOBAL_OPTIONS } from '../../../src/cli/cliCommand';
import { COMMANDS } from '../../../src/cli/commands';
import { completionScript } from '../../../src/cli/completion';

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-completion-'));
  fs.writeFileSync(path.join(dir, 'staff.csv'), 'Phone,Amount\n');
  fs.writeFileSync(path.join(dir, 'bash'), completionScript('bash', COMMANDS, GLOBAL_OPTIONS));
  fs.writeFileSync(path.join(dir, '_vendesk'), completionScript('zsh', COMMANDS, GLOBAL_OPTIONS));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const quoteAll = (words: string[]) => words.map((w) => `'${w.replace(/'/g, `'\\''`)}'`).join(' ');

/** What bash offers for the line `words` (the last word is the one being completed). */
function bash(words: string[]): string[] {
  const script = `source ./bash\nCOMP_WORDS=(${quoteAll(words)}); COMP_CWORD=${words.length - 1}; _vendesk; printf '%s\\n' "\${COMPREPLY[@]}"`;
  const r = spawnSync('bash', ['-c', script], { cwd: dir, encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout.split('\n').filter(Boolean);
}

/** What zsh would be asked to offer for the line `words`, through stubs of _describe, _files and _message. */
function zsh(words: string[]): string[] {
  const script = [
    '_describe() { local -a arr; arr=("${(@P)${@[-1]}}"); print -rl -- "${arr[@]%%:*}" }',
    '_files() { print -r -- "<files>" }',
    '_message() { print -r -- "<value>" }',
    'compdef() { : }',
    'source ./_vendesk',
    `words=(${quoteAll(words)}); CURRENT=${words.length}`,
    '_vendesk',
  ].join('\n');
  const r = spawnSync('zsh', ['-f', '-c', script], { cwd: dir, encoding: 'utf8' });
  expect(r.error, 'zsh is needed by this test: apt-get install zsh').toBeUndefined();
  expect(r.status, r.stderr).toBe(0);
  const current = words[words.length - 1];
  // zsh filters by what is typed; the stubs print every candidate.
  return r.stdout.split('\n').filter((w) => w && (w.startsWith('<') || w.startsWith(current)));
}

describe.each([
  ['bash', bash],
  ['zsh', zsh],
] as const)('%s completion', (shell, complete) => {
  it(`is valid ${shell}`, () => {
    const r = spawnSync(shell, ['-n', shell === 'bash' ? 'bash' : '_vendesk'], { cwd: dir, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
  });

  it('offers every command of the table, word by word', () => {
    const first = [...new Set(COMMANDS.map((c) => c.path[0]))];
    expect(complete(['vendesk', ''])).toEqual(expect.arrayContaining(first));
    for (const group of new Set(COMMANDS.filter((c) => c.path.length > 1).map((c) => c.path[0]))) {
      const second = COMMANDS.filter((c) => c.path[0] === group && c.path.length > 1).map((c) => c.path[1]);
      expect(complete(['vendesk', group, '']), group).toEqual(expect.arrayContaining(second));
    }
    expect(complete(['vendesk', 'bu'])).toEqual(['bulk', 'buy']);
  });

  it('finds the command with the global options before it or after it', () => {
    expect(complete(['vendesk', '--data-dir', '/srv/vendesk', '--json', 'bulk', 'st'])).toEqual(['status']);
    expect(complete(['vendesk', '--profile', 'Acme live', 'buy', 'airtime', '--ph'])).toEqual(['--phone']);
    expect(complete(['vendesk', 'buy', 'airtime', '--data-dir', '/srv', '--am'])).toEqual(['--amount']);
  });

  it('offers a command’s own options and the global ones', () => {
    const options = complete(['vendesk', 'bulk', 'submit', '--']);
    for (const o of [...(COMMANDS.find((c) => c.path.join(' ') === 'bulk submit')?.options ?? []), ...GLOBAL_OPTIONS]) expect(options).toContain(`--${o.name}`);
    expect(complete(['vendesk', '--'])).toEqual(expect.arrayContaining(GLOBAL_OPTIONS.map((o) => `--${o.name}`)));
  });

  it('offers file names for a file argument and for --out and --data-dir, and nothing for other values', () => {
    const files = complete(['vendesk', 'bulk', 'validate', 'st']);
    expect(files.some((f) => f === 'staff.csv' || f === '<files>')).toBe(true);
    const out = complete(['vendesk', 'export', 'logs', '--out', 'st']);
    expect(out.some((f) => f === 'staff.csv' || f === '<files>')).toBe(true);
    expect(complete(['vendesk', 'buy', 'airtime', '--amount', '']).filter((w) => w !== '<value>')).toEqual([]);
  });
});
