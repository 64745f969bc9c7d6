/**
 * Transactions: the vending log mirrored on this computer. Filters like the service's log, a
 * table that reaches every row of a million, totals for the filter, a detail panel, and export of
 * exactly the filtered rows to XLSX or CSV.
 */
import { Alert, Button, Card, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { reversedDatesMessage, type LogFilter, type LogSort, type LogRowView } from '../../../shared/contract/logs';
import { faceAndCostText, refundedText } from '../../../shared/spendText';
import { bridge } from '../bridge';
import { ErrorNotice } from '../components/ErrorNotice';
import { ChangeCostCentreDialog } from '../components/costCentres/ChangeCostCentreDialog';
import { LogDetail } from '../components/transactions/LogDetail';
import { LogFilters } from '../components/transactions/LogFilters';
import { SpendReportButton } from '../components/transactions/SpendReportButton';
import { SyncControl } from '../components/transactions/SyncControl';
import { UnreadDaysNotice } from '../components/transactions/UnreadDaysNotice';
import { VirtualLogTable } from '../components/transactions/VirtualLogTable';
import { FIGURE_CARD, FigureText } from '../components/FigureText';
import { PageHeader } from '../components/PageHeader';
import { formatCount, formatNaira, formatTime } from '../format';
import { useAction } from '../hooks/useAction';
import { useDataChanged, useOperation } from '../hooks/useOperation';

function Total({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <Card withBorder padding="sm" className={FIGURE_CARD}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <FigureText size="md" fw={700} data-testid={testId}>
        {value}
      </FigureText>
    </Card>
  );
}

export function TransactionsPage() {
  const [filter, setFilter] = useState<LogFilter>({});
  const [sort, setSort] = useState<LogSort>('time_desc');
  const [version, setVersion] = useState(0);
  const [open, setOpen] = useState<LogRowView | null>(null);
  const [costCentreOf, setCostCentreOf] = useState<string | null>(null);
  const { running: exporting, error: exportError, setError: setExportError, run } = useAction<'xlsx' | 'csv'>();
  const badRange = filter.from && filter.to && filter.from > filter.to ? reversedDatesMessage(filter.from, filter.to) : null;
  const totals = useOperation('logs.totals', { filter }, { enabled: !badRange });
  // What the mirror holds of the filter's days (of the whole log without them): figures over days never read say so.
  const coverage = useOperation('logs.coverage', { from: filter.from, to: filter.to }, { enabled: !badRange });
  const facets = useOperation('logs.facets', {});
  // The totals and the filter choices follow the mirror by themselves (READ_TOPICS); the table is read a window at a time.
  useDataChanged(['mirror'], () => setVersion((v) => v + 1));

  const exportAs = (format: 'xlsx' | 'csv') =>
    run(async () => {
      // Over days the mirror has not read, the export reads them first (its progress shows in Sync), or says why it could not.
      const file = await bridge.call('logs.export', { filter, sort, format });
      await bridge.download(file);
      const today = file.coverage?.todayReadThrough ? ` Today is counted up to ${formatTime(file.coverage.todayReadThrough)}, when it was last read.` : '';
      notifications.show({
        color: 'teal',
        title: 'Export ready',
        message: `${formatCount(file.rows)} transactions written to ${file.fileName} (${[faceAndCostText(file.totals.amountKobo, file.totals.costKobo), refundedText(file.totals.refunded)].filter(Boolean).join('; ')}).${today}`,
      });
    }, format);

  // Figures only for the filter in force: none beside an error, none for filters that cannot be read.
  const t = badRange || totals.error ? undefined : totals.data;
  const figure = (f: (totals: NonNullable<typeof t>) => string) => (t ? f(t) : badRange || totals.error ? '—' : '…');
  return (
    <>
      <PageHeader title="Transactions" description="The vending log, mirrored on this computer" actions={<SyncControl compact />} />
      <Stack gap="md">
        <LogFilters
          filter={filter}
          sort={sort}
          facets={facets.data}
          onChange={(f, s) => {
            setFilter(f);
            setSort(s);
            setExportError(null);
          }}
        />
        {badRange && (
          <Alert color="red" variant="light" title="These filters cannot be applied" role="alert" data-testid="filter-problem">
            {badRange}
          </Alert>
        )}
        <ErrorNotice error={facets.error} onRetry={() => void facets.reload()} title="The filter choices could not be read" />
        <ErrorNotice error={totals.error} onRetry={() => void totals.reload()} title="The totals could not be read" />
        {!badRange && <UnreadDaysNotice coverage={coverage.data} subject={filter.from || filter.to ? 'These totals and rows' : 'The totals and rows of the whole log'} />}
        {/* Each card is wide enough for an eight-digit Naira figure; a narrow window puts them on more rows, and a figure is never cut. */}
        <div className="figure-grid" data-testid="totals">
          <Total label="Transactions" value={figure((x) => formatCount(x.count))} testId="totals-count" />
          <Total label="Face value" value={figure((x) => formatNaira(x.amountKobo))} testId="totals-amount" />
          <Total label="Wallet cost" value={figure((x) => formatNaira(x.costKobo))} testId="totals-cost" />
          <Total label="Commission earned" value={figure((x) => formatNaira(x.commissionKobo))} testId="totals-commission" />
          <Total
            label={t ? `Refunded (${formatCount(t.refunded.count)}), not counted` : 'Refunded, not counted'}
            value={figure((x) => formatNaira(x.refunded.costKobo))}
            testId="totals-refunded"
          />
        </div>
        <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
          <Text size="xs" c="dimmed" data-testid="totals-rule" style={{ flex: '1 1 360px' }}>
            Face value, wallet cost and commission count successful and pending purchases (what left the wallet); failed ones were refunded and are shown apart, at what the wallet
            got back. Days are Lagos days.
          </Text>
          <Group gap="xs">
            <Button variant="default" loading={exporting === 'xlsx'} disabled={!t || t.count === 0 || exporting !== null} onClick={() => void exportAs('xlsx')}>
              Export to Excel
            </Button>
            <Button variant="default" loading={exporting === 'csv'} disabled={!t || t.count === 0 || exporting !== null} onClick={() => void exportAs('csv')}>
              Export CSV
            </Button>
            <SpendReportButton from={filter.from} to={filter.to} />
          </Group>
        </Group>
        <ErrorNotice error={exportError} title="The export was not written" />
        {!badRange && !totals.error && <VirtualLogTable filter={filter} sort={sort} count={t?.count ?? 0} version={version} onOpen={setOpen} />}
      </Stack>
      <LogDetail row={open} onClose={() => setOpen(null)} onChangeCostCentre={setCostCentreOf} />
      <ChangeCostCentreDialog
        reference={costCentreOf}
        onClose={() => {
          setCostCentreOf(null);
          // The detail shows the row as it was read: read it again (its cost centre may have changed).
          if (open) void bridge.call('logs.get', { rowid: open.rowid }).then(setOpen, () => setOpen(null));
        }}
      />
    </>
  );
}
