/**
 * How a bulk job's money is said, the same in the window, the CLI and the results workbook:
 * the face value of the rows, and the wallet cost — what the wallet was charged — which may be
 * known for only some of them yet. An unknown cost is said to be unknown, never shown as 0.
 */
import type { BulkMoney } from './contract/bulk';
import { formatNaira } from './money';

const count = new Intl.NumberFormat('en-NG');

/** The wallet cost when known for every item; null while some are not known. */
export function walletCostKobo(m: BulkMoney): number | null {
  return m.costKnown === m.count ? m.costKobo : null;
}

/**
 * `₦5,035.99`; `not known yet`; or, when known for some items only,
 * `₦5,030.11 for 4,990 of 5,000 (the rest not known yet)`.
 */
export function walletCostText(m: BulkMoney): string {
  if (m.costKnown === m.count) return formatNaira(m.costKobo);
  if (m.costKnown === 0) return 'not known yet';
  return `${formatNaira(m.costKobo)} for ${count.format(m.costKnown)} of ${count.format(m.count)} (the rest not known yet)`;
}

/** `cost known for 4,990 of 5,000`, or null when known for all. */
export function costKnownNote(m: BulkMoney): string | null {
  return m.costKnown === m.count ? null : `cost known for ${count.format(m.costKnown)} of ${count.format(m.count)}`;
}

/** The money of several groups of items together. */
export function addMoney(...parts: BulkMoney[]): BulkMoney {
  return parts.reduce((a, b) => ({ count: a.count + b.count, faceKobo: a.faceKobo + b.faceKobo, costKobo: a.costKobo + b.costKobo, costKnown: a.costKnown + b.costKnown }), {
    count: 0,
    faceKobo: 0,
    costKobo: 0,
    costKnown: 0,
  });
}
