/**
 * The one way the command line reaches a terminal (docs/security.md, *What reaches a terminal*).
 * Nothing a file, the service or the team database holds may move the cursor, clear a line, hide
 * text, reorder it or make a link on the screen of the person reading it, so:
 *
 * - A command's text is a {@link TerminalText}, which only this module makes: vendesk's own words
 *   and line breaks, with every value put into it escaped — `tt\`Job ${id}: ${fileName}\`` shows a
 *   file name holding ESC, CR or a line break as `\x1b`, `\r`, `\n`. A plain string is never
 *   printed as it is: printed alone, all of it is one value.
 * - Tables ({@link textTable}) escape every cell.
 * - Errors, hints and progress notes are escaped as values (no message of vendesk's spans lines).
 * - `--json` prints one JSON document in which, besides what JSON escapes itself (C0 controls),
 *   DEL, C1 controls and every invisible or reordering character is written `\uXXXX`.
 * - Everything is written through {@link screenOf}; nothing else in src/cli writes to stdout or
 *   stderr (eslint.config.mjs and test/unit/cli/terminalOutput.test.ts fail if it does).
 */
import { redactSecrets } from '../main/redact';
import { HIDDEN_CHARACTER, visibleText } from '../shared/visibleText';

const MINT = Symbol('TerminalText');

/** Text laid out by vendesk for a terminal: its own words and line breaks, every value in it escaped. */
export class TerminalText {
  constructor(
    token: typeof MINT,
    readonly text: string,
  ) {
    if (token !== MINT) throw new Error('A TerminalText is made by src/cli/terminal.ts only.');
  }

  toString(): string {
    return this.text;
  }
}

function made(text: string): TerminalText {
  return new TerminalText(MINT, text);
}

/** What may be put into a text: a value (escaped), a number, or a text already made. */
export type TextPart = string | number | TerminalText;

function part(p: TextPart): string {
  if (p instanceof TerminalText) return p.text;
  if (typeof p === 'number') return String(p);
  return visibleText(p);
}

/**
 * A text from a template: its literal parts are vendesk's (line breaks included), each `${value}`
 * is escaped (a {@link TerminalText} goes in as it is).
 */
export function tt(strings: TemplateStringsArray, ...values: TextPart[]): TerminalText {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += part(values[i]) + strings[i + 1];
  return made(out);
}

/** Parts one under the other. */
export function lines(parts: readonly TextPart[]): TerminalText {
  return made(parts.map(part).join('\n'));
}

/** A value in quotes, so where it starts and ends shows: `"payroll.csv"`. */
export function quoted(value: string): TerminalText {
  return made(`"${visibleText(value).replaceAll('"', '\\"')}"`);
}

/**
 * vendesk's own text of several lines, written elsewhere (the web shell's and the sandbox's notes,
 * the completion script): each line is escaped as a value, the line breaks are kept. Never for a
 * value from a file, the service or the team database — its line breaks would be taken as lines.
 */
export function vendeskLines(text: string): TerminalText {
  return lines(text.split('\n'));
}

/** The lines of a {@link textTable}, one per row (to put other lines between them). */
export function tableLines(rows: readonly (readonly (string | number)[])[]): TerminalText[] {
  if (rows.length === 0) return [];
  const cells = rows.map((r) => r.map((c) => (typeof c === 'number' ? String(c) : visibleText(c))));
  const widths = cells[0].map((_, c) => Math.max(...cells.map((r) => (r[c] ?? '').length)));
  return cells.map((r) => made(r.map((cell, c) => (c === r.length - 1 ? cell : cell.padEnd(widths[c]))).join('  ')));
}

/** Rows as aligned columns (two spaces between), the last column left ragged; every cell is a value, escaped. */
export function textTable(rows: readonly (readonly (string | number)[])[]): TerminalText {
  return lines(tableLines(rows));
}

/**
 * DEL, C1 controls and the invisible or reordering characters JSON.stringify leaves as they are (it
 * escapes C0 controls in strings itself; those left are the layout of an indented document).
 */
const JSON_UNESCAPED = new RegExp(`(?![\\u0000-\\u001f])${HIDDEN_CHARACTER.source}`, 'gu');

function jsonEscape(ch: string): string {
  let out = '';
  for (let i = 0; i < ch.length; i++) out += `\\u${ch.charCodeAt(i).toString(16).padStart(4, '0')}`;
  return out;
}

/**
 * A JSON document that carries no character a terminal obeys or hides: JSON.stringify escapes the
 * C0 controls (ESC is `\u001b`); the rest are written `\uXXXX` here. Parsed, it is the same value.
 */
export function jsonDocument(value: unknown, indent?: number): string {
  return JSON.stringify(value, null, indent).replace(JSON_UNESCAPED, jsonEscape);
}

/** A JSON document laid out for reading (indented), as a text. */
export function jsonText(value: unknown): TerminalText {
  return made(jsonDocument(value, 2));
}

/** Where the command line writes: stdout and stderr, a line at a time. */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: NodeJS.ProcessEnv;
}

/**
 * Resolves once this process's stdout has taken what was written (at once unless a slow reader, a
 * pipe, left it holding more than its buffer): a command that prints as it reads waits here, so
 * what it has not printed yet is never held in memory.
 */
export function stdoutTaken(): Promise<void> {
  return process.stdout.writableNeedDrain ? new Promise((resolve) => process.stdout.once('drain', () => resolve())) : Promise.resolve();
}

/** This process's stdout and stderr, each write ended with a line break. */
export function processIo(env: NodeJS.ProcessEnv): CliIo {
  return {
    stdout: (t) => process.stdout.write(t.endsWith('\n') ? t : `${t}\n`),
    stderr: (t) => process.stderr.write(t.endsWith('\n') ? t : `${t}\n`),
    env,
  };
}

/**
 * What reaches the terminal of a text: a {@link TerminalText} as laid out, anything but its line
 * breaks escaped once more; a plain string escaped whole, as one value.
 */
export function printable(text: TerminalText | string): string {
  return text instanceof TerminalText ? visibleText(text.text, (ch) => ch === '\n') : visibleText(text);
}

/** The command line's writers: everything it prints goes through one of these. */
export interface Screen {
  /** On stdout: the command's text, help, the version. */
  out(text: TerminalText): void;
  /** On stdout: the one JSON document of `--json`. */
  document(value: unknown): void;
  /** On stderr: progress, notes and warnings (the API token redacted). */
  note(text: TerminalText | string): void;
  /**
   * On stderr: why a command failed and what to do (`Error: MESSAGE`, then the hint), the API token
   * redacted; `prefix` is `vendesk` for a usage mistake. The message and the hint are one value each.
   */
  failure(message: string, hint: string | undefined, prefix?: 'Error' | 'vendesk'): void;
}

export function screenOf(io: Pick<CliIo, 'stdout' | 'stderr'>): Screen {
  return {
    out: (text) => io.stdout(printable(text)),
    document: (value) => io.stdout(jsonDocument(value)),
    note: (text) => io.stderr(printable(text instanceof TerminalText ? made(redactSecrets(text.text)) : redactSecrets(text))),
    failure: (message, hint, prefix = 'Error') => {
      const said = [`${prefix}: ${visibleText(redactSecrets(message))}`];
      if (hint) said.push(visibleText(redactSecrets(hint)));
      io.stderr(said.join('\n'));
    },
  };
}
