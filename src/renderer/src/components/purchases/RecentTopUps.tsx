import { Badge, Button, Card, Modal, Table, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import type { TopUpView } from '../../../../shared/contract/purchases';
import { formatDateTime, formatNaira } from '../../format';
import { useDataChanged, useOperation } from '../../hooks/useOperation';
import { ErrorNotice } from '../ErrorNotice';
import { ITEM_COLOR, ITEM_LABEL } from '../bulk/bulkLabels';
import { TopUpReceipt, networkName } from './TopUpReceipt';

/** The latest single airtime and data purchases, each opening its receipt. */
export function RecentTopUps({ refreshKey }: { refreshKey: number }) {
  const recent = useOperation('purchases.recentTopUps', { limit: 10 });
  const [open, setOpen] = useState<TopUpView | null>(null);
  useDataChanged(['jobs'], () => void recent.reload());
  const { reload } = recent;
  useEffect(() => {
    if (refreshKey > 0) void reload();
  }, [refreshKey, reload]);

  const rows = recent.data ?? [];
  return (
    <Card withBorder padding="lg" radius="md">
      <Title order={5} mb="sm">
        Recent airtime and data purchases
      </Title>
      <ErrorNotice error={recent.error} onRetry={() => void recent.reload()} />
      {rows.length === 0 ? (
        <Text size="sm" c="dimmed">
          None yet on this connection.
        </Text>
      ) : (
        <Table striped highlightOnHover data-testid="recent-topups">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>When</Table.Th>
              <Table.Th>Phone number</Table.Th>
              <Table.Th>Bought</Table.Th>
              <Table.Th style={{ textAlign: 'right' }}>Amount</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((p) => (
              <Table.Tr key={p.id}>
                <Table.Td>{formatDateTime(p.createdAt)}</Table.Td>
                <Table.Td ff="monospace">{p.phone}</Table.Td>
                <Table.Td>{p.kind === 'airtime' ? `${networkName(p.network)} airtime` : p.description}</Table.Td>
                <Table.Td className="money" style={{ textAlign: 'right' }}>
                  {formatNaira(p.amountKobo)}
                </Table.Td>
                <Table.Td>
                  <Badge color={ITEM_COLOR[p.state]} variant="light">
                    {ITEM_LABEL[p.state]}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  <Button size="compact-xs" variant="subtle" onClick={() => setOpen(p)}>
                    Receipt
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <Modal opened={open !== null} onClose={() => setOpen(null)} title="Receipt" size="lg" centered>
        {open && <TopUpReceipt purchase={rows.find((r) => r.id === open.id) ?? open} />}
      </Modal>
    </Card>
  );
}
