import { Alert, Anchor, Badge, Button, Card, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import type { RunDueReport, StandingDraftView, StandingOrderSummary } from '../../../shared/contract/standing';
import { bridge } from '../bridge';
import { JobProgressPanel } from '../components/bulk/JobProgressPanel';
import { KIND_LABEL } from '../components/bulk/bulkLabels';
import { ErrorNotice } from '../components/ErrorNotice';
import { PageHeader } from '../components/PageHeader';
import { NewStandingOrder } from '../components/standing/NewStandingOrder';
import { RunJobLink } from '../components/standing/OrderRuns';
import { StandingDraftReview } from '../components/standing/StandingDraftReview';
import { StandingOrderDetail } from '../components/standing/StandingOrderDetail';
import { ORDER_STATE_COLOR, ORDER_STATE_LABEL, OUTCOME_COLOR, OUTCOME_LABEL } from '../components/standing/standingLabels';
import { SystemNoticesChoice } from '../components/standing/useStandingNotices';
import { WaitingOccurrence } from '../components/standing/WaitingOccurrence';
import { TableHead } from '../components/TableHead';
import { formatCount, formatDay, formatNaira } from '../format';
import { useAction } from '../hooks/useAction';
import { useOperation } from '../hooks/useOperation';

type View = { is: 'list' } | { is: 'new' } | { is: 'draft'; draft: StandingDraftView } | { is: 'order'; id: string } | { is: 'job'; id: string; back: View };

/** What waits in one order, for the list's "Waiting for you" card. */
function OrderWaiting({ order }: { order: StandingOrderSummary }) {
  const shown = useOperation('standing.show', { orderId: order.id });
  const waiting = (shown.data?.occurrences ?? []).filter((o) => o.state === 'waiting');
  return (
    <>
      <ErrorNotice error={shown.error} onRetry={() => void shown.reload()} />
      {waiting.map((o) => (
        <WaitingOccurrence key={o.scheduledDay} occurrence={o} showOrder />
      ))}
    </>
  );
}

/** What the last "Run what is due now" did, in one sentence each. */
function RunDueSummary({ report }: { report: RunDueReport }) {
  const none = report.ran.length === 0 && report.waiting.length === 0 && report.elsewhere.length === 0;
  return (
    <Alert color={report.waiting.length > 0 ? 'orange' : 'teal'} variant="light" title={`Runs due by ${formatDay(report.today)}`} data-testid="run-due-summary">
      {none && <Text size="sm">Nothing was due.</Text>}
      {report.ran.map((o) => (
        <Text size="sm" key={`${o.orderId}-${o.scheduledDay}`}>
          {o.orderName}, {formatDay(o.scheduledDay)}: {OUTCOME_LABEL[o.outcome].toLowerCase()}.
        </Text>
      ))}
      {report.waiting.map((o) => (
        <Text size="sm" key={`${o.orderId}-${o.scheduledDay}`}>
          {o.orderName}, {formatDay(o.scheduledDay)}: waits — {o.reason}
        </Text>
      ))}
      {report.elsewhere.map((o) => (
        <Text size="sm" key={`${o.orderId}-${o.scheduledDay}`}>
          {o.orderName}, {formatDay(o.scheduledDay)}: run by another desktop or process.
        </Text>
      ))}
    </Alert>
  );
}

export function StandingOrdersPage() {
  const [view, setView] = useState<View>({ is: 'list' });
  const orders = useOperation('standing.list', {});
  const { busy, error, run } = useAction();
  const [report, setReport] = useState<RunDueReport | null>(null);
  const openJob = (id: string) => setView({ is: 'job', id, back: view });

  const header = (
    <PageHeader
      title="Standing orders"
      description="Allowances, subscriptions and top-ups bought on a schedule, once per run, and what waits for you"
      actions={
        view.is === 'list' && (
          <Group gap="xs" wrap="nowrap">
            <Button variant="default" loading={busy} onClick={() => void run(async () => setReport(await bridge.call('standing.runDue', {})))}>
              Run what is due now
            </Button>
            <Button onClick={() => setView({ is: 'new' })}>New standing order</Button>
          </Group>
        )
      }
    />
  );

  if (view.is === 'job') {
    return (
      <>
        {header}
        <JobProgressPanel jobId={view.id} onClose={() => setView(view.back)} closeLabel="Back to the standing orders" />
      </>
    );
  }
  if (view.is === 'new')
    return (
      <>
        {header}
        <NewStandingOrder onPrepared={(draft) => setView({ is: 'draft', draft })} onCancel={() => setView({ is: 'list' })} />
      </>
    );
  if (view.is === 'draft')
    return (
      <>
        {header}
        <StandingDraftReview draft={view.draft} onConfirmed={(order) => setView({ is: 'order', id: order.id })} onDiscarded={() => setView({ is: 'list' })} />
      </>
    );
  if (view.is === 'order')
    return (
      <>
        {header}
        <StandingOrderDetail orderId={view.id} onBack={() => setView({ is: 'list' })} onOpenJob={openJob} />
      </>
    );

  // Orders never confirmed are not standing orders yet: they are left out of the list.
  const list = (orders.data ?? []).filter((o) => o.state !== 'draft');
  const withWaiting = list.filter((o) => o.waiting > 0);

  return (
    <>
      {header}
      <Stack gap="md">
        <ErrorNotice error={error} title="The due runs could not be run" />
        {report && <RunDueSummary report={report} />}
        {withWaiting.length > 0 && (
          <Card withBorder padding="lg">
            <Title order={2} size="h4" mb="sm">
              Waiting for you
            </Title>
            <Stack gap="sm">
              {withWaiting.map((o) => (
                <OrderWaiting key={o.id} order={o} />
              ))}
            </Stack>
          </Card>
        )}
        <Card withBorder padding="lg">
          <Title order={2} size="h4" mb="sm">
            Orders
          </Title>
          <ErrorNotice error={orders.error} onRetry={() => void orders.reload()} />
          {list.length === 0 ? (
            <Text size="sm" c="dimmed">
              No standing order yet. Make one from a spreadsheet or from a bulk job that ran: each run then buys itself on its day, once.
            </Text>
          ) : (
            <Table.ScrollContainer minWidth={720}>
              <Table highlightOnHover verticalSpacing="xs" aria-label="Standing orders">
                <TableHead columns={['Name', { label: 'Rows', right: true }, { label: 'Each run', right: true }, 'Repeats', 'Next run', 'Last run', 'State']} />
                <Table.Tbody>
                  {list.map((o) => (
                    <Table.Tr key={o.id} data-testid="order-row">
                      <Table.Td>
                        <Anchor
                          component="button"
                          type="button"
                          size="sm"
                          ta="left"
                          onClick={() => setView({ is: 'order', id: o.id })}
                          aria-label={`Open the standing order ${o.name}`}
                        >
                          {o.name}
                        </Anchor>
                        <Text size="xs" c="dimmed">
                          {KIND_LABEL[o.kind]} · {o.connectionKind === 'live' ? 'LIVE' : 'Sandbox'}
                          {o.team ? ' (team)' : ''}
                        </Text>
                      </Table.Td>
                      <Table.Td ta="right">{formatCount(o.items)}</Table.Td>
                      <Table.Td ta="right" className="money" style={{ whiteSpace: 'nowrap' }}>
                        {formatNaira(o.perRunKobo)}
                      </Table.Td>
                      <Table.Td>{o.schedule}</Table.Td>
                      <Table.Td style={{ whiteSpace: 'nowrap' }} data-testid="order-next">
                        {o.next ? formatDay(o.next.dueDay) : '—'}
                      </Table.Td>
                      <Table.Td>
                        {o.lastRun ? (
                          <Stack gap={2} align="flex-start">
                            <Badge color={OUTCOME_COLOR[o.lastRun.outcome]} variant="light" style={{ minWidth: 'max-content' }}>
                              {formatDay(o.lastRun.scheduledDay)}: {OUTCOME_LABEL[o.lastRun.outcome]}
                            </Badge>
                            <RunJobLink occurrence={o.lastRun} onOpenJob={openJob} />
                          </Stack>
                        ) : (
                          <Text size="sm" c="dimmed">
                            None yet
                          </Text>
                        )}
                        {o.waiting > 0 && (
                          <Text size="xs" c="orange" fw={600}>
                            {formatCount(o.waiting)} waiting
                          </Text>
                        )}
                      </Table.Td>
                      <Table.Td>
                        <Badge color={ORDER_STATE_COLOR[o.state]} variant="light">
                          {ORDER_STATE_LABEL[o.state]}
                        </Badge>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </Card>
        <SystemNoticesChoice />
      </Stack>
    </>
  );
}
