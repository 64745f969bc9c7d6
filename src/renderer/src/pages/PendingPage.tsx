import { Alert, Button, Card, Group, Modal, SimpleGrid, Switch, Text } from '@mantine/core';
import { useCallback, useEffect, useState } from 'react';
import type { PendingItemView } from '../../../shared/contract/pending';
import type { PurchaseView } from '../../../shared/contract/purchases';
import { bridge } from '../bridge';
import { ErrorNotice } from '../components/ErrorNotice';
import { PageHeader } from '../components/PageHeader';
import { PendingTable } from '../components/pending/PendingTable';
import { ResolveDialog } from '../components/pending/ResolveDialog';
import { PurchaseReceipt } from '../components/purchases/PurchaseReceipt';
import { useAction } from '../hooks/useAction';
import { useOperation } from '../hooks/useOperation';

function useSecondsTicker(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, []);
  return now;
}

function Stat({ label, value, color, testId }: { label: string; value: number; color?: string; testId: string }) {
  return (
    <Card withBorder padding="md">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text size="xl" fw={700} c={value > 0 ? color : undefined} data-testid={testId}>
        {value}
      </Text>
    </Card>
  );
}

/**
 * Purchases waiting for a final answer. vendesk checks each one by itself when it is due (from
 * 2 minutes 1 second after the purchase, then less and less often); here a person sees the
 * countdown, can check one now when it is due, copy what support needs, or resolve it by hand.
 */
const ALL_DUE = 'all-due';

export function PendingPage() {
  const [includeSettled, setIncludeSettled] = useState(false);
  const list = useOperation('pending.list', { includeSettled });
  const counts = useOperation('pending.count', {});
  const [loadedAt, setLoadedAt] = useState(() => Date.now());
  // One check at a time: a purchase's id while it is asked about, ALL_DUE for "Check all due now".
  const { running, error, run } = useAction<string>();
  const busyId = running === ALL_DUE ? null : running;
  const [resolving, setResolving] = useState<PendingItemView | null>(null);
  const [receipt, setReceipt] = useState<PurchaseView | null>(null);
  const now = useSecondsTicker();

  const { reload: reloadList } = list;
  const { reload: reloadCounts } = counts;
  const reloadAll = useCallback(() => {
    void reloadList();
    void reloadCounts();
  }, [reloadList, reloadCounts]);
  useEffect(() => bridge.on('pending.due', () => reloadAll()), [reloadAll]);
  useEffect(() => {
    if (list.data) setLoadedAt(Date.now());
  }, [list.data]);

  const secondsLeft = (item: PendingItemView): number | null => (item.dueInSeconds === null ? null : Math.max(0, item.dueInSeconds - Math.floor((now - loadedAt) / 1000)));

  const requery = async (item: PendingItemView) => {
    await run(async () => {
      const updated = await bridge.call('pending.requeryNow', { id: item.purchase.id });
      if (updated.purchase.state === 'success') setReceipt(updated.purchase);
    }, item.purchase.id);
    reloadAll();
  };

  const checkAllDue = async () => {
    await run(() => bridge.call('pending.requeryDue', { all: false }), ALL_DUE);
    reloadAll();
  };

  const items = list.data ?? [];
  const dueNow = items.filter((i) => {
    const left = secondsLeft(i);
    return left !== null && left <= 0;
  }).length;
  const shownReceipt = receipt ? (items.find((i) => i.purchase.id === receipt.id)?.purchase ?? receipt) : null;

  return (
    <>
      <PageHeader
        title="Pending"
        description="Purchases waiting for a final answer from the service. vendesk checks each one automatically when it is due; do not buy them again meanwhile."
        actions={
          <Button onClick={() => void checkAllDue()} loading={running === ALL_DUE} disabled={dueNow === 0}>
            Check all due now{dueNow > 0 ? ` (${dueNow})` : ''}
          </Button>
        }
      />
      <SimpleGrid cols={{ base: 2, md: 4 }} mb="lg">
        <Stat label="Waiting for an answer" value={counts.data?.count ?? 0} color="yellow.8" testId="pending-count" />
        <Stat label="Due for a check now" value={dueNow} color="blue" testId="pending-due" />
        <Stat label="Uncertain (answer lost)" value={counts.data?.uncertain ?? 0} color="orange" testId="pending-uncertain" />
        <Stat label="Need support" value={counts.data?.needsSupport ?? 0} color="grape" testId="pending-support" />
      </SimpleGrid>
      <ErrorNotice error={list.error ?? counts.error} onRetry={reloadAll} title="The pending purchases could not be read" />
      <ErrorNotice error={error} title="The check did not go through" />
      <Group justify="space-between" mb="sm">
        <Switch label="Also show purchases settled in the last 7 days" checked={includeSettled} onChange={(e) => setIncludeSettled(e.currentTarget.checked)} />
      </Group>
      {items.length === 0 && !list.loading ? (
        <Alert color="green" variant="light" title="Nothing is waiting">
          Every electricity and cable TV purchase has a final answer.
        </Alert>
      ) : (
        <Card withBorder padding={0}>
          <PendingTable
            items={items}
            secondsLeft={secondsLeft}
            actions={{ busyId, onRequery: (i) => void requery(i), onResolve: setResolving, onReceipt: (i) => setReceipt(i.purchase) }}
          />
        </Card>
      )}
      <ResolveDialog
        item={resolving}
        onClose={() => setResolving(null)}
        onResolved={() => {
          setResolving(null);
          reloadAll();
        }}
      />
      <Modal opened={shownReceipt !== null} onClose={() => setReceipt(null)} title="Receipt" size="lg" centered>
        {shownReceipt && <PurchaseReceipt purchase={shownReceipt} />}
      </Modal>
    </>
  );
}
