/** The team side of bulk jobs on the jobs list: who prepared and approved them, and a job waiting for approval as its own state. */
import { Badge, Stack, Text } from '@mantine/core';
import type { BulkJobView } from '../../../../shared/contract/bulk';
import type { TeamJobView } from '../../../../shared/contract/team';
import { useOperation } from '../../hooks/useOperation';
import { TEAM_STATE_COLOR } from './teamLabels';

/** The team jobs the listed bulk jobs were sent as, by team job id (read again whenever the team database changes). */
export function useTeamJobsOf(jobs: BulkJobView[]): { byId: Map<string, TeamJobView>; linked: boolean; unreadable: boolean } {
  const ids = [...new Set(jobs.map((j) => j.teamJobId).filter((id): id is string => id !== null))].sort();
  // Read again when the team database changes (another member's decision included: team/teamChanges.ts).
  const team = useOperation('approvals.list', { state: 'all', jobIds: ids }, { enabled: ids.length > 0 });
  return { byId: new Map((team.data ?? []).map((t) => [t.id, t])), linked: ids.length > 0, unreadable: team.error !== null };
}

/** What a draft sent for approval shows as its state, and what to do about it. */
const DRAFT_STATE: Record<TeamJobView['state'], { label: string; todo: string }> = {
  awaiting_approval: { label: 'Waiting for approval', todo: 'Nothing bought yet: another member approves it (Approvals).' },
  approved: { label: 'Approved — ready to buy', todo: 'Open it and press Buy now.' },
  rejected: { label: 'Rejected', todo: 'Nothing bought. Open it to read why.' },
  cancelled: { label: 'Cancelled', todo: 'Nothing bought.' },
  running: { label: 'Approved — buying', todo: 'Open it to follow it.' },
  finished: { label: 'Approved — finished', todo: 'Open it to see the results.' },
};

/** The state of a draft that was sent for approval (a job that is not a draft shows its own state). */
export function TeamDraftState({ team, unreadable }: { team: TeamJobView | undefined; unreadable: boolean }) {
  const shown = team
    ? { ...DRAFT_STATE[team.state], color: TEAM_STATE_COLOR[team.state] }
    : { label: 'Sent for approval', todo: unreadable ? 'The team database cannot be read just now.' : 'Reading the team database…', color: 'violet' };
  return (
    <Stack gap={2}>
      <Badge color={shown.color} variant="light" style={{ minWidth: 'max-content' }} data-testid="team-draft-state">
        {shown.label}
      </Badge>
      <Text size="xs" c="dimmed" maw={190} style={{ whiteSpace: 'normal' }}>
        {shown.todo}
      </Text>
    </Stack>
  );
}

export function PreparedBy({ job, team }: { job: BulkJobView; team: TeamJobView | undefined }) {
  if (!job.teamJobId)
    return (
      <Text size="sm" c="dimmed">
        —
      </Text>
    );
  if (!team) return <Text size="sm">…</Text>;
  return (
    <Stack gap={0}>
      <Text size="sm">{team.preparedBy}</Text>
      <Text size="xs" c="dimmed">
        {team.preparedOn}
      </Text>
    </Stack>
  );
}

export function ApprovedBy({ job, team }: { job: BulkJobView; team: TeamJobView | undefined }) {
  if (!job.teamJobId)
    return (
      <Text size="sm" c="dimmed">
        —
      </Text>
    );
  if (!team) return <Text size="sm">…</Text>;
  if (!team.decidedBy)
    return (
      <Text size="sm" c="dimmed">
        {team.state === 'cancelled' ? 'Cancelled' : 'Not yet'}
      </Text>
    );
  return (
    <Stack gap={0}>
      <Text size="sm">{team.decidedBy}</Text>
      {team.state === 'rejected' && (
        <Text size="xs" c="red.8">
          rejected
        </Text>
      )}
    </Stack>
  );
}
