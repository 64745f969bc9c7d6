import { Alert, Button, Card, Group, Stack, Tabs, Text } from '@mantine/core';
import { useCallback, useEffect, useState } from 'react';
import { CATEGORY_LABELS, RECONCILE_CATEGORIES, type ReconcileCategory, type ReconcileRunView, type RequeryPendingSummary } from '../../../shared/contract/reconcile';
import { AppError, asAppError, bridge } from '../bridge';
import { ErrorNotice } from '../components/ErrorNotice';
import { PageHeader } from '../components/PageHeader';
import { CategoryItemsTable } from '../components/reconcile/CategoryItemsTable';
import { NewRunForm } from '../components/reconcile/NewRunForm';
import { categoryTitle } from '../components/reconcile/reconcileLabels';
import { RunHistory } from '../components/reconcile/RunHistory';
import { CategoryCards, RollForwardCard } from '../components/reconcile/RunSummary';
import { formatCount, formatDateTime, formatDay } from '../format';
import { useAction } from '../hooks/useAction';
import { useOperation } from '../hooks/useOperation';

/** The first category that needs attention, else Matched. */
function firstException(run: ReconcileRunView): ReconcileCategory {
  return RECONCILE_CATEGORIES.find((c) => c !== 'matched' && run.totals[c].count > 0) ?? 'matched';
}

export function ReconcilePage() {
  const runs = useOperation('reconcile.runs', { limit: 50 });
  const [run, setRun] = useState<ReconcileRunView | null>(null);
  const [category, setCategory] = useState<ReconcileCategory>('matched');
  const [readError, setReadError] = useState<AppError | null>(null);
  const { running: busy, error: actionError, run: act } = useAction<'requery' | 'export' | 'csv'>();
  const [requery, setRequery] = useState<RequeryPendingSummary | null>(null);

  const open = useCallback(async (id: string, keepCategory = false) => {
    try {
      const view = await bridge.call('reconcile.run', { runId: id });
      setRun(view);
      if (!keepCategory) setCategory(firstException(view));
      setReadError(null);
    } catch (e) {
      setReadError(asAppError(e));
    }
  }, []);

  // Reopen the newest finished run when the page opens.
  const newest = runs.data?.find((r) => r.state === 'done')?.id ?? null;
  useEffect(() => {
    if (!run && newest) void open(newest);
  }, [newest, run, open]);

  const pendingCount = run?.totals.pending.count ?? 0;

  return (
    <>
      <PageHeader
        title="Reconcile"
        description="Compare a vendor export with local records and explain the wallet"
        actions={
          run && (
            <>
              <Button
                variant="light"
                disabled={pendingCount === 0}
                loading={busy === 'requery'}
                onClick={() =>
                  void act(async () => {
                    const summary = await bridge.call('reconcile.requeryPending', { runId: run.id });
                    setRequery(summary);
                    await open(run.id, true);
                  }, 'requery')
                }
              >
                Requery all pending ({pendingCount})
              </Button>
              <Button
                loading={busy === 'export'}
                onClick={() =>
                  void act(async () => {
                    const file = await bridge.call('reconcile.exportWorkbook', { runId: run.id });
                    await bridge.download(file);
                  }, 'export')
                }
              >
                Export report (Excel)
              </Button>
            </>
          )
        }
      />
      <Stack gap="md">
        <NewRunForm
          onDone={(view) => {
            setRun(view);
            setCategory(firstException(view));
            setRequery(null);
            void runs.reload();
          }}
        />
        <ErrorNotice error={actionError ?? readError ?? runs.error} />
        {requery && (
          <Alert color="blue" variant="light" withCloseButton onClose={() => setRequery(null)} title={`Requeried ${requery.queued} pending item(s)`}>
            <Text size="sm">{`${requery.success} succeeded, ${requery.failed} failed, ${requery.stillPending} still pending, ${requery.notChecked} could not be checked now.`}</Text>
            {requery.notes.map((n) => (
              <Text key={n} size="xs" c="dimmed">
                {n}
              </Text>
            ))}
          </Alert>
        )}
        {run && (
          <>
            <Card withBorder padding="sm">
              <Group justify="space-between" wrap="wrap">
                <Text size="sm">
                  <b>{run.inputs?.fileName}</b>
                  {` · ${formatDay(run.parameters.from)} → ${formatDay(run.parameters.to)} · ${formatCount(run.inputs?.exportRows ?? 0)} export rows against ${formatCount(run.inputs?.mirrorRows ?? 0)} mirror entries · made ${formatDateTime(run.createdAt)}`}
                </Text>
                <Text size="xs" c="dimmed">
                  {`${run.inputs?.exportRowsOutsideRange ? `${formatCount(run.inputs.exportRowsOutsideRange)} export rows outside the range left out · ` : ''}${run.unreadable.length ? `${formatCount(run.inputs?.exportRowsUnreadable ?? 0)} unreadable rows (see the workbook) · ` : ''}took ${((run.durationMs ?? 0) / 1000).toFixed(1)} s`}
                </Text>
              </Group>
            </Card>
            <CategoryCards run={run} selected={category} onSelect={setCategory} />
            <RollForwardCard rollForward={run.rollForward} />
            <Card withBorder padding="md">
              <Tabs value={category} onChange={(v) => v && setCategory(v as ReconcileCategory)} keepMounted={false}>
                <Group justify="space-between" align="flex-end" mb="sm">
                  <Tabs.List>
                    {RECONCILE_CATEGORIES.map((c) => (
                      <Tabs.Tab key={c} value={c} disabled={run.totals[c].count === 0} title={CATEGORY_LABELS[c]}>
                        {`${categoryTitle(c)} (${formatCount(run.totals[c].count)})`}
                      </Tabs.Tab>
                    ))}
                  </Tabs.List>
                  <Button
                    size="xs"
                    variant="default"
                    loading={busy === 'csv'}
                    disabled={run.totals[category].count === 0}
                    onClick={() =>
                      void act(async () => {
                        const file = await bridge.call('reconcile.exportCsv', { runId: run.id, category });
                        await bridge.download(file);
                      }, 'csv')
                    }
                  >
                    This category as CSV
                  </Button>
                </Group>
                <CategoryItemsTable key={`${run.id}-${category}`} runId={run.id} category={category} total={run.totals[category].count} onChanged={() => void open(run.id, true)} />
              </Tabs>
            </Card>
          </>
        )}
        <RunHistory runs={runs.data ?? []} currentId={run?.id ?? null} onOpen={(id) => void open(id)} />
      </Stack>
    </>
  );
}
