/** Words and colours for the states of bulk jobs and items, as a finance officer reads them. */
import type { BulkItemState, BulkItemView, BulkJobState, BulkJobView, BulkKind } from '../../../../shared/contract/bulk';

/** What a job buys, as a title ("Electricity for 12 meters"). */
export const KIND_LABEL: Record<BulkKind, string> = { airtime: 'Airtime', data: 'Data', electricity: 'Electricity', cable: 'Cable TV' };

/** The lower-case word for sentences ("Confirming buys electricity for …"). */
export const KIND_WORD: Record<BulkKind, string> = { airtime: 'airtime', data: 'data', electricity: 'electricity', cable: 'cable TV' };

/** Who each row buys for: recipients, meters or smartcards. */
export const RECIPIENT_WORD: Record<BulkKind, string> = { airtime: 'recipient(s)', data: 'recipient(s)', electricity: 'meter(s)', cable: 'smartcard(s)' };

/** The number a row buys for: the meter or smartcard for electricity and cable, else the phone. */
export function rowAccount(item: Pick<BulkItemView, 'account' | 'phone'>): string {
  return item.account ?? item.phone;
}

export const ITEM_LABEL: Record<BulkItemState, string> = {
  excluded: 'Left out',
  queued: 'Waiting',
  held: 'Held',
  sending: 'Sending',
  accepted: 'Accepted',
  rejected: 'Rejected',
  uncertain: 'Uncertain',
  success: 'Successful',
  failed: 'Failed',
  pending: 'Pending',
  cancelled: 'Not bought',
};

export const ITEM_COLOR: Record<BulkItemState, string> = {
  excluded: 'gray',
  queued: 'gray',
  held: 'yellow',
  sending: 'blue',
  accepted: 'cyan',
  rejected: 'red',
  uncertain: 'orange',
  success: 'green',
  failed: 'red',
  pending: 'yellow',
  cancelled: 'gray',
};

/** One line under each label: what it means for the money. */
export const ITEM_MEANING: Record<BulkItemState, string> = {
  excluded: 'Left out before confirming: not bought',
  queued: 'Not sent yet',
  held: 'Same number and amount in progress: sent after it',
  sending: 'Request on its way',
  accepted: 'Taken by the service: outcome follows',
  rejected: 'Refused by the service: not charged',
  uncertain: 'May have been bought: being checked',
  success: 'Delivered',
  failed: 'Failed at the network: refunded',
  pending: 'Not final yet at the service',
  cancelled: 'Never sent: not charged',
};

export const JOB_LABEL: Record<BulkJobState, string> = {
  draft: 'Waiting for your confirmation',
  awaiting_approval: 'Waiting for approval',
  running: 'Buying',
  paused: 'Paused',
  cancelled: 'Cancelled',
  completed: 'Finished',
  needs_attention: 'Needs your attention',
};

export const JOB_COLOR: Record<BulkJobState, string> = {
  draft: 'gray',
  awaiting_approval: 'violet',
  running: 'blue',
  paused: 'yellow',
  cancelled: 'gray',
  completed: 'green',
  needs_attention: 'orange',
};

export function jobLabel(job: BulkJobView): string {
  if (job.interrupted) return 'Interrupted — resume to finish';
  return JOB_LABEL[job.state];
}

/** Column letter of a 0-based index: 0 → A, 27 → AB. */
export function columnLetter(index: number): string {
  let n = index + 1;
  let s = '';
  while (n > 0) {
    const r = (n - 1) % 26;
    s = String.fromCharCode(65 + r) + s;
    n = Math.floor((n - 1) / 26);
  }
  return s;
}
