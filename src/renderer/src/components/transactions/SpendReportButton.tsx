/**
 * "Spend report…": the spend workbook of `vendesk report spend` from the window. Asks for the days
 * (the Transactions filter's, else this month: Lagos days on the service's clock, as the Dashboard's
 * today, not this computer's), writes the workbook and its chart — reading first the days vendesk
 * has not read from the service, and saying so — downloads (or, in the desktop app, shows) the
 * workbook, and says where it went with both totals and the period it covers.
 */
import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import type { OperationOutput } from '../../../../shared/contract';
import { faceAndCostText, messagingText, purchasesText, refundedText } from '../../../../shared/spendText';
import { missingDaysText, periodNotes } from '../../../../shared/coverageText';
import { monthStartDay } from '../../../../shared/localDates';
import { bridge } from '../../bridge';
import { formatDay, formatNaira } from '../../format';
import { useAction } from '../../hooks/useAction';
import { useOperation } from '../../hooks/useOperation';
import { ErrorNotice } from '../ErrorNotice';
import { DateField } from '../DateField';

type SpendReportWritten = OperationOutput<'reports.spend'>;

export function SpendReportButton({ from, to }: { from?: string; to?: string }) {
  const [opened, setOpened] = useState(false);
  const [range, setRange] = useState({ from: '', to: '' });
  const [written, setWritten] = useState<SpendReportWritten | null>(null);
  const { busy, error, setError, run } = useAction();
  const badRange = Boolean(range.from && range.to && range.from > range.to);
  // Days of the range vendesk has not read: writing the report reads them first (never a total silently short).
  const coverage = useOperation('logs.coverage', { from: range.from, to: range.to }, { enabled: opened && Boolean(range.from && range.to) && !badRange });
  const unread = coverage.data && !coverage.data.complete ? coverage.data : null;

  const open = () => {
    setRange({ from: from ?? '', to: to ?? '' });
    setWritten(null);
    setError(null);
    setOpened(true);
    // Days the filter did not give: this month up to today, on the service's clock.
    if (!from || !to) {
      void run(async () => {
        const { today } = await bridge.call('app.info', {});
        setRange((r) => ({ from: r.from || monthStartDay(today), to: r.to || today }));
      });
    }
  };
  const write = () =>
    void run(async () => {
      setWritten(null);
      const file = await bridge.call('reports.spend', range);
      setWritten(file);
      await bridge.download(file);
    });

  return (
    <>
      <Button variant="default" onClick={open} data-testid="spend-report-open">
        Spend report…
      </Button>
      <Modal opened={opened} onClose={() => setOpened(false)} title="Spend report (Excel)" centered size="lg">
        <Stack gap="sm">
          <Text size="sm">
            What left the wallet on the chosen Lagos days: successful and pending purchases (refunded ones are shown apart), from the transactions on this computer (days never read
            are read from the service first; today counts up to its last sync), and the messages sent through vendesk on a line of their own: totals, then the purchases by day, by
            type and by network, each with the face value, the wallet cost and the commission. A chart of the daily wallet cost is saved beside it.
          </Text>
          <Group gap="sm" align="flex-end">
            <DateField
              label="From"
              value={range.from}
              onChange={(d) => setRange({ ...range, from: d })}
              w={170}
              error={badRange ? 'After “To”' : undefined}
              data-testid="spend-report-from"
            />
            <DateField label="To (inclusive)" value={range.to} onChange={(d) => setRange({ ...range, to: d })} w={170} data-testid="spend-report-to" />
          </Group>
          {unread && !written && (
            <Alert color="blue" variant="light" title="Some days are read from the service first" data-testid="spend-report-unread">
              <Text size="sm">
                vendesk has not read {missingDaysText(unread)} from the service. Writing the report reads {unread.wholeLogUnread ? 'it' : 'them'} first, so every purchase of the
                period is counted{busy ? ': reading now…' : '.'}
              </Text>
            </Alert>
          )}
          <ErrorNotice error={error} title="The spend report was not written" />
          {written && (
            <Alert color="teal" variant="light" title="Spend report written" data-testid="spend-report-written">
              <Text size="sm" fw={600} className="money" data-testid="spend-report-totals">
                {faceAndCostText(written.totals.faceKobo, written.totals.costKobo)}
              </Text>
              <Text size="sm">
                {purchasesText(written.totals.purchases)} from {formatDay(range.from)} to {formatDay(range.to)}; commission earned {formatNaira(written.totals.commissionKobo)}
                {written.totals.refunded && written.totals.refunded.count > 0 ? `; ${refundedText(written.totals.refunded)}, not counted` : ''}.
              </Text>
              <Text size="sm" data-testid="spend-report-messaging">
                {messagingText(written.totals.messaging)}. Left the wallet: <b className="money">{formatNaira(written.totals.walletKobo)}</b>.
              </Text>
              {periodNotes(written.coverage).map((note) => (
                <Text size="xs" c="dimmed" mt={4} key={note} data-testid="spend-report-period">
                  {note}
                </Text>
              ))}
              <Text size="sm" mt={6}>
                Saved as <b>{written.fileName}</b> in the exports folder:
              </Text>
              <Text size="xs" c="dimmed" style={{ wordBreak: 'break-all' }} data-testid="spend-report-path">
                {written.path}
              </Text>
              <Group gap="xs" mt="sm">
                <Button size="xs" variant="white" onClick={() => void bridge.download(written)}>
                  Download the workbook again
                </Button>
                {written.chart && (
                  <Button size="xs" variant="white" onClick={() => written.chart && void bridge.download(written.chart)} data-testid="spend-report-chart">
                    Chart (SVG image)
                  </Button>
                )}
              </Group>
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setOpened(false)}>
              Close
            </Button>
            <Button onClick={write} loading={busy} disabled={!range.from || !range.to || badRange} data-testid="spend-report-write">
              Write the report
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
