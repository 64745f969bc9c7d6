/**
 * The quick look at a file before reading it: what it is (CSV or XLSX), its sheets, its hash,
 * and whether it can be read at all. Every "cannot read this file" error is decided here, so
 * the slow readers only ever see files that passed.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, stat, type FileHandle } from 'node:fs/promises';
import { detectEncoding, looksBinary } from './detectEncoding';
import { DEFAULT_MAX_BYTES, formatMegabytes, ImportError } from './importError';
import { xmlAttributes } from './xmlTokens';
import { checkDeclaredSizes, readZipDirectory, readZipEntryText, type ZipEntry } from './zipDirectory';

export type SpreadsheetFormat = 'csv' | 'xlsx';

export interface SpreadsheetInfo {
  format: SpreadsheetFormat;
  /** Worksheet names in workbook order; empty for CSV. */
  sheetNames: string[];
  /** sha256 of the file's bytes, hex. */
  fileHash: string;
  bytes: number;
}

export interface WorksheetPart {
  name: string;
  /** Path of the sheet's XML inside the zip, e.g. `xl/worksheets/sheet1.xml`. */
  part: string;
  hidden: boolean;
}

/** What the readers need beyond {@link SpreadsheetInfo}. */
export interface OpenedSpreadsheet {
  format: SpreadsheetFormat;
  bytes: number;
  sample: Buffer;
  zipEntries: ZipEntry[];
  worksheets: WorksheetPart[];
  /** XLSX: where the shared strings and the cell styles are, and whether dates count from 1904. */
  workbook: WorkbookParts | null;
}

export interface WorkbookParts {
  sharedStringsPart: string | null;
  stylesPart: string | null;
  date1904: boolean;
}

/** More sheets than any real workbook has: the workbook is refused rather than listed. */
export const MAX_SHEETS = 1000;

const SAMPLE_BYTES = 64 * 1024;

export async function inspectSpreadsheet(path: string, options: { maxBytes?: number } = {}): Promise<SpreadsheetInfo> {
  const [opened, fileHash] = await Promise.all([openSpreadsheet(path, options.maxBytes ?? DEFAULT_MAX_BYTES), hashFile(path)]);
  return { format: opened.format, sheetNames: opened.worksheets.map((s) => s.name), fileHash, bytes: opened.bytes };
}

export function hashFile(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(path, { highWaterMark: 1 << 20 })
      .on('data', (chunk) => hash.update(chunk))
      .on('end', () => resolve(hash.digest('hex')))
      .on('error', (error) => reject(fileError(path, error)));
  });
}

function fileError(path: string, error: unknown): Error {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (code === 'ENOENT') return new ImportError('unsupported', `The file ${path} does not exist (it may have been moved or deleted). Choose the file again.`, { cause: error });
  if (code === 'EISDIR') return new ImportError('unsupported', `${path} is a folder, not a spreadsheet. Choose a .csv or .xlsx file.`, { cause: error });
  if (code === 'EACCES' || code === 'EPERM')
    return new ImportError('unsupported', `The file ${path} cannot be opened (no permission, or it is open and locked in another program). Close it elsewhere and try again.`, {
      cause: error,
    });
  return error instanceof Error ? error : new Error(String(error));
}

export async function openSpreadsheet(path: string, maxBytes: number): Promise<OpenedSpreadsheet> {
  let bytes: number;
  try {
    const info = await stat(path);
    if (info.isDirectory()) throw Object.assign(new Error('directory'), { code: 'EISDIR' });
    bytes = info.size;
  } catch (error) {
    throw fileError(path, error);
  }
  if (bytes === 0) throw emptyFileError();
  if (bytes > maxBytes) {
    throw new ImportError(
      'too_large',
      `The file is ${formatMegabytes(bytes)}; the largest file that can be imported is ${formatMegabytes(maxBytes)}. Split it into smaller files (at most 200,000 rows each) and import them one by one.`,
    );
  }
  let handle: FileHandle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    throw fileError(path, error);
  }
  try {
    const sample = Buffer.alloc(Math.min(bytes, SAMPLE_BYTES));
    const { bytesRead } = await handle.read(sample, 0, sample.length, 0);
    const head = sample.subarray(0, bytesRead);
    if (head.length >= 4 && head[0] === 0xd0 && head[1] === 0xcf && head[2] === 0x11 && head[3] === 0xe0) {
      throw new ImportError(
        'encrypted',
        'This workbook is password-protected, or saved in the old Excel 97-2003 (.xls) format; neither can be read. Open it in Excel or LibreOffice, remove any password, save it as "Excel Workbook (.xlsx)" or CSV, and import the new file.',
      );
    }
    if (head.length >= 4 && head[0] === 0x50 && head[1] === 0x4b && (head[2] === 3 || head[2] === 5) && (head[3] === 4 || head[3] === 6)) {
      const zipEntries = await readZipDirectory(handle, bytes);
      const { worksheets, workbook } = await readWorkbook(handle, zipEntries);
      return { format: 'xlsx', bytes, sample: head, zipEntries, worksheets, workbook };
    }
    const { encoding, bomLength } = detectEncoding(head);
    if (looksBinary(head, encoding)) {
      throw new ImportError('unsupported', 'This file is neither a CSV nor an Excel workbook (.xlsx). Open it in the program that made it and save or export it as .xlsx or CSV.');
    }
    const text = new TextDecoder(encoding).decode(head.subarray(bomLength)).trimStart();
    if (text.startsWith('<')) {
      throw new ImportError(
        'unsupported',
        'This file is a web page or an XML spreadsheet with a spreadsheet extension, not a real CSV or .xlsx. Open it in Excel or LibreOffice and save it as "Excel Workbook (.xlsx)" or CSV.',
      );
    }
    if (bytes <= SAMPLE_BYTES && !/[^\s,;\t"]/.test(text)) throw emptyFileError();
    if (/\.xls[xm]$/i.test(path) && !/[,;\t]/.test(text.split(/\r?\n/, 1)[0] ?? '')) {
      // Plain text with an Excel name and no columns (a .txt renamed): said as it is, not read as a one-column CSV.
      // A real CSV saved under an .xlsx name (its first line has separators) is still read as the CSV it is.
      throw new ImportError(
        'unsupported',
        'This file is named .xlsx but is not an Excel workbook or a CSV: it holds plain text without columns (a text file renamed, perhaps). Open the real spreadsheet in Excel or LibreOffice, save it as "Excel Workbook (.xlsx)" or CSV, and import that file.',
      );
    }
    return { format: 'csv', bytes, sample: head, zipEntries: [], worksheets: [], workbook: null };
  } finally {
    await handle.close();
  }
}

export function emptyFileError(): ImportError {
  return new ImportError('empty', 'The file is empty: it has no rows. Check that you chose the right file, or download a template, fill it in and import that.');
}

/** A relationship's target as a path inside the zip (`worksheets/sheet1.xml` → `xl/worksheets/sheet1.xml`). */
function partPath(target: string): string {
  return target.startsWith('/') ? target.slice(1) : `xl/${target.replace(/^\.\//, '')}`;
}

async function readWorkbook(handle: FileHandle, entries: ZipEntry[]): Promise<{ worksheets: WorksheetPart[]; workbook: WorkbookParts }> {
  const byName = new Map(entries.map((e) => [e.name, e]));
  const workbookEntry = byName.get('xl/workbook.xml');
  if (!workbookEntry) {
    if (byName.has('content.xml') || byName.has('mimetype')) {
      throw new ImportError(
        'unsupported',
        'This is an OpenDocument spreadsheet (.ods). Open it in LibreOffice and save it as "Excel 2007-365 (.xlsx)" or CSV, then import the new file.',
      );
    }
    if (byName.has('EncryptedPackage')) {
      throw new ImportError('encrypted', 'The workbook is password-protected. Remove the password, save as .xlsx or CSV, and import again.');
    }
    throw new ImportError('unsupported', 'This is a zip file but not an Excel workbook (.xlsx). Choose a .xlsx or .csv file.');
  }
  checkDeclaredSizes(entries);
  const workbookXml = await readZipEntryText(handle, workbookEntry);
  const relsEntry = byName.get('xl/_rels/workbook.xml.rels');
  const relsXml = relsEntry ? await readZipEntryText(handle, relsEntry) : '';
  const targets = new Map<string, { target: string; type: string }>();
  for (const m of relsXml.matchAll(/<(?:\w+:)?Relationship\b([^<>]*)>/g)) {
    const attrs = xmlAttributes(m[1]);
    if (attrs.Id && attrs.Target) targets.set(attrs.Id, { target: attrs.Target, type: attrs.Type ?? '' });
  }
  const sheets: WorksheetPart[] = [];
  let index = 0;
  for (const m of workbookXml.matchAll(/<(?:\w+:)?sheet\b([^<>]*)>/g)) {
    index++;
    if (index > MAX_SHEETS) {
      throw new ImportError(
        'corrupt',
        `The workbook lists more than ${MAX_SHEETS.toLocaleString('en-US')} sheets, far more than a real workbook has; it was not opened, for safety. Copy the data into a new workbook, save it as .xlsx or CSV, and import that.`,
      );
    }
    const attrs = xmlAttributes(m[1]);
    const relId = Object.entries(attrs).find(([k]) => k === 'id' || k.endsWith(':id'))?.[1];
    const rel = relId ? targets.get(relId) : undefined;
    if (rel && !rel.type.endsWith('/worksheet')) continue;
    sheets.push({
      name: attrs.name ?? `Sheet${index}`,
      part: partPath(rel?.target ?? `worksheets/sheet${index}.xml`),
      hidden: attrs.state === 'hidden' || attrs.state === 'veryHidden',
    });
  }
  if (sheets.length === 0) {
    throw new ImportError('empty', 'The workbook has no worksheets with data. Check that you chose the right file.');
  }
  const partOfType = (type: string, fallback: string): string | null => {
    for (const rel of targets.values()) if (rel.type.endsWith(`/${type}`)) return partPath(rel.target);
    return byName.has(fallback) ? fallback : null;
  };
  const workbookPr = /<(?:\w+:)?workbookPr\b([^<>]*)>/.exec(workbookXml);
  const date1904 = workbookPr ? ['1', 'true'].includes(xmlAttributes(workbookPr[1]).date1904 ?? '') : false;
  return {
    worksheets: sheets,
    workbook: { sharedStringsPart: partOfType('sharedStrings', 'xl/sharedStrings.xml'), stylesPart: partOfType('styles', 'xl/styles.xml'), date1904 },
  };
}
