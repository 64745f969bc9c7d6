import { Alert, Button, Card, Group, Modal, SimpleGrid, Switch, Text } from '@mantine/core';
import { useCallback, useEffect, useState } from 'react';
import type { PendingItemView, RequeryRunSummary } from '../../../shared/contract/pending';
import type { PurchaseView } from '../../../shared/contract/purchases';
import { bridge } from '../bridge';
import { ErrorNotice } from '../components/ErrorNotice';
import { PageHeader } from '../components/PageHeader';
import { PendingTable } from '../components/pending/PendingTable';
import { ResolveDialog } from '../components/pending/ResolveDialog';
import { PurchaseReceipt } from '../components/purchases/PurchaseReceipt';
import { useAction } from '../hooks/useAction';
import { useOperation } from '../hooks/useOperation';
import { formatTime } from '../format';

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

/** Purchases the service does not answer yet, and when vendesk asks it about each. */
function notAskedYet(items: PendingItemView[]): string {
  const at = items.map((i) => i.requeryAllowedAt).filter((t): t is string => t !== null);
  const when =
    at.length === 1
      ? `this purchase from ${formatTime(at[0])}, 2 min 1 s after the purchase`
      : `these ${items.length} purchases from 2 min 1 s after each purchase (the first at ${formatTime(at.sort()[0])})`;
  return `Not asked yet: the service answers a requery of ${when}. vendesk asks it then by itself, and the answer shows here.`;
}

/** What "Check all now" did: the answers, and what could not be asked yet. */
function checkedText(s: RequeryRunSummary): string {
  const early = s.items.filter((i) => (i.requeryAllowedInSeconds ?? 0) > 0);
  const asked = s.checked - early.length;
  const answers = [
    s.success ? `${s.success} succeeded` : null,
    s.failed ? `${s.failed} failed` : null,
    s.stillPending ? `${s.stillPending} still pending` : null,
    s.needsSupport ? `${s.needsSupport} need support` : null,
    s.notFound ? `${s.notFound} not found` : null,
    s.rescheduled - early.length > 0 ? `${s.rescheduled - early.length} without a final answer yet (vendesk asks again shortly)` : null,
  ].filter(Boolean);
  const done = asked > 0 ? `Asked about ${asked} purchase${asked === 1 ? '' : 's'}${answers.length ? `: ${answers.join(', ')}` : ''}.` : '';
  return [done, early.length > 0 ? notAskedYet(early) : ''].filter(Boolean).join(' ') || 'Nothing was waiting for an answer.';
}

/**
 * Purchases waiting for a final answer. vendesk checks each one by itself when it is due (from
 * 2 minutes 1 second after the purchase, then less and less often); here a person sees the
 * countdown, can ask the service now (as `vendesk requery` does: at once from the moment the service
 * answers, at that moment when pressed earlier), copy what support needs, or resolve it by hand.
 */
const ALL_WAITING = 'all-waiting';

export function PendingPage() {
  const [includeSettled, setIncludeSettled] = useState(false);
  const list = useOperation('pending.list', { includeSettled });
  const counts = useOperation('pending.count', {});
  const [loadedAt, setLoadedAt] = useState(() => Date.now());
  // One check at a time: a purchase's id while it is asked about, ALL_WAITING for "Check all now".
  const { running, error, run } = useAction<string>();
  const busyId = running === ALL_WAITING ? null : running;
  const [resolving, setResolving] = useState<PendingItemView | null>(null);
  const [receipt, setReceipt] = useState<PurchaseView | null>(null);
  // What the last "Requery now" or "Check all now" did, in words.
  const [outcome, setOutcome] = useState<string | null>(null);
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

  // A countdown of the list as read, ticking on this page.
  const secondsLeft = (seconds: number | null): number | null => (seconds === null ? null : Math.max(0, seconds - Math.floor((now - loadedAt) / 1000)));

  const requery = async (item: PendingItemView) => {
    setOutcome(null);
    await run(async () => {
      const updated = await bridge.call('pending.requeryNow', { id: item.purchase.id });
      if (updated.purchase.state === 'success') setReceipt(updated.purchase);
      if ((updated.requeryAllowedInSeconds ?? 0) > 0) setOutcome(notAskedYet([updated]));
    }, item.purchase.id);
    reloadAll();
  };

  const checkAll = async () => {
    setOutcome(null);
    await run(async () => setOutcome(checkedText(await bridge.call('pending.requeryDue', { all: true }))), ALL_WAITING);
    reloadAll();
  };

  const items = list.data ?? [];
  const dueNow = items.filter((i) => {
    const left = secondsLeft(i.dueInSeconds);
    return left !== null && left <= 0;
  }).length;
  const waiting = items.filter((i) => i.purchase.state === 'pending' || i.purchase.state === 'uncertain').length;
  const shownReceipt = receipt ? (items.find((i) => i.purchase.id === receipt.id)?.purchase ?? receipt) : null;

  return (
    <>
      <PageHeader
        title="Pending"
        description="Purchases waiting for a final answer from the service. vendesk checks each one automatically when it is due; do not buy them again meanwhile."
        actions={
          <Button onClick={() => void checkAll()} loading={running === ALL_WAITING} disabled={waiting === 0} data-testid="check-all-now">
            Check all now{waiting > 0 ? ` (${waiting})` : ''}
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
      {outcome && (
        <Alert
          color="blue"
          variant="light"
          title="Checked"
          role="status"
          withCloseButton
          closeButtonLabel="Close"
          onClose={() => setOutcome(null)}
          mb="sm"
          data-testid="requery-outcome"
        >
          {outcome}
        </Alert>
      )}
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
