/** How each category looks on screen: short title, a colour, and one line saying what it means. */
import { CATEGORY_SHORT_LABELS, type ReconcileCategory } from '../../../../shared/contract/reconcile';

export const CATEGORY_COLOURS: Record<ReconcileCategory, string> = {
  matched: 'teal',
  missingLocally: 'orange',
  missingInExport: 'orange',
  amountMismatch: 'red',
  statusMismatch: 'red',
  pending: 'yellow',
  lostSubmissions: 'red',
  duplicateCharges: 'red',
  missingRefunds: 'red',
};

export const CATEGORY_HINTS: Record<ReconcileCategory, string> = {
  matched: 'Export and mirror agree',
  missingLocally: 'Charged by the vendor, not in the mirror',
  missingInExport: 'In the mirror, not in the vendor export',
  amountMismatch: 'The vendor charged a different amount or cost',
  statusMismatch: 'SUCCESS on one side, FAILED on the other',
  pending: 'No final answer yet: requery them',
  lostSubmissions: 'Sent by vendesk, unknown to the vendor',
  duplicateCharges: 'Charged twice where vendesk asked once',
  missingRefunds: 'Failed, but the refund never reached the wallet',
};

export const categoryTitle = (c: ReconcileCategory): string => CATEGORY_SHORT_LABELS[c];

export const RULE_LABELS: Record<string, string> = {
  transaction_id: 'transaction id',
  id: 'log id',
  phone_amount_time: 'phone + amount + time',
};
