/**
 * Reading the fields of an answer whose shape the spec does not show, by meaning rather than by
 * one spelling: a key matches whatever its case and separators (`senderId`, `SenderId`,
 * `sender_id`, `SENDER-ID` are one key), ids and numbers may be numbers or numeric strings, a list
 * may be a bare array or sit under `Items`, `items`, `data`, `records`… (or a page object), and
 * unknown fields are ignored. Used for the messaging answers only; the documented shapes are read
 * strictly by wireSchemas.ts.
 */
import { parseNairaText, type Kobo } from '../../shared/money';
import { normalizePhone } from '../../shared/phone';
import { utcTimestampToIso } from './parseLogEntry';

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** One spelling of a key: lower case, without `_`, `-`, spaces or dots. */
export function keyOf(name: string): string {
  return name.toLowerCase().replace(/[\s_.-]/g, '');
}

function keyed(record: JsonObject): Map<string, unknown> {
  const byKey = new Map<string, unknown>();
  for (const [k, v] of Object.entries(record)) {
    const key = keyOf(k);
    if (!byKey.has(key)) byKey.set(key, v);
  }
  return byKey;
}

/** The value of the first of `names` the object has (in any spelling), or undefined. */
export function field(record: JsonObject, names: readonly string[]): unknown {
  const byKey = keyed(record);
  for (const name of names) {
    const v = byKey.get(keyOf(name));
    if (v !== undefined && v !== null) return v;
  }
  return undefined;
}

/**
 * The first of `names` (in any spelling) whose value `read` can read, or null: `amount` is tried
 * only when `totalCost` is absent or unreadable.
 */
export function pick<T>(record: JsonObject, names: readonly string[], read: (value: unknown) => T | null): T | null {
  const byKey = keyed(record);
  for (const name of names) {
    const v = byKey.get(keyOf(name));
    if (v === undefined || v === null) continue;
    const r = read(v);
    if (r !== null) return r;
  }
  return null;
}

/** A non-empty string (numbers are written as text), or null. */
export function asText(value: unknown): string | null {
  if (typeof value === 'string') return value.trim() === '' ? null : value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return null;
}

/** A finite number from a number or a numeric string (`"12"`, `"4.00"`, `"1,200"`), or null. */
export function asNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string') {
    const s = value.trim().replace(/,/g, '');
    if (!/^-?\d+(\.\d+)?$/.test(s)) return null;
    return Number(s);
  }
  return null;
}

/** A whole non-negative number (an id, a count), or null. */
export function asCount(value: unknown): number | null {
  const n = asNumber(value);
  return n !== null && Number.isSafeInteger(n) && n >= 0 ? n : null;
}

/** true/false from a boolean, `"true"`/`"yes"`/`1`, or null. */
export function asBoolean(value: unknown): boolean | null {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value === 1 ? true : value === 0 ? false : null;
  if (typeof value === 'string') {
    const s = value.trim().toLowerCase();
    if (['true', 'yes', 'y', '1'].includes(s)) return true;
    if (['false', 'no', 'n', '0'].includes(s)) return false;
  }
  return null;
}

/**
 * An amount of Naira as the service might write it (`4`, `4.5`, `"4.00"`, `"NGN 1,000.00"`,
 * `"₦4"`, or an object carrying a total) in kobo, or null when it cannot be read exactly.
 */
export function asKobo(value: unknown): Kobo | null {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? Math.round(Number((value * 100).toFixed(4))) : null;
  if (typeof value === 'string') {
    const r = parseNairaText(value, { allowZero: true });
    return r.ok ? r.kobo : null;
  }
  if (isObject(value)) return pick(value, ['total', 'totalCost', 'amount', 'value'], asKobo);
  return null;
}

/**
 * A moment as ISO text: ISO or `YYYY-MM-DD HH:MM:SS` (read as UTC, as the log's times), or epoch
 * seconds/milliseconds; null when it cannot be read (so no invalid date ever reaches a screen).
 */
export function asTime(value: unknown): string | null {
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) {
    const ms = value < 1e11 ? value * 1000 : value;
    const d = new Date(ms);
    return Number.isNaN(d.getTime()) ? null : d.toISOString();
  }
  if (typeof value !== 'string' || value.trim() === '') return null;
  const iso = utcTimestampToIso(value);
  if (iso) return iso;
  if (/^\d{10,13}$/.test(value.trim())) return asTime(Number(value.trim()));
  const parsed = Date.parse(value);
  return Number.isNaN(parsed) ? null : new Date(parsed).toISOString();
}

/** A phone number in the 11-digit local form when it is a Nigerian mobile number, else as given. */
export function asPhone(value: unknown): string | null {
  const text = asText(value);
  if (text === null) return null;
  const r = normalizePhone(text);
  return r.ok ? r.phone : text.trim();
}

/** Keys under which services put a list. */
const LIST_KEYS = ['items', 'data', 'records', 'results', 'result', 'list', 'rows', 'content', 'values', 'entries', 'value'];

/**
 * The list in `value`: a bare array, or the array under one of the usual keys (`Items`, `data`,
 * `records`, … — nested wrappers too, as `{ data: { Items: [...] } }`), or the only array-valued
 * field of an object; `more` names further keys that mean this list (`senderIds`, `templates`).
 * A comma-separated string is a list of its parts. null when there is no list.
 */
export function asList(value: unknown, more: readonly string[] = [], depth = 0): unknown[] | null {
  if (Array.isArray(value)) return value;
  if (typeof value === 'string') {
    const parts = value
      .split(/[,;]/)
      .map((s) => s.trim())
      .filter(Boolean);
    return parts.length ? parts : null;
  }
  if (!isObject(value) || depth > 3) return null;
  const inner = field(value, [...more, ...LIST_KEYS]);
  if (inner !== undefined) {
    const list = asList(inner, more, depth + 1);
    if (list) return list;
  }
  const arrays = Object.values(value).filter((v) => Array.isArray(v));
  if (arrays.length === 1) return arrays[0] as unknown[];
  return null;
}

/** The texts of a list (strings or numbers), or null. */
export function asTextList(value: unknown): string[] | null {
  const list = asList(value);
  if (!list) return null;
  const texts = list.map(asText).filter((s): s is string => s !== null);
  return texts.length === list.length ? texts : null;
}

/** The one object a single answer carries: itself, or a lone record under `data`/`result`/`item`. */
export function asRecord(value: unknown, more: readonly string[] = []): JsonObject | null {
  if (!isObject(value)) return null;
  const inner = field(value, [...more, 'data', 'result', 'item', 'record']);
  if (isObject(inner) && Object.keys(value).length <= 3) return inner;
  return value;
}
