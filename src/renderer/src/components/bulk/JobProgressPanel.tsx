import { Alert, Badge, Button, Card, Group, Modal, Progress, SegmentedControl, SimpleGrid, Stack, Text, Title, Tooltip } from '@mantine/core';
import { useCallback, useEffect, useState } from 'react';
import type { BulkItemState, BulkItemView, BulkJobView } from '../../../../shared/contract/bulk';
import { AppError, asAppError, bridge } from '../../bridge';
import { formatCount, formatDateTime, formatNaira, localTimesIn } from '../../format';
import { useAction } from '../../hooks/useAction';
import { useDataChanged } from '../../hooks/useOperation';
import { ErrorNotice } from '../ErrorNotice';
import { TeamDraftPanel } from '../team/TeamDraftPanel';
import { ITEM_COLOR, ITEM_LABEL, ITEM_MEANING, JOB_COLOR, jobLabel, KIND_LABEL, RECIPIENT_WORD, rowAccount } from './bulkLabels';
import { JobMoney } from './JobMoney';
import { useJobProgress } from './useJobProgress';
import { VirtualRows } from './VirtualRows';

const SHOWN: BulkItemState[] = ['success', 'failed', 'pending', 'accepted', 'rejected', 'uncertain', 'held', 'queued', 'sending', 'cancelled', 'excluded'];

type Filter = 'all' | 'problems' | BulkItemState;

/** Step 3: the job buying, its live counts, its controls, and each row's result. */
export function JobProgressPanel({ jobId, onClose, closeLabel = 'Back to jobs' }: { jobId: string; onClose: () => void; closeLabel?: string }) {
  const [job, setJob] = useState<BulkJobView | null>(null);
  const [items, setItems] = useState<BulkItemView[]>([]);
  const [itemTotal, setItemTotal] = useState(0);
  const [filter, setFilter] = useState<Filter>('all');
  const action = useAction();
  const busy = action.busy;
  const [readError, setReadError] = useState<AppError | null>(null);
  const error = action.error ?? readError;
  const [askingCancel, setAskingCancel] = useState(false);

  // The job's counts and money come from one read, so they always agree with each other.
  const loadJob = useCallback(async () => {
    try {
      setJob(await bridge.call('bulk.status', { jobId }));
      setReadError(null);
    } catch (e) {
      setReadError(asAppError(e));
    }
  }, [jobId]);
  const loadItems = useCallback(async () => {
    try {
      const list = await bridge.call('bulk.items', {
        jobId,
        limit: 5000,
        ...(filter === 'all' ? {} : { states: filter === 'problems' ? ['rejected', 'uncertain', 'failed', 'held', 'pending'] : [filter] }),
      });
      setItems(list.items);
      setItemTotal(list.total);
    } catch (e) {
      setReadError(asAppError(e));
    }
  }, [jobId, filter]);
  const load = useCallback(() => Promise.all([loadJob(), loadItems()]).then(() => undefined), [loadJob, loadItems]);

  useEffect(() => {
    void load();
  }, [load]);
  useDataChanged(['jobs'], () => void load());

  // While it runs: the counts and money about three times a second, the row list once a second.
  useJobProgress(jobId, 300, () => void loadJob());
  useJobProgress(jobId, 1000, () => void loadItems());

  const run = (fn: () => Promise<unknown>) =>
    action.run(async () => {
      await fn();
      await load();
    });

  const download = (format: 'xlsx' | 'csv') => run(async () => bridge.download(await bridge.call('bulk.export', { jobId, format })));

  if (!job) {
    return <ErrorNotice error={error} />;
  }

  // Sent for the team's approval and not run yet: what the team decided, and what to do.
  if (job.state === 'awaiting_approval' && job.teamJobId) return <TeamDraftPanel job={{ ...job, teamJobId: job.teamJobId }} onStarted={() => void load()} onClose={onClose} />;

  const c = job.counts;
  const percent = job.items === 0 ? 0 : Math.round((job.done / job.items) * 100);
  const running = job.active;
  const canResume = !running && (job.state === 'paused' || job.interrupted || (job.state === 'needs_attention' && c.pending + c.uncertain > 0));
  // A finished or cancelled job sends nothing more; what the service has not settled yet (and costs not known yet) can be asked about now.
  const open = c.pending + c.accepted + c.uncertain + c.sending;
  const costsUnknown = job.bought.costKnown < job.bought.count || job.refunded.costKnown < job.refunded.count;
  const canCheck = !running && (job.state === 'completed' || job.state === 'cancelled') && (open > 0 || costsUnknown);
  const canPause = running && job.state === 'running';
  const canCancel = job.state === 'running' || job.state === 'paused';
  const uncertain = items.filter((i) => i.state === 'uncertain');
  const vending = job.kind === 'electricity' || job.kind === 'cable';
  const cancel = () => {
    setAskingCancel(false);
    void run(() => bridge.call('bulk.cancel', { jobId }));
  };

  return (
    <Stack gap="md">
      <Modal opened={askingCancel} onClose={() => setAskingCancel(false)} title="Cancel the rest of this job?" centered>
        <Stack gap="sm">
          <Text size="sm" data-testid="cancel-what">
            {formatCount(job.toSend.count)} row(s) not sent yet ({formatNaira(job.toSend.faceKobo)}) will not be bought.
          </Text>
          <Text size="sm" c="dimmed">
            Rows already sent are not affected: vendesk keeps following them to their outcome. A cancelled job cannot be resumed; to buy the rest later, check the file again.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setAskingCancel(false)}>
              Keep the job
            </Button>
            <Button color="red" onClick={cancel}>
              Cancel the rest
            </Button>
          </Group>
        </Stack>
      </Modal>
      <Card withBorder padding="lg">
        <Stack gap="sm">
          <Group justify="space-between" align="flex-start">
            <div>
              <Title order={2} size="h4">
                {KIND_LABEL[job.kind]} for {formatCount(job.items)} {RECIPIENT_WORD[job.kind]} — {job.fileName}
              </Title>
              <Text size="sm" c="dimmed">
                Confirmed {formatDateTime(job.confirmedAt)}
                {job.finishedAt ? ` · finished ${formatDateTime(job.finishedAt)}` : ''} · {job.connectionKind === 'live' ? 'LIVE' : 'Sandbox'}
              </Text>
            </div>
            <Badge size="lg" color={job.interrupted ? 'orange' : JOB_COLOR[job.state]} data-testid="job-state">
              {running && job.state === 'running' ? 'Buying…' : jobLabel(job)}
            </Badge>
          </Group>
          <Progress.Root size={22} aria-label="Progress of the job">
            <Progress.Section value={job.items ? (c.success / job.items) * 100 : 0} color="green">
              <Progress.Label>{c.success > 0 ? formatCount(c.success) : ''}</Progress.Label>
            </Progress.Section>
            <Progress.Section value={job.items ? ((c.accepted + c.pending) / job.items) * 100 : 0} color="cyan" />
            <Progress.Section value={job.items ? ((c.failed + c.rejected) / job.items) * 100 : 0} color="red" />
            <Progress.Section value={job.items ? (c.uncertain / job.items) * 100 : 0} color="orange" />
            <Progress.Section value={job.items ? (c.cancelled / job.items) * 100 : 0} color="gray" />
          </Progress.Root>
          <Text size="sm" aria-live="polite" data-testid="job-progress-text">
            {formatCount(job.done)} of {formatCount(job.items)} answered ({percent}%)
            {job.notBought.count > 0 ? ` · ${formatCount(job.notBought.count)} not bought` : ''} · the job totals {formatNaira(job.totalKobo)}
          </Text>
          <JobMoney job={job} />
          <SimpleGrid cols={{ base: 3, md: 6 }} spacing="xs">
            {(['success', 'failed', 'pending', 'rejected', 'uncertain', 'queued'] as BulkItemState[]).map((s) => {
              const n = s === 'pending' ? c.pending + c.accepted : s === 'queued' ? c.queued + c.held + c.sending : c[s];
              return (
                <Tooltip key={s} label={ITEM_MEANING[s]} withArrow>
                  <Card withBorder padding="xs" data-testid={`count-${s}`}>
                    <Text size="xs" c="dimmed">
                      {s === 'queued' ? 'To send' : ITEM_LABEL[s]}
                    </Text>
                    <Text fw={700} c={n > 0 && (s === 'failed' || s === 'rejected' || s === 'uncertain') ? ITEM_COLOR[s] : undefined}>
                      {formatCount(n)}
                    </Text>
                  </Card>
                </Tooltip>
              );
            })}
          </SimpleGrid>
          {job.message && (
            <Alert color={job.state === 'needs_attention' || job.interrupted ? 'orange' : job.state === 'paused' ? 'yellow' : 'blue'} variant="light">
              {job.message}
            </Alert>
          )}
          <ErrorNotice error={error} />
          <Group>
            {canPause && (
              <Button variant="default" onClick={() => void run(() => bridge.call('bulk.pause', { jobId }))} loading={busy}>
                Pause
              </Button>
            )}
            {canResume && (
              <Button onClick={() => void run(() => bridge.call('bulk.resume', { jobId }))} loading={busy}>
                {job.state === 'paused' || job.interrupted ? 'Resume' : 'Check again'}
              </Button>
            )}
            {canCheck && (
              <Tooltip
                label="Ask the service now about the items it has not settled, and the wallet cost of what was bought. vendesk also does this by itself every few seconds."
                withArrow
                multiline
                w={300}
              >
                <Button variant="light" onClick={() => void run(() => bridge.call('bulk.checkAgain', { jobId }))} loading={busy}>
                  Check again
                </Button>
              </Tooltip>
            )}
            {canCancel && (
              <Button color="red" variant="light" onClick={() => setAskingCancel(true)} loading={busy}>
                Cancel the rest
              </Button>
            )}
            <Button variant="light" onClick={() => void download('xlsx')} disabled={busy}>
              Download results (Excel)
            </Button>
            <Button variant="subtle" onClick={() => void download('csv')} disabled={busy}>
              CSV
            </Button>
            <Button variant="subtle" color="gray" onClick={onClose}>
              {closeLabel}
            </Button>
          </Group>
        </Stack>
      </Card>

      {uncertain.length > 0 && !running && (
        <Alert color="orange" title="Items that may or may not have been bought" variant="light">
          <Stack gap="xs">
            <Text size="sm">
              The service's log could not settle these. Check each with the service (Transactions page or support) before buying again, then record what you found.
            </Text>
            {uncertain.slice(0, 50).map((i) => (
              <Group key={i.seq} gap="xs">
                <Text size="sm" w={300}>
                  Row {i.row}: {rowAccount(i)}, {formatNaira(i.amountKobo)}
                </Text>
                {vending && i.purchaseId ? (
                  <Text size="sm" c="dimmed">
                    Sent as a purchase that is being settled from the service’s log; it is never sent again. Follow or settle it on the Pending page.
                  </Text>
                ) : (
                  <>
                    <Button
                      size="xs"
                      variant="light"
                      color="green"
                      onClick={() => void run(() => bridge.call('bulk.resolveItems', { jobId, seqs: [i.seq], resolution: 'bought' }))}
                    >
                      It was bought
                    </Button>
                    <Button
                      size="xs"
                      variant="light"
                      color="gray"
                      onClick={() => void run(() => bridge.call('bulk.resolveItems', { jobId, seqs: [i.seq], resolution: 'not_bought' }))}
                    >
                      Not bought — leave it
                    </Button>
                    {job.state !== 'cancelled' && (
                      <Button size="xs" variant="light" onClick={() => void run(() => bridge.call('bulk.resolveItems', { jobId, seqs: [i.seq], resolution: 'resend' }))}>
                        Not bought — buy it again
                      </Button>
                    )}
                  </>
                )}
              </Group>
            ))}
          </Stack>
        </Alert>
      )}

      <Card withBorder padding="lg">
        <Stack gap="sm">
          <Group justify="space-between">
            <Title order={2} size="h5">
              Result per row
            </Title>
            <SegmentedControl
              size="xs"
              value={filter}
              onChange={(v) => setFilter(v as Filter)}
              data={[
                { value: 'all', label: 'All' },
                { value: 'problems', label: 'Needs a look' },
                { value: 'success', label: 'Successful' },
                { value: 'failed', label: 'Failed' },
                { value: 'rejected', label: 'Rejected' },
              ]}
            />
          </Group>
          {itemTotal > items.length && (
            <Text size="xs" c="dimmed">
              Showing the first {formatCount(items.length)} of {formatCount(itemTotal)} rows; the download has them all.
            </Text>
          )}
          <VirtualRows
            label="Result per row"
            rows={items}
            height={420}
            rowKey={(r) => r.seq}
            columns={[
              { header: 'Row', width: 60, render: (r) => <Text size="sm">{r.row}</Text> },
              {
                header: vending ? (job.kind === 'electricity' ? 'Meter' : 'Smartcard') : 'Recipient',
                width: vending ? 150 : 200,
                render: (r) => (
                  <Stack gap={0}>
                    <Text size="sm">{rowAccount(r)}</Text>
                    {r.account && (
                      <Text size="xs" c="dimmed" truncate>
                        {r.vendType ? `${r.vendType.toLowerCase()} · ` : ''}
                        {r.phone}
                      </Text>
                    )}
                    {r.name && (
                      <Text size="xs" c="dimmed" truncate>
                        {r.name}
                      </Text>
                    )}
                  </Stack>
                ),
              },
              {
                header: vending ? (job.kind === 'electricity' ? 'Disco' : 'Bouquet') : 'Network',
                width: vending ? 110 : 80,
                render: (r) => <Text size="sm">{job.kind === 'cable' ? r.description || r.productCode : r.network}</Text>,
              },
              { header: 'Amount', width: 110, align: 'right', render: (r) => <Text size="sm">{formatNaira(r.amountKobo)}</Text> },
              {
                header: 'Outcome',
                width: 140,
                render: (r) => (
                  <Tooltip label={ITEM_MEANING[r.state]} withArrow>
                    <Badge color={ITEM_COLOR[r.state]} variant="light" style={{ overflow: 'visible' }}>
                      {ITEM_LABEL[r.state]}
                    </Badge>
                  </Tooltip>
                ),
              },
              ...(job.kind === 'electricity'
                ? [
                    {
                      header: 'Token',
                      width: 240,
                      render: (r: BulkItemView) =>
                        r.token ? (
                          <Stack gap={0}>
                            <Text size="sm" ff="monospace" data-testid="row-token">
                              {r.token}
                            </Text>
                            {r.units !== null && (
                              <Text size="xs" c="dimmed">
                                {r.units} kWh
                              </Text>
                            )}
                          </Stack>
                        ) : (
                          <Text size="xs" c="dimmed">
                            —
                          </Text>
                        ),
                    },
                  ]
                : []),
              // Electricity and cable rows carry a token and longer reasons: their reference goes under the details.
              ...(vending
                ? []
                : [
                    {
                      header: 'Reference',
                      width: 250,
                      render: (r: BulkItemView) => (
                        <Text size="xs" ff="monospace">
                          {r.reference ?? '—'}
                        </Text>
                      ),
                    },
                  ]),
              {
                header: 'Details',
                width: '1fr',
                render: (r) => (
                  <Stack gap={2}>
                    {(r.reason ?? r.duplicateOf) && (
                      <Text size="xs" c="dimmed">
                        {localTimesIn(r.reason ?? r.duplicateOf ?? '')}
                      </Text>
                    )}
                    {vending && r.reference && (
                      <Text size="xs" c="dimmed" ff="monospace">
                        Ref. {r.reference}
                      </Text>
                    )}
                  </Stack>
                ),
              },
            ]}
          />
          <Group gap={6}>
            {SHOWN.filter((s) => c[s] > 0).map((s) => (
              <Badge key={s} color={ITEM_COLOR[s]} variant="dot">
                {ITEM_LABEL[s]}: {formatCount(c[s])}
              </Badge>
            ))}
          </Group>
        </Stack>
      </Card>
    </Stack>
  );
}
