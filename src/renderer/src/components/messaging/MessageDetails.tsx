import { Badge, Group, Table, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import type { MessageView } from '../../../../shared/contract/messaging';
import { formatCount, formatDateTime, formatNaira } from '../../format';

/** A sent message as a finance officer reads it: reference, who, cost, status. */
export function MessageDetails({ message: m }: { message: MessageView }) {
  const statusColor = m.status === 'DELIVERED' ? 'teal' : m.status === 'SENT' ? 'blue' : 'red';
  const rows: [string, ReactNode][] = [
    ['Reference', m.reference],
    [
      'Status',
      <Group gap="xs" key="status">
        <Badge color={statusColor}>{m.status}</Badge>
        <Text size="sm" c="dimmed">
          {m.status === 'DELIVERED' ? 'Delivered to the phones' : m.status === 'SENT' ? 'Sent, waiting for delivery' : 'Not delivered'}
        </Text>
      </Group>,
    ],
    ['Sent', formatDateTime(m.createdAt)],
    ['From', m.senderId],
    ['To', m.isBulk ? `Phonebook ${m.phoneBookId ?? ''} · ${formatCount(m.recipientCount)} recipients` : m.recipients.join(', ')],
    ['Pages', String(m.pages)],
    ...(m.emails.length ? ([['Email copies', m.emails.join(', ')]] as [string, ReactNode][]) : []),
    ['Cost', `${formatNaira(m.totalCostKobo)}${m.emailCostKobo ? ` (SMS ${formatNaira(m.smsCostKobo)} + email ${formatNaira(m.emailCostKobo)})` : ''}`],
  ];
  return (
    <>
      <Table withRowBorders={false} verticalSpacing={2}>
        <Table.Tbody>
          {rows.map(([k, v]) => (
            <Table.Tr key={k}>
              <Table.Td c="dimmed" w={130}>
                {k}
              </Table.Td>
              <Table.Td data-testid={`message-${k.toLowerCase().replace(/\s+/g, '-')}`}>{v}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Text size="sm" mt="xs" style={{ whiteSpace: 'pre-wrap' }}>
        {m.body}
      </Text>
    </>
  );
}
