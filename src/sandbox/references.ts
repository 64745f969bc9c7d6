/** Unique references for requests, batch items, messages and codes. */
import { randomBytes } from 'node:crypto';

let counter = 0;

function stamp(ms: number): string {
  const d = new Date(ms);
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${d.getUTCFullYear()}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}${p(d.getUTCHours())}${p(d.getUTCMinutes())}${p(d.getUTCSeconds())}`;
}

/** e.g. `ATM20261122141408A1B2C3D4E5` — prefix, sandbox-clock time, then 10 random hex digits. */
export function newReference(prefix: string, nowMs: number): string {
  counter = (counter + 1) % 4096;
  const rand = randomBytes(4).toString('hex').toUpperCase();
  return `${prefix}${stamp(nowMs)}${rand}${counter.toString(16).toUpperCase().padStart(3, '0')}`;
}

/** A one-time code of exactly `digits` decimal digits. */
export function randomDigits(digits: number): string {
  const bytes = randomBytes(digits);
  let out = '';
  for (let i = 0; i < digits; i++) out += String(bytes[i] % 10);
  return out;
}
