/**
 * Security: no file can take vendesk down. Each hostile spreadsheet of
 * test/support/hostileSpreadsheets.ts is read by the real importer — the general reader (bulk
 * purchases, contacts) and the vendor-export reader (reconcile) — in a process whose heap is
 * capped at 256 MB, and by the real `vendesk` CLI under the same cap. Each must be read in
 * bounded memory or refused with a message that says what is wrong and what to do, and exit
 * with an exit code: never an abort, never a crash. No message may quote more than a short
 * excerpt of the file.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOSTILE_FILES } from '../../support/hostileSpreadsheets';
import { runVendesk } from '../../support/vendeskProcess';
import { ROOT } from '../../support/testApp';

const HEAP_MB = 256;
/** Peak RSS a 256 MB heap allows, with node, tsx, the libraries and (vendor CSV) the file's bytes off the heap. */
const MAX_RSS_MB = 560;

interface ChildAnswer {
  ok: boolean;
  rows?: number;
  rowNumbers?: number[];
  code?: string;
  message?: string;
  peakRssMb: number;
}

let dir = '';
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-hostile-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Writes the hostile file `name` (once) and returns its path. */
async function hostile(name: string): Promise<string> {
  const file = path.join(dir, name);
  if (!fs.existsSync(file)) {
    const spec = HOSTILE_FILES.find((f) => f.name === name);
    if (!spec) throw new Error(`no hostile file ${name}`);
    await spec.write(file);
  }
  return file;
}

function readInChild(
  mode: 'import' | 'vendor',
  file: string,
  sheet?: string,
): Promise<{ exit: number | null; signal: NodeJS.Signals | null; answer: ChildAnswer | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const args = [`--max-old-space-size=${HEAP_MB}`, '--import', 'tsx', path.join(ROOT, 'test/support/readSpreadsheetChild.ts'), mode, file, ...(sheet ? [sheet] : [])];
    const child = spawn(process.execPath, args, { cwd: ROOT, env: { PATH: process.env.PATH ?? '' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (exit, signal) => {
      const line = stdout.trim().split('\n').pop() ?? '';
      let answer: ChildAnswer | null = null;
      try {
        answer = JSON.parse(line) as ChildAnswer;
      } catch {
        answer = null;
      }
      resolve({ exit, signal, answer, stderr: stderr.slice(0, 2000) });
    });
  });
}

/** A message quotes at most a short excerpt: no long run of one character, nothing near the file's size. */
function expectShortMessage(message: string): void {
  expect(message.length).toBeLessThan(700);
  expect(message).not.toMatch(/(.)\1{59}/);
}

type Expected = { rows: number; rowNumbers?: number[] } | { code: string; says: RegExp };

const IMPORTER_CASES: { file: string; sheet?: string; expected: Expected }[] = [
  // The finding: a header and 40,000 rows each with one cell at XFD. Read, rows as narrow as the header.
  { file: 'xfd-rows.xlsx', expected: { rows: 40_000, rowNumbers: [2, 3, 4, 5, 6] } },
  { file: 'xfd-header.xlsx', expected: { code: 'too_many_cells', says: /reaches column XFD.*Delete the empty columns/ } },
  { file: 'beyond-xfd.xlsx', expected: { code: 'corrupt', says: /not a column from A to XFD.*save it again/ } },
  { file: 'last-row.xlsx', expected: { rows: 1, rowNumbers: [1_048_576] } },
  { file: 'beyond-last-row.xlsx', expected: { code: 'corrupt', says: /has a row numbered "99999999999"|beyond the last row/ } },
  { file: 'empty-cells.xlsx', expected: { rows: 3, rowNumbers: [2, 1003, 1004] } },
  { file: 'huge-shared-string.xlsx', expected: { code: 'too_long', says: /more than 1 MB in xl\/sharedStrings\.xml.*save it again/ } },
  { file: 'long-texts.xlsx', expected: { code: 'too_many_cells', says: /more than 48,000,000 characters of text.*split the file/ } },
  { file: 'shared-string-claims.xlsx', expected: { rows: 1, rowNumbers: [2] } },
  { file: 'deep-nesting.xlsx', expected: { rows: 1, rowNumbers: [2] } },
  { file: 'many-sheets.xlsx', expected: { code: 'corrupt', says: /more than 1,000 sheets.*Copy the data into a new workbook/ } },
  { file: 'long-sheet-names.xlsx', sheet: 'Payroll', expected: { code: 'no_sheet', says: /no sheet named "Payroll".*and 89\d more\. Choose one of these/ } },
  { file: 'unclosed-quote.csv', expected: { code: 'too_long', says: /Row 2 of the file is longer than 1,000,000 characters.*fix the quotes/ } },
  { file: 'one-line.csv', expected: { code: 'too_long', says: /Row 1 of the file is longer than 1,000,000 characters/ } },
  { file: 'wide-line.csv', expected: { code: 'too_wide', says: /Row 1 of the file has more than 16,384 columns.*real CSV/ } },
  { file: 'long-cell.csv', expected: { rows: 2, rowNumbers: [2, 3] } },
  { file: 'workbook-named.csv', expected: { code: 'too_many_cells', says: /reaches column XFD/ } },
  { file: 'csv-named.xlsx', expected: { code: 'too_long', says: /longer than 1,000,000 characters/ } },
];

const VENDOR_CASES: { file: string; expected: Expected }[] = [
  { file: 'xfd-header.xlsx', expected: { code: 'too_many_cells', says: /reaches column XFD/ } },
  { file: 'huge-shared-string.xlsx', expected: { code: 'too_long', says: /more than 1 MB/ } },
  { file: 'beyond-xfd.xlsx', expected: { code: 'corrupt', says: /not a column from A to XFD/ } },
  { file: 'unclosed-quote.csv', expected: { code: 'too_long', says: /Row 2 of the file is longer than 1,000,000 characters/ } },
  { file: 'one-line.csv', expected: { code: 'too_long', says: /Row 1 of the file is longer than 1,000,000 characters/ } },
  { file: 'wide-line.csv', expected: { code: 'too_long', says: /Row 1 of the file is longer than 1,000,000 characters/ } },
];

function expectAnswer(result: Awaited<ReturnType<typeof readInChild>>, expected: Expected): void {
  expect(result.signal, result.stderr).toBeNull();
  expect(result.answer, `no answer; exit ${result.exit}; ${result.stderr}`).not.toBeNull();
  const answer = result.answer!;
  expect(answer.peakRssMb).toBeLessThan(MAX_RSS_MB);
  if ('rows' in expected) {
    expect(result.exit).toBe(0);
    expect(answer).toMatchObject({ ok: true, rows: expected.rows });
    if (expected.rowNumbers) expect(answer.rowNumbers).toEqual(expected.rowNumbers);
  } else {
    expect(result.exit).toBe(3);
    expect(answer).toMatchObject({ ok: false, code: expected.code });
    expect(answer.message).toMatch(expected.says);
    expectShortMessage(answer.message!);
  }
}

describe(`hostile spreadsheets through the importer, with a ${HEAP_MB} MB heap`, () => {
  for (const c of IMPORTER_CASES) {
    const spec = HOSTILE_FILES.find((f) => f.name === c.file)!;
    it(`${c.file}: ${spec.what} — ${'rows' in c.expected ? `read, ${c.expected.rows} rows` : `refused (${c.expected.code})`}`, { timeout: 120_000 }, async () => {
      expectAnswer(await readInChild('import', await hostile(c.file), c.sheet), c.expected);
    });
  }
});

describe(`hostile vendor exports through the reconcile reader, with a ${HEAP_MB} MB heap`, () => {
  for (const c of VENDOR_CASES) {
    it(`${c.file} is refused (${'code' in c.expected ? c.expected.code : ''})`, { timeout: 120_000 }, async () => {
      expectAnswer(await readInChild('vendor', await hostile(c.file)), c.expected);
    });
  }
});

describe(`hostile files through the vendesk CLI, with a ${HEAP_MB} MB heap`, () => {
  let home = '';
  const env = () => ({ HOME: home, VENDESK_DATA_DIR: path.join(home, 'data'), NODE_OPTIONS: `--max-old-space-size=${HEAP_MB}` });
  beforeAll(() => {
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-hostile-cli-'));
  });
  afterAll(() => fs.rmSync(home, { recursive: true, force: true }));

  it('bulk validate: the 40,000-row XFD workbook is read and every row is reported, as narrow as its header', { timeout: 180_000 }, async () => {
    const r = await runVendesk(['bulk', 'validate', await hostile('xfd-rows.xlsx'), '--kind', 'airtime', '--json'], env());
    expect(r.code, r.stderr).toBe(3);
    const out = JSON.parse(r.stdout) as { rows: number; valid: number; invalid: number; errors: { row: number; message: string }[] };
    expect(out).toMatchObject({ rows: 40_000, valid: 0, invalid: 40_000 });
    expect(out.errors[0].message).toBe('Row 2: Phone number is empty.');
  });

  it('bulk validate: a workbook whose rows reach XFD is refused with what to do', { timeout: 180_000 }, async () => {
    const r = await runVendesk(['bulk', 'validate', await hostile('xfd-header.xlsx'), '--kind', 'airtime', '--json'], env());
    expect(r.code, r.stderr).toBe(1);
    const { error } = JSON.parse(r.stdout) as { error: { code: string; message: string } };
    expect(error.code).toBe('import_too_many_cells');
    expect(error.message).toMatch(/Delete the empty columns/);
    expectShortMessage(error.message);
  });

  it('bulk validate: a 100 MB CSV with a quote that never closes is refused early, quoting only its start', { timeout: 180_000 }, async () => {
    const r = await runVendesk(['bulk', 'validate', await hostile('unclosed-quote.csv'), '--kind', 'airtime'], env());
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/^Error: Row 2 of the file is longer than 1,000,000 characters \(it starts ""x{38}…"\)/);
    expect(r.stderr.length).toBeLessThan(1000);
  });

  it('bulk validate: a 900,000-character phone cell is an invalid row whose message quotes 40 characters of it', { timeout: 180_000 }, async () => {
    const r = await runVendesk(['bulk', 'validate', await hostile('long-cell.csv'), '--kind', 'airtime', '--json'], env());
    expect(r.code, r.stderr).toBe(3);
    const out = JSON.parse(r.stdout) as { rows: number; invalid: number; errors: { row: number; message: string }[] };
    expect(out).toMatchObject({ rows: 2, invalid: 1 });
    expect(out.errors[0].message).toBe(`Row 2: ${'9'.repeat(39)}… (900,000 characters) is not a Nigerian mobile number (expected 11 digits like 08031234567, or 2348031234567).`);
    expect(r.stdout.length).toBeLessThan(2000);
  });

  it('contacts import: a workbook with a 50-million-character shared string is refused', { timeout: 180_000 }, async () => {
    const created = await runVendesk(['phonebook', 'create', 'Hostile', '--json'], env());
    expect(created.code, created.stderr).toBe(0);
    const r = await runVendesk(['contacts', 'import', await hostile('huge-shared-string.xlsx'), '--phonebook', 'Hostile', '--json'], env());
    expect(r.code, r.stderr).toBe(1);
    const { error } = JSON.parse(r.stdout) as { error: { code: string; message: string } };
    expect(error.code).toBe('import_too_long');
    expectShortMessage(error.message);
  });

  it('reconcile: a 100 MB export with no line break is refused', { timeout: 180_000 }, async () => {
    const r = await runVendesk(['reconcile', await hostile('one-line.csv'), '--json'], env());
    expect(r.code, r.stderr).toBe(1);
    const { error } = JSON.parse(r.stdout) as { error: { code: string; message: string } };
    expect(error.code).toBe('import_too_long');
    expect(error.message).toMatch(/^Row 1 of the file is longer than 1,000,000 characters/);
    expectShortMessage(error.message);
  });
});
