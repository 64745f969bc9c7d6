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
 *
 * Both state machines are tables (`src/shared/bulkStateTables.ts`, where the database's triggers
 * are built from too): every move of an item is made by `itemMoves.ts` and every move of a job by
 * `jobLifecycle.ts`, each guarded by its table; the lists below are derived from them.
 */
import type { ParsedLogEntry } from '../api/parseLogEntry';
import type { BulkItemState, BulkJobState, BulkKind } from '../../shared/contract/bulk';
import { ITEM_STATE_TABLE, ITEM_STATES, JOB_STATE_TABLE, JOB_STATES, statesLeadingTo as leadingTo, type ItemStateRow, type JobStateRow } from '../../shared/bulkStateTables';

export { ITEM_STATE_TABLE, ITEM_STATES, JOB_STATE_TABLE, JOB_STATES, type ItemStateRow, type JobStateRow };

export type ItemState = BulkItemState;

export type JobState = BulkJobState;

const statesWhere = (test: (row: ItemStateRow) => boolean): readonly ItemState[] => ITEM_STATES.filter((s) => test(ITEM_STATE_TABLE[s]));

/** Items whose money may have left the wallet (or has): they count against spending caps. */
export const SPENDING_STATES: readonly ItemState[] = statesWhere((r) => r.spends);

/**
 * Items that spend but whose outcome is not known: in flight (`sending`) or sent without a usable
 * answer (`uncertain`). A job shows them as "maybe bought", apart from what it bought; every limit
 * counts them.
 */
export const MAYBE_BOUGHT_STATES: readonly ItemState[] = ['sending', 'uncertain'];

/** Items known bought: the other spending states (accepted, pending, successful; a pending one may still fail and be refunded). */
export const BOUGHT_STATES: readonly ItemState[] = SPENDING_STATES.filter((s) => !MAYBE_BOUGHT_STATES.includes(s));

/** Items still to be sent. */
export const TO_SEND_STATES: readonly ItemState[] = statesWhere((r) => r.toSend);

/** Items nothing changes any more. */
export const FINAL_ITEM_STATES: readonly ItemState[] = statesWhere((r) => r.final);

/** Items that may have been (or were) charged and wait for their final answer: pending purchases. */
export const AWAITING_ANSWER_STATES: readonly ItemState[] = statesWhere((r) => r.spends && !r.final);

/** The states an item may move to `to` from, by the item table (and `to` itself: a new reason). */
export function statesLeadingTo(to: ItemState): ItemState[] {
  return leadingTo(ITEM_STATE_TABLE, to);
}

/**
 * A job not confirmed yet, so nothing of it was sent: a `draft` (its rows may still change) or a
 * job `awaiting_approval` by another team member (its rows are what the approver sees, so they do
 * not change). Both are confirmed from there, or discarded.
 */
export const UNCONFIRMED_JOB_STATES: readonly JobState[] = JOB_STATES.filter((s) => !JOB_STATE_TABLE[s].confirmed);

export function isUnconfirmed(state: JobState): boolean {
  return UNCONFIRMED_JOB_STATES.includes(state);
}

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

/** Why an item was cancelled unsent when its job was cancelled. */
export const CANCELLED_UNSENT_REASON = 'The job was cancelled before this item was sent; nothing was charged for it';

/**
 * The message of a job that stopped sending for good (finished or cancelled): what is still open
 * at the service and what vendesk does about it; null when there is nothing to say.
 */
export function settledMessage(state: 'completed' | 'cancelled', c: ItemCounts): string | null {
  const parts: string[] = [];
  const open = c.pending + c.accepted;
  const maybe = c.uncertain + c.sending;
  if (state === 'cancelled') parts.push('Cancelled: items not yet sent were not bought.');
  if (open > 0) parts.push(`${open} item(s) are still pending at the service; vendesk keeps checking them.`);
  if (state === 'cancelled' && maybe > 0) parts.push(`${maybe} item(s) may have been bought: vendesk checks them against the service log and never sends them again.`);
  return parts.length > 0 ? parts.join(' ') : null;
}

/**
 * Every row was sent and none may be in flight or unsettled: a paused job in this state has
 * nothing a Resume would send, so it is finished (its accepted items are followed up).
 */
export function nothingLeftToSend(c: ItemCounts): boolean {
  return c.queued + c.held + c.sending + c.uncertain === 0;
}

/** The item state a log entry's status means: SUCCESS and FAILED are final; anything else is accepted, not final yet. */
export function itemStateOfEntry(entry: Pick<ParsedLogEntry, 'status'>): 'success' | 'failed' | 'accepted' {
  return entry.status === 'SUCCESS' ? 'success' : entry.status === 'FAILED' ? 'failed' : 'accepted';
}

/** Why an item a finished run leaves accepted is pending: the job's row says it; a single purchase's receipt already does. */
export const PENDING_AT_SERVICE = 'Accepted by the service; its outcome is not in the log yet. vendesk keeps checking its log (and requeries it from 2 minutes after sending).';
