/**
 * Issue 37: a spreadsheet whose cells hold terminal control characters is refused row by row, on
 * the command line as a person reads it — the real `vendesk` on a pseudo-terminal, its screen read
 * through a real terminal emulator (test/support/terminalScreen.ts). Each such row is named with its
 * column; nothing of the cells reaches the terminal raw, and nothing is bought or imported from them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawControls, vendeskOnTerminal, type TerminalRun } from '../../support/terminalScreen';
import { allLogEntries } from '../bulk/bulkTestFiles';
import { startCliPeer, type CliPeer } from './cliHarness';

const TOKEN = 'cli-terminal-import-org-61f0';
const ESC = '\x1b';
/** A Name cell that clears the line and writes a cheaper item over it, then hides what follows. */
const FORGED = `${ESC}[0m\r${ESC}[2K2  08031111111  ₦100.00${ESC}[8m`;
const CSV = [
  'Phone,Amount,Network,Name',
  '08031234601,500,MTN,Ada Obi',
  `08031234602,500,MTN,"${FORGED}"`,
  `08031234603,500,MTN,"${ESC}]8;;https://evil.example/${ESC}\\\\pay here${ESC}]8;;${ESC}\\\\"`,
  '08031234604,500,"MTN\u202E",Bola',
  '08031234605,500,MTN,"Chidi\nOkafor"',
].join('\r\n');

let peer: CliPeer;
let sheet: string;

beforeAll(async () => {
  peer = await startCliPeer(TOKEN);
  sheet = path.join(peer.dir, 'staff.csv');
  fs.writeFileSync(sheet, CSV);
});

afterAll(() => peer.close());

function onTerminal(args: string[]): Promise<TerminalRun> {
  return vendeskOnTerminal([...peer.globals(false), ...args], { HOME: peer.dir, VENDESK_TOKEN: TOKEN });
}

function expectClean(run: TerminalRun): void {
  expect(rawControls(run.raw), run.screen.join('\n')).toEqual([]);
  expect(run.concealed).toBe(0);
  for (const line of run.screen) expect(line).not.toMatch(/^\s*2\s+08031111111/);
}

describe('a spreadsheet with control characters in its cells, on a terminal', () => {
  it('bulk validate: each such row refused, its row and column named; exit 3', async () => {
    const run = await onTerminal(['bulk', 'validate', sheet, '--kind', 'airtime']);
    expect(run.code, run.screen.join('\n')).toBe(3);
    expectClean(run);
    expect(run.screen).toContain('5 row(s): 2 valid, 3 invalid. To buy: 2 for ₦1,000.00.');
    expect(run.screen).toContain('  Row 3: the Name cell (column D) holds a hidden character (ESC, U+001B) that can change what a screen shows; retype the cell.');
    expect(run.screen.some((l) => l.startsWith('  Row 4: the Name cell (column D) holds a hidden character (ESC, U+001B)'))).toBe(true);
    expect(run.screen.some((l) => l.startsWith('  Row 5: the Network cell (column C) holds a hidden character (right-to-left override, U+202E)'))).toBe(true);
    expect(run.screen).toContain('Error: 3 of 5 row(s) are invalid (each is listed).');
  });

  it('bulk submit: refused, nothing bought', async () => {
    const run = await onTerminal(['bulk', 'submit', sheet, '--kind', 'airtime', '--yes']);
    expect(run.code).toBe(3);
    expectClean(run);
    expect(run.screen).toContain('Error: 3 row(s) are invalid; nothing was bought.');
    expect((await allLogEntries(peer.sandbox.url, TOKEN)).filter((e) => e.phone_number.startsWith('0803123460'))).toEqual([]);
  });

  it('contacts import: the same rows refused, the others imported; a line break in a name is a space', async () => {
    expect((await peer.run(['phonebook', 'create', 'Staff'])).code).toBe(0);
    const run = await onTerminal(['contacts', 'import', sheet, '--phonebook', 'Staff']);
    expect(run.code, run.screen.join('\n')).toBe(3);
    expectClean(run);
    expect(run.screen.some((l) => l.startsWith('  Row 3: the Name cell (column D) holds a hidden character (ESC, U+001B)'))).toBe(true);
    expect(run.screen.some((l) => l.startsWith('  Row 4: the Name cell (column D) holds a hidden character (ESC, U+001B)'))).toBe(true);
    const listed = JSON.parse((await peer.run(['phonebook', 'contacts', 'Staff'])).stdout) as { contacts: { name: string; phoneNumber: string }[] };
    expect(listed.contacts.map((c) => [c.phoneNumber, c.name]).sort()).toEqual([
      ['08031234601', 'Ada Obi'],
      ['08031234604', 'Bola'],
      ['08031234605', 'Chidi Okafor'],
    ]);
  });

  it('a single purchase whose network option carries ESC: refused in words, nothing bought', async () => {
    const run = await onTerminal(['buy', 'airtime', '--phone', '08031234606', '--amount', '500', '--network', `MTN${ESC}[2K`, '--yes']);
    expect(run.code).toBe(1);
    expectClean(run);
    expect(run.screen[0]).toBe('Error: The Network holds a hidden character (ESC, U+001B) that can change what a screen shows; type it again.');
    expect((await allLogEntries(peer.sandbox.url, TOKEN)).filter((e) => e.phone_number === '08031234606')).toEqual([]);
  });
});
