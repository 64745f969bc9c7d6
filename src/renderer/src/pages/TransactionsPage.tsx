/**
 * Transactions: the vending log mirrored on this computer. Filters like the service's log, a
 * table that reaches every row of a million, totals for the filter, a detail panel, and export of
 * exactly the filtered rows to XLSX or CSV.
 */
import { Button, Card, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import type { LogFilter, LogSort, MirrorRow } from '../../../shared/contract/logs';
import { faceAndCostText } from '../../../shared/spendText';
import { AppError, bridge } from '../bridge';
import { ErrorNotice } from '../components/ErrorNotice';
import { LogDetail } from '../components/mirror/LogDetail';
import { LogFilters } from '../components/mirror/LogFilters';
import { SpendReportButton } from '../components/mirror/SpendReportButton';
import { SyncControl } from '../components/mirror/SyncControl';
import { VirtualLogTable } from '../components/mirror/VirtualLogTable';
import { PageHeader } from '../components/PageHeader';
import { formatCount, formatNaira } from '../format';
import { useDataChanged, useOperation } from '../hooks/useOperation';

function Total({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <Card withBorder padding="sm">
      <Text size="xs" c="dimmed">{label}</Text>
      <Text fw={700} className="money" data-testid={testId}>{value}</Text>
    </Card>
  );
}

export function TransactionsPage() {
  const [filter, setFilter] = useState<LogFilter>({});
  const [sort, setSort] = useState<LogSort>('time_desc');
  const [version, setVersion] = useState(0);
  const [open, setOpen] = useState<MirrorRow | null>(null);
  const [exporting, setExporting] = useState<'xlsx' | 'csv' | null>(null);
  const [exportError, setExportError] = useState<AppError | null>(null);
  const badRange = Boolean(filter.from && filter.to && filter.from > filter.to);
  const totals = useOperation('logs.totals', { filter }, { enabled: !badRange });
  useDataChanged(['mirror', 'connection'], () => {
    setVersion((v) => v + 1);
    void totals.reload();
  });

  async function exportAs(format: 'xlsx' | 'csv') {
    setExporting(format);
    setExportError(null);
    try {
      const file = await bridge.call('logs.export', { filter, sort, format });
      await bridge.download(file);
      notifications.show({ color: 'teal', title: 'Export ready', message: `${formatCount(file.rows)} transactions written to ${file.fileName} (${faceAndCostText(file.totals.amountKobo, file.totals.costKobo)})` });
    } catch (e) {
      setExportError(e instanceof AppError ? e : new AppError('export_failed', String(e)));
    } finally {
      setExporting(null);
    }
  }

  const t = totals.data;
  return (
    <>
      <PageHeader title="Transactions" description="The vending log, mirrored on this computer" actions={<SyncControl compact />} />
      <Stack gap="md">
        <LogFilters filter={filter} sort={sort} onChange={(f, s) => { setFilter(f); setSort(s); }} />
        <ErrorNotice error={totals.error} onRetry={() => void totals.reload()} title="The totals could not be read" />
        <Group justify="space-between" align="flex-end">
          <SimpleGrid cols={4} spacing="sm" style={{ flex: 1 }}>
            <Total label="Transactions" value={t ? formatCount(t.count) : '…'} testId="totals-count" />
            <Total label="Face value" value={t ? formatNaira(t.amountKobo) : '…'} testId="totals-amount" />
            <Total label="Wallet cost" value={t ? formatNaira(t.costKobo) : '…'} testId="totals-cost" />
            <Total label="Commission earned" value={t ? formatNaira(t.commissionKobo) : '…'} testId="totals-commission" />
          </SimpleGrid>
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
        {badRange ? (
          <Text c="red" size="sm">The “From” date is after the “To” date: change one of them.</Text>
        ) : (
          <VirtualLogTable filter={filter} sort={sort} count={t?.count ?? 0} version={version} onOpen={setOpen} />
        )}
      </Stack>
      <LogDetail row={open} onClose={() => setOpen(null)} />
    </>
  );
}
