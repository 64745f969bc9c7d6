import { Badge, Card, Group, SimpleGrid, Stack, Table, Text, UnstyledButton } from '@mantine/core';
import {
  RECONCILE_CATEGORIES,
  rollForwardLines,
  UNEXPLAINED_MEANING,
  type ReconcileCategory,
  type ReconcileRunView,
  type RollForward,
} from '../../../../shared/contract/reconcile';
import { formatCount, formatDateTime, formatNaira } from '../../format';
import { CATEGORY_COLOURS, CATEGORY_HINTS, categoryTitle } from './reconcileLabels';

/** One card per category: how many, how much, what it means; a click opens its table. */
export function CategoryCards({ run, selected, onSelect }: { run: ReconcileRunView; selected: ReconcileCategory; onSelect: (c: ReconcileCategory) => void }) {
  return (
    <SimpleGrid cols={{ base: 2, md: 3, xl: 5 }} spacing="sm">
      {RECONCILE_CATEGORIES.map((c) => {
        const t = run.totals[c];
        const empty = t.count === 0;
        // Every item of the category resolved: nothing left to check (the count stays what the run found).
        const resolvedAll = !empty && (run.resolved[c] ?? 0) >= t.count;
        const colour = empty || resolvedAll ? 'gray' : CATEGORY_COLOURS[c];
        return (
          <UnstyledButton key={c} onClick={() => onSelect(c)} aria-pressed={selected === c} data-testid={`card-${c}`}>
            <Card
              withBorder
              padding="sm"
              style={{ borderColor: selected === c ? `var(--mantine-color-${colour}-6)` : undefined, borderWidth: selected === c ? 2 : 1, height: '100%' }}
            >
              <Group justify="space-between" gap={4} wrap="nowrap">
                <Text size="sm" fw={600}>
                  {categoryTitle(c)}
                </Text>
                {!empty && c !== 'matched' && (
                  <Badge color={resolvedAll ? 'teal' : colour} variant="light" size="sm" data-testid={`badge-${c}`}>
                    {resolvedAll ? 'resolved' : 'check'}
                  </Badge>
                )}
              </Group>
              <Text size="xl" fw={700} c={empty || resolvedAll ? 'dimmed' : `${colour}.8`} data-testid={`count-${c}`}>
                {formatCount(t.count)}
              </Text>
              <Text size="sm" data-testid={`amount-${c}`}>
                {formatNaira(t.amountKobo)}
              </Text>
              <Text size="xs" c="dimmed" mt={4}>
                {CATEGORY_HINTS[c]}
                {run.resolved[c] ? ` · ${run.resolved[c]} resolved` : ''}
              </Text>
            </Card>
          </UnstyledButton>
        );
      })}
    </SimpleGrid>
  );
}

/** The wallet from the opening to the closing snapshot; the unexplained difference is always shown. */
export function RollForwardCard({ rollForward }: { rollForward: RollForward | null }) {
  if (!rollForward) return null;
  if (!rollForward.available) {
    return (
      <Card withBorder padding="md">
        <Text fw={600}>Wallet roll-forward</Text>
        <Text size="sm" c="dimmed">
          {rollForward.note}
        </Text>
      </Card>
    );
  }
  const r = rollForward;
  const lines = rollForwardLines(r).filter((l) => l.label !== 'Unexplained difference');
  const unexplained = r.unexplainedKobo ?? 0;
  return (
    <Card withBorder padding="md">
      <Stack gap="xs">
        <Group justify="space-between">
          <Text fw={600}>Wallet roll-forward</Text>
          <Badge color={unexplained === 0 ? 'teal' : 'red'} variant="light" data-testid="unexplained">
            Unexplained {formatNaira(unexplained)}
          </Badge>
        </Group>
        <Table withRowBorders={false} verticalSpacing={2} aria-label="Wallet roll-forward">
          <Table.Tbody>
            {lines.map((l) => (
              <Table.Tr key={l.label}>
                <Table.Td>
                  <Text size="sm" fw={l.total ? 600 : 400}>
                    {l.at ? `${l.label.replace(' (reading)', '')} (read ${formatDateTime(l.at)})` : l.label}
                  </Text>
                </Table.Td>
                <Table.Td ta="right">
                  <Text size="sm" fw={l.total ? 600 : 400} data-testid="roll-forward-amount">
                    {/* A line whose label says − or + shows the amount without a second sign. */}
                    {l.kobo === null ? '—' : formatNaira(/^[−+] /.test(l.label) ? Math.abs(l.kobo) : l.kobo)}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ))}
            <Table.Tr>
              <Table.Td>
                <Text size="sm" fw={700} c={unexplained === 0 ? undefined : 'red.8'}>
                  Unexplained difference
                </Text>
              </Table.Td>
              <Table.Td ta="right">
                <Text size="sm" fw={700} c={unexplained === 0 ? undefined : 'red.8'}>
                  {formatNaira(unexplained)}
                </Text>
              </Table.Td>
            </Table.Tr>
          </Table.Tbody>
        </Table>
        {unexplained !== 0 && (
          <Text size="xs" c="dimmed">
            {UNEXPLAINED_MEANING}
          </Text>
        )}
      </Stack>
    </Card>
  );
}
