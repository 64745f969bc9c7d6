import { Badge, Group, Tooltip } from '@mantine/core';
import type { ApprovalByArea, ApprovalState } from '../../../../shared/wire';

const COLORS: Record<ApprovalState, string> = { APPROVED: 'teal', PENDING: 'yellow', REJECTED: 'red' };
const WORDS: Record<ApprovalState, string> = {
  APPROVED: 'Approved: can be used to send',
  PENDING: 'Waiting for the service to approve it; it cannot be used yet',
  REJECTED: 'Rejected by the service; it cannot be used',
};
const AREAS: Record<string, string> = { NG: 'Nigeria' };

/** One badge per coverage area: "NG · APPROVED". */
export function ApprovalBadges({ approval }: { approval: ApprovalByArea }) {
  const entries = Object.entries(approval);
  if (entries.length === 0)
    return (
      <Tooltip label="The service's answer does not say whether it is approved" withArrow>
        <Badge color="gray" variant="light" data-testid="approval-unknown">
          Approval not given
        </Badge>
      </Tooltip>
    );
  return (
    <Group gap={4}>
      {entries.map(([area, state]) => (
        <Tooltip key={area} label={`${AREAS[area] ?? area}: ${WORDS[state]}`} withArrow>
          <Badge color={COLORS[state]} variant="light" data-testid={`approval-${area}`}>
            {area} · {state}
          </Badge>
        </Tooltip>
      ))}
    </Group>
  );
}
