/**
 * Catalog: what can be bought and the exact codes a purchase sends (product code, voucher code),
 * read from the service and cached on this computer with the time it was read.
 */
import { Badge, Button, Card, Group, Select, Table, Tabs, Text, TextInput } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import type { Catalogs, CatalogKind } from '../../../shared/contract/catalog';
import { bridge } from '../bridge';
import { ErrorNotice } from '../components/ErrorNotice';
import { PageHeader } from '../components/PageHeader';
import { formatAgo, formatNaira } from '../format';
import { useAction } from '../hooks/useAction';
import { useDataChanged, useOperation } from '../hooks/useOperation';

const naira = (n: number) => formatNaira(Math.round(n * 100));

/** One column of a catalog table: its header, and what each row shows in it (amounts right-aligned). */
interface Column<T> {
  header: string;
  cell: (row: T) => ReactNode;
  money?: boolean;
}

/** A catalog as a table, one row an item. */
function CatalogTable<T extends { id: string | number }>({ rows, columns }: { rows: T[]; columns: Column<T>[] }) {
  return (
    <Table striped>
      <Table.Thead>
        <Table.Tr>
          {columns.map((col) => (
            <Table.Th key={col.header} ta={col.money ? 'right' : undefined}>
              {col.header}
            </Table.Th>
          ))}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((row) => (
          <Table.Tr key={row.id}>
            {columns.map((col) => (
              <Table.Td key={col.header} ta={col.money ? 'right' : undefined} className={col.money ? 'money' : undefined}>
                {col.cell(row)}
              </Table.Td>
            ))}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

const codeOf = (code: string | null | undefined) => (code ? <code>{code}</code> : '—');

function ReadAt({ catalogs, kind }: { catalogs: Catalogs; kind: CatalogKind }) {
  return (
    <Text size="xs" c="dimmed" mb="xs">
      Read from the service {formatAgo(catalogs.readAt[kind])}
    </Text>
  );
}

export function CatalogPage() {
  const cached = useOperation('catalog.get', {});
  const [fresh, setFresh] = useState<Catalogs | null>(null);
  const { busy: refreshing, error: refreshError, run } = useAction();
  const [network, setNetwork] = useState<string | null>(null);
  const [search, setSearch] = useState('');
  const [provider, setProvider] = useState<string | null>(null);
  useDataChanged(['connection'], () => {
    setFresh(null);
    void cached.reload();
  });
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
        actions={
          <Button variant="default" loading={refreshing} onClick={() => void refresh()}>
            Refresh from the service
          </Button>
        }
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
              <CatalogTable
                rows={c.airtime}
                columns={[
                  { header: 'Network', cell: (p) => p.network },
                  { header: 'Operator', cell: (p) => p.operator },
                  { header: 'Product code', cell: (p) => codeOf(p.productCode) },
                  { header: 'Voucher code', cell: (p) => codeOf(p.voucherCode) },
                  { header: 'Smallest', cell: (p) => naira(p.minAmount), money: true },
                  { header: 'Largest', cell: (p) => naira(p.maxAmount), money: true },
                ]}
              />
            </Tabs.Panel>
            <Tabs.Panel value="data">
              <ReadAt catalogs={c} kind="data" />
              <Group mb="sm">
                <Select placeholder="All networks" data={[...new Set(c.data.map((p) => p.network))]} value={network} onChange={setNetwork} clearable w={180} aria-label="Network" />
                <TextInput placeholder="Search description or code" value={search} onChange={(e) => setSearch(e.currentTarget.value)} w={280} aria-label="Search plans" />
                <Text size="sm" c="dimmed">
                  {plans.length} plans
                </Text>
              </Group>
              <CatalogTable
                rows={plans}
                columns={[
                  { header: 'Network', cell: (p) => p.network },
                  { header: 'Plan', cell: (p) => p.description },
                  { header: 'Product code', cell: (p) => codeOf(p.productCode) },
                  { header: 'Voucher code', cell: (p) => codeOf(p.voucherCode) },
                  { header: 'Price', cell: (p) => naira(p.amount), money: true },
                ]}
              />
            </Tabs.Panel>
            <Tabs.Panel value="cable">
              <ReadAt catalogs={c} kind="cable" />
              <Group mb="sm">
                {[null, ...providers].map((p) => (
                  <Badge key={p ?? 'all'} variant={provider === p ? 'filled' : 'light'} style={{ cursor: 'pointer' }} onClick={() => setProvider(p)}>
                    {p ?? 'All providers'}
                  </Badge>
                ))}
              </Group>
              <CatalogTable
                rows={bouquets}
                columns={[
                  { header: 'Provider', cell: (b) => b.network },
                  { header: 'Bouquet', cell: (b) => b.description },
                  { header: 'Product code', cell: (b) => codeOf(b.productCode) },
                  { header: 'Price', cell: (b) => naira(b.amount), money: true },
                ]}
              />
            </Tabs.Panel>
            <Tabs.Panel value="electricity">
              <ReadAt catalogs={c} kind="electricity" />
              <CatalogTable
                rows={c.electricity}
                columns={[
                  { header: 'Provider', cell: (p) => p.name },
                  { header: 'Product code (disco)', cell: (p) => codeOf(p.productCode) },
                  { header: 'Smallest', cell: (p) => naira(p.minAmount), money: true },
                  { header: 'Largest', cell: (p) => naira(p.maxAmount), money: true },
                ]}
              />
            </Tabs.Panel>
          </Tabs>
        </Card>
      )}
    </>
  );
}
