import { Anchor, Badge, Card, Table, Text } from '@mantine/core';
import type { ReconcileRunListItem } from '../../../../shared/contract/reconcile';
import { formatCount, formatDateTime, formatDay, formatNaira } from '../../format';

const STATE_COLOURS = { done: 'teal', running: 'blue', failed: 'red', cancelled: 'gray' } as const;

/** Saved runs, newest first; a click reopens one. */
export function RunHistory({ runs, currentId, onOpen }: { runs: ReconcileRunListItem[]; currentId: string | null; onOpen: (id: string) => void }) {
  return (
    <Card withBorder padding="md">
      <Text fw={600} mb="xs">
        History of runs
      </Text>
      {runs.length === 0 ? (
        <Text size="sm" c="dimmed">
          No reconciliation yet. Choose a vendor export above to make the first one.
        </Text>
      ) : (
        <Table highlightOnHover aria-label="Reconciliation runs">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Made</Table.Th>
              <Table.Th>Range</Table.Th>
              <Table.Th>Export</Table.Th>
              <Table.Th ta="right">Matched</Table.Th>
              <Table.Th ta="right">To look at</Table.Th>
              <Table.Th ta="right">Unexplained</Table.Th>
              <Table.Th>State</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {runs.map((r) => (
              <Table.Tr
                key={r.id}
                onClick={() => r.state === 'done' && onOpen(r.id)}
                style={{ cursor: r.state === 'done' ? 'pointer' : 'default', fontWeight: r.id === currentId ? 600 : undefined }}
              >
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(r.createdAt)}</Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{r.from && r.to ? `${formatDay(r.from)} → ${formatDay(r.to)}` : '—'}</Table.Td>
                <Table.Td>
                  {r.state === 'done' ? (
                    <Anchor
                      component="button"
                      type="button"
                      size="sm"
                      ta="left"
                      style={{ overflowWrap: 'anywhere' }}
                      onClick={(e) => {
                        e.stopPropagation();
                        onOpen(r.id);
                      }}
                      aria-label={`Open the run of ${r.fileName}`}
                    >
                      {r.fileName}
                    </Anchor>
                  ) : (
                    <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                      {r.fileName}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td ta="right">{formatCount(r.matched)}</Table.Td>
                <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                  {formatCount(r.exceptions)} · <span className="money">{formatNaira(r.exceptionsKobo)}</span>
                  {r.resolvedCount ? <Text size="xs" c="dimmed">{`${r.resolvedCount} resolved`}</Text> : null}
                </Table.Td>
                <Table.Td ta="right" className="money">
                  {r.unexplainedKobo === null ? '—' : formatNaira(r.unexplainedKobo)}
                </Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>
                  <Badge color={STATE_COLOURS[r.state]} variant="light" style={{ overflow: 'visible' }}>
                    {r.state}
                  </Badge>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Card>
  );
}
