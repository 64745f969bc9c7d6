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

/** What reading an amount gives: kobo, or a sentence that says what to type instead. */
export type NairaReading = { ok: true; kobo: Kobo } | { ok: false; reason: string };

export interface NairaReadOptions {
  /** ₦0 is an answer (a log entry, a balance); otherwise "more than ₦0" is required. */
  allowZero?: boolean;
  /** A minus sign is read (the wire and display forms); people typing an amount never need one. */
  allowNegative?: boolean;
}

const HOW = 'Type the amount in Naira, like 5000, 5,000, 5,000.50 or ₦5,000.';
const CURRENCY_BEFORE = /^(?:NGN|₦|N)[\s\u00a0]*/i;
const CURRENCY_AFTER = /[\s\u00a0]*(?:NGN|naira)$/i;
/** Whole Naira either plain (5000) or grouped by commas in threes (5,000, 12,500,000). */
const AMOUNT = /^(\d+|[1-9]\d{0,2}(?:,\d{3})+)(?:\.(\d+))?$/;

/**
 * Reads an amount of Naira as people type it and as the service writes it: `5000`, `5,000`,
 * `5,000.00`, `₦5,000`, `₦ 5,000.50`, `NGN 5,000`, `N5000`, `5,000 naira`. Exact: digits are read as
 * text, never through a float, and nothing is rounded or guessed. Anything else is refused with a
 * sentence that says what to type: commas out of place, more than two digits of kobo, exponents
 * (`1e5`), `k`/`m` suffixes, the European `5.000,00`, a minus sign, and zero (unless the options
 * allow them). The one reader of Naira text in vendesk: the amount boxes of the window, the CLI's
 * Naira options, the typed LIVE total, and the amounts of the service's log.
 */
export function parseNairaText(text: string, options: NairaReadOptions = {}): NairaReading {
  let s = text.trim();
  if (s === '') return { ok: false, reason: `Enter an amount. ${HOW}` };
  let negative = false;
  const minus = /^[-\u2212\u2013]/;
  if (minus.test(s)) {
    negative = true;
    s = s.slice(1).trimStart();
  }
  s = s.replace(CURRENCY_BEFORE, '');
  if (!negative && minus.test(s)) {
    negative = true;
    s = s.slice(1).trimStart();
  }
  s = s.replace(CURRENCY_AFTER, '');
  if (negative && !options.allowNegative) return { ok: false, reason: 'An amount cannot be negative: type it without the minus sign, like 5,000.' };
  if (/^\(.*\)$/.test(s)) return { ok: false, reason: 'An amount cannot be negative: type it without the brackets, like 5,000.' };
  const m = AMOUNT.exec(s);
  if (!m) return { ok: false, reason: whyNotAnAmount(s) };
  const [, whole, fraction = ''] = m;
  if (fraction.length > 2) {
    const maybeThousands = fraction.length === 3 && !whole.includes(',') && whole.length <= 3;
    return {
      ok: false,
      reason: maybeThousands
        ? `${s} has three digits after the point. For thousands use a comma, like 5,000; kobo take two digits after the point, like 5,000.50.`
        : 'An amount has at most two digits after the point (kobo), like 5,000.50.',
    };
  }
  const kobo = Number(whole.replace(/,/g, '')) * 100 + Number(fraction.padEnd(2, '0'));
  if (!Number.isSafeInteger(kobo)) return { ok: false, reason: 'That amount is too large to be right: check it and type it again.' };
  if (kobo === 0 && !options.allowZero) return { ok: false, reason: 'Enter an amount above ₦0.' };
  return { ok: true, kobo: negative && kobo !== 0 ? -kobo : kobo };
}

/** Why `s` (currency and sign removed) is not an amount, and what to type instead. */
function whyNotAnAmount(s: string): string {
  if (/^\d+(?:\.\d+)?e[+-]?\d+$/i.test(s)) return `Type the amount in full, like 100,000: vendesk does not read exponents such as ${s}.`;
  if (/^[\d.,]+\s*(?:k|m|bn?)$/i.test(s)) return `Type the amount in full, like 5,000 or 2,500,000: vendesk does not read ${s}.`;
  if (/^\d{1,3}(?:\.\d{3})+,\d+$/.test(s) || /^\d+,\d{1,2}$/.test(s) || /^\d{1,3}(?:\.\d{3}){2,}$/.test(s)) {
    return 'Use a point for kobo and commas between thousands, like 5,000.00 (not 5.000,00).';
  }
  if (/^[\d,]+(?:\.\d*)?$/.test(s) && s.includes(',')) return 'Commas go between groups of three digits, like 5,000 or 1,250,000.50.';
  if (/^\d[\d\s\u00a0'_]*\d(?:\.\d+)?$/.test(s)) return 'Leave out spaces inside the amount; use commas between thousands, like 5,000.';
  if (/^\.\d+$/.test(s)) return `Put a 0 before the point, like 0${s}.`;
  if (/^\d[\d,]*\.$/.test(s)) return 'Type the kobo after the point, like 5,000.50, or leave the point out.';
  return `That is not an amount. ${HOW}`;
}

// Made on first use: building it loads the locale (~12 ms), which `vendesk --help` never needs.
let groupedFormat: Intl.NumberFormat | undefined;
const grouped = (): Intl.NumberFormat => (groupedFormat ??= new Intl.NumberFormat('en-NG', { minimumFractionDigits: 2, maximumFractionDigits: 2 }));

/** `NGN 1,000.00`, the log endpoint's spelling. */
export function koboToWireText(kobo: Kobo): string {
  return `NGN ${grouped().format(kobo / 100)}`;
}

/** An amount of the service's log (`NGN 1,000.00`; zero and a sign are read) → kobo, or null. */
export function wireTextToKobo(text: string): Kobo | null {
  const r = parseNairaText(text, { allowZero: true, allowNegative: true });
  return r.ok ? r.kobo : null;
}

/** `₦1,000.00` for display. */
export function formatNaira(kobo: Kobo): string {
  const sign = kobo < 0 ? '-' : '';
  return `${sign}₦${grouped().format(Math.abs(kobo) / 100)}`;
}
