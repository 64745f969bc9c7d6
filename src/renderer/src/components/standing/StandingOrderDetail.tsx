import { Accordion, Badge, Button, Card, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { bridge } from '../../bridge';
import { formatCount, formatDateTime, formatDay, formatNaira } from '../../format';
import { useAction } from '../../hooks/useAction';
import { useOperation } from '../../hooks/useOperation';
import { AccordionSection } from '../AccordionSection';
import { KIND_LABEL } from '../bulk/bulkLabels';
import { PreviewFigure as Figure } from '../bulk/PreviewFigure';
import { ErrorNotice } from '../ErrorNotice';
import { TableHead } from '../TableHead';
import { OrderRuns } from './OrderRuns';
import { StandingApprovalCard } from './StandingApprovalCard';
import { StandingRows } from './StandingRows';
import { ORDER_STATE_COLOR, ORDER_STATE_LABEL, WEEKEND_LABEL } from './standingLabels';
import { WaitingOccurrence } from './WaitingOccurrence';

/** One standing order: what waits and why, its next dates, its last runs with their jobs, its rows and versions; pause, resume, end. */
export function StandingOrderDetail({ orderId, onBack, onOpenJob }: { orderId: string; onBack: () => void; onOpenJob: (jobId: string) => void }) {
  const shown = useOperation('standing.show', { orderId });
  const { running, busy, error, run } = useAction<'pause' | 'resume' | 'end'>();
  const [askEnd, setAskEnd] = useState(false);
  const order = shown.data;
  if (!order)
    return (
      <Stack gap="md">
        <Group>
          <Button variant="default" size="xs" onClick={onBack}>
            Back to the orders
          </Button>
        </Group>
        <ErrorNotice error={shown.error} onRetry={() => void shown.reload()} title="The standing order could not be read" />
      </Stack>
    );
  const waiting = order.occurrences.filter((o) => o.state === 'waiting');
  const act = (what: 'pause' | 'resume' | 'end') => run(() => bridge.call(`standing.${what}`, { orderId }), what);

  return (
    <Stack gap="md">
      <Card withBorder padding="lg">
        <Stack gap="md">
          <Group justify="space-between" align="flex-start">
            <div>
              <Group gap="xs">
                <Title order={2} size="h4" data-testid="order-name">
                  {order.name}
                </Title>
                <Badge color={ORDER_STATE_COLOR[order.state]} variant="light" data-testid="order-state">
                  {ORDER_STATE_LABEL[order.state]}
                </Badge>
                <Badge color={order.connectionKind === 'live' ? 'red.9' : 'gray'} variant={order.connectionKind === 'live' ? 'filled' : 'light'}>
                  {order.connectionKind === 'live' ? 'LIVE' : 'Sandbox'}
                  {order.team ? ' · team' : ''}
                </Badge>
              </Group>
              <Text size="sm" c="dimmed">
                {KIND_LABEL[order.kind]} · {order.schedule} · {WEEKEND_LABEL[order.weekend]} · grace period {order.graceDays} day(s)
              </Text>
              <Text size="xs" c="dimmed">
                Made by {order.createdBy} on {formatDateTime(order.createdAt)}
                {order.stateBy && order.stateAt && order.state !== 'active'
                  ? ` · ${ORDER_STATE_LABEL[order.state].toLowerCase()} by ${order.stateBy} on ${formatDateTime(order.stateAt)}`
                  : ''}
              </Text>
            </div>
            <Group gap="xs">
              <Button variant="default" size="xs" onClick={onBack}>
                Back to the orders
              </Button>
              {order.state === 'active' && (
                <Button variant="default" size="xs" loading={running === 'pause'} disabled={busy} onClick={() => void act('pause')}>
                  Pause
                </Button>
              )}
              {order.state === 'paused' && (
                <Button size="xs" loading={running === 'resume'} disabled={busy} onClick={() => void act('resume')}>
                  Resume
                </Button>
              )}
              {(order.state === 'active' || order.state === 'paused') && !askEnd && (
                <Button variant="default" color="red" size="xs" disabled={busy} onClick={() => setAskEnd(true)}>
                  End…
                </Button>
              )}
            </Group>
          </Group>
          {askEnd && (
            <Group gap="xs">
              <Text size="sm">End “{order.name}”? Nothing more is bought; its history is kept. An ended order cannot be resumed.</Text>
              <Button size="xs" color="red" loading={running === 'end'} onClick={() => void act('end').then(() => setAskEnd(false))}>
                End the order
              </Button>
              <Button size="xs" variant="default" disabled={busy} onClick={() => setAskEnd(false)}>
                Keep it
              </Button>
            </Group>
          )}
          {order.state === 'paused' && (
            <Text size="sm" c="orange">
              Paused: nothing is bought. Runs due while it is paused are skipped when it is resumed.
            </Text>
          )}
          <ErrorNotice error={error} />
          <SimpleGrid cols={{ base: 2, lg: 4 }}>
            <Figure
              label="Next run"
              value={order.next ? formatDay(order.next.dueDay) : '—'}
              hint={
                order.next
                  ? order.next.dueDay !== order.next.scheduledDay
                    ? `Scheduled ${formatDay(order.next.scheduledDay)}, moved off the weekend`
                    : undefined
                  : order.state === 'active'
                    ? 'The schedule has no date left'
                    : ORDER_STATE_LABEL[order.state]
              }
              testId="order-next"
            />
            <Figure label="Total of each run" value={formatNaira(order.perRunKobo)} hint="Face value" testId="order-per-run" />
            <Figure label="Rows each run" value={formatCount(order.items)} />
            <Figure
              label="Waiting"
              value={formatCount(waiting.length)}
              color={waiting.length > 0 ? 'orange' : undefined}
              hint={waiting.length > 0 ? 'See below: what waits and why' : 'Nothing waits'}
            />
          </SimpleGrid>
        </Stack>
      </Card>

      {order.team && order.version !== null && <StandingApprovalCard order={order} onChanged={() => void shown.reload()} />}

      {waiting.length > 0 && (
        <Card withBorder padding="lg">
          <Title order={3} size="h5" mb="sm">
            What waits, and why
          </Title>
          <Stack gap="sm">
            {waiting.map((o) => (
              <WaitingOccurrence key={o.scheduledDay} occurrence={o} />
            ))}
          </Stack>
        </Card>
      )}

      <Card withBorder padding="lg">
        <Title order={3} size="h5" mb="sm">
          Recent runs
        </Title>
        <OrderRuns runs={order.occurrences.filter((o) => o.state !== 'waiting')} onOpenJob={onOpenJob} />
      </Card>

      <Accordion variant="separated" multiple defaultValue={['upcoming']}>
        <AccordionSection value="upcoming" title="Next dates" count={order.upcoming.length}>
          {order.upcoming.length === 0 ? (
            <Text size="sm" c="dimmed">
              No date to come.
            </Text>
          ) : (
            <Stack gap={2} data-testid="order-upcoming">
              {order.upcoming.map((u) => (
                <Text key={u.scheduledDay} size="sm">
                  {formatDay(u.dueDay)}
                  {u.dueDay !== u.scheduledDay ? ` (scheduled ${formatDay(u.scheduledDay)}, a weekend day)` : ''}
                </Text>
              ))}
            </Stack>
          )}
        </AccordionSection>
        <AccordionSection value="rows" title="What each run buys" count={order.rowCount} countColor="teal">
          <StandingRows order={order} />
        </AccordionSection>
        <AccordionSection value="versions" title="Versions" count={order.versions.length}>
          <Table verticalSpacing="xs" aria-label="Versions">
            <TableHead columns={['Version', 'Changed', 'By', 'What changed', 'Schedule', { label: 'Rows', right: true }, { label: 'Each run', right: true }, 'From']} />
            <Table.Tbody>
              {order.versions.map((v) => (
                <Table.Tr key={v.version}>
                  <Table.Td>{v.version}</Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(v.changedAt)}</Table.Td>
                  <Table.Td>{v.changedBy}</Table.Td>
                  <Table.Td>{v.change}</Table.Td>
                  <Table.Td>{v.schedule}</Table.Td>
                  <Table.Td ta="right">{formatCount(v.items)}</Table.Td>
                  <Table.Td ta="right" className="money">
                    {formatNaira(v.totalKobo)}
                  </Table.Td>
                  <Table.Td>{v.source}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </AccordionSection>
      </Accordion>
    </Stack>
  );
}
