/**
 * The command line's one output layer (src/cli/terminal.ts): what it makes of hostile values, and
 * that nothing in src/cli writes to stdout or stderr around it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/main';
import { TerminalText, jsonDocument, lines, printable, quoted, screenOf, textTable, tt } from '../../../src/cli/terminal';

const ROOT = path.resolve(__dirname, '..', '..', '..');
/** The forged line of issue 37: back to the start of the line, clear it, write a cheaper item, hide what follows. */
const FORGED = '\x1b[0m\r\x1b[2K2  08031111111 — MTN MTN-VTU ₦100.00\x1b[8m';
const LINK = '\x1b]8;;https://evil.example\x1b\\pay here\x1b]8;;\x1b\\';
/** What a terminal obeys or hides; none may reach it raw. Line breaks are checked apart. */
// eslint-disable-next-line no-control-regex -- the controls are what this looks for
const OBEYED = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u202a-\u202e\u2028\u2029\u2060-\u2069\ufeff]/u;

function sourceFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? sourceFiles(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : []));
}

describe('the one way the command line reaches a terminal', () => {
  it('nothing in src/cli writes to stdout or stderr except through src/cli/terminal.ts', () => {
    const bypass = /process\s*\.\s*(stdout|stderr)|console\s*\.|\bio\s*\.\s*(stdout|stderr)\b|writeSync\s*\(\s*[12]\b|\/dev\/tty/;
    const offenders = sourceFiles(path.join(ROOT, 'src', 'cli'))
      .filter((file) => path.basename(file) !== 'terminal.ts')
      .flatMap((file) =>
        fs
          .readFileSync(file, 'utf8')
          .split('\n')
          .map((line, i) => ({ where: `${path.relative(ROOT, file)}:${i + 1}`, line }))
          .filter(({ line }) => bypass.test(line) && !/^\s*(\/\/|\*)/.test(line)),
      );
    expect(offenders).toEqual([]);
  });

  it('a value put into a text is escaped whole: it cannot end the line, go back over it, hide it or make a link', () => {
    const text = tt`Job 1: file ${FORGED}, note ${LINK}\nPage 1 of 1.`;
    expect(text.text).toBe(
      'Job 1: file \\x1b[0m\\r\\x1b[2K2  08031111111 — MTN MTN-VTU ₦100.00\\x1b[8m, note \\x1b]8;;https://evil.example\\x1b\\pay here\\x1b]8;;\\x1b\\\nPage 1 of 1.',
    );
    expect(printable(text).split('\n')).toHaveLength(2);
    expect(tt`${'two\nlines'}`.text).toBe('two\\nlines');
    expect(lines(['a', tt`b`, 3]).text).toBe('a\nb\n3');
    expect(quoted('say "hi"\r')).toEqual(tt`"say \\"hi\\"\\r"`);
  });

  it('escapes every table cell, so a cell cannot make a row of its own', () => {
    const table = textTable([
      ['Row', 'File'],
      ['2', `x.csv\n2  08031111111  ₦100.00`],
    ]);
    expect(table.text.split('\n')).toEqual(['Row  File', '2    x.csv\\n2  08031111111  ₦100.00']);
  });

  it('prints a plain string as one value, and escapes anything a text still holds besides its line breaks', () => {
    expect(printable(`a\n${FORGED}`)).toBe('a\\n\\x1b[0m\\r\\x1b[2K2  08031111111 — MTN MTN-VTU ₦100.00\\x1b[8m');
    expect(printable(tt`one\ntwo`)).toBe('one\ntwo');
    expect(() => new TerminalText(Symbol('TerminalText') as never, '\x1b[2J')).toThrow(/src\/cli\/terminal\.ts/);
  });

  it('--json: one JSON document with no character a terminal obeys or hides, parsed back to the same value', () => {
    const value = { fileName: `${FORGED}\u202e\u009b2J\u2028\u{E0041}`, amount: 5000 };
    const doc = jsonDocument(value);
    expect(doc).not.toMatch(OBEYED);
    expect(doc).not.toMatch(/[\u{E0000}-\u{E007F}]/u);
    expect(doc).toContain('\\u001b[0m\\r\\u001b[2K2');
    expect(doc).toContain('\\u202e\\u009b2J\\u2028\\udb40\\udc41');
    expect(JSON.parse(doc)).toEqual(value);
    expect(jsonDocument({ a: 'x' }, 2)).toBe('{\n  "a": "x"\n}');
  });

  it('errors, hints and notes are escaped: one line each', () => {
    const out: string[] = [];
    const err: string[] = [];
    const screen = screenOf({ stdout: (t) => out.push(t), stderr: (t) => err.push(t) });
    screen.failure(`Row 4: ${FORGED} is not a number`, `Fix it\r\x1b[2KOr not`);
    screen.note(`Note: ${LINK}`);
    screen.note(lines(['one', tt`two ${FORGED}`]));
    expect(err).toEqual([
      'Error: Row 4: \\x1b[0m\\r\\x1b[2K2  08031111111 — MTN MTN-VTU ₦100.00\\x1b[8m is not a number\nFix it\\r\\x1b[2KOr not',
      'Note: \\x1b]8;;https://evil.example\\x1b\\pay here\\x1b]8;;\\x1b\\',
      'one\ntwo \\x1b[0m\\r\\x1b[2K2  08031111111 — MTN MTN-VTU ₦100.00\\x1b[8m',
    ]);
    expect(out).toEqual([]);
  });

  it('a mistake that quotes what was typed shows it escaped, with and without --json', async () => {
    for (const json of [false, true]) {
      let stdout = '';
      let stderr = '';
      const code = await runCli(['approvals', FORGED, ...(json ? ['--json'] : [])], { stdout: (t) => (stdout += `${t}\n`), stderr: (t) => (stderr += `${t}\n`), env: {} });
      expect(code).toBe(2);
      expect(stdout + stderr).not.toMatch(OBEYED);
      expect(stderr).toContain('vendesk: "\\x1b[0m\\r\\x1b[2K2  08031111111');
      if (json) expect(JSON.parse(stdout).error.message).toContain(FORGED);
    }
  });
});
