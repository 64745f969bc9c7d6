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
      description="Electricity tokens and cable TV one at a time; airtime, data, electricity and cable TV in bulk from a spreadsheet"
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
