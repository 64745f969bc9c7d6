/**
 * Opening the workbooks vendesk writes in LibreOffice (Debian's package), headless, the way a
 * user's spreadsheet would: every sheet as CSV (the text and numbers LibreOffice read), and the
 * workbook saved again by LibreOffice as XLSX and read with exceljs (what type each cell became,
 * and whether any is a formula).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import Papa from 'papaparse';

export const SOFFICE = process.env.SOFFICE_PATH ?? '/usr/bin/soffice';

/** Runs `soffice --convert-to <filter>` on `file` into a fresh folder (or `out`); returns the folder. */
function convert(file: string, filter: string, options: { infilter?: string; out?: string } = {}): string {
  const out = options.out ?? fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-lo-'));
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-lo-profile-'));
  const infilter = options.infilter ? [`--infilter=${options.infilter}`] : [];
  try {
    const r = spawnSync(SOFFICE, ['--headless', '--norestore', `-env:UserInstallation=file://${profile}`, '--convert-to', filter, ...infilter, '--outdir', out, file], {
      encoding: 'utf8',
      timeout: 120_000,
    });
    if (r.status !== 0) throw new Error(`soffice failed: ${r.stderr}`);
    return out;
  } finally {
    fs.rmSync(profile, { recursive: true, force: true });
  }
}

/**
 * A CSV opened in LibreOffice Calc and saved as an Excel workbook, as a user makes one (what
 * `test/fixtures/imports/makeLibreOfficeFixtures.sh` does): phone numbers typed as numbers lose
 * their leading zero, formulas are calculated. Written beside the CSV; returns its path.
 */
export function xlsxFromCsvViaLibreOffice(csvFile: string): string {
  convert(csvFile, 'xlsx:Calc MS Excel 2007 XML', { infilter: 'CSV:44,34,76,1', out: path.dirname(csvFile) });
  return path.join(path.dirname(csvFile), `${path.basename(csvFile, path.extname(csvFile))}.xlsx`);
}

/** Every sheet of a workbook as rows of cells, through LibreOffice's CSV export (raw values, not as shown). */
export function sheetsViaLibreOffice(file: string): Map<string, string[][]> {
  const out = convert(file, 'csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false,-1');
  try {
    const base = path.basename(file, '.xlsx');
    const sheets = new Map<string, string[][]>();
    for (const f of fs.readdirSync(out)) {
      const name = f.slice(base.length + 1, -'.csv'.length);
      sheets.set(name, Papa.parse<string[]>(fs.readFileSync(path.join(out, f), 'utf8'), { skipEmptyLines: true }).data);
    }
    return sheets;
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
  }
}

export interface ReadCell {
  /** exceljs's value type name: Number, String, Date, Formula, … */
  type: string;
  value: unknown;
  formula: string | undefined;
  numFmt: string | undefined;
}

/** Every sheet's cells (by address) after LibreOffice opened the workbook and saved it again. */
export async function cellsViaLibreOffice(file: string): Promise<Map<string, Map<string, ReadCell>>> {
  const out = convert(file, 'xlsx:Calc MS Excel 2007 XML');
  try {
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(path.join(out, path.basename(file)));
    const names = Object.fromEntries(Object.entries(ExcelJS.ValueType).map(([k, v]) => [v, k]));
    const sheets = new Map<string, Map<string, ReadCell>>();
    for (const ws of workbook.worksheets) {
      const cells = new Map<string, ReadCell>();
      ws.eachRow((row) =>
        row.eachCell((cell) => {
          cells.set(cell.address, { type: names[cell.type] ?? String(cell.type), value: cell.value, formula: cell.formula || undefined, numFmt: cell.numFmt });
        }),
      );
      sheets.set(ws.name, cells);
    }
    return sheets;
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
  }
}
