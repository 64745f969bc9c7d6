/**
 * Which log entry may be an uncertain airtime or data item — one whose request may or may not have
 * reached the service (a crash or timeout while sending). A pure function of the item, its job's
 * kind and the log entries for its phone, so the rule is tested on its own
 * (test/unit/bulk/matchUncertainItem.test.ts); `itemOutcomes.ts` claims what it finds.
 *
 * - An entry with the item's reference is the item.
 * - Else an entry of the job's type, the same phone and amount (and, for data, plan), not owned by
 *   another item and created from 30 minutes before to 15 minutes after the item was sent may be
 *   it: the earliest that the item can claim settles it.
 * - An unowned entry of the same phone and amount later than that window (a service clock far
 *   ahead, say) can be neither tied to the item nor ruled out: the user decides.
 * - Nothing of the kind: the log shows it was not bought.
 */
import type { ParsedLogEntry } from '../api/parseLogEntry';
import type { BulkJobKind, ItemState } from './jobStates';

/** A log entry of the same phone and amount made from this long before an uncertain item was sent… */
export const MATCH_BEFORE_MS = 30 * 60_000;
/** …to this long after it may be that item. */
export const MATCH_AFTER_MS = 15 * 60_000;

export interface UncertainItemFacts {
  phone: string;
  amount_kobo: number;
  product_code: string;
  reference: string | null;
  /** When the item was sent, on the service's clock (epoch ms). */
  sent_ms: number | null;
}

export interface UncertainMatch {
  /** The entry whose transaction id is the item's reference, when the item has one and the log holds it. */
  byReference: ParsedLogEntry | null;
  /** Entries in the window that may be the item, earliest first. */
  candidates: ParsedLogEntry[];
  /** An unowned entry of the same phone and amount after the window, or null. */
  beyondWindow: ParsedLogEntry | null;
}

export function matchUncertainItem(
  item: UncertainItemFacts,
  kind: BulkJobKind,
  entries: readonly ParsedLogEntry[],
  isClaimed: (reference: string) => boolean,
): UncertainMatch {
  const byReference = item.reference ? (entries.find((e) => e.transactionId === item.reference) ?? null) : null;
  if (byReference) return { byReference, candidates: [], beyondWindow: null };
  const expectedType = kind === 'airtime' ? 'AIRTIME' : 'DATA';
  const sent = item.sent_ms ?? 0;
  const same = entries
    .filter((e) => e.type === expectedType && e.phoneNumber === item.phone && e.amountKobo === item.amount_kobo)
    .filter((e) => kind !== 'data' || !e.dataPlan || e.dataPlan === item.product_code)
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

/** The item state a log entry's status means: SUCCESS and FAILED are final; anything else is accepted, not final yet. */
export function itemStateOfEntry(entry: Pick<ParsedLogEntry, 'status'>): ItemState {
  return entry.status === 'SUCCESS' ? 'success' : entry.status === 'FAILED' ? 'failed' : 'accepted';
}
