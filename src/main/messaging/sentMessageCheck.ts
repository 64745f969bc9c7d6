/**
 * Whether a message whose answer was lost (a crash while it was being sent, a timeout, a server
 * error) reached the service: its message history (`/messageHistory`, searched by the recipient's
 * number) is the service's own record. One rule, {@link matchSentMessage}, pure, so it is tested on
 * its own (test/unit/messaging/sentMessageCheck.test.ts); the job claims what it finds.
 *
 * - A message of the history to that number alone (not to a phonebook), with the same text, from
 *   the same sender ID, not claimed by another of vendesk's sends, created from 30 minutes before
 *   to 15 minutes after it was sent (the service's clock) is it: it was sent, at the history's cost.
 * - The same message later than that window can be neither tied to it nor ruled out: the user decides.
 * - A history that does not say who received its messages or what they said cannot tell: the user decides.
 * - Nothing of the kind, in a history read to its end: it was not sent.
 */
import type { MessageAnswer } from '../api/messagingAnswers';
import type { VendingClient } from '../api/vendingClient';

/** A history message of the same number and text from this long before the send… */
export const MESSAGE_MATCH_BEFORE_MS = 30 * 60_000;
/** …to this long after it may be that message. */
export const MESSAGE_MATCH_AFTER_MS = 15 * 60_000;
/** The service's silence is trusted only this long after the send (its clock), as for a purchase. */
export const MESSAGE_CHECK_DELAY_MS = 120_000;
/** Pages of 100 read at most for one number (a number that received 2,000 messages in two days). */
const MAX_PAGES = 20;

export interface LostMessage {
  phone: string;
  body: string;
  senderId: string;
  /** When it was sent, on the service's clock (epoch ms). */
  sentMs: number;
}

export type MessageMatch = { kind: 'sent'; message: MessageAnswer } | { kind: 'later'; message: MessageAnswer } | { kind: 'unreadable'; why: string } | { kind: 'absent' };

function createdMs(m: MessageAnswer): number | null {
  const t = m.createdAt === null ? NaN : Date.parse(m.createdAt);
  return Number.isFinite(t) ? t : null;
}

/** What the history says of `lost`; `complete` is false when the history was not read to its end. */
export function matchSentMessage(lost: LostMessage, history: readonly MessageAnswer[], complete: boolean, isClaimed: (reference: string) => boolean): MessageMatch {
  let unreadable: string | null = complete ? null : 'the service’s message history could not be read to its end';
  const same: { message: MessageAnswer; at: number }[] = [];
  for (const m of history) {
    if (m.isBulk === true) continue;
    if (m.recipients === null || m.body === null) {
      unreadable ??= 'the service’s message history does not say who received its messages or what they said';
      continue;
    }
    if (!m.recipients.includes(lost.phone) || m.body !== lost.body) continue;
    if (m.senderId !== null && m.senderId !== lost.senderId) continue;
    if (m.reference !== null && isClaimed(m.reference)) continue;
    const at = createdMs(m);
    if (at === null) {
      unreadable ??= 'the service’s message history does not say when its messages were sent';
      continue;
    }
    if (m.reference === null) {
      unreadable ??= 'the service’s message history gives no reference by which vendesk could tell its messages apart';
      continue;
    }
    same.push({ message: m, at });
  }
  const inWindow = same.filter((s) => s.at >= lost.sentMs - MESSAGE_MATCH_BEFORE_MS && s.at <= lost.sentMs + MESSAGE_MATCH_AFTER_MS).sort((a, b) => a.at - b.at);
  if (inWindow.length > 0) return { kind: 'sent', message: inWindow[0].message };
  const later = same.find((s) => s.at > lost.sentMs + MESSAGE_MATCH_AFTER_MS);
  if (later) return { kind: 'later', message: later.message };
  if (unreadable) return { kind: 'unreadable', why: unreadable };
  return { kind: 'absent' };
}

/** The UTC day (the service's history is paged by UTC day) before `ms`, `YYYY-MM-DD`. */
function dayBefore(ms: number): string {
  return new Date(ms - 86_400_000).toISOString().slice(0, 10);
}

/**
 * The history's messages to `phone` from the UTC day before `sinceMs` on, every page (up to
 * 2,000 messages); `complete` says whether the last page was reached.
 */
export async function historyOfNumber(
  client: Pick<VendingClient, 'messageHistory'>,
  phone: string,
  sinceMs: number,
  signal?: AbortSignal,
): Promise<{ messages: MessageAnswer[]; complete: boolean }> {
  const messages: MessageAnswer[] = [];
  const perPage = 100;
  for (let page = 1; page <= MAX_PAGES; page++) {
    const answer = await client.messageHistory({ page, perPage, search: phone, startdate: dayBefore(sinceMs) }, { signal });
    messages.push(...answer.items);
    const more = answer.totalPages !== null ? page < answer.totalPages : answer.nextPage !== null || answer.items.length >= perPage;
    if (!more) return { messages, complete: true };
  }
  return { messages, complete: false };
}
