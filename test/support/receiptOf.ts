import { receiptOrAwaiting, type WaitingPurchaseView } from '../../src/shared/contract/purchases';

/**
 * The receipt a purchase answered with. One sent for a team member's approval instead
 * (`WaitingPurchaseView`) fails the test with its `awaiting_approval` message: the purchases asked
 * for here are bought at once.
 */
export async function receiptOf<T extends { state: string }>(answer: Promise<T | WaitingPurchaseView>): Promise<T> {
  return receiptOrAwaiting(await answer);
}
