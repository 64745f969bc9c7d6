/**
 * The two figures of spend, worded once for every screen, file and command: the face value (the
 * log's `amount`, what the customers received) and the wallet cost (its `transaction_cost`, what
 * the wallet was charged: the face value less the commission).
 */
import type { MessagingSpend } from './contract/dashboard';
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

/**
 * A receipt's wallet cost in words, the same in the window and on the command line: what the wallet
 * was charged (`₦1,470.00`), `₦1,470.00 (refunded)` for a failed purchase whose refund the service's
 * log states, `not known yet` while it is not, `nothing charged` for one refused or never charged.
 * `money` writes the amount (a copied receipt writes `NGN 1,470.00`).
 */
export function walletCostWords(costKobo: Kobo | null, refundedKobo: Kobo | null, nothingCharged: boolean, money: (kobo: Kobo) => string = formatNaira): string {
  if (costKobo === null) return nothingCharged ? 'nothing charged' : 'not known yet';
  return `${money(costKobo)}${refundedKobo !== null ? ' (refunded)' : ''}`;
}

/** `5 messages`, `1 message`. */
export function messagesText(count: number): string {
  return `${count.toLocaleString('en-NG')} message${count === 1 ? '' : 's'}`;
}

/**
 * vendesk's messaging of a period, as every spend screen and command says it: `Messaging (SMS,
 * e-mail copies, one-time codes): ₦20.00 for 5 messages`; sends whose answer was lost, which may
 * not have been charged, stated apart and not counted.
 */
export function messagingText(m: MessagingSpend): string {
  const lost =
    m.uncertain.sends > 0
      ? `; not counted: ${m.uncertain.sends} send${m.uncertain.sends === 1 ? '' : 's'} whose answer was lost (${formatNaira(m.uncertain.quotedKobo)} quoted), which may not have been charged`
      : '';
  return `Messaging (SMS, e-mail copies, one-time codes): ${formatNaira(m.costKobo)} for ${messagesText(m.messages)}${lost}`;
}

/** A charge expected before buying: the face value less the commission recent purchases of the product earned. */
export interface ExpectedCharge {
  faceKobo: Kobo;
  costKobo: Kobo;
  /** False: no commission known for the product yet; the face value stands in. */
  rateKnown: boolean;
}

/** What a confirmation says the wallet will be charged: `about ₦1,455.00, the ₦1,500.00 face value less commission`. */
export function expectedChargeText(e: ExpectedCharge): string {
  return e.rateKnown
    ? `about ${formatNaira(e.costKobo)}, the ${formatNaira(e.faceKobo)} face value less commission`
    : `the ${formatNaira(e.faceKobo)} face value less any commission (none known yet for it)`;
}

/** The note under a purchase's confirmation. */
export function chargeNote(e: ExpectedCharge | null, after: string): string {
  return `The wallet is charged now: ${e ? expectedChargeText(e) : 'the amount less the commission'} (an estimate; the receipt shows the exact charge). ${after}`.trim();
}
