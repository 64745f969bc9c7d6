import { Badge, Button, Card, Modal, Table, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import type { PurchaseKind, PurchaseView } from '../../../../shared/contract/purchases';
import { formatDateTime, formatNaira } from '../../format';
import { useDataChanged, useOperation } from '../../hooks/useOperation';
import { ErrorNotice } from '../ErrorNotice';
import { PurchaseReceipt } from './PurchaseReceipt';
import { STATE_COLOR, STATE_LABEL } from './purchaseStatus';

/** The latest purchases of one kind, each opening its receipt (to copy or print the token again). */
export function RecentPurchases({ kind, refreshKey }: { kind: PurchaseKind; refreshKey: number }) {
  const recent = useOperation('purchases.recent', { kind, limit: 10 });
  const [open, setOpen] = useState<PurchaseView | null>(null);
  useDataChanged(['purchases', 'pending'], () => void recent.reload());
  const { reload } = recent;
  useEffect(() => {
    if (refreshKey > 0) void reload();
  }, [refreshKey, reload]);

  const rows = recent.data ?? [];
  return (
    <Card withBorder padding="lg" radius="md">
      <Title order={5} mb="sm">
        Recent {kind === 'electricity' ? 'electricity' : 'cable TV'} purchases
      </Title>
      <ErrorNotice error={recent.error} onRetry={() => void recent.reload()} />
      {rows.length === 0 ? (
        <Text size="sm" c="dimmed">
          None yet on this computer.
        </Text>
      ) : (
        <Table striped highlightOnHover>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>When</Table.Th>
              <Table.Th>Customer</Table.Th>
              <Table.Th>{kind === 'electricity' ? 'Meter' : 'Smartcard'}</Table.Th>
              <Table.Th style={{ textAlign: 'right' }}>Amount</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((p) => (
              <Table.Tr key={p.id}>
                <Table.Td>{formatDateTime(p.createdAt)}</Table.Td>
                <Table.Td>{p.customerName}</Table.Td>
                <Table.Td ff="monospace">{p.account}</Table.Td>
                <Table.Td className="money" style={{ textAlign: 'right' }}>
                  {formatNaira(p.amountKobo)}
                </Table.Td>
                <Table.Td>
                  <Badge color={STATE_COLOR[p.state]} variant="light">
                    {STATE_LABEL[p.state]}
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
        {open && <PurchaseReceipt purchase={rows.find((r) => r.id === open.id) ?? open} />}
      </Modal>
    </Card>
  );
}
