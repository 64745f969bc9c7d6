import { Anchor, Badge, Button, Card, Group, Modal, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { MessageView } from '../../../../shared/contract/messaging';
import { bridge } from '../../bridge';
import { ErrorNotice } from '../ErrorNotice';
import { TableHead } from '../TableHead';
import { formatCount, formatDateTime, formatNaira } from '../../format';
import { useAction } from '../../hooks/useAction';
import { useOperation } from '../../hooks/useOperation';
import { MessageDetails, STATUS_COLOR } from './MessageDetails';
import { DateField } from '../DateField';
import { usePhonebookName } from './phonebookNames';

const PER_PAGE = 20;

function historyCounts(page: number, totalPages: number | null, totalRecords: number | null): string {
  const of = totalPages === null ? '' : ` of ${Math.max(1, totalPages)}`;
  const total = totalRecords === null ? 'the service does not say how many messages in all' : `${formatCount(totalRecords)} message${totalRecords === 1 ? '' : 's'}`;
  return `Page ${page}${of} · ${total}`;
}

/** Look up one message by reference. */
function StatusLookup({ initialReference, onChecked }: { initialReference: string; onChecked: () => void }) {
  const [reference, setReference] = useState(initialReference);
  const [message, setMessage] = useState<MessageView | null>(null);
  const { busy, error, run } = useAction();
  const onCheckedRef = useRef(onChecked);
  onCheckedRef.current = onChecked;
  const check = useCallback(
    async (ref: string) => {
      if (!ref.trim()) return;
      const found = await run(async () => {
        setMessage(await bridge.call('messaging.status', { reference: ref.trim() }));
        onCheckedRef.current();
      });
      if (!found) setMessage(null);
    },
    [run],
  );
  useEffect(() => {
    setReference(initialReference);
    if (initialReference) void check(initialReference);
  }, [initialReference, check]);
  return (
    <Card withBorder padding="lg">
      <Title order={2} size="h4" mb="xs">
        Status by reference
      </Title>
      <Group align="flex-end">
        <TextInput
          label="Message reference"
          placeholder="MSG-…"
          value={reference}
          onChange={(e) => setReference(e.currentTarget.value)}
          w={320}
          onKeyDown={(e) => e.key === 'Enter' && void check(reference)}
        />
        <Button onClick={() => void check(reference)} loading={busy} disabled={!reference.trim()}>
          Check status
        </Button>
      </Group>
      <ErrorNotice error={error} title="No status" />
      {message && (
        <Stack gap="xs" mt="sm" data-testid="status-lookup-result">
          <MessageDetails message={message} />
        </Stack>
      )}
    </Card>
  );
}

export function HistoryTab({ statusReference }: { statusReference: string }) {
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const history = useOperation('messaging.history', {
    page,
    perPage: PER_PAGE,
    ...(from ? { startDate: from } : {}),
    ...(to ? { endDate: to } : {}),
    ...(search.trim() ? { search: search.trim() } : {}),
  });
  const items = history.data?.items ?? [];
  const phonebookName = usePhonebookName();
  const [opened, setOpened] = useState<MessageView | null>(null);
  return (
    <Stack gap="lg">
      <StatusLookup initialReference={statusReference} onChecked={() => void history.reload()} />
      <Card withBorder padding="lg">
        <Title order={2} size="h4" mb="xs">
          Messages sent
        </Title>
        <Group align="flex-end" mb="sm">
          <DateField
            label="From"
            value={from}
            onChange={(d) => {
              setFrom(d);
              setPage(1);
            }}
            w={150}
          />
          <DateField
            label="To"
            value={to}
            onChange={(d) => {
              setTo(d);
              setPage(1);
            }}
            w={150}
          />
          <TextInput
            label="Search"
            placeholder="Reference, number, sender or words"
            value={search}
            onChange={(e) => {
              setSearch(e.currentTarget.value);
              setPage(1);
            }}
            w={300}
          />
          {(from || to || search) && (
            <Button
              variant="subtle"
              onClick={() => {
                setFrom('');
                setTo('');
                setSearch('');
                setPage(1);
              }}
            >
              Clear filters
            </Button>
          )}
        </Group>
        <ErrorNotice error={history.error} onRetry={() => void history.reload()} />
        {items.length === 0 && !history.loading ? (
          <Text c="dimmed" size="sm">
            {from || to || search ? 'No message matches these filters.' : 'No messages sent yet.'}
          </Text>
        ) : (
          <Table striped verticalSpacing="xs" data-testid="history-table">
            <TableHead columns={['Sent', 'Reference', 'To', 'Text', { label: 'Cost', right: true }, 'Status']} />
            <Table.Tbody>
              {items.map((m, i) => (
                <Table.Tr key={m.reference ?? `row-${i}`} onClick={() => setOpened(m)} style={{ cursor: 'pointer' }} data-testid="history-row">
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>
                    {/* The row opens by click; the link is the same for keyboard and screen-reader users. */}
                    <Anchor
                      component="button"
                      type="button"
                      size="sm"
                      onClick={(e) => {
                        e.stopPropagation();
                        setOpened(m);
                      }}
                      aria-label={`Open the message ${m.reference ?? ''} sent ${formatDateTime(m.createdAt)}`}
                    >
                      {formatDateTime(m.createdAt)}
                    </Anchor>
                  </Table.Td>
                  <Table.Td ff="monospace" fz="xs">
                    {m.reference ?? '—'}
                  </Table.Td>
                  <Table.Td>
                    {m.isBulk
                      ? `${m.recipientCount === null ? '?' : formatCount(m.recipientCount)} (${m.phoneBookId ? phonebookName(m.phoneBookId) : 'bulk'})`
                      : (m.recipients[0] ?? '—')}
                  </Table.Td>
                  <Table.Td maw={320}>
                    <Text size="sm" truncate="end">
                      {m.body}
                    </Text>
                  </Table.Td>
                  <Table.Td ta="right">
                    {m.totalCostKobo === null ? (
                      <Text span c="dimmed" size="sm" title="The service did not say what it cost">
                        —
                      </Text>
                    ) : (
                      formatNaira(m.totalCostKobo)
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Badge color={STATUS_COLOR[m.status]} variant="light">
                      {m.status === 'UNKNOWN' ? 'not given' : m.status}
                    </Badge>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        <Group justify="space-between" mt="sm">
          <Text size="sm" c="dimmed">
            {history.data ? historyCounts(page, history.data.totalPages, history.data.totalRecords) : `Page ${page}`}
          </Text>
          <Group gap="xs">
            <Button size="xs" variant="default" disabled={page === 1} onClick={() => setPage((p) => p - 1)}>
              Newer
            </Button>
            <Button size="xs" variant="default" disabled={!history.data?.hasMore} onClick={() => setPage((p) => p + 1)}>
              Older
            </Button>
          </Group>
        </Group>
      </Card>
      <Modal opened={opened !== null} onClose={() => setOpened(null)} title="Message" size="lg" centered>
        {opened && (
          <div data-testid="history-message">
            <MessageDetails message={opened} />
          </div>
        )}
      </Modal>
    </Stack>
  );
}
