import type { PurchaseKind } from '../../../../shared/contract/purchases';
import { PurchaseReceipt } from './PurchaseReceipt';
import { RecentPurchasesCard, useRecentPurchases } from './RecentPurchasesCard';
import { STATE_COLOR, STATE_LABEL } from './purchaseStatus';

/** The latest purchases of one kind, each opening its receipt (to copy or print the token again). */
export function RecentPurchases({ kind, refreshKey }: { kind: PurchaseKind; refreshKey: number }) {
  const recent = useRecentPurchases('purchases.recent', { kind, limit: 10 }, refreshKey);

  return (
    <RecentPurchasesCard
      title={`Recent ${kind === 'electricity' ? 'electricity' : 'cable TV'} purchases`}
      rows={recent.data ?? []}
      error={recent.error}
      onRetry={() => void recent.reload()}
      columns={[
        { header: 'Customer', render: (p) => p.customerName },
        { header: kind === 'electricity' ? 'Meter' : 'Smartcard', mono: true, render: (p) => p.account },
      ]}
      state={(p) => ({ label: STATE_LABEL[p.state], color: STATE_COLOR[p.state] })}
      receipt={(p) => <PurchaseReceipt purchase={p} />}
    />
  );
}
