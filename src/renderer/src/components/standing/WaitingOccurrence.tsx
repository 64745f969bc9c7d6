import { Alert, Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import type { OccurrenceView } from '../../../../shared/contract/standing';
import { bridge } from '../../bridge';
import { formatDay, formatNaira } from '../../format';
import { useAction } from '../../hooks/useAction';
import { ErrorNotice } from '../ErrorNotice';

const TITLE: Record<string, string> = {
  missed: 'not bought on its day: waits for you',
  another_due: 'another run of this order was due at the same time',
  wallet_short: 'the wallet is short',
  wallet_unknown: 'the wallet could not be read',
  limits: 'today’s spending caps refuse it',
  rows: 'no row can be bought today',
  team: 'the team database did not let it through',
  connection: 'vendesk is connected to another service',
  error: 'it could not start',
};

/** What one occurrence waits for, and why, with what a person may do: Run now, or Skip (asked twice: nothing is bought for a skipped run). */
export function WaitingOccurrence({ occurrence: o, showOrder = false }: { occurrence: OccurrenceView; showOrder?: boolean }) {
  const [askSkip, setAskSkip] = useState(false);
  const { running, busy, error, run } = useAction<'run' | 'skip'>();
  const when = o.dueDay !== o.scheduledDay ? `${formatDay(o.scheduledDay)} (due ${formatDay(o.dueDay)})` : formatDay(o.scheduledDay);
  const title = `${showOrder ? `${o.orderName}, run` : 'Run'} of ${when}: ${TITLE[o.reasonCode ?? ''] ?? 'waits'}`;
  return (
    <Alert color={o.reasonCode === 'wallet_short' ? 'red' : 'orange'} variant="light" title={title} data-testid="waiting-occurrence" data-day={o.scheduledDay}>
      <Stack gap="xs">
        {o.reason && <Text size="sm">{o.reason}</Text>}
        {o.missingKobo !== null && o.missingKobo > 0 && (
          <Text size="sm" fw={600} data-testid="waiting-missing">
            {formatNaira(o.missingKobo)} missing: top up the wallet, then press Run now.
          </Text>
        )}
        {o.waitingRows.length > 0 && (
          <Stack gap={2}>
            <Text size="sm" fw={500}>
              Rows that wait:
            </Text>
            {o.waitingRows.slice(0, 10).map((r) => (
              <Text key={r.row} size="sm">
                Row {r.row} ({r.account ?? r.phone}, {formatNaira(r.amountKobo)}): {r.reason}
              </Text>
            ))}
            {o.waitingRows.length > 10 && (
              <Text size="sm" c="dimmed">
                and {o.waitingRows.length - 10} more.
              </Text>
            )}
          </Stack>
        )}
        {o.teamJobId && (
          <Anchor href="#/approvals" size="sm">
            Open Approvals
          </Anchor>
        )}
        <ErrorNotice error={error} />
        {o.actions.length > 0 &&
          (askSkip ? (
            <Group gap="xs">
              <Text size="sm">Skip the run of {formatDay(o.scheduledDay)}? Nothing is bought for it; the next run keeps its date.</Text>
              <Button
                size="xs"
                color="red"
                loading={running === 'skip'}
                onClick={() => void run(() => bridge.call('standing.skip', { orderId: o.orderId, occurrence: o.scheduledDay }), 'skip')}
              >
                Skip it
              </Button>
              <Button size="xs" variant="default" disabled={busy} onClick={() => setAskSkip(false)}>
                Keep it
              </Button>
            </Group>
          ) : (
            <Group gap="xs">
              {o.actions.includes('run') && (
                <Button
                  size="xs"
                  loading={running === 'run'}
                  disabled={busy}
                  onClick={() => void run(() => bridge.call('standing.runOccurrence', { orderId: o.orderId, occurrence: o.scheduledDay }), 'run')}
                >
                  Run now
                </Button>
              )}
              {o.actions.includes('skip') && (
                <Button size="xs" variant="default" disabled={busy} onClick={() => setAskSkip(true)}>
                  Skip
                </Button>
              )}
            </Group>
          ))}
      </Stack>
    </Alert>
  );
}
