import { ITEM_COLOR, ITEM_LABEL } from '../bulk/bulkLabels';
import { RecentPurchasesCard, useRecentPurchases } from './RecentPurchasesCard';
import { TopUpReceipt, networkName } from './TopUpReceipt';

/** The latest single airtime and data purchases, each opening its receipt. */
export function RecentTopUps({ refreshKey }: { refreshKey: number }) {
  const recent = useRecentPurchases('purchases.recentTopUps', { limit: 10 }, refreshKey);

  return (
    <RecentPurchasesCard
      title="Recent airtime and data purchases"
      rows={recent.data ?? []}
      error={recent.error}
      onRetry={() => void recent.reload()}
      columns={[
        { header: 'Phone number', mono: true, render: (p) => p.phone },
        { header: 'Bought', render: (p) => (p.kind === 'airtime' ? `${networkName(p.network)} airtime` : p.description) },
      ]}
      state={(p) => ({ label: ITEM_LABEL[p.state], color: ITEM_COLOR[p.state] })}
      receipt={(p) => <TopUpReceipt purchase={p} />}
      testId="recent-topups"
    />
  );
}
