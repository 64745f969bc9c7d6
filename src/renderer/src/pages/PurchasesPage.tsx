import { useState } from 'react';
import { BulkPurchases } from '../components/bulk/BulkPurchases';
import { CablePurchase } from '../components/purchases/CablePurchase';
import { ElectricityPurchase } from '../components/purchases/ElectricityPurchase';
import { TopUpPurchase } from '../components/purchases/TopUpPurchase';
import { TabbedPage } from '../components/TabbedPage';

type Tab = 'bulk' | 'topup' | 'electricity' | 'cable';

export function PurchasesPage() {
  const [tab, setTab] = useState<Tab>('bulk');
  return (
    <TabbedPage
      title="Purchases"
      description="Airtime, data, electricity tokens and cable TV one at a time, or in bulk from a spreadsheet"
      value={tab}
      onChange={setTab}
      tabs={[
        { value: 'bulk', label: 'Bulk purchases', content: <BulkPurchases /> },
        { value: 'topup', label: 'Airtime and data', content: <TopUpPurchase /> },
        { value: 'electricity', label: 'Electricity', content: <ElectricityPurchase /> },
        { value: 'cable', label: 'Cable TV', content: <CablePurchase /> },
      ]}
    />
  );
}
