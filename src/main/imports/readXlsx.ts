/**
 * XLSX reading: one worksheet (the user's choice, else the first visible one) streamed from the
 * zip through vendesk's own tokenizer, in memory bounded whatever the file claims. Nothing in
 * the sheet is trusted: its `<dimension>`, its row numbers and cell references, the counts of
 * its shared strings. A row is built only as wide as the values in it (and, below the header,
 * no wider than the header); every cell held counts against the sheet's budget; a cell
 * reference beyond XFD or a row beyond 1,048,576 is refused as damaged; a text longer than a
 * cell can hold is refused; millions of empty cells, deep nesting or a part of gigabytes cost
 * time, never memory. Formula cells give their cached result; a number styled as a date is a
 * Date; an error value (`#N/A`) is an empty cell.
 */
import { open, type FileHandle } from 'node:fs/promises';
import { quotedList, excerpt } from '../../shared/excerpt';
import { hashFile, emptyFileError, type OpenedSpreadsheet, type WorksheetPart } from './inspectSpreadsheet';
import { DEFAULT_MAX_CELLS, ImportError } from './importError';
import {
  cellTooLongError,
  columnLetters,
  MAX_CELL_CHARS,
  MAX_COLUMNS,
  MAX_ROW_NUMBER,
  TableBuilder,
  type CellValue,
  type ReadSpreadsheetOptions,
  type SheetTable,
} from './sheetTable';
import { readDateStyles, readSharedStrings } from './xlsxParts';
import { letterAttributes, XmlTokenizer, xmlText, type XmlEvents } from './xmlTokens';
import { inflateZipEntry, MAX_TOTAL_UNCOMPRESSED, type ZipEntry } from './zipDirectory';

export function chooseWorksheet(worksheets: readonly WorksheetPart[], wanted: string | undefined): WorksheetPart {
  if (wanted !== undefined) {
    const found = worksheets.find((s) => s.name === wanted) ?? worksheets.find((s) => s.name.trim().toLowerCase() === wanted.trim().toLowerCase());
    if (!found) {
      throw new ImportError('no_sheet', `The workbook has no sheet named "${excerpt(wanted)}". Its sheets are: ${quotedList(worksheets.map((s) => s.name))}. Choose one of these.`);
    }
    return found;
  }
  return worksheets.find((s) => !s.hidden) ?? worksheets[0];
}

function damagedSheet(sheet: string, detail: string): ImportError {
  return new ImportError(
    'corrupt',
    `The workbook could not be read (the sheet "${excerpt(sheet)}" ${detail}). Open it in Excel or LibreOffice, save it again as .xlsx (or CSV), and import the new file.`,
  );
}

// Element names told apart in a worksheet, by index.
const SHEET_DATA = 0;
const ROW = 1;
const C = 2;
const V = 3;
const IS = 4;
const T = 5;
const RPH = 6;
const SHEET_NAMES = ['sheetData', 'row', 'c', 'v', 'is', 't', 'rPh'];

// Cell types (the `t` attribute).
const NUMBER = 0;
const SHARED = 1;
const STRING = 2;
const BOOLEAN = 3;
const ERROR = 4;
const ISO_DATE = 5;

const LETTER_R = 17 * 2;
const LETTER_S = 18 * 2;
const LETTER_T = 19 * 2;

const DAY_MS = 86_400_000;

/** Excel's serial day number → Date (1900 system, or 1904). */
function excelDate(serial: number, date1904: boolean): Date {
  return new Date(Math.round((serial - 25569 + (date1904 ? 1462 : 0)) * DAY_MS));
}

function typeCode(buf: Buffer, start: number, end: number): number {
  if (start < 0) return NUMBER;
  const length = end - start;
  const c = buf[start];
  if (length === 1) {
    if (c === 0x73) return SHARED; // s
    if (c === 0x62) return BOOLEAN; // b
    if (c === 0x65) return ERROR; // e
    if (c === 0x64) return ISO_DATE; // d
    return NUMBER; // n
  }
  return c === 0x73 || c === 0x69 ? STRING : NUMBER; // str, inlineStr
}

/** Digits only (up to 15, so exact), as a number; -1 for anything else (signs, fractions, exponents). */
function plainNumber(buf: Buffer, start: number, end: number): number {
  if (start < 0 || start === end || end - start > 15) return -1;
  let n = 0;
  for (let i = start; i < end; i++) {
    const d = buf[i] - 0x30;
    if (d < 0 || d > 9) return -1;
    n = n * 10 + d;
  }
  return n;
}

/** Turns the sheet's XML events into rows for the table builder. */
class SheetRowsReader implements XmlEvents {
  private readonly attrs = new Int32Array(52);
  private inSheetData = false;
  private inRow = false;
  private rowNumber = 0;
  /** The cell being read: its column (0-based), type, style; whether its text is being collected. */
  private col = -1;
  private type = NUMBER;
  private style = 0;
  private inCell = false;
  private collecting = false;
  private inInline = false;
  private inPhonetic = false;
  private cellText: string | null = null;
  /** The cell's value when it was a plain number (see {@link plainNumber}); -1 otherwise. */
  private cellNumber = -1;
  /** The row's values by column, and which columns hold one. */
  private readonly values: CellValue[] = new Array<CellValue>(MAX_COLUMNS).fill(null);
  private readonly used = new Int32Array(MAX_COLUMNS);
  private usedCount = 0;
  private lastCol = -1;
  private blank = true;
  rowsSeen = 0;

  constructor(
    private readonly sheet: string,
    private readonly builder: TableBuilder,
    private readonly sharedStrings: readonly string[],
    private readonly dateStyles: Uint8Array,
    private readonly date1904: boolean,
    private readonly tokenizer: () => XmlTokenizer,
  ) {}

  open(name: number, buf: Buffer, s: number, e: number, selfClosing: boolean): void {
    switch (name) {
      case SHEET_DATA:
        this.inSheetData = !selfClosing;
        return;
      case ROW:
        if (!this.inSheetData) return;
        this.startRow(buf, s, e);
        if (selfClosing) this.endRow();
        return;
      case C:
        if (!this.inRow) return;
        this.startCell(buf, s, e);
        if (selfClosing) this.inCell = false;
        return;
      case V:
        if (this.inCell && !selfClosing) {
          this.collecting = true;
          this.cellText = '';
        }
        return;
      case IS:
        if (this.inCell && !selfClosing) {
          this.inInline = true;
          this.cellText = '';
        }
        return;
      case T:
        if (this.inInline && !this.inPhonetic && !selfClosing) this.collecting = true;
        return;
      case RPH:
        if (this.inInline && !selfClosing) this.inPhonetic = true;
        return;
      default:
    }
  }

  close(name: number): void {
    switch (name) {
      case SHEET_DATA:
        this.inSheetData = false;
        this.tokenizer().stop(); // nothing after the rows is needed
        return;
      case ROW:
        if (this.inRow) this.endRow();
        return;
      case C:
        if (this.inCell) this.endCell();
        return;
      case V:
      case T:
        this.collecting = false;
        return;
      case IS:
        this.inInline = false;
        this.collecting = false;
        return;
      case RPH:
        this.inPhonetic = false;
        return;
      default:
    }
  }

  text(buf: Buffer, start: number, end: number, cdata: boolean): void {
    if (!this.collecting) return;
    // The common case, a plain number or a shared string's index, read straight from the bytes.
    if (!cdata && !this.inInline && this.cellText === '' && this.type !== STRING && this.type !== ERROR) {
      const n = plainNumber(buf, start, end);
      if (n >= 0) {
        this.cellNumber = n;
        this.cellText = null;
        this.collecting = false;
        return;
      }
    }
    const piece = cdata ? buf.toString('utf8', start, end) : xmlText(buf, start, end);
    this.cellText = this.cellText === null || this.cellText === '' ? piece : this.cellText + piece;
    if (this.cellText.length > MAX_CELL_CHARS) throw cellTooLongError(`row ${this.rowNumber}, column ${columnLetters(this.col + 1)} of the sheet "${excerpt(this.sheet)}"`);
  }

  private startRow(buf: Buffer, s: number, e: number): void {
    letterAttributes(buf, s, e, this.attrs);
    const r = this.attrs[LETTER_R];
    let number = this.rowNumber + 1;
    if (r >= 0) {
      number = plainNumber(buf, r, this.attrs[LETTER_R + 1]);
      if (number < 1) throw damagedSheet(this.sheet, `has a row numbered "${excerpt(buf.toString('utf8', r, Math.min(this.attrs[LETTER_R + 1], r + 64)))}"`);
    }
    if (number > MAX_ROW_NUMBER)
      throw damagedSheet(this.sheet, `has a row ${number.toLocaleString('en-US')}, beyond the last row a sheet can have (${MAX_ROW_NUMBER.toLocaleString('en-US')})`);
    this.rowNumber = number;
    this.inRow = true;
    this.col = -1;
  }

  private startCell(buf: Buffer, s: number, e: number): void {
    const attrs = this.attrs;
    letterAttributes(buf, s, e, attrs);
    const r = attrs[LETTER_R];
    let col = this.col + 1;
    if (r >= 0) {
      const end = attrs[LETTER_R + 1];
      col = 0;
      let i = r;
      for (; i < end; i++) {
        const letter = buf[i] | 0x20; // lower case
        if (letter < 0x61 || letter > 0x7a) break;
        col = col * 26 + (letter - 0x60);
        if (col > MAX_COLUMNS) break;
      }
      col--;
      if (col < 0 || col >= MAX_COLUMNS) {
        const ref = excerpt(buf.toString('utf8', r, Math.min(end, r + 64)), 12);
        throw damagedSheet(this.sheet, `has a cell "${ref}" in row ${this.rowNumber}: not a column from A to XFD, the last a sheet can have`);
      }
    }
    if (col >= MAX_COLUMNS) throw damagedSheet(this.sheet, `has more than ${MAX_COLUMNS.toLocaleString('en-US')} cells in row ${this.rowNumber}`);
    this.col = col;
    this.type = typeCode(buf, attrs[LETTER_T], attrs[LETTER_T + 1]);
    this.style = Math.max(0, plainNumber(buf, attrs[LETTER_S], attrs[LETTER_S + 1]));
    this.inCell = true;
    this.cellText = null;
    this.cellNumber = -1;
    this.collecting = false;
    this.inInline = false;
    this.inPhonetic = false;
  }

  private endCell(): void {
    this.inCell = false;
    this.collecting = false;
    const number = this.cellNumber;
    const text = this.cellText ?? '';
    this.cellText = null;
    this.cellNumber = -1;
    if (number < 0 && text === '') return;
    let value: CellValue = null;
    switch (this.type) {
      case SHARED: {
        const index = number >= 0 ? number : Number(text);
        value = Number.isInteger(index) && index >= 0 && index < this.sharedStrings.length ? this.sharedStrings[index] : null;
        break;
      }
      case STRING:
        value = text;
        break;
      case BOOLEAN:
        value = number >= 0 ? number !== 0 : text === '1' || text.toLowerCase() === 'true';
        break;
      case ERROR:
        value = null;
        break;
      case ISO_DATE: {
        const ms = Date.parse(number >= 0 ? String(number) : text);
        value = Number.isNaN(ms) ? null : new Date(ms);
        break;
      }
      default: {
        const n = number >= 0 ? number : parseFloat(text);
        if (Number.isNaN(n)) value = null;
        else value = this.dateStyles[this.style] === 1 ? excelDate(n, this.date1904) : n;
      }
    }
    if (value === null || value === '') return;
    const col = this.col;
    if (this.values[col] === null) this.used[this.usedCount++] = col;
    this.values[col] = value;
    if (col > this.lastCol) this.lastCol = col;
    if (this.blank && (typeof value !== 'string' || value.trim() !== '')) this.blank = false;
  }

  private endRow(): void {
    this.inRow = false;
    this.inCell = false;
    this.rowsSeen++;
    const { values, used } = this;
    if (!this.blank) {
      // Built only as wide as its values, and below the header no wider than the header.
      const width = Math.min(this.lastCol + 1, this.builder.widthLimit);
      this.builder.add(this.rowNumber, values.slice(0, width), false);
    }
    for (let i = 0; i < this.usedCount; i++) values[used[i]] = null;
    this.usedCount = 0;
    this.lastCol = -1;
    this.blank = true;
  }
}

export async function readXlsx(path: string, opened: OpenedSpreadsheet, options: ReadSpreadsheetOptions, maxRows: number): Promise<SheetTable> {
  const { signal, onProgress } = options;
  const sheet = chooseWorksheet(opened.worksheets, options.sheet);
  const maxCells = options.maxCells ?? DEFAULT_MAX_CELLS;
  const byName = new Map(opened.zipEntries.map((e) => [e.name, e]));
  const sheetEntry = byName.get(sheet.part);
  if (!sheetEntry)
    throw new ImportError(
      'corrupt',
      `The sheet "${excerpt(sheet.name)}" is listed in the workbook but its data is missing. Open the file in Excel or LibreOffice, save it again, and import the new file.`,
    );
  const parts = opened.workbook;
  const entry = (name: string | null | undefined): ZipEntry | undefined => (name ? byName.get(name) : undefined);

  const hashing = hashFile(path);
  hashing.catch(() => undefined);
  const builder = new TableBuilder(maxRows, maxCells);
  let handle: FileHandle | null = null;
  try {
    handle = await open(path, 'r');
    const stringsEntry = entry(parts?.sharedStringsPart);
    const sharedStrings = stringsEntry ? await readSharedStrings(path, handle, stringsEntry, { maxStrings: Math.ceil(maxCells / 3), maxChars: maxCells * 8 }, signal) : [];
    const dateStyles = await readDateStyles(handle, entry(parts?.stylesPart));
    signal?.throwIfAborted();

    let tokenizer: XmlTokenizer | null = null;
    const reader = new SheetRowsReader(sheet.name, builder, sharedStrings, dateStyles, parts?.date1904 ?? false, () => tokenizer!);
    tokenizer = new XmlTokenizer(SHEET_NAMES, reader, sheet.part);
    let progressAt = 0;
    for await (const chunk of inflateZipEntry(path, handle, sheetEntry, MAX_TOTAL_UNCOMPRESSED)) {
      signal?.throwIfAborted();
      tokenizer.write(chunk);
      if (tokenizer.isStopped) break;
      if (reader.rowsSeen - progressAt >= 2000) {
        progressAt = reader.rowsSeen;
        onProgress?.(builder.rowsRead);
      }
    }
  } catch (error) {
    if (error instanceof ImportError || (signal?.aborted && error === signal.reason)) throw error;
    if (error instanceof Error && error.name === 'AbortError') throw error;
    throw new ImportError(
      'corrupt',
      `The workbook could not be read (${excerpt(error instanceof Error ? error.message : String(error), 120)}). Open it in Excel or LibreOffice, save it again as .xlsx (or CSV), and import the new file.`,
      { cause: error },
    );
  } finally {
    await handle?.close();
  }
  onProgress?.(builder.rowsRead);
  const { headerRow, headers, rows } = builder.finish(() =>
    opened.worksheets.length > 1
      ? new ImportError(
          'empty',
          `The sheet "${excerpt(sheet.name)}" is empty. Choose the sheet that holds the data (this workbook has: ${quotedList(opened.worksheets.map((s) => s.name))}).`,
        )
      : emptyFileError(),
  );
  return { format: 'xlsx', sheetName: sheet.name, fileHash: await hashing, headerRow, headers, rows };
}
