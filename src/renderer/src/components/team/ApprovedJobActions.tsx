import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import type { BulkJobView } from '../../../../shared/contract/bulk';
import type { ApprovedPurchaseView, TeamJobView } from '../../../../shared/contract/team';
import { bridge } from '../../bridge';
import { formatCount, formatNaira } from '../../format';
import { useAction } from '../../hooks/useAction';
import { ErrorNotice } from '../ErrorNotice';
import { FreeText } from '../FreeText';
import { PurchaseReceipt } from '../purchases/PurchaseReceipt';
import { TopUpReceipt } from '../purchases/TopUpReceipt';
import { teamErrorTitle } from './teamLabels';

/** An approved single purchase prepared on this desktop: Buy now buys it once, and shows the receipt (the service's answer). */
function BuyApprovedPurchase({ job }: { job: TeamJobView }) {
  const [bought, setBought] = useState<ApprovedPurchaseView | null>(null);
  const { busy, error, run } = useAction();
  const buy = () => run(async () => setBought(await bridge.call('purchases.resume', { teamJobId: job.id })));
  if (bought?.purchase) return <PurchaseReceipt purchase={bought.purchase} />;
  if (bought?.topUp) return <TopUpReceipt purchase={bought.topUp} />;
  const ready = job.state === 'approved';
  return (
    <Stack gap="xs">
      <Text size="sm" data-testid="team-job-todo">
        {ready
          ? `You prepared this purchase on this desktop: Buy now buys it once, exactly as approved (${formatNaira(job.totalKobo)}). Its checks run again first (the wallet, the meter or smartcard).`
          : 'Bought from this desktop: its receipt shows what the service answered (nothing more is bought).'}
      </Text>
      <ErrorNotice error={error} title={teamErrorTitle(error?.code, 'The purchase was not bought')} />
      <Group>
        <Button color={ready ? 'red' : 'gray'} variant={ready ? 'filled' : 'default'} onClick={() => void buy()} loading={busy}>
          {ready ? 'Buy now' : 'Show the receipt'}
        </Button>
      </Group>
    </Stack>
  );
}

/** An approved bulk job prepared on another desktop: Run here makes it a job of this desktop and starts it (rows already sent elsewhere are never sent again). */
function RunHere({ job }: { job: TeamJobView }) {
  const [started, setStarted] = useState<BulkJobView | null>(null);
  const { busy, error, run } = useAction();
  const adopt = () => run(async () => setStarted(await bridge.call('bulk.adopt', { teamJobId: job.id, wait: false })));
  if (!started && job.state !== 'approved' && job.state !== 'running') return null;
  if (started) {
    return (
      <Alert color="blue" variant="light" title="Started on this desktop" data-testid="team-job-run-here">
        <Text size="sm">
          {formatCount(started.items)} row(s) of <FreeText text={started.fileName} /> are bought from this desktop’s LIVE wallet, each once. Follow it, pause it and download its
          results in Purchases → Bulk purchases (the job <FreeText text={started.fileName} />
          ).
        </Text>
        <Button component="a" href="#/purchases" variant="default" size="xs" mt="sm">
          Open Bulk purchases
        </Button>
      </Alert>
    );
  }
  return (
    <Stack gap="xs">
      <Text size="sm" data-testid="team-job-todo">
        {job.preparedBy} can buy it from their desktop (<FreeText text={job.preparedOn} />
        ), or run it here if this desktop is connected to the same LIVE service and organisation: each row is claimed in the team database first, so no row is bought twice,
        whichever desktop runs it.
      </Text>
      <ErrorNotice error={error} title={teamErrorTitle(error?.code, 'The job was not started here')} />
      <Group>
        <Button color="red" variant="light" onClick={() => void adopt()} loading={busy}>
          Run here
        </Button>
      </Group>
    </Stack>
  );
}

/** What happens to an approved job from this desktop: buy it (prepared here), run it here (a bulk job from elsewhere), or who buys it. */
export function ApprovedJobActions({ job }: { job: TeamJobView }) {
  if (job.kind === 'single') {
    if (job.preparedHere && (job.state === 'approved' || job.state === 'running' || job.state === 'finished')) return <BuyApprovedPurchase job={job} />;
    if (job.state !== 'approved') return null;
    return (
      <Text size="sm" c="dimmed" data-testid="team-job-todo">
        A single purchase is bought from the desktop that prepared it: {job.preparedBy} buys it from <FreeText text={job.preparedOn} /> (Approvals, Buy now).
      </Text>
    );
  }
  // Kept mounted while the job runs and once it finishes, so what Run here started stays on screen.
  if (job.kind === 'bulk' && !job.preparedHere) return <RunHere job={job} />;
  if (!job.preparedHere || (job.state !== 'approved' && job.state !== 'running')) return null;
  return (
    <Text size="sm" c="dimmed" data-testid="team-job-todo">
      {job.state === 'approved'
        ? 'Prepared on this desktop: buy it from Purchases → Bulk purchases, open the job, Buy now.'
        : 'Being bought: follow it in Purchases → Bulk purchases.'}
    </Text>
  );
}
