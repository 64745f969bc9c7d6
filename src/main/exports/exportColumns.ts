/**
 * Columns of an export and how each kind of value is turned into a spreadsheet cell. Shared by
 * the XLSX and the CSV writer so both files say the same thing.
 */
import { AppError } from '../../shared/appError';
import { lagosDayOf, lagosWallClock } from '../../shared/localDates';

export type ExportColumnKind =
  /** Any value, written as text (a string cell in XLSX; formula injection neutralized in CSV). */
  | 'text'
  /** Integer kobo, written as a Naira number with the format `"₦"#,##0.00`. */
  | 'naira'
  | 'integer'
  | 'number'
  /** An ISO-8601 string (or a Date), an instant, written as a real date-time in Lagos time. */
  | 'datetime'
  /** `YYYY-MM-DD` (or an ISO string, or a Date), written as a real date. */
  | 'date';

export interface ExportColumn {
  header: string;
  kind: ExportColumnKind;
  /** Width in characters; derived from the header and the first rows when absent. */
  width?: number;
}

export const NAIRA_FORMAT = '"₦"#,##0.00';
export const DATETIME_FORMAT = 'yyyy-mm-dd hh:mm:ss';
export const DATE_FORMAT = 'yyyy-mm-dd';
export const INTEGER_FORMAT = '#,##0';

export const NUM_FORMATS: Record<ExportColumnKind, string | undefined> = {
  text: undefined,
  naira: NAIRA_FORMAT,
  integer: INTEGER_FORMAT,
  number: undefined,
  datetime: DATETIME_FORMAT,
  date: DATE_FORMAT,
};

/** A value ready for a cell: a string (exactly the text), a number, a Date, or empty. */
export type CellValue = string | number | Date | null;

function badValue(column: ExportColumn, rowNumber: number, value: unknown, expected: string): AppError {
  return new AppError(
    'export_bad_value',
    `Export row ${rowNumber}, column "${column.header}": ${JSON.stringify(value)} is not ${expected}.`,
    'This is a fault in vendesk; report it with the export you were making.',
    { column: column.header, row: rowNumber },
  );
}

function toDate(value: unknown, dateOnly: boolean): Date | null {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value;
  if (typeof value !== 'string') return null;
  const text = value.trim();
  // A date without a time, or a time without a zone, is read as UTC.
  const iso = /^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T00:00:00Z` : /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(text) ? `${text.replace(' ', 'T')}Z` : text;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return null;
  // A calendar day is itself; an instant is written as Lagos wall-clock time (cells have no zone).
  if (dateOnly) return /^\d{4}-\d{2}-\d{2}$/.test(text) ? date : new Date(`${lagosDayOf(date)}T00:00:00.000Z`);
  return lagosWallClock(date);
}

/** The note on the header of a date-time column: the zone its cells are in. */
export const DATETIME_HEADER_NOTE = 'Lagos time (Africa/Lagos, WAT, UTC+1): the service’s UTC times are converted.';

/**
 * The cell for `value` in `column` (`rowNumber` counts data rows from 1, for messages). Empty
 * values (null, undefined, '') give an empty cell. Throws `AppError` when a value does not fit
 * the column's kind: an export never writes a wrong number silently.
 */
export function toCellValue(column: ExportColumn, value: unknown, rowNumber: number): CellValue {
  if (value === null || value === undefined || value === '') return null;
  switch (column.kind) {
    case 'text':
      return value instanceof Date ? value.toISOString() : String(value);
    case 'naira': {
      const kobo = typeof value === 'bigint' ? Number(value) : value;
      if (typeof kobo !== 'number' || !Number.isSafeInteger(kobo)) throw badValue(column, rowNumber, value, 'an amount in integer kobo');
      return kobo / 100;
    }
    case 'integer': {
      const n = typeof value === 'bigint' ? Number(value) : value;
      if (typeof n !== 'number' || !Number.isInteger(n)) throw badValue(column, rowNumber, value, 'an integer');
      return n;
    }
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) throw badValue(column, rowNumber, value, 'a number');
      return value;
    case 'datetime':
    case 'date': {
      const date = toDate(value, column.kind === 'date');
      if (!date) throw badValue(column, rowNumber, value, column.kind === 'date' ? 'a date' : 'an ISO-8601 date-time');
      return date;
    }
  }
}

/** How many characters a written cell shows, for column widths. */
export function displayLength(kind: ExportColumnKind, value: CellValue): number {
  if (value === null) return 0;
  switch (kind) {
    case 'naira':
      return typeof value === 'number' ? Math.abs(value).toFixed(2).length + Math.floor(Math.abs(value).toFixed(0).length / 3) + 2 : 0;
    case 'datetime':
      return DATETIME_FORMAT.length;
    case 'date':
      return DATE_FORMAT.length;
    default:
      return String(value).length;
  }
}

const MIN_WIDTH: Record<ExportColumnKind, number> = { text: 8, naira: 14, integer: 8, number: 10, datetime: 20, date: 12 };
const MAX_WIDTH = 60;

/**
 * Column width in characters: the given width, else the widest of the header and the sampled
 * cells, plus padding, between a per-kind minimum and 60.
 */
export function columnWidth(column: ExportColumn, sampled: CellValue[]): number {
  if (column.width !== undefined) return column.width;
  let widest = column.header.length + 2; // room for the filter button
  for (const value of sampled) widest = Math.max(widest, displayLength(column.kind, value));
  return Math.min(MAX_WIDTH, Math.max(MIN_WIDTH[column.kind], widest + 2));
}

/** `2026-01-31 10:15:00` (the cell's Lagos wall-clock time), the CSV spelling of a date-time Excel reads as a date. */
export function csvDateTime(date: Date): string {
  return date.toISOString().slice(0, 19).replace('T', ' ');
}
