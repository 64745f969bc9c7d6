/**
 * Turning one cell into one typed value, the way spreadsheets really hold them: phone numbers
 * that lost their leading zero or were rounded into scientific notation, amounts with ₦, NGN
 * and thousands separators, network names spelled several ways. Pure and cheap: these run
 * once per cell of 200,000-row files, so the common forms take a char-loop fast path.
 */
import { excerpt } from '../../shared/excerpt';
import { parseNairaText, type Kobo } from '../../shared/money';
import { networkFromText, normalizePhone, type Network } from '../../shared/phone';
import type { VendType } from '../../shared/wire';
import type { CellValue } from './sheetTable';

export type PhoneFromCell = { ok: true; phone: string } | { ok: false; reason: string };
export type AmountFromCell = { ok: true; kobo: Kobo } | { ok: false; reason: string };
export type Parsed<T> = { ok: true; value: T } | { ok: false; reason: string };

const ROUNDED_ADVICE = 'the spreadsheet rounded the number and lost digits. Format the column as Text and type the full numbers again (or paste them as text)';

/** Text of a cell as a person would read it: trimmed, numbers without a trailing `.0`. */
export function textFromCell(cell: CellValue): string {
  if (cell === null || cell === undefined) return '';
  if (typeof cell === 'string') {
    const c0 = cell.charCodeAt(0);
    const cl = cell.charCodeAt(cell.length - 1);
    return c0 <= 32 || cl <= 32 || c0 === 160 || cl === 160 ? cell.trim() : cell;
  }
  if (typeof cell === 'number') return Number.isInteger(cell) && Math.abs(cell) < 1e21 ? cell.toFixed(0) : String(cell);
  if (typeof cell === 'boolean') return cell ? 'TRUE' : 'FALSE';
  return cell.toISOString();
}

/** True when `text` is written in scientific notation, like `2.34803E+12`. */
function isScientificText(text: string): boolean {
  const e = text.search(/[eE]/);
  if (e <= 0) return false;
  return /^[+-]?\d+(?:[.,]\d*)?[eE][+-]?\d+$/.test(text.replace(/\s/g, ''));
}

/** Digits that a number kept: `2348030000000` → 6 (`234803`). */
function significantDigits(n: number): number {
  let s = Math.abs(n).toFixed(0);
  let end = s.length;
  while (end > 1 && s.charCodeAt(end - 1) === 48) end--;
  s = s.slice(0, end);
  return s.length;
}

/**
 * A whole number of 12 digits or more that has only 6 significant digits was almost surely
 * typed or shown as `2.34803E+12` and rounded; so was anything past 2^53.
 */
function looksRounded(n: number): boolean {
  if (n > Number.MAX_SAFE_INTEGER) return true;
  return n >= 1e11 && significantDigits(n) <= 6;
}

function isLocalMobile(s: string): boolean {
  if (s.length !== 11 || s.charCodeAt(0) !== 48) return false;
  const c1 = s.charCodeAt(1);
  const c2 = s.charCodeAt(2);
  if (c1 < 55 || c1 > 57 || (c2 !== 48 && c2 !== 49)) return false;
  for (let i = 3; i < 11; i++) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

function notAPhone(shown: string, why: string): { ok: false; reason: string } {
  return { ok: false, reason: `${excerpt(shown)} is not a Nigerian mobile number (${why})` };
}

/**
 * A phone cell → the 11-digit local form (`08031234567`). Accepts numbers that lost the
 * leading zero (8031234567), `+234 803 123 4567`, `234-803-123-4567`, `0803.123.4567`,
 * `+234 (0) 803…`, `00234…`, a trailing `.0`. Refuses numbers rounded by the spreadsheet.
 */
export function phoneFromCell(cell: CellValue): PhoneFromCell {
  if (cell === null || cell === undefined) return { ok: false, reason: 'Phone number is empty' };
  if (typeof cell === 'number') {
    if (!Number.isFinite(cell)) return notAPhone(String(cell), 'not a number');
    if (looksRounded(cell)) {
      return { ok: false, reason: `${cell.toExponential(5).toUpperCase()} (${cell.toFixed(0)}) was rounded: ${ROUNDED_ADVICE}` };
    }
    if (!Number.isInteger(cell)) return notAPhone(String(cell), 'it has a fraction; a phone number is whole digits');
    if (cell < 0) return notAPhone(String(cell), 'it is negative');
    if (cell >= 7e9 && cell < 1e10) {
      // 8031234567: a number cell that lost its leading zero (the common case)
      const local = '0' + cell.toFixed(0);
      if (isLocalMobile(local)) return { ok: true, phone: local };
    }
    return phoneFromText(cell.toFixed(0));
  }
  if (typeof cell === 'string') {
    if (isLocalMobile(cell)) return { ok: true, phone: cell };
    const quick = fastLocalPhone(cell);
    if (quick !== null) return { ok: true, phone: quick };
    const text = cell.trim();
    if (text === '') return { ok: false, reason: 'Phone number is empty' };
    if (isScientificText(text)) return { ok: false, reason: `${excerpt(text)} is in scientific notation: ${ROUNDED_ADVICE}` };
    return phoneFromText(text);
  }
  return notAPhone(textFromCell(cell), 'the cell holds a date or TRUE/FALSE, not a number');
}

/**
 * Digits of a phone spelled with separators, in the local form when it is a Nigerian mobile
 * number: the char-loop equivalent of normalizePhone's success path, plus `00234…` and
 * `+234 (0) 803…`. Null when it is not one (the caller then asks normalizePhone for the reason).
 */
const DIGITS = new Uint16Array(24);

function fastLocalPhone(s: string): string | null {
  let n = 0;
  let plus = false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      if (n === 24) return null;
      DIGITS[n++] = c;
    } else if (c === 43 && n === 0 && !plus)
      plus = true; // +
    else if (c !== 32 && c !== 45 && c !== 46 && c !== 40 && c !== 41 && c !== 47 && c !== 160) return null; // space - . ( ) / nbsp
  }
  // Start of the 10 digits after the local 0.
  let start: number;
  let d = 0;
  if (!plus && n === 15 && DIGITS[0] === 48 && DIGITS[1] === 48 && DIGITS[2] === 50 && DIGITS[3] === 51 && DIGITS[4] === 52) d = 2; // 00234…
  if (n - d >= 13 && DIGITS[d] === 50 && DIGITS[d + 1] === 51 && DIGITS[d + 2] === 52) {
    if (n - d === 13) start = d + 3;
    else if (n - d === 14 && DIGITS[d + 3] === 48)
      start = d + 4; // +234 (0) 803…
    else return null;
  } else if (plus || d !== 0) return null;
  else if (n === 11 && DIGITS[0] === 48) start = 1;
  else if (n === 10) start = 0;
  else return null;
  const a = DIGITS[start];
  const b = DIGITS[start + 1];
  if (a < 55 || a > 57 || (b !== 48 && b !== 49)) return null;
  const g = DIGITS;
  const k = start;
  return String.fromCharCode(48, g[k], g[k + 1], g[k + 2], g[k + 3], g[k + 4], g[k + 5], g[k + 6], g[k + 7], g[k + 8], g[k + 9]);
}

function phoneFromText(text: string): PhoneFromCell {
  let s = text;
  if (s.startsWith("'")) s = s.slice(1).trim();
  if (s === '') return { ok: false, reason: 'Phone number is empty' };
  // A number that went through a float: "8031234567.0"
  const dot = s.indexOf('.');
  if (dot > 0 && /^\+?\d+\.0+$/.test(s)) s = s.slice(0, dot);
  const fast = fastLocalPhone(s);
  if (fast !== null) return { ok: true, phone: fast };
  const shared = normalizePhone(s);
  if (shared.ok) return shared;
  return s !== text && shared.reason.startsWith(s) ? { ok: false, reason: excerpt(text) + shared.reason.slice(s.length) } : shared;
}

/**
 * An amount cell → kobo. Accepts numbers and text like `1000`, `1,000.50`, `₦1,000`,
 * `NGN 1,000.00`, `N500`, `500 naira` (the grammar of `parseNairaText`). Refuses zero, negatives,
 * and more than 2 decimals.
 */
export function amountFromCell(cell: CellValue): AmountFromCell {
  if (cell === null || cell === undefined) return { ok: false, reason: 'Amount is empty' };
  if (typeof cell === 'number') {
    if (!Number.isFinite(cell)) return { ok: false, reason: `${cell} is not an amount` };
    if (cell <= 0) return { ok: false, reason: `Amount ${cell} must be more than zero` };
    const hundredths = cell * 100;
    if (Math.abs(hundredths - Math.round(hundredths)) > 1e-6 * Math.max(1, hundredths)) {
      return { ok: false, reason: `Amount ${cell} has more than two decimal places; round it to kobo (e.g. ${cell.toFixed(2)})` };
    }
    const kobo = Math.round(hundredths);
    if (!Number.isSafeInteger(kobo)) return { ok: false, reason: `Amount ${cell} is too large` };
    return { ok: true, kobo };
  }
  if (typeof cell === 'string') return amountFromText(cell);
  return { ok: false, reason: `${excerpt(textFromCell(cell))} is not an amount (the cell holds a date or TRUE/FALSE)` };
}

/**
 * A text amount, read by the one Naira grammar of the window and the CLI (`parseNairaText` in
 * shared/money.ts): what a person may type, a cell may hold, and nothing else (`1,0,0` and
 * `1 000` are refused with what to write instead). The reason names the cell's text.
 */
function amountFromText(raw: string): AmountFromCell {
  const n = raw.length;
  // Fast path: plain digits (read the same by the grammar), most cells of a big file.
  let plain = n > 0 && n < 15;
  for (let i = 0; plain && i < n; i++) {
    const c = raw.charCodeAt(i);
    if (c < 48 || c > 57) plain = false;
  }
  if (plain) {
    const naira = Number(raw);
    return naira > 0 ? { ok: true, kobo: naira * 100 } : { ok: false, reason: `Amount ${excerpt(raw)} must be more than zero` };
  }
  const text = raw.trim();
  if (text === '') return { ok: false, reason: 'Amount is empty' };
  const read = parseNairaText(text, { allowZero: true });
  if (!read.ok) return { ok: false, reason: `Amount ${excerpt(text)}: ${read.reason}` };
  if (read.kobo === 0) return { ok: false, reason: `Amount ${excerpt(text)} must be more than zero` };
  return read;
}

/** A network cell: `MTN`, `Airtel`, `glo`, `Globacom`, `9mobile`, `Etisalat`, `MTN NG`… */
const COMMON_NETWORK_SPELLINGS = new Map<string, Parsed<Network>>();
for (const [spelling, network] of [
  ['MTN', 'MTN'],
  ['mtn', 'MTN'],
  ['Mtn', 'MTN'],
  ['AIRTEL', 'AIRTEL'],
  ['Airtel', 'AIRTEL'],
  ['airtel', 'AIRTEL'],
  ['GLO', 'GLOBACOM'],
  ['Glo', 'GLOBACOM'],
  ['glo', 'GLOBACOM'],
  ['GLOBACOM', 'GLOBACOM'],
  ['Globacom', 'GLOBACOM'],
  ['9MOBILE', '9MOBILE'],
  ['9mobile', '9MOBILE'],
  ['9Mobile', '9MOBILE'],
  ['ETISALAT', '9MOBILE'],
  ['Etisalat', '9MOBILE'],
] as const)
  COMMON_NETWORK_SPELLINGS.set(spelling, { ok: true, value: network });

export function networkFromCell(cell: CellValue): Parsed<Network> | null {
  if (cell === null) return null;
  if (typeof cell === 'string') {
    const common = COMMON_NETWORK_SPELLINGS.get(cell);
    if (common) return common;
  }
  return networkFromText(textFromCell(cell));
}

/** `PREPAID`, `Prepaid`, `pre-paid`, `POST PAID`… */
export function vendTypeFromCell(cell: CellValue): Parsed<VendType> {
  const text = textFromCell(cell);
  if (text === '') return { ok: false, reason: 'Meter type is empty; write PREPAID or POSTPAID' };
  const key = text.toUpperCase().replace(/[^A-Z]/g, '');
  if (key === 'PREPAID' || key === 'PREPAY' || key === 'PRE') return { ok: true, value: 'PREPAID' };
  if (key === 'POSTPAID' || key === 'POSTPAY' || key === 'POST') return { ok: true, value: 'POSTPAID' };
  return { ok: false, reason: `Meter type ${excerpt(text)} is not PREPAID or POSTPAID` };
}

/**
 * A meter, smartcard or account number: digits only (spaces and dashes dropped), kept as text
 * so leading zeros survive. Refuses rounded numbers like phone cells.
 */
export function accountNumberFromCell(cell: CellValue, label: string, minDigits = 6, maxDigits = 20): Parsed<string> {
  if (cell === null || cell === undefined) return { ok: false, reason: `${label} is empty` };
  let text: string;
  if (typeof cell === 'number') {
    if (!Number.isFinite(cell) || !Number.isInteger(cell) || cell < 0) return { ok: false, reason: `${label} ${cell} is not a whole number` };
    if (looksRounded(cell)) return { ok: false, reason: `${label} ${cell.toExponential(5).toUpperCase()} was rounded: ${ROUNDED_ADVICE}` };
    text = cell.toFixed(0);
  } else if (typeof cell === 'string') {
    text = cell.trim();
    if (text.startsWith("'")) text = text.slice(1);
    if (isScientificText(text)) return { ok: false, reason: `${label} ${excerpt(text)} is in scientific notation: ${ROUNDED_ADVICE}` };
    if (/^\d+\.0+$/.test(text)) text = text.slice(0, text.indexOf('.'));
  } else {
    return { ok: false, reason: `${label} ${excerpt(textFromCell(cell))} is not a number` };
  }
  const digits = text.replace(/[\s-]/g, '');
  if (!/^\d+$/.test(digits)) return { ok: false, reason: `${label} ${excerpt(text)} must contain digits only` };
  if (digits.length < minDigits || digits.length > maxDigits) {
    return { ok: false, reason: `${label} ${excerpt(text)} has ${digits.length} digits; expected ${minDigits} to ${maxDigits}` };
  }
  return { ok: true, value: digits };
}

const EXCEL_EPOCH_MS = Date.UTC(1899, 11, 30);

/**
 * A date cell: a real date, an Excel serial number, ISO text, `2025-03-01 14:05:00` (UTC, as
 * the log endpoint writes it), or day-first `01/03/2025 14:05`.
 */
export function dateFromCell(cell: CellValue): Parsed<Date> {
  if (cell instanceof Date) return Number.isNaN(cell.getTime()) ? { ok: false, reason: 'Not a valid date' } : { ok: true, value: cell };
  if (typeof cell === 'number') {
    if (cell > 1 && cell < 2_958_466) return { ok: true, value: new Date(EXCEL_EPOCH_MS + Math.round(cell * 86_400_000)) };
    return { ok: false, reason: `${cell} is not a date` };
  }
  const text = textFromCell(cell);
  if (text === '') return { ok: false, reason: 'Date is empty' };
  let m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/.exec(text);
  if (m) {
    if (m[8]) {
      const d = new Date(text.replace(' ', 'T'));
      if (!Number.isNaN(d.getTime())) return { ok: true, value: d };
    }
    return utcDate(text, +m[1], +m[2], +m[3], +(m[4] ?? 0), +(m[5] ?? 0), +(m[6] ?? 0), +(m[7] ?? 0));
  }
  m = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})(?:[ T,]+(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([AaPp][Mm])?)?$/.exec(text);
  if (m) {
    let hour = +(m[4] ?? 0);
    if (m[7]) hour = (hour % 12) + (m[7].toUpperCase() === 'PM' ? 12 : 0);
    return utcDate(text, +m[3], +m[2], +m[1], hour, +(m[5] ?? 0), +(m[6] ?? 0), 0);
  }
  const parsed = Date.parse(text);
  if (!Number.isNaN(parsed)) return { ok: true, value: new Date(parsed) };
  return { ok: false, reason: `${excerpt(text)} is not a date; write it like 2025-03-01 14:05:00` };
}

function utcDate(text: string, y: number, mo: number, d: number, h: number, mi: number, s: number, ms: number): Parsed<Date> {
  const date = new Date(Date.UTC(y, mo - 1, d, h, mi, s, ms));
  if (date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d || h > 23 || mi > 59 || s > 59) {
    return { ok: false, reason: `${excerpt(text)} is not a valid date` };
  }
  return { ok: true, value: date };
}
