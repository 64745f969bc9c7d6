import { Alert, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import type { BulkJobView } from '../../../../shared/contract/bulk';
import type { TeamJobView } from '../../../../shared/contract/team';
import { bridge } from '../../bridge';
import { formatCount, formatNaira } from '../../format';
import { useAction } from '../../hooks/useAction';
import { useOperation } from '../../hooks/useOperation';
import { KIND_LABEL, RECIPIENT_WORD } from '../bulk/bulkLabels';
import { ErrorNotice } from '../ErrorNotice';
import { TeamDecision, TeamJobSummary } from './TeamJobCard';
import { teamErrorTitle } from './teamLabels';
import { TeamDraftState } from './teamJobsOfBulk';

/** The decision on the job (who, when, why) and what to do now. */
function DecidedAlert({ job, color, title, children }: { job: TeamJobView; color: string; title: string; children: ReactNode }) {
  return (
    <Alert color={color} variant="light" title={title} data-testid="team-draft-todo">
      <TeamDecision job={job} />
      <Text size="sm" mt={4}>
        {children}
      </Text>
    </Alert>
  );
}

/**
 * A bulk job sent for the team's approval, on the desktop that prepared it: waiting (nothing is
 * bought; withdraw it if it is no longer wanted), approved (buy it now), or rejected (why, and
 * discard it). Re-read whenever the team database changes.
 */
export function TeamDraftPanel({ job, onStarted, onClose }: { job: BulkJobView & { teamJobId: string }; onStarted: () => void; onClose: () => void }) {
  const team = useOperation('approvals.list', { state: 'all', jobIds: [job.teamJobId] });
  const { busy, error, run } = useAction();
  const teamJob = team.data?.[0];

  const buy = () =>
    run(async () => {
      await bridge.call('bulk.resume', { jobId: job.id });
      onStarted();
    });
  const discard = () =>
    run(async () => {
      await bridge.call('bulk.discard', { jobId: job.id });
      onClose();
    });

  return (
    <Card withBorder padding="lg">
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <div>
            <Title order={2} size="h4">
              {KIND_LABEL[job.kind]} for {formatCount(job.items)} {RECIPIENT_WORD[job.kind]} — {job.fileName}
            </Title>
            <Text size="sm" c="dimmed">
              LIVE · {formatNaira(job.totalKobo)} · team job {job.teamJobId}
            </Text>
          </div>
          <div data-testid="job-state">
            <TeamDraftState team={teamJob} unreadable={team.error !== null} />
          </div>
        </Group>
        <ErrorNotice error={team.error} onRetry={() => void team.reload()} title={teamErrorTitle(team.error?.code, 'The team database could not be read')} />
        {teamJob?.state === 'awaiting_approval' && (
          <Alert color="violet" variant="light" title="Waiting for another member’s approval" data-testid="team-draft-todo">
            <Text size="sm">
              Nothing was bought. An approver or admin other than you approves or rejects it on their Approvals page; this page checks every 10 seconds. Once approved, press Buy
              now here.
            </Text>
          </Alert>
        )}
        {teamJob?.state === 'approved' && (
          <DecidedAlert job={teamJob} color="teal" title="Approved: ready to buy">
            Buy now sends each row once, as approved ({formatNaira(teamJob.totalKobo)}); no total to type again.
          </DecidedAlert>
        )}
        {teamJob?.state === 'rejected' && (
          <DecidedAlert job={teamJob} color="red" title="Rejected: nothing was bought">
            Correct the spreadsheet and prepare a new job, then discard this one.
          </DecidedAlert>
        )}
        {teamJob?.state === 'cancelled' && (
          <Alert color="gray" variant="light" title="Cancelled: nothing was bought" data-testid="team-draft-todo">
            <Text size="sm">Discard it, and prepare a new job if it is still wanted.</Text>
          </Alert>
        )}
        <ErrorNotice error={error} title={teamErrorTitle(error?.code, 'That did not work')} />
        <Group>
          {teamJob?.state === 'approved' && (
            <Button color="red" onClick={() => void buy()} loading={busy}>
              Buy now
            </Button>
          )}
          {teamJob && teamJob.state !== 'approved' && (
            <Button variant="light" color="red" onClick={() => void discard()} loading={busy}>
              {teamJob.state === 'awaiting_approval' ? 'Withdraw and discard' : 'Discard this job'}
            </Button>
          )}
          <Button variant="default" onClick={() => void team.reload()} loading={team.loading}>
            Check now
          </Button>
          <Button variant="subtle" color="gray" onClick={onClose}>
            Back to jobs
          </Button>
        </Group>
        {teamJob && <TeamJobSummary job={teamJob} />}
      </Stack>
    </Card>
  );
}
