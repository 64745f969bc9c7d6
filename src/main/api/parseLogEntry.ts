/**
 * A vending log entry as the rest of vendesk keeps it: integer kobo for every amount, UTC
 * ISO-8601 for every timestamp, camelCase names, the phone number in 11-digit local form.
 */
import { AppError } from '../../shared/appError';
import { nairaToKobo, wireTextToKobo, type Kobo } from '../../shared/money';
import { normalizePhone } from '../../shared/phone';
import type { LogEntry, LogStatus, LogType } from '../../shared/wire';

export interface ParsedLogEntry {
  id: number;
  transactionId: string;
  partnerReference: string;
  /** 11-digit local form when it is a Nigerian mobile number, else as the service wrote it. */
  phoneNumber: string;
  /** From `amount` (`NGN 1,000.00`). */
  amountKobo: Kobo;
  /** From `transaction_cost` (Naira). */
  costKobo: Kobo;
  /** From `commission` (Naira). */
  commissionKobo: Kobo;
  type: LogType;
  network: string;
  operator: string;
  region: string;
  description: string;
  dataPlan: string;
  status: LogStatus;
  /** Human-readable time, as the service wrote it. */
  time: string;
  /** UTC ISO-8601, `2026-01-31T09:15:00.000Z`. */
  createdAt: string;
  updatedAt: string;
}

/**
 * A service timestamp (stated to be UTC) as UTC ISO-8601. Accepts ISO with or without a zone and
 * `YYYY-MM-DD HH:MM[:SS[.fff]]`; a time without a zone is read as UTC. Null when unreadable.
 */
export function utcTimestampToIso(text: string): string | null {
  if (isCanonicalIso(text)) return text;
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?\s*(Z|UTC|[+-]\d{2}:?\d{2})?$/i.exec(text.trim());
  if (!m) return null;
  const [, y, mo, d, h = '00', mi = '00', s = '00', frac = '', zone = 'Z'] = m;
  const ms = frac === '' ? '000' : frac.slice(0, 3).padEnd(3, '0');
  const z = zone.toUpperCase() === 'UTC' || zone.toUpperCase() === 'Z' ? 'Z' : zone.length === 5 ? `${zone.slice(0, 3)}:${zone.slice(3)}` : zone;
  const date = new Date(`${y}-${mo}-${d}T${h}:${mi}:${s}.${ms}${z}`);
  if (Number.isNaN(date.getTime())) return null;
  return date.toISOString();
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** The decimal number written in text[from, to), or -1 if a character there is not a digit. */
function digitsAt(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const d = text.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    n = n * 10 + d;
  }
  return n;
}

/**
 * Whether `text` is already what utcTimestampToIso returns (`2026-01-31T09:15:00.000Z`, a real
 * date and time): the service's own form, checked by its characters alone (a million entries of a
 * first sync carry two timestamps each; building a Date for each cost a fifth of the sync's time).
 */
function isCanonicalIso(text: string): boolean {
  if (text.length !== 24 || text.charCodeAt(23) !== 90 /* Z */) return false;
  if (text[4] !== '-' || text[7] !== '-' || text[10] !== 'T' || text[13] !== ':' || text[16] !== ':' || text[19] !== '.') return false;
  const year = digitsAt(text, 0, 4);
  const month = digitsAt(text, 5, 7);
  const day = digitsAt(text, 8, 10);
  if (year < 0 || month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  if (day > (month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1])) return false;
  const hour = digitsAt(text, 11, 13);
  const minute = digitsAt(text, 14, 16);
  const second = digitsAt(text, 17, 19);
  return hour >= 0 && hour < 24 && minute >= 0 && minute < 60 && second >= 0 && second < 60 && digitsAt(text, 20, 23) >= 0;
}

function invalid(entry: LogEntry, field: string, value: unknown): AppError {
  return new AppError(
    'log_entry_invalid',
    `Log entry ${entry.id} has an unreadable ${field}: ${JSON.stringify(value)}.`,
    'The service sent a value vendesk cannot read; report it to support with the transaction id.',
    { id: entry.id, field },
  );
}

/** Throws `AppError` (`log_entry_invalid`) when an amount or a timestamp cannot be read. */
export function parseLogEntry(entry: LogEntry): ParsedLogEntry {
  const amountKobo = wireTextToKobo(String(entry.amount));
  if (amountKobo === null) throw invalid(entry, 'amount', entry.amount);
  const createdAt = utcTimestampToIso(entry.created_at);
  if (createdAt === null) throw invalid(entry, 'created_at', entry.created_at);
  const updatedAt = utcTimestampToIso(entry.updated_at) ?? createdAt;
  if (!Number.isFinite(entry.transaction_cost)) throw invalid(entry, 'transaction_cost', entry.transaction_cost);
  if (!Number.isFinite(entry.commission)) throw invalid(entry, 'commission', entry.commission);
  const phone = normalizePhone(entry.phone_number);
  return {
    id: entry.id,
    transactionId: entry.transaction_id,
    partnerReference: entry.partner_reference,
    phoneNumber: phone.ok ? phone.phone : entry.phone_number,
    amountKobo,
    costKobo: nairaToKobo(entry.transaction_cost),
    commissionKobo: nairaToKobo(entry.commission),
    type: entry.type,
    network: entry.network,
    operator: entry.operator,
    region: entry.region,
    description: entry.description,
    dataPlan: entry.data_plan,
    status: entry.status,
    time: entry.time,
    createdAt,
    updatedAt,
  };
}
