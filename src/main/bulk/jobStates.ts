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
import type { ParsedLogEntry } from '../api/parseLogEntry';
import { BULK_ITEM_STATES, BULK_JOB_STATES, type BulkItemState, type BulkJobState, type BulkKind } from '../../shared/contract/bulk';

export type ItemState = BulkItemState;

export const ITEM_STATES: readonly ItemState[] = BULK_ITEM_STATES;

export type JobState = BulkJobState;

export const JOB_STATES: readonly JobState[] = BULK_JOB_STATES;

/**
 * A job not confirmed yet, so nothing of it was sent: a `draft` (its rows may still change) or a
 * job `awaiting_approval` by another team member (its rows are what the approver sees, so they do
 * not change). Both are confirmed from there, or discarded.
 */
export const UNCONFIRMED_JOB_STATES: readonly JobState[] = ['draft', 'awaiting_approval'];

export function isUnconfirmed(state: JobState): boolean {
  return UNCONFIRMED_JOB_STATES.includes(state);
}

/** What one item state means for the job's money and progress: one row of the state table. */
export interface ItemStateRow {
  /** The states an item in this state may move to (staying put, to change its reason, always may). */
  next: readonly ItemState[];
  /** Its money may have left the wallet (or has): it counts against spending caps and the job's spend. */
  spends: boolean;
  /** Nothing changes it any more. */
  final: boolean;
  /** Still to be sent by this job. */
  toSend: boolean;
}

/**
 * The bulk item state machine as a table: the one place its transitions, its spending states and
 * its final states are written. `JobStore.transition` takes the states an item may come from out
 * of it (and refuses a caller's `from` the table does not allow); migration 20 refuses any state
 * not in it; the lists below are derived from it.
 */
export const ITEM_STATE_TABLE: { readonly [S in ItemState]: ItemStateRow } = {
  excluded: { next: ['queued'], spends: false, final: false, toSend: false },
  queued: { next: ['sending', 'excluded', 'cancelled'], spends: false, final: false, toSend: true },
  held: { next: ['sending', 'cancelled'], spends: false, final: false, toSend: true },
  // Committed before the request leaves. Back to queued/held when the service said it did nothing.
  sending: { next: ['accepted', 'rejected', 'queued', 'held', 'uncertain', 'pending', 'success', 'failed'], spends: true, final: false, toSend: false },
  accepted: { next: ['pending', 'success', 'failed'], spends: true, final: false, toSend: false },
  pending: { next: ['accepted', 'success', 'failed'], spends: true, final: false, toSend: false },
  // Settled from the service's log or by hand; sent again only when the log shows it was not bought.
  uncertain: { next: ['queued', 'accepted', 'pending', 'success', 'failed', 'rejected', 'cancelled'], spends: true, final: false, toSend: false },
  success: { next: [], spends: true, final: true, toSend: false },
  failed: { next: [], spends: false, final: true, toSend: false },
  rejected: { next: [], spends: false, final: true, toSend: false },
  cancelled: { next: [], spends: false, final: true, toSend: false },
};

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

/** The states an item may move to `to` from, by the table (and `to` itself: a new reason). */
export function statesLeadingTo(to: ItemState): ItemState[] {
  return ITEM_STATES.filter((s) => s === to || ITEM_STATE_TABLE[s].next.includes(to));
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
export function itemStateOfEntry(entry: Pick<ParsedLogEntry, 'status'>): ItemState {
  return entry.status === 'SUCCESS' ? 'success' : entry.status === 'FAILED' ? 'failed' : 'accepted';
}

/** Why an item a finished run leaves accepted is pending: the job's row says it; a single purchase's receipt already does. */
export const PENDING_AT_SERVICE = 'Accepted by the service; its outcome is not in the log yet. vendesk keeps checking its log (and requeries it from 2 minutes after sending).';
