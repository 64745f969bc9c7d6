import { useState } from 'react';
import { BulkPurchases } from '../components/bulk/BulkPurchases';
import { CablePurchase } from '../components/purchases/CablePurchase';
import { ElectricityPurchase } from '../components/purchases/ElectricityPurchase';
import { TabbedPage } from '../components/TabbedPage';

type Tab = 'bulk' | 'electricity' | 'cable';

export function PurchasesPage() {
  const [tab, setTab] = useState<Tab>('bulk');
  return (
    <TabbedPage
      title="Purchases"
      description="Bulk airtime and data from spreadsheets, electricity tokens and cable TV subscriptions"
      value={tab}
      onChange={setTab}
      tabs={[
        { value: 'bulk', label: 'Bulk purchases', content: <BulkPurchases /> },
        { value: 'electricity', label: 'Electricity', content: <ElectricityPurchase /> },
        { value: 'cable', label: 'Cable TV', content: <CablePurchase /> },
      ]}
    />
  );
}
