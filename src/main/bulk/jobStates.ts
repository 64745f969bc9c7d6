/**
 * The states of a bulk job and of its items, and which of them count as money spent.
 *
 * Item life: `queued` → `sending` (committed before the request leaves) → `accepted` (the
 * service gave a reference) or `rejected` (the service refused it; nothing charged), then
 * `success`, `failed` or `pending` from the service's log (and requery). `held`: the service
 * answered 429 (the same phone and amount is in progress) — sent again once that one is final.
 * `uncertain`: the request may have been carried out (timeout, crash while `sending`); settled
 * from the log before anything is sent again. `excluded`: left out before confirmation
 * (a duplicate the user dropped). `cancelled`: never sent because the job was cancelled, or the
 * user settled an uncertain item as "not bought".
 */
import { BULK_ITEM_STATES, BULK_JOB_STATES, type BulkItemState, type BulkJobState, type BulkKind } from '../../shared/contract/bulk';

export type ItemState = BulkItemState;

export const ITEM_STATES: readonly ItemState[] = BULK_ITEM_STATES;

export type JobState = BulkJobState;

export const JOB_STATES: readonly JobState[] = BULK_JOB_STATES;

/** Items whose money may have left the wallet (or has): they count against spending caps. */
export const SPENDING_STATES: readonly ItemState[] = ['sending', 'accepted', 'uncertain', 'success', 'pending'];

/** Items still to be sent. */
export const TO_SEND_STATES: readonly ItemState[] = ['queued', 'held'];

export type ItemCounts = Record<ItemState, number>;

export function emptyCounts(): ItemCounts {
  const counts = {} as ItemCounts;
  for (const s of ITEM_STATES) counts[s] = 0;
  return counts;
}

export type BulkJobKind = BulkKind;

/** Electricity and cable rows are bought one by one through the purchases module (each with its `purchases` row). */
export type VendingJobKind = 'electricity' | 'cable';

export function isVendingKind(kind: BulkJobKind): kind is VendingJobKind {
  return kind === 'electricity' || kind === 'cable';
}
