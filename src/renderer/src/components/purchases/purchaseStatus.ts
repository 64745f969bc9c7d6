/** How each purchase state is named and coloured everywhere in the renderer. */
import { nothingCharged, type PurchaseState, type PurchaseView } from '../../../../shared/contract/purchases';
import { walletCostWords } from '../../../../shared/spendText';
import { formatDateTimeSeconds } from '../../format';

export const STATE_LABEL: Record<PurchaseState, string> = {
  sending: 'Sending',
  success: 'Successful',
  pending: 'Pending',
  failed: 'Failed',
  rejected: 'Not bought',
  uncertain: 'Uncertain',
  needs_support: 'Needs support',
  not_found: 'Not found',
};

export const STATE_COLOR: Record<PurchaseState, string> = {
  sending: 'blue',
  success: 'green',
  pending: 'yellow',
  failed: 'red',
  rejected: 'gray',
  uncertain: 'orange',
  needs_support: 'grape',
  not_found: 'gray',
};

/** The receipt as plain text, for the clipboard. */
export function receiptText(p: PurchaseView): string {
  const money = (kobo: number) => `NGN ${(kobo / 100).toLocaleString('en-NG', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
  const lines = [
    p.kind === 'electricity' ? 'ELECTRICITY RECEIPT' : 'CABLE TV RECEIPT',
    `Status: ${STATE_LABEL[p.state]}`,
    `Customer: ${p.customerName}`,
    p.customerAddress ? `Address: ${p.customerAddress}` : '',
    p.kind === 'electricity' ? `Meter: ${p.account} (${p.vendType ?? ''})` : `Smartcard: ${p.account}`,
    `${p.kind === 'electricity' ? 'Disco' : 'Provider'}: ${p.providerName}${p.providerName !== p.providerCode ? ` (${p.providerCode})` : ''}`,
    p.bouquetName ? `Bouquet: ${p.bouquetName}` : '',
    `Amount: ${money(p.amountKobo)}`,
    `Wallet cost: ${walletCostWords(p.costKobo, p.refund.refundedKobo, nothingCharged(p), money)}`,
    p.token ? `Token: ${p.token}` : '',
    p.units !== null ? `Units: ${p.units} kWh` : '',
    `Phone: ${p.phone}`,
    p.reference ? `Reference: ${p.reference}` : '',
    p.receiptNo ? `Receipt no: ${p.receiptNo}` : '',
    `Date: ${formatDateTimeSeconds(p.createdAt)}`,
  ];
  return lines.filter(Boolean).join('\n');
}
