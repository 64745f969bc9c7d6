/**
 * Electricity and cable rows of a bulk job are bought one by one through the purchases module
 * (`buyElectricity` / `buyCable` with source `bulk`): the meter or smartcard is validated and the
 * purchase is written in state `sending` (committed) before its request leaves, and the pending
 * and requery loop chases it afterwards. The job item only links to that purchase and mirrors
 * its state, so a purchase is settled in one place (answer, requery, log, Pending page).
 */
import type { VendTypeInput } from '../../shared/contract/purchases';
import type { App } from '../app';
import { buyCable, buyElectricity, findPurchaseRow, settleFromLog } from '../purchases';
import type { VendingJobKind } from './jobStates';
import type { ItemRow } from './jobStore';

export interface VendingBuyer {
  /** Buys the item; resolves with the id of its purchase. Throws when it was refused before a purchase was written. */
  buy(kind: VendingJobKind, item: ItemRow): Promise<string>;
  /** A purchase left `sending` or `uncertain` (vendesk stopped, no answer): settled by the purchases module from the log. */
  settle(purchaseId: string): Promise<void>;
}

export function createVendingBuyer(app: App): VendingBuyer {
  return {
    async buy(kind, item) {
      const row =
        kind === 'electricity'
          ? await buyElectricity(
              app,
              { disco: item.network, meter: item.account ?? '', vendType: (item.vend_type ?? 'PREPAID') as VendTypeInput, amountKobo: item.amount_kobo, phone: item.phone },
              { source: 'bulk' },
            )
          : await buyCable(app, { provider: item.network, smartcard: item.account ?? '', bouquetCode: item.product_code, phone: item.phone }, { source: 'bulk' });
      return row.id;
    },
    async settle(purchaseId) {
      const row = findPurchaseRow(app, purchaseId);
      if (!row || (row.state !== 'sending' && row.state !== 'uncertain')) return;
      try {
        await settleFromLog(app, purchaseId);
      } catch {
        // The log could not be read now: the purchase stays uncertain and the requery loop tries again.
      }
    },
  };
}
