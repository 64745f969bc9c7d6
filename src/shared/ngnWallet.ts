/**
 * The wallet vendesk spends from: the NGN entry of `/accountBalance`'s `GlobalBalance` (one entry
 * per enabled currency, spec §accountBalance; purchases are charged in Naira). Never "the first
 * entry": an organisation with another currency listed first would see that balance as Naira.
 */
import type { AccountBalance } from './wire';

export type WalletEntry = AccountBalance['GlobalBalance'][number];

export function ngnWallet(balance: AccountBalance): WalletEntry | null {
  return balance.GlobalBalance.find((b) => b.Currency.trim().toUpperCase() === 'NGN') ?? null;
}
