import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import type { ApprovalStateFilter, TeamJobView, TeamStatusView } from '../../../shared/contract/team';
import { ErrorNotice } from '../components/ErrorNotice';
import { PageHeader } from '../components/PageHeader';
import { TabbedPage } from '../components/TabbedPage';
import { AuditTrailTools } from '../components/team/AuditTrailTools';
import { TeamJobCard } from '../components/team/TeamJobCard';
import { teamErrorTitle } from '../components/team/teamLabels';
import { formatAgo, formatCount, formatNaira } from '../format';
import { useOperation } from '../hooks/useOperation';

type Tab = Exclude<ApprovalStateFilter, 'all'> | 'audit';

const EMPTY: Record<Exclude<Tab, 'audit'>, string> = {
  waiting: 'Nothing waits for approval. Jobs prepared on a LIVE connection by any team member appear here.',
  approved: 'No approved jobs yet.',
  rejected: 'No rejected jobs.',
};

/** The team's approval policy, as the team database enforces it. */
function PolicyLine({ policy }: { policy: TeamStatusView }) {
  return (
    <Text size="sm" data-testid="approvals-policy">
      <b>The team’s policy</b> (set by an admin, enforced by the team database):{' '}
      {policy.approvalThresholdKobo === null ? 'single purchases need no approval' : `a single LIVE purchase above ${formatNaira(policy.approvalThresholdKobo)} needs approval`};{' '}
      {policy.dualApprovalAboveKobo === null
        ? 'one approver (not the preparer) for any amount'
        : `a job above ${formatNaira(policy.dualApprovalAboveKobo)} needs two approvers, neither the preparer`}
      ;{' '}
      {policy.approvalValidMinutes === null ? 'an approval does not expire' : `nothing more is sent under an approval after ${formatCount(policy.approvalValidMinutes)} minute(s)`}.
    </Text>
  );
}

/** The jobs of one tab, newest first, read again whenever the team database changes (another member decides or prepares: team/teamChanges.ts). */
function JobsTab({ state, status }: { state: Exclude<Tab, 'audit'>; status: TeamStatusView }) {
  const jobs = useOperation('approvals.list', { state });
  const [loadedAt, setLoadedAt] = useState<string | null>(null);
  useEffect(() => {
    if (jobs.data) setLoadedAt(new Date().toISOString());
  }, [jobs.data]);
  // A job whose Approve or Reject dialog is open stays on screen when the list is read again without
  // it (another member decided it meanwhile): the dialog stays, and confirming says it was decided.
  const [deciding, setDeciding] = useState<TeamJobView | null>(null);
  const read = jobs.data ?? [];
  const list = deciding && !read.some((j) => j.id === deciding.id) ? [...read, deciding] : read;
  return (
    <Stack gap="md">
      <PolicyLine policy={status} />
      <Group justify="space-between">
        <Text size="sm" c="dimmed" aria-live="polite">
          {jobs.data ? `${read.length} job(s) · checked ${formatAgo(loadedAt)}` : 'Reading the team database…'}
        </Text>
        <Button size="xs" variant="default" onClick={() => void jobs.reload()} loading={jobs.loading}>
          Refresh
        </Button>
      </Group>
      <ErrorNotice error={jobs.error} onRetry={() => void jobs.reload()} title={teamErrorTitle(jobs.error?.code, 'The team database could not be read')} />
      {jobs.data && list.length === 0 && (
        <Text size="sm" c="dimmed">
          {EMPTY[state]}
        </Text>
      )}
      {list.map((job) => (
        <TeamJobCard key={job.id} job={job} status={status} onDecided={() => void jobs.reload()} onDeciding={setDeciding} />
      ))}
    </Stack>
  );
}

/** Approvals: team jobs waiting for approval, approved and rejected, and the team audit trail. */
export function ApprovalsPage() {
  const [tab, setTab] = useState<Tab>('waiting');
  const status = useOperation('team.status', {});
  const title = 'Approvals';
  const description = 'Jobs waiting for a second person’s approval, what was decided, and the team’s audit trail';

  if (!status.data) {
    return (
      <>
        <PageHeader title={title} description={description} />
        <ErrorNotice error={status.error} onRetry={() => void status.reload()} />
      </>
    );
  }
  if (!status.data.joined) {
    return (
      <>
        <PageHeader title={title} description={description} />
        <Alert color="gray" variant="light" title="This desktop has not joined a team" data-testid="approvals-not-joined">
          <Text size="sm">
            Approvals need a team database: on a LIVE connection, one member prepares a bulk job and another approves it before anything is bought. Join one in Settings → Team.
          </Text>
          <Button component="a" href="#/settings?section=team" variant="default" size="xs" mt="sm">
            Open Settings
          </Button>
        </Alert>
      </>
    );
  }
  const who = `Signed in to ${status.data.database ?? 'the team database'} as ${status.data.user ?? '…'}`;
  return (
    <>
      {status.data.problem && (
        <Alert color="orange" variant="light" title="The team database cannot be read just now" mb="md">
          <Text size="sm">{status.data.problem}</Text>
        </Alert>
      )}
      <TabbedPage
        title={title}
        description={`${description}. ${who}.`}
        value={tab}
        onChange={setTab}
        tabs={[
          { value: 'waiting', label: 'Waiting', content: <JobsTab state="waiting" status={status.data} /> },
          { value: 'approved', label: 'Approved', content: <JobsTab state="approved" status={status.data} /> },
          { value: 'rejected', label: 'Rejected', content: <JobsTab state="rejected" status={status.data} /> },
          { value: 'audit', label: 'Audit trail', content: <AuditTrailTools /> },
        ]}
      />
    </>
  );
}
