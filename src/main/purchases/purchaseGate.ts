/**
 * What a single purchase asks before it is written and sent: may it go ahead, or must another
 * team member approve it first? Declared here, answered by the team workspace
 * (`team/purchaseApproval.ts`), plugged in by the composition root (app.ts): purchases never
 * import the team.
 */
import type { SinglePurchaseSummary } from '../../shared/contract/team';
import { serviceSlot } from '../serviceSlot';

/** One single purchase, checked and about to be bought. */
export interface SinglePurchase extends SinglePurchaseSummary {
  /** The request as the contract parsed it: bought as it is once approved. */
  request: unknown;
}

export interface SingleGateOptions {
  /** `bulk` for spreadsheet rows: those have the bulk job's approval. */
  source?: string;
  /** Buy under this approval (the team job id of `purchases.resume`). */
  approvedTeamJob?: string;
}

/** The approval a purchase is bought under: link the purchase as it is written. */
export interface ApprovedBuy {
  teamJobId: string;
  /** Call in the transaction that writes the purchase (before its request leaves); throws when the approval was used already. */
  written(purchaseId: string): void;
}

export interface PurchaseGate {
  /**
   * `null`: no approval applies, buy it. An `ApprovedBuy`: buy it under that approval. Throws
   * `awaiting_approval` while it waits (nothing is bought), and refuses it when it was rejected.
   */
  check(p: SinglePurchase, options?: SingleGateOptions): Promise<ApprovedBuy | null>;
}

export const purchaseGate = serviceSlot<PurchaseGate>('The approval gate of single purchases');
