/**
 * The two figures of spend, worded once for every screen, file and command: the face value (the
 * log's `amount`, what the customers received) and the wallet cost (its `transaction_cost`, what
 * the wallet was charged: the face value less the commission).
 */
import { formatNaira, type Kobo } from './money';

/** `Face value ₦5,200.50 · Wallet cost ₦5,035.99`. */
export function faceAndCostText(faceKobo: Kobo, costKobo: Kobo): string {
  return `Face value ${formatNaira(faceKobo)} · Wallet cost ${formatNaira(costKobo)}`;
}

/** `12 purchases`, `1 purchase`. */
export function purchasesText(count: number): string {
  return `${count.toLocaleString('en-NG')} purchase${count === 1 ? '' : 's'}`;
}

/**
 * Refunded purchases, stated apart from spend at what the wallet got back (the log's cost):
 * `refunded ₦2,967.00 (1 purchase)`; empty when there were none.
 */
export function refundedText(refunded: { count: number; costKobo: Kobo }): string {
  return refunded.count === 0 ? '' : `refunded ${formatNaira(refunded.costKobo)} (${purchasesText(refunded.count)})`;
}
