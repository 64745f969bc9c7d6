import { Tabs } from '@mantine/core';
import { useState } from 'react';
import { BulkPurchases } from '../components/bulk/BulkPurchases';
import { PageHeader } from '../components/PageHeader';
import { CablePurchase } from '../components/purchases/CablePurchase';
import { ElectricityPurchase } from '../components/purchases/ElectricityPurchase';

export function PurchasesPage() {
  const [tab, setTab] = useState<string | null>('bulk');
  return (
    <>
      <PageHeader title="Purchases" description="Bulk airtime and data from spreadsheets, electricity tokens and cable TV subscriptions" />
      <Tabs value={tab} onChange={setTab} keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="bulk">Bulk purchases</Tabs.Tab>
          <Tabs.Tab value="electricity">Electricity</Tabs.Tab>
          <Tabs.Tab value="cable">Cable TV</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="bulk">
          <BulkPurchases />
        </Tabs.Panel>
        <Tabs.Panel value="electricity">
          <ElectricityPurchase />
        </Tabs.Panel>
        <Tabs.Panel value="cable">
          <CablePurchase />
        </Tabs.Panel>
      </Tabs>
    </>
  );
}
