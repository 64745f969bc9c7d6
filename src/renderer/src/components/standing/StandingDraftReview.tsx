import { Accordion, Alert, Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import type { StandingDraftView, StandingOrderView } from '../../../../shared/contract/standing';
import { bridge } from '../../bridge';
import { formatCount, formatDay, formatNaira } from '../../format';
import { useAction } from '../../hooks/useAction';
import { AccordionSection } from '../AccordionSection';
import { KIND_WORD, RECIPIENT_WORD } from '../bulk/bulkLabels';
import { PreviewFigure as Figure } from '../bulk/PreviewFigure';
import { MoneyKindBadge } from '../bulk/MoneyKindBadge';
import { ErrorNotice } from '../ErrorNotice';
import { MoneyInput, readMoneyField } from '../MoneyInput';
import { InvalidRowsTable } from '../bulk/InvalidRowsTable';
import { VirtualRows } from '../bulk/VirtualRows';
import { StandingRows } from './StandingRows';

/**
 * The creator's one confirmation of a standing order: its rows, the total of each run, the
 * schedule in words and its next dates, and what the file had that the order leaves out (as the
 * bulk job's check shows them). On a LIVE connection the per-run total is typed, as for a bulk job.
 */
export function StandingDraftReview({ draft, onConfirmed, onDiscarded }: { draft: StandingDraftView; onConfirmed: (order: StandingOrderView) => void; onDiscarded: () => void }) {
  const { order, invalid, leftOut, live, team } = draft;
  const version = order.pendingVersion ?? order.versions[0] ?? null;
  const perRun = version?.totalKobo ?? order.perRunKobo;
  const [typed, setTyped] = useState('');
  const { busy, running, error, run } = useAction<'confirm' | 'discard'>();
  const typedOk = !live || readMoneyField(typed).kobo === perRun;
  const invalidRows = new Set(invalid.map((i) => i.row)).size;

  const confirm = () => run(async () => onConfirmed(await bridge.call('standing.confirm', { orderId: order.id, ...(live ? { typedTotal: typed } : {}) })), 'confirm');
  const discard = () =>
    run(async () => {
      await bridge.call('standing.discard', { orderId: order.id });
      onDiscarded();
    }, 'discard');

  return (
    <Stack gap="md">
      <Card withBorder padding="lg">
        <Stack gap="md">
          <Group justify="space-between" align="flex-start">
            <div>
              <Title order={2} size="h4">
                Confirm the standing order “{order.name}”
              </Title>
              <Text size="sm" c="dimmed">
                Rows from {version?.source ?? 'the file'}. Nothing has been bought yet.
              </Text>
            </div>
            <MoneyKindBadge live={live} />
          </Group>
          <SimpleGrid cols={{ base: 2, lg: 4 }}>
            <Figure label="Rows each run" value={formatCount(order.rowCount)} hint={`${formatCount(invalidRows)} invalid, ${formatCount(leftOut.length)} left out`} />
            <Figure label="Total of each run" value={formatNaira(perRun)} hint="Face value; the wallet is checked before each run" testId="draft-per-run" />
            <Card withBorder padding="sm">
              <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
                Repeats
              </Text>
              <Text fw={600} data-testid="draft-schedule">
                {order.schedule}
              </Text>
              <Text size="xs" c="dimmed">
                A run missed is still bought within {order.graceDays} day(s)
              </Text>
            </Card>
            <Figure
              label="First run"
              value={order.upcoming[0] ? formatDay(order.upcoming[0].dueDay) : '—'}
              hint={order.upcoming[0] ? undefined : 'The schedule has no date left'}
            />
          </SimpleGrid>
          {order.upcoming.length > 1 && (
            <Text size="sm" data-testid="draft-upcoming">
              Next dates: {order.upcoming.map((u) => formatDay(u.dueDay)).join(' · ')}
            </Text>
          )}
        </Stack>
      </Card>

      <Accordion variant="separated" multiple defaultValue={['rows', invalidRows > 0 ? 'invalid' : '', leftOut.length > 0 ? 'leftout' : ''].filter(Boolean)}>
        <AccordionSection value="rows" title="What each run buys" count={order.rowCount} countColor="teal">
          <StandingRows order={order} />
        </AccordionSection>
        <AccordionSection value="invalid" title="Rows the order leaves out (invalid)" count={invalidRows} countColor={invalidRows > 0 ? 'red' : 'gray'}>
          {invalid.length === 0 ? (
            <Text size="sm" c="dimmed">
              Every row is valid.
            </Text>
          ) : (
            <Stack gap="xs">
              <Text size="sm" c="dimmed">
                These rows are not in the order. To include them, fix them in the spreadsheet and make the order again.
              </Text>
              <InvalidRowsTable rows={invalid} />
            </Stack>
          )}
        </AccordionSection>
        <AccordionSection value="leftout" title="Rows that repeat an earlier row" count={leftOut.length} countColor={leftOut.length > 0 ? 'yellow' : 'gray'}>
          {leftOut.length === 0 ? (
            <Text size="sm" c="dimmed">
              No row repeats another.
            </Text>
          ) : (
            <VirtualRows
              label="Rows left out"
              rows={leftOut}
              rowKey={(r) => r.row}
              columns={[
                { header: 'Row', width: 70, render: (r) => <Text size="sm">{r.row}</Text> },
                { header: 'Number', width: 140, render: (r) => <Text size="sm">{r.account ?? r.phone}</Text> },
                { header: 'Amount', width: 120, align: 'right', render: (r) => <Text size="sm">{formatNaira(r.amountKobo)}</Text> },
                { header: 'Why it is left out', width: '1fr', render: (r) => <Text size="sm">{r.reason}</Text> },
              ]}
            />
          )}
        </AccordionSection>
      </Accordion>

      <Card withBorder padding="lg">
        <Stack gap="sm">
          <Text size="sm" data-testid="draft-sentence">
            Confirming makes each run buy {KIND_WORD[order.kind]} for <b>{formatCount(order.rowCount)}</b> {RECIPIENT_WORD[order.kind]}, <b>{formatNaira(perRun)}</b> each run,{' '}
            {order.schedule.charAt(0).toLowerCase() + order.schedule.slice(1)}, from the wallet of this connection
            {team ? ', each run after the team’s approval (or a standing approval)' : ''}. You confirm once: the runs then buy themselves on their days.
          </Text>
          {live && (
            <MoneyInput
              label={`Type the total of each run (${formatNaira(perRun)}) to confirm this LIVE standing order`}
              placeholder={formatNaira(perRun).slice(1)}
              value={typed}
              onChange={setTyped}
              problem={typedOk ? null : `This is not the total of each run shown above (${formatNaira(perRun)}).`}
              w={420}
            />
          )}
          {order.rowCount === 0 && (
            <Alert color="red" variant="light" title="Nothing to buy">
              The order has no valid row.
            </Alert>
          )}
          <ErrorNotice error={error} />
          <Group>
            <Button
              color={live ? 'red' : undefined}
              onClick={() => void confirm()}
              loading={running === 'confirm'}
              disabled={busy || !typedOk || (live && typed === '') || order.rowCount === 0}
            >
              Confirm: {formatNaira(perRun)} each run
            </Button>
            <Button variant="default" onClick={() => void discard()} loading={running === 'discard'} disabled={busy}>
              Discard
            </Button>
          </Group>
        </Stack>
      </Card>
    </Stack>
  );
}
