/**
 * Which entry of the service's log is a purchase whose request may or may not have reached the
 * service (a crash or timeout while sending, an answer lost): one rule for a single purchase of
 * any kind and a bulk row (`buying/itemOutcomes.ts`, `team/sentElsewhere.ts`,
 * `purchases/settleFromLog.ts`). A pure function of the purchase, its kind and the log entries for
 * its phone, so the rule is tested on its own (test/unit/api/logMatch.test.ts); the caller claims
 * what it finds.
 *
 * - An entry with the purchase's reference is the purchase.
 * - Else an entry of its kind, the same phone and amount (for data, the plan; for electricity and
 *   cable TV, a description naming the meter or smartcard), not owned by another purchase and
 *   created from 30 minutes before to 15 minutes after it was sent may be it: the earliest that
 *   it can claim settles it.
 * - An unowned entry of the same kind later than that window (a service clock far ahead, say) can
 *   be neither tied to the purchase nor ruled out: the user decides.
 * - Nothing of the kind: the log shows it was not bought.
 */
import type { LogType } from '../../shared/wire';
import type { ParsedLogEntry } from './parseLogEntry';

export type SentPurchaseKind = 'airtime' | 'data' | 'electricity' | 'cable';

/** The log's type of each kind of purchase. */
const LOG_TYPE: Record<SentPurchaseKind, LogType> = { airtime: 'AIRTIME', data: 'DATA', electricity: 'ELECTRICITY', cable: 'CABLETV' };

/** A log entry of the same phone and amount made from this long before an uncertain item was sent… */
export const MATCH_BEFORE_MS = 30 * 60_000;
/** …to this long after it may be that item. */
export const MATCH_AFTER_MS = 15 * 60_000;

export interface SentPurchaseFacts {
  phone: string;
  amount_kobo: number;
  /** The data plan; anything else for other kinds (not compared). */
  product_code: string;
  /** The meter or smartcard of an electricity or cable purchase: the entry's description names it. */
  account?: string | null;
  reference: string | null;
  /** When the item was sent, on the service's clock (epoch ms). */
  sent_ms: number | null;
}

export interface LogMatch {
  /** The entry whose transaction id is the purchase's reference, when it has one and the log holds it. */
  byReference: ParsedLogEntry | null;
  /** Entries in the window that may be the purchase, earliest first. */
  candidates: ParsedLogEntry[];
  /** An unowned entry of the same phone and amount after the window, or null. */
  beyondWindow: ParsedLogEntry | null;
}

export function matchSentPurchase(item: SentPurchaseFacts, kind: SentPurchaseKind, entries: readonly ParsedLogEntry[], isClaimed: (reference: string) => boolean): LogMatch {
  const byReference = item.reference ? (entries.find((e) => e.transactionId === item.reference) ?? null) : null;
  if (byReference) return { byReference, candidates: [], beyondWindow: null };
  const expectedType = LOG_TYPE[kind];
  const sent = item.sent_ms ?? 0;
  const same = entries
    .filter((e) => e.type === expectedType && e.phoneNumber === item.phone && e.amountKobo === item.amount_kobo)
    .filter((e) => kind !== 'data' || !e.dataPlan || e.dataPlan === item.product_code)
    .filter((e) => !item.account || e.description.includes(item.account))
    .filter((e) => !isClaimed(e.transactionId));
  const candidates = same
    .filter((e) => {
      const created = Date.parse(e.createdAt);
      return created >= sent - MATCH_BEFORE_MS && created <= sent + MATCH_AFTER_MS;
    })
    .sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt) || a.id - b.id);
  const beyondWindow = same.find((e) => Date.parse(e.createdAt) > sent + MATCH_AFTER_MS) ?? null;
  return { byReference: null, candidates, beyondWindow };
}
