import { Badge, Button, Card, Modal, Table, Text, Title } from '@mantine/core';
import { ActionsHeader } from '../TableHead';
import { useEffect, useState, type ReactNode } from 'react';
import type { OperationInput, OperationName } from '../../../../shared/contract';
import type { AppError } from '../../bridge';
import { formatDateTime, formatNaira } from '../../format';
import { useOperation } from '../../hooks/useOperation';
import { ErrorNotice } from '../ErrorNotice';

/** The list of a recent-purchases card: read again when what it shows changes (READ_TOPICS), and after each purchase (`refreshKey`). */
export function useRecentPurchases<N extends OperationName>(name: N, input: OperationInput<N>, refreshKey: number) {
  const recent = useOperation(name, input);
  const { reload } = recent;
  useEffect(() => {
    if (refreshKey > 0) void reload();
  }, [refreshKey, reload]);
  return recent;
}

export interface RecentColumn<T> {
  header: string;
  mono?: boolean;
  render: (row: T) => ReactNode;
}

/**
 * The latest single purchases of a kind in one card: when, what identifies it (the columns), the
 * amount and the state, each row opening its receipt.
 */
export function RecentPurchasesCard<T extends { id: string; createdAt: string; amountKobo: number }>(props: {
  title: string;
  rows: T[];
  error: AppError | null;
  onRetry: () => void;
  columns: RecentColumn<T>[];
  state: (row: T) => { label: string; color: string };
  receipt: (row: T) => ReactNode;
  testId?: string;
}) {
  const [openId, setOpenId] = useState<string | null>(null);
  const open = props.rows.find((r) => r.id === openId) ?? null;
  return (
    <Card withBorder padding="lg" radius="md">
      <Title order={2} size="h5" mb="sm">
        {props.title}
      </Title>
      <ErrorNotice error={props.error} onRetry={props.onRetry} />
      {props.rows.length === 0 ? (
        <Text size="sm" c="dimmed" data-testid="recent-none">
          {/* The lists hold the purchases of the connection in use, named in the header. */}
          None yet on this connection.
        </Text>
      ) : (
        <Table striped highlightOnHover data-testid={props.testId}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>When</Table.Th>
              {props.columns.map((c) => (
                <Table.Th key={c.header}>{c.header}</Table.Th>
              ))}
              <Table.Th style={{ textAlign: 'right' }}>Amount</Table.Th>
              <Table.Th>Status</Table.Th>
              <ActionsHeader />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {props.rows.map((row) => {
              const state = props.state(row);
              return (
                <Table.Tr key={row.id}>
                  <Table.Td>{formatDateTime(row.createdAt)}</Table.Td>
                  {props.columns.map((c) => (
                    <Table.Td key={c.header} ff={c.mono ? 'monospace' : undefined}>
                      {c.render(row)}
                    </Table.Td>
                  ))}
                  <Table.Td className="money" style={{ textAlign: 'right' }}>
                    {formatNaira(row.amountKobo)}
                  </Table.Td>
                  <Table.Td>
                    <Badge color={state.color} variant="light">
                      {state.label}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    <Button size="compact-xs" variant="subtle" onClick={() => setOpenId(row.id)}>
                      Receipt
                    </Button>
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      )}
      <Modal opened={open !== null} onClose={() => setOpenId(null)} title="Receipt" size="lg" centered>
        {open && props.receipt(open)}
      </Modal>
    </Card>
  );
}
