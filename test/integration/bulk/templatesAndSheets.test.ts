/**
 * Issue 24, finding 9: bulk workbooks as a new user meets them.
 * - A workbook that opens on a "Notes" sheet: the window's sheet picker starts on the first sheet
 *   with a header row (bulk.inspect's dataSheet), and a contacts import reads that sheet too.
 * - A template for each kind (airtime, data, electricity, cable, contacts) comes from the app
 *   (bulk.template, the window's "Download the template") and from the CLI
 *   (`vendesk bulk template KIND --out FILE`), and each imports cleanly against the sandbox.
 * - "No header row found" names the columns of the kind being imported.
 */
import fs from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEMPLATE_COLUMNS, TEMPLATE_KINDS } from '../../../src/shared/contract/bulk';
import { startTestApp, type TestApp } from '../../support/testApp';
import { startCliPeer, type CliPeer } from '../cli/cliHarness';
import { tempDir } from './bulkTestFiles';

let t: TestApp;
let dir: string;

beforeAll(async () => {
  t = await startTestApp();
  dir = tempDir();
});
afterAll(async () => {
  await t.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function notesFirstWorkbook(name: string, header: string[], rows: (string | number)[][]): Promise<string> {
  const file = path.join(dir, name);
  const wb = new ExcelJS.Workbook();
  const notes = wb.addWorksheet('Notes');
  notes.addRow(['Staff airtime for April, approved by the finance manager.']);
  notes.addRow(['Questions to Bayo in accounts.']);
  const data = wb.addWorksheet('Staff');
  data.addRow(header);
  for (const r of rows) data.addRow(r);
  await wb.xlsx.writeFile(file);
  return file;
}

describe('a workbook that opens on a Notes sheet', () => {
  it('the sheet picker starts on the sheet with the table, and the preview reads it', async () => {
    const file = await notesFirstWorkbook(
      'April airtime.xlsx',
      ['Name', 'Phone', 'Amount'],
      [
        ['Ada', '08031110001', 100],
        ['Chi', '08031110003', 300],
      ],
    );
    const info = await t.call('bulk.inspect', { file: { path: file } });
    expect(info.sheetNames).toEqual(['Notes', 'Staff']);
    expect(info.dataSheet).toBe('Staff');
    const preview = await t.call('bulk.prepare', { file: { path: file }, kind: 'airtime' });
    expect(preview.job.sheetName).toBe('Staff');
    expect(preview.includedKobo).toBe(40_000);
  });

  it('a contacts import reads the sheet with the table too', async () => {
    const file = await notesFirstWorkbook(
      'Field staff.xlsx',
      ['Name', 'Phone'],
      [
        ['Ada', '08031110001'],
        ['Chi', '08031110003'],
      ],
    );
    const preview = await t.call('messaging.contacts.preview', { file: { path: file } });
    expect(preview.sheet).toBe('Staff');
    expect(preview.rows).toBe(2);
  });

  it('a CSV has no sheet to choose', async () => {
    const file = path.join(dir, 'plain.csv');
    fs.writeFileSync(file, 'Phone,Amount\n08031110001,100\n');
    expect((await t.call('bulk.inspect', { file: { path: file } })).dataSheet).toBeNull();
  });
});

describe('"No header row found" names the columns of the kind', () => {
  const noHeader = async (kind: 'airtime' | 'data' | 'electricity' | 'cable') => {
    const file = await notesFirstWorkbook(`no header ${kind}.xlsx`, ['08031110001', '100'], [['08031110002', '200']]);
    return t.call('bulk.prepare', { file: { path: file }, kind }).then(
      () => {
        throw new Error('the file without a header row was accepted');
      },
      (error: unknown) => error as { code: string; message: string },
    );
  };
  for (const kind of ['airtime', 'data', 'electricity', 'cable'] as const) {
    it(`for ${kind}: the ${kind} template's columns, and where to get it`, async () => {
      const error = await noHeader(kind);
      expect(error.code).toBe('import_no_header');
      expect(error.message).toContain(TEMPLATE_COLUMNS[kind].join(', '));
      expect(error.message).toContain(`vendesk bulk template ${kind} --out FILE`);
      expect(error.message).toContain('Purchases → Bulk purchases → Download the template');
    });
  }
  it("a data job is not told to use airtime's Amount and Network columns", async () => {
    const error = await noHeader('data');
    expect(error.message).toContain('Phone, Product Code');
    expect(error.message).not.toMatch(/Amount|Network/);
  });
});

describe('templates for every kind', () => {
  for (const kind of TEMPLATE_KINDS) {
    for (const format of ['xlsx', 'csv'] as const) {
      it(`the ${kind} template (.${format}) has the kind's columns and two example rows that import cleanly`, async () => {
        const written = await t.call('bulk.template', { kind, format });
        expect(path.extname(written.path)).toBe(`.${format}`);
        // Named after its kind, no time stamp: the same name at every download.
        expect(written.fileName).toBe(`vendesk ${kind} template.${format}`);
        expect(path.basename(written.path)).toBe(written.fileName);
        const again = await t.call('bulk.template', { kind, format });
        expect(again.fileName).toBe(written.fileName);
        expect(fs.readFileSync(again.path).length).toBe(again.bytes);
        if (kind === 'contacts') {
          const preview = await t.call('messaging.contacts.preview', { file: { path: written.path } });
          expect(preview.headers).toEqual([...TEMPLATE_COLUMNS.contacts]);
          expect(preview.rows).toBe(2);
          expect(preview.invalidCount).toBe(0);
          return;
        }
        const preview = await t.call('bulk.prepare', { file: { path: written.path }, kind });
        expect(preview.headers).toEqual([...TEMPLATE_COLUMNS[kind]]);
        expect(preview.includedItems).toBe(2);
        expect(preview.job.invalidRows).toBe(0);
      });
    }
  }
});

describe('the CLI', () => {
  let peer: CliPeer;
  beforeAll(async () => {
    peer = await startCliPeer('bulk-template-cli-2b9e');
  });
  afterAll(() => peer.close());

  it('vendesk bulk template data --out FILE.xlsx writes the data template', async () => {
    const out = path.join(peer.dir, 'data template.xlsx');
    const result = await peer.json<{ kind: string; path: string; format: string; columns: string[] }>(['bulk', 'template', 'data', '--out', out]);
    expect(result).toEqual({ kind: 'data', path: out, format: 'xlsx', columns: [...TEMPLATE_COLUMNS.data] });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(out);
    expect((wb.worksheets[0].getRow(1).values as unknown[]).slice(1)).toEqual([...TEMPLATE_COLUMNS.data]);
    expect(wb.worksheets[0].rowCount).toBe(3);
  });

  it('vendesk bulk template contacts --out FILE.csv writes the contacts template', async () => {
    const out = path.join(peer.dir, 'contacts.csv');
    const run = await peer.run(['bulk', 'template', 'contacts', '--out', out], 'globals last', { json: false });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Wrote the contacts template to ${out}: Name, Phone`);
    expect(
      fs
        .readFileSync(out, 'utf8')
        .replace(/^\uFEFF/, '')
        .split(/\r?\n/)[0],
    ).toBe('Name,Phone');
  });

  it('an unknown kind or a missing --out is a usage mistake (exit 2, one sentence)', async () => {
    const gift = await peer.run(['bulk', 'template', 'gift-cards', '--out', path.join(peer.dir, 'x.xlsx')]);
    expect(gift.code).toBe(2);
    expect(gift.stderr + gift.stdout).toContain('The kind must be one of airtime, data, electricity, cable, contacts');
    const noOut = await peer.run(['bulk', 'template', 'airtime']);
    expect(noOut.code).toBe(2);
    const badExt = await peer.run(['bulk', 'template', 'airtime', '--out', path.join(peer.dir, 'x.pdf')]);
    expect(badExt.code).toBe(2);
  });
});
