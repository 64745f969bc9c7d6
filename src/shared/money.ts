/**
 * Money is integer kobo everywhere inside vendesk. Naira appear only at the edges: the wire
 * (numbers in Naira, or strings like `NGN 1,000.00` on the log endpoint), display and export.
 */

export type Kobo = number;

/** Naira (a wire number such as 1000 or 99.5) to integer kobo, without float drift. */
export function nairaToKobo(naira: number): Kobo {
  if (!Number.isFinite(naira)) throw new RangeError(`Not an amount: ${naira}`);
  return Math.round(Number((naira * 100).toFixed(4)));
}

/** Integer kobo to a Naira number for the wire (1000050 → 10000.5). */
export function koboToNaira(kobo: Kobo): number {
  return kobo / 100;
}

/**
 * Parses an amount as people and the service write it: `1000`, `1,000.50`, `NGN 1,000.00`,
 * `₦1,000`, `N 500`. Returns kobo, or null when the text is not an amount. Exact: digits are
 * read as text, never through a float.
 */
export function parseNairaText(text: string): Kobo | null {
  let s = text.trim().replace(/^(NGN|₦|N)\s*/i, '').replace(/\s*(NGN|naira)$/i, '');
  s = s.replace(/[\s,]/g, '');
  let negative = false;
  if (s.startsWith('-')) {
    negative = true;
    s = s.slice(1);
  }
  const m = /^(\d+)(?:\.(\d{0,2})\d*)?$/.exec(s);
  if (!m || s.length === 0) return null;
  const whole = Number(m[1]);
  const frac = Number((m[2] ?? '').padEnd(2, '0'));
  const kobo = whole * 100 + frac;
  if (!Number.isSafeInteger(kobo)) return null;
  return negative ? -kobo : kobo;
}

const grouped = new Intl.NumberFormat('en-NG', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** `NGN 1,000.00`, the log endpoint's spelling. */
export function koboToWireText(kobo: Kobo): string {
  return `NGN ${grouped.format(kobo / 100)}`;
}

/** `₦1,000.00` for display. */
export function formatNaira(kobo: Kobo): string {
  const sign = kobo < 0 ? '-' : '';
  return `${sign}₦${grouped.format(Math.abs(kobo) / 100)}`;
}
