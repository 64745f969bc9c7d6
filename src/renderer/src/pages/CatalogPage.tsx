/**
 * Catalog: what can be bought and the exact codes a purchase sends (product code, voucher code),
 * read from the service and cached on this computer with the time it was read.
 */
import { Badge, Button, Card, Group, Select, Table, Tabs, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import type { Catalogs, CatalogKind } from '../../../shared/contract/logs';
import { bridge } from '../bridge';
import { ErrorNotice } from '../components/ErrorNotice';
import { PageHeader } from '../components/PageHeader';
import { formatAgo, formatNaira } from '../format';
import { useAction } from '../hooks/useAction';
import { useDataChanged, useOperation } from '../hooks/useOperation';

const naira = (n: number) => formatNaira(Math.round(n * 100));

function ReadAt({ catalogs, kind }: { catalogs: Catalogs; kind: CatalogKind }) {
  return <Text size="xs" c="dimmed" mb="xs">Read from the service {formatAgo(catalogs.readAt[kind])}</Text>;
}

export function CatalogPage() {
  const cached = useOperation('catalog.get', {});
  const [fresh, setFresh] = useState<Catalogs | null>(null);
  const { busy: refreshing, error: refreshError, run } = useAction();
  const [network, setNetwork] = useState<string | null>(null);
  const [search, setSearch] = useState('');
  const [provider, setProvider] = useState<string | null>(null);
  useDataChanged(['connection'], () => { setFresh(null); void cached.reload(); });
  const c = fresh ?? cached.data;

  const refresh = () => run(async () => setFresh(await bridge.call('catalog.refresh', {})));

  const q = search.trim().toLowerCase();
  const plans = (c?.data ?? []).filter((p) => (!network || p.network === network) && (!q || p.description.toLowerCase().includes(q) || p.productCode.toLowerCase().includes(q)));
  const providers = [...new Set((c?.cable ?? []).map((b) => b.network))];
  const bouquets = (c?.cable ?? []).filter((b) => !provider || b.network === provider);

  return (
    <>
      <PageHeader
        title="Catalog"
        description="Products, prices and the codes a purchase sends"
        actions={<Button variant="default" loading={refreshing} onClick={() => void refresh()}>Refresh from the service</Button>}
      />
      <ErrorNotice error={cached.error} onRetry={() => void cached.reload()} title="The catalog could not be read" />
      <ErrorNotice error={refreshError} title="The catalog could not be refreshed; the saved copy is shown" />
      {c && (
        <Card withBorder padding="md">
          <Tabs defaultValue="airtime">
            <Tabs.List mb="sm">
              <Tabs.Tab value="airtime">Airtime ({c.airtime.length})</Tabs.Tab>
              <Tabs.Tab value="data">Data plans ({c.data.length})</Tabs.Tab>
              <Tabs.Tab value="cable">Cable TV ({c.cable.length})</Tabs.Tab>
              <Tabs.Tab value="electricity">Electricity ({c.electricity.length})</Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="airtime">
              <ReadAt catalogs={c} kind="airtime" />
              <Table striped>
                <Table.Thead><Table.Tr><Table.Th>Network</Table.Th><Table.Th>Operator</Table.Th><Table.Th>Product code</Table.Th><Table.Th>Voucher code</Table.Th><Table.Th ta="right">Smallest</Table.Th><Table.Th ta="right">Largest</Table.Th></Table.Tr></Table.Thead>
                <Table.Tbody>
                  {c.airtime.map((p) => (
                    <Table.Tr key={p.id}><Table.Td>{p.network}</Table.Td><Table.Td>{p.operator}</Table.Td><Table.Td><code>{p.productCode}</code></Table.Td><Table.Td>{p.voucherCode ? <code>{p.voucherCode}</code> : '—'}</Table.Td><Table.Td ta="right" className="money">{naira(p.minAmount)}</Table.Td><Table.Td ta="right" className="money">{naira(p.maxAmount)}</Table.Td></Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Tabs.Panel>
            <Tabs.Panel value="data">
              <ReadAt catalogs={c} kind="data" />
              <Group mb="sm">
                <Select placeholder="All networks" data={[...new Set(c.data.map((p) => p.network))]} value={network} onChange={setNetwork} clearable w={180} aria-label="Network" />
                <TextInput placeholder="Search description or code" value={search} onChange={(e) => setSearch(e.currentTarget.value)} w={280} aria-label="Search plans" />
                <Text size="sm" c="dimmed">{plans.length} plans</Text>
              </Group>
              <Table striped>
                <Table.Thead><Table.Tr><Table.Th>Network</Table.Th><Table.Th>Plan</Table.Th><Table.Th>Product code</Table.Th><Table.Th>Voucher code</Table.Th><Table.Th ta="right">Price</Table.Th></Table.Tr></Table.Thead>
                <Table.Tbody>
                  {plans.map((p) => (
                    <Table.Tr key={p.id}><Table.Td>{p.network}</Table.Td><Table.Td>{p.description}</Table.Td><Table.Td><code>{p.productCode}</code></Table.Td><Table.Td>{p.voucherCode ? <code>{p.voucherCode}</code> : '—'}</Table.Td><Table.Td ta="right" className="money">{naira(p.amount)}</Table.Td></Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Tabs.Panel>
            <Tabs.Panel value="cable">
              <ReadAt catalogs={c} kind="cable" />
              <Group mb="sm">
                {[null, ...providers].map((p) => (
                  <Badge key={p ?? 'all'} variant={provider === p ? 'filled' : 'light'} style={{ cursor: 'pointer' }} onClick={() => setProvider(p)}>{p ?? 'All providers'}</Badge>
                ))}
              </Group>
              <Table striped>
                <Table.Thead><Table.Tr><Table.Th>Provider</Table.Th><Table.Th>Bouquet</Table.Th><Table.Th>Product code</Table.Th><Table.Th ta="right">Price</Table.Th></Table.Tr></Table.Thead>
                <Table.Tbody>
                  {bouquets.map((b) => (
                    <Table.Tr key={b.id}><Table.Td>{b.network}</Table.Td><Table.Td>{b.description}</Table.Td><Table.Td><code>{b.productCode}</code></Table.Td><Table.Td ta="right" className="money">{naira(b.amount)}</Table.Td></Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Tabs.Panel>
            <Tabs.Panel value="electricity">
              <ReadAt catalogs={c} kind="electricity" />
              <Table striped>
                <Table.Thead><Table.Tr><Table.Th>Provider</Table.Th><Table.Th>Product code (disco)</Table.Th><Table.Th ta="right">Smallest</Table.Th><Table.Th ta="right">Largest</Table.Th></Table.Tr></Table.Thead>
                <Table.Tbody>
                  {c.electricity.map((p) => (
                    <Table.Tr key={p.id}><Table.Td>{p.name}</Table.Td><Table.Td><code>{p.productCode}</code></Table.Td><Table.Td ta="right" className="money">{naira(p.minAmount)}</Table.Td><Table.Td ta="right" className="money">{naira(p.maxAmount)}</Table.Td></Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Tabs.Panel>
          </Tabs>
        </Card>
      )}
    </>
  );
}
