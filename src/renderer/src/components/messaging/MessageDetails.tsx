import { Badge, Group, Table, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import type { MessageView } from '../../../../shared/contract/messaging';
import { NOT_GIVEN } from '../../../../shared/notGiven';
import { formatCount, formatDateTime, formatNaira } from '../../format';
import { ServiceNotes } from './ServiceNotes';
import { usePhonebookName } from './phonebookNames';

export const STATUS_COLOR: Record<MessageView['status'], string> = { DELIVERED: 'teal', SENT: 'blue', FAILED: 'red', UNKNOWN: 'gray' };
const STATUS_WORDS: Record<MessageView['status'], string> = {
  DELIVERED: 'Delivered to the phones',
  SENT: 'Sent, waiting for delivery',
  FAILED: 'Not delivered',
  UNKNOWN: 'The service did not give the delivery status',
};

const notGiven = <Text span c="dimmed" size="sm">{`Not given by the service`}</Text>;

function costText(m: MessageView): ReactNode {
  if (m.totalCostKobo === null) return notGiven;
  const parts = m.emailCostKobo && m.smsCostKobo !== null ? ` (SMS ${formatNaira(m.smsCostKobo)} + email ${formatNaira(m.emailCostKobo)})` : '';
  return `${formatNaira(m.totalCostKobo)}${parts}${m.costSource === 'quoted' ? ' — as quoted' : ''}`;
}

/** A sent message as a finance officer reads it: reference, who, cost, status; what the service did not say, said so. */
export function MessageDetails({ message: m }: { message: MessageView }) {
  const phonebookName = usePhonebookName();
  const rows: [string, ReactNode][] = [
    ['Reference', m.reference ?? notGiven],
    [
      'Status',
      <Group gap="xs" key="status">
        <Badge color={STATUS_COLOR[m.status]}>{m.status === 'UNKNOWN' ? 'NOT GIVEN' : m.status}</Badge>
        <Text size="sm" c="dimmed">
          {STATUS_WORDS[m.status]}
        </Text>
      </Group>,
    ],
    ['Sent', m.createdAt ? formatDateTime(m.createdAt) : notGiven],
    ['From', m.senderId || notGiven],
    [
      'To',
      m.isBulk
        ? `Phonebook ${phonebookName(m.phoneBookId)} · ${m.recipientCount === null ? `recipients ${NOT_GIVEN}` : `${formatCount(m.recipientCount)} recipients`}`
        : m.recipients.join(', ') || notGiven,
    ],
    ['Pages', m.pages === null ? notGiven : String(m.pages)],
    ...(m.emails.length ? ([['Email copies', m.emails.join(', ')]] as [string, ReactNode][]) : []),
    ['Cost', costText(m)],
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
      <ServiceNotes notes={m.notes} />
    </>
  );
}
