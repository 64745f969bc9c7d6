import { Badge, Button, Card, Group, Stack, Table, Text, Title } from '@mantine/core';
import { formatDateTimeSeconds } from '../../format';
import { useConnection } from '../../hooks/useConnection';
import { useDataChanged, useOperation } from '../../hooks/useOperation';
import { ErrorNotice } from '../ErrorNotice';
import { TableHead } from '../TableHead';

/**
 * What the sandbox "sent" — its SMS and emails, one-time codes included — so a code can be read
 * and confirmed without a phone. Shown on the sandbox connection only, marked SANDBOX; on a live
 * connection it is not shown and not asked for.
 */
export function SandboxOutbox({ limit = 8 }: { limit?: number }) {
  const { info } = useConnection();
  const sandbox = info?.connection.kind === 'sandbox';
  const outbox = useOperation('messaging.sandboxOutbox', {}, { enabled: sandbox });
  useDataChanged(['messages'], () => {
    if (sandbox) void outbox.reload();
  });
  if (!sandbox) return null;
  const items = (outbox.data ?? []).slice(0, limit);
  return (
    <Card withBorder padding="lg" data-testid="sandbox-outbox" style={{ borderStyle: 'dashed' }}>
      <Group justify="space-between" mb="xs">
        <Group gap="xs">
          <Title order={2} size="h4">
            Sandbox outbox
          </Title>
          <Badge color="yellow" variant="filled">
            SANDBOX
          </Badge>
        </Group>
        <Button size="xs" variant="default" onClick={() => void outbox.reload()} loading={outbox.loading}>
          Refresh
        </Button>
      </Group>
      <Text size="sm" c="dimmed" mb="sm">
        The sandbox sends nothing to real phones. These are the messages it would have sent, newest first, so you can read a code and try confirming it.
      </Text>
      <ErrorNotice error={outbox.error} onRetry={() => void outbox.reload()} title="The sandbox outbox could not be read" />
      {items.length === 0 ? (
        <Text size="sm" c="dimmed">
          Nothing sent yet.
        </Text>
      ) : (
        <Stack gap={0}>
          <Table verticalSpacing={4} aria-label="Sandbox outbox">
            <TableHead columns={['Sent', 'To', 'Code', 'Reference']} />
            <Table.Tbody>
              {items.map((m, i) => (
                <Table.Tr key={`${m.reference}-${m.channel}-${m.to}-${i}`} data-testid="outbox-row">
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTimeSeconds(m.createdAt)}</Table.Td>
                  <Table.Td>
                    {m.to}
                    {m.channel === 'email' ? ' (email)' : ''}
                  </Table.Td>
                  <Table.Td ff="monospace" fw={700} data-testid="outbox-code">
                    {m.code ?? '—'}
                  </Table.Td>
                  <Table.Td ff="monospace" fz="xs" style={{ overflowWrap: 'anywhere' }}>
                    {m.reference}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Stack>
      )}
    </Card>
  );
}
