/**
 * A workbook as LibreOffice reads it: converted headless to a flat OpenDocument spreadsheet
 * (FODS), every sheet's cells with the type LibreOffice gave them (`float`, `currency`, `string`,
 * …), their value and their text as shown. A number written as text is a `string` here, so a
 * test can tell that an exported figure is a real number with its format.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const SOFFICE = '/usr/bin/soffice';

export interface LibreOfficeCell {
  /** LibreOffice's `office:value-type`; `empty` for an empty cell. */
  type: string;
  /** The number (`office:value`) of a numeric cell, else null. */
  value: number | null;
  /** The text as shown (with its number format). */
  text: string;
}

function unescapeXml(s: string): string {
  return s
    .replace(/<text:s(?: text:c="(\d+)")?\/>/g, (_m, n: string | undefined) => ' '.repeat(Number(n ?? 1)))
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
}

const attr = (attrs: string, name: string): string | null => new RegExp(`${name}="([^"]*)"`).exec(attrs)?.[1] ?? null;

function parseRow(xml: string): LibreOfficeCell[] {
  const cells: LibreOfficeCell[] = [];
  const cellRe = /<table:(?:covered-)?table-cell\b([^>]*?)(?:\/>|>([\s\S]*?)<\/table:(?:covered-)?table-cell>)/g;
  for (let m = cellRe.exec(xml); m; m = cellRe.exec(xml)) {
    const attrs = m[1];
    const repeat = Number(attr(attrs, 'table:number-columns-repeated') ?? 1);
    const type = attr(attrs, 'office:value-type') ?? 'empty';
    const value = attr(attrs, 'office:value');
    const text = [...(m[2] ?? '').matchAll(/<text:p>([\s\S]*?)<\/text:p>/g)].map((p) => unescapeXml(p[1])).join('\n');
    const cell = { type, value: value === null ? null : Number(value), text };
    // The trailing run of empty cells to the sheet's last column is not kept.
    if (type === 'empty' && repeat > 100) break;
    for (let i = 0; i < repeat; i++) cells.push(cell);
  }
  while (cells.length > 0 && cells[cells.length - 1].type === 'empty') cells.pop();
  return cells;
}

/** Every sheet of `file` by name, each a list of rows of cells; trailing empty rows left out. */
export function workbookViaLibreOffice(file: string): Map<string, LibreOfficeCell[][]> {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-lo-'));
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-lo-profile-'));
  try {
    const r = spawnSync(SOFFICE, ['--headless', '--norestore', `-env:UserInstallation=file://${profile}`, '--convert-to', 'fods', '--outdir', out, file], {
      encoding: 'utf8',
      timeout: 120_000,
    });
    const converted = path.join(out, `${path.basename(file, path.extname(file))}.fods`);
    if (r.status !== 0 || !fs.existsSync(converted)) throw new Error(`soffice could not open ${file}: ${r.stderr || r.stdout}`);
    const xml = fs.readFileSync(converted, 'utf8');
    const sheets = new Map<string, LibreOfficeCell[][]>();
    const tableRe = /<table:table table:name="([^"]*)"[^>]*>([\s\S]*?)<\/table:table>/g;
    for (let t = tableRe.exec(xml); t; t = tableRe.exec(xml)) {
      const rows = [...t[2].matchAll(/<table:table-row\b[^>]*>([\s\S]*?)<\/table:table-row>/g)].map((row) => parseRow(row[1]));
      while (rows.length > 0 && rows[rows.length - 1].length === 0) rows.pop();
      sheets.set(unescapeXml(t[1]), rows);
    }
    return sheets;
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
    fs.rmSync(profile, { recursive: true, force: true });
  }
}
