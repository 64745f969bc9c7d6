import { Button, Group, Modal, Stack, Table, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { formatNaira } from '../../format';

export interface ConfirmPurchaseModalProps {
  opened: boolean;
  title: string;
  /** What is being bought, one line each, shown above the amount. */
  rows: { label: string; value: ReactNode; strong?: boolean }[];
  amountKobo: number;
  note: string;
  buying: boolean;
  buyTestId: string;
  onBuy: () => void;
  onClose: () => void;
  /** The cost centre the purchase will keep (empty: none). */
  costCentre: string;
}

/** The last look before money leaves the wallet: who, what, how much, and one deliberate click. */
export function ConfirmPurchaseModal({ opened, title, rows, amountKobo, note, buying, buyTestId, onBuy, onClose, costCentre }: ConfirmPurchaseModalProps) {
  return (
    <Modal opened={opened} onClose={onClose} title={title} centered>
      <Stack gap="sm">
        <Table withRowBorders={false} verticalSpacing={4}>
          <Table.Tbody>
            {rows.map((row) => (
              <Table.Tr key={row.label}>
                <Table.Td c="dimmed">{row.label}</Table.Td>
                <Table.Td fw={row.strong ? 600 : undefined}>{row.value}</Table.Td>
              </Table.Tr>
            ))}
            <Table.Tr>
              <Table.Td c="dimmed">Cost centre</Table.Td>
              <Table.Td data-testid="confirm-cost-centre">{costCentre.trim() || 'none (the recipients list applies)'}</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Td c="dimmed">Amount</Table.Td>
              <Table.Td fw={700} fz="lg">
                {formatNaira(amountKobo)}
              </Table.Td>
            </Table.Tr>
          </Table.Tbody>
        </Table>
        <Text size="sm" c="dimmed">
          {note}
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={buying}>
            Go back
          </Button>
          <Button onClick={onBuy} loading={buying} data-testid={buyTestId}>
            Buy for {formatNaira(amountKobo)}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
