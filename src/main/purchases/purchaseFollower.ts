/**
 * What follows a purchase's state: a bulk row bought as this purchase (`bulk_items.purchase_id`)
 * shows its purchase's state, moved in the same transaction as the purchase, so the two never
 * disagree, whoever settles it (the answer, the requery loop, the log, the Pending page).
 * Declared here, answered by bulk (`bulkPurchaseFollower` in `buying/jobFollowUp.ts`), plugged in by the composition root
 * (app.ts): purchases never import bulk.
 */
import { serviceSlot } from '../serviceSlot';

export interface PurchaseFollower {
  /** Called in the transaction that changed the purchase `purchaseId`; `fields`: the columns it wrote. */
  followed(purchaseId: string, fields: readonly string[]): void;
}

export const purchaseFollower = serviceSlot<PurchaseFollower>('What follows a purchase’s state');
