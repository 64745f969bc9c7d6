/**
 * What a message costs, computed in ONE place: the confirmation dialog, the CLI, the main side's
 * check before sending and the tests all call {@link messageCost}. An SMS costs ₦4 per
 * 160-character page per recipient; each email copy costs ₦1 per address. Integer kobo only.
 */
import type { Kobo } from './money';

export const SMS_PAGE_CHARACTERS = 160;
export const SMS_PAGE_KOBO: Kobo = 400;
export const EMAIL_COPY_KOBO: Kobo = 100;

/** Pages an SMS text takes: 160 characters each, at least one. */
export function smsPages(text: string): number {
  const length = [...text].length;
  return Math.max(1, Math.ceil(length / SMS_PAGE_CHARACTERS));
}

export interface MessageCostInput {
  /** The text as the recipient receives it (a template with its values filled in). */
  text: string;
  /** Phone numbers that receive the SMS. */
  recipients: number;
  /** Email addresses that receive a copy. */
  emails: number;
}

export interface MessageCost {
  recipients: number;
  pages: number;
  characters: number;
  emails: number;
  smsKobo: Kobo;
  emailKobo: Kobo;
  totalKobo: Kobo;
}

export function messageCost(input: MessageCostInput): MessageCost {
  const pages = smsPages(input.text);
  const recipients = Math.max(0, Math.trunc(input.recipients));
  const emails = Math.max(0, Math.trunc(input.emails));
  const smsKobo = pages * recipients * SMS_PAGE_KOBO;
  const emailKobo = emails * EMAIL_COPY_KOBO;
  return { recipients, pages, characters: [...input.text].length, emails, smsKobo, emailKobo, totalKobo: smsKobo + emailKobo };
}

/**
 * What a one-time code costs before it is sent: one SMS page (codes up to about 60 digits fit in
 * one page with the service's wording) plus the email copies. The service reports the exact
 * cost after sending.
 */
export function otpCostEstimate(numberOfDigits: number, emails: number): MessageCost {
  const wording = 100; // "Your SENDER verification code is … It expires in 5 minute(s). Do not share it."
  return messageCost({ text: '0'.repeat(Math.max(0, Math.trunc(numberOfDigits)) + wording), recipients: 1, emails });
}
