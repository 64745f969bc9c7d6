/**
 * The real `vendesk` CLI in a pseudo-terminal, read as a person reads it: `script` (util-linux,
 * in Debian's base) runs the command on a pty, and every byte it wrote is fed to a real terminal
 * emulator (xterm.js, headless), whose screen is then read line by line — text hidden with SGR 8
 * (concealed) left out, as it is off a real screen. The bytes themselves are kept too, to check
 * that no ESC, lone carriage return, C1 control or OSC 8 link reached the terminal raw.
 *
 * The environment is bare (PATH, HOME, TERM and what the test gives); secrets go in it, never on
 * the command line.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { Terminal } from '@xterm/headless';
import { ROOT } from './vendeskProcess';

export interface TerminalRun {
  code: number;
  /** Every byte the command wrote to its terminal (stdout and stderr, as a terminal merges them). */
  raw: Buffer;
  /** The screen's lines as a person sees them, trailing blanks trimmed, concealed cells as spaces. */
  screen: string[];
  /** Cells the emulator holds but does not show (SGR 8, concealed). */
  concealed: number;
}

/** One argument quoted for `sh -c`. */
function shellWord(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/** Feeds `raw` to a headless xterm of `cols` columns and reads its screen. */
export async function screenOf(raw: Buffer | string, cols = 400): Promise<{ screen: string[]; concealed: number }> {
  const term = new Terminal({ cols, rows: 50, scrollback: 10_000, allowProposedApi: true });
  await new Promise<void>((resolve) => term.write(typeof raw === 'string' ? raw : new Uint8Array(raw), resolve));
  const buffer = term.buffer.active;
  const screen: string[] = [];
  let concealed = 0;
  for (let y = 0; y < buffer.length; y++) {
    const line = buffer.getLine(y);
    if (!line) continue;
    let text = '';
    for (let x = 0; x < line.length; x++) {
      const cell = line.getCell(x);
      if (!cell || cell.getWidth() === 0) continue;
      if (cell.isInvisible()) {
        if (cell.getChars() !== '') concealed++;
        text += ' ';
      } else text += cell.getChars() || ' ';
    }
    screen.push(text.trimEnd());
  }
  term.dispose();
  while (screen.length > 0 && screen[screen.length - 1] === '') screen.pop();
  return { screen, concealed };
}

/** Runs `node bin/vendesk.mjs ARGS` on a pseudo-terminal and reads its screen. */
export async function vendeskOnTerminal(args: string[], env: { HOME: string } & Record<string, string>): Promise<TerminalRun> {
  const command = [process.execPath, path.join(ROOT, 'bin', 'vendesk.mjs'), ...args].map(shellWord).join(' ');
  const child = spawn('script', ['--quiet', '--flush', '--return', '--command', command, '/dev/null'], {
    cwd: ROOT,
    env: { PATH: [path.dirname(process.execPath), process.env.PATH ?? ''].join(path.delimiter), TERM: 'xterm-256color', SHELL: '/bin/sh', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const chunks: Buffer[] = [];
  child.stdout.on('data', (c: Buffer) => chunks.push(c));
  child.stderr.on('data', (c: Buffer) => chunks.push(c));
  const code = await new Promise<number>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (c) => resolve(c ?? -1));
  });
  const raw = Buffer.concat(chunks);
  return { code, raw, ...(await screenOf(raw)) };
}

/** Characters that reorder text or are not seen: bidi marks, embeddings, overrides and isolates, zero-width ones, separators. */
const INVISIBLE = new Set([0x061c, 0x200b, 0x200c, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2028, 0x2029, 0x2060, 0x2066, 0x2067, 0x2068, 0x2069, 0xfeff]);

/**
 * What reached the terminal raw that could move its cursor, clear or hide text, reorder it or make
 * a link: ESC, a carriage return that does not end a line (the terminal's own line ends are CR LF),
 * the other C0 controls but tab and line feed, DEL, C1 controls (CSI, OSC), bidi overrides and
 * zero-width characters — each named with its offset. Empty when the bytes are clean.
 */
export function rawControls(raw: Buffer): string[] {
  const text = raw.toString('utf8');
  const found: string[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const lineEnd = c === 0x0d && text.charCodeAt(i + 1) === 0x0a;
    const control = (c < 0x20 && c !== 0x0a && c !== 0x09 && !lineEnd) || (c >= 0x7f && c <= 0x9f);
    if (control || INVISIBLE.has(c)) found.push(`U+${c.toString(16).padStart(4, '0')} at ${i}`);
  }
  if (text.includes('\x1b]8;')) found.push('an OSC 8 link');
  return found;
}
