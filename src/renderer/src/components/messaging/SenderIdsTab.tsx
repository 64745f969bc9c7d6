import { Card, Table, Text, Title } from '@mantine/core';
import { ErrorNotice } from '../ErrorNotice';
import { formatDate } from '../../format';
import { ApprovalBadges } from './ApprovalBadges';
import { useSenderIds } from './useMessagingLists';

export function SenderIdsTab() {
  const senders = useSenderIds();
  return (
    <Card withBorder padding="lg" maw={900}>
      <Title order={2} size="h4">
        Sender IDs
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        The name recipients see as the sender. The service must approve a sender ID for a coverage area before messages can be sent with it; only approved ones can be chosen on the
        Send and One-time codes tabs. To register a new one, contact the service provider.
      </Text>
      <ErrorNotice error={senders.error} onRetry={() => void senders.reload()} />
      <Table verticalSpacing="sm" data-testid="sender-ids">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Sender ID</Table.Th>
            <Table.Th>Approval per area</Table.Th>
            <Table.Th>Can send?</Table.Th>
            <Table.Th>Registered</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {(senders.data ?? []).map((s) => (
            <Table.Tr key={s.senderId}>
              <Table.Td fw={600} ff="monospace">
                {s.senderId}
              </Table.Td>
              <Table.Td>
                <ApprovalBadges approval={s.approval} />
              </Table.Td>
              <Table.Td>
                <Text size="sm" c={s.approved ? 'teal' : 'dimmed'}>
                  {s.state === 'UNKNOWN'
                    ? 'Yes — the service does not say whether it is approved (it refuses an unapproved one without charging)'
                    : s.approved
                      ? 'Yes'
                      : s.state === 'REJECTED'
                        ? 'No — rejected'
                        : 'Not yet — waiting for approval'}
                </Text>
              </Table.Td>
              <Table.Td>{formatDate(s.createdAt)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Card>
  );
}
