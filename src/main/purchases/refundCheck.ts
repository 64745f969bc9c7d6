/**
 * A declined (HTTP 400) or failed electricity/cable purchase is refunded by the service
 * automatically. vendesk checks that at the next balance read: the wallet read just before the
 * purchase is compared with a read after the decline. Back to (or above) the earlier balance:
 * confirmed. Lower: flagged `missing`, shown on the receipt, and read again by the requery loop
 * for an hour (other purchases running at the same time can also lower the wallet, which the
 * message says).
 */
import { nairaToKobo } from '../../shared/money';
import type { App } from '../app';
import { getPurchaseRow, updatePurchase, type PurchaseRow } from './purchaseStore';

/** The NGN wallet in kobo, or null when it cannot be read now. */
export async function readWalletKobo(app: App): Promise<number | null> {
  try {
    const balance = await app.client().accountBalance();
    const ngn = balance.GlobalBalance.find((b) => b.Currency === 'NGN') ?? balance.GlobalBalance[0];
    return ngn ? nairaToKobo(ngn.Balance) : null;
  } catch {
    return null;
  }
}

/** Compares the wallet now with the wallet before the purchase; records confirmed or missing. */
export async function checkRefund(app: App, id: string, walletKobo?: number | null): Promise<PurchaseRow> {
  const row = getPurchaseRow(app, id);
  if (row.refund_state !== 'checking' && row.refund_state !== 'missing') return row;
  const now = walletKobo === undefined ? await readWalletKobo(app) : walletKobo;
  if (now === null || row.balance_before_kobo === null) {
    // Without a reading either side, nothing can be concluded yet: keep checking.
    return row;
  }
  const state = now >= row.balance_before_kobo ? 'confirmed' : 'missing';
  const updated = updatePurchase(app, id, { refund_state: state, balance_after_kobo: now });
  if (state !== row.refund_state) app.events.emit('data.changed', { topics: ['purchases', 'pending', 'balance'] });
  return updated;
}
