import { Anchor, Badge, Table, Text } from '@mantine/core';
import type { OccurrenceView } from '../../../../shared/contract/standing';
import { formatCount, formatDay, formatNaira } from '../../format';
import { TableHead } from '../TableHead';
import { OUTCOME_COLOR, OUTCOME_LABEL } from './standingLabels';

/** The link to an occurrence's bulk job (opened on this page), or to Approvals for a team job run elsewhere. */
export function RunJobLink({ occurrence: o, onOpenJob }: { occurrence: OccurrenceView; onOpenJob: (jobId: string) => void }) {
  if (o.jobId) {
    const jobId = o.jobId;
    return (
      <Anchor
        component="button"
        type="button"
        size="sm"
        onClick={() => onOpenJob(jobId)}
        aria-label={`Open the bulk job of the run of ${formatDay(o.scheduledDay)}`}
        data-testid="run-job-link"
      >
        Open the job
      </Anchor>
    );
  }
  if (o.teamJobId)
    return (
      <Anchor href="#/approvals" size="sm">
        Team job (Approvals)
      </Anchor>
    );
  return <Text size="sm">—</Text>;
}

/** An order's recent runs, newest first: the day, how it went, what it bought, and its job. */
export function OrderRuns({ runs, onOpenJob }: { runs: OccurrenceView[]; onOpenJob: (jobId: string) => void }) {
  if (runs.length === 0)
    return (
      <Text size="sm" c="dimmed">
        No run yet. Each run appears here with its bulk job.
      </Text>
    );
  return (
    <Table verticalSpacing="xs" aria-label="Recent runs">
      <TableHead columns={['Day', 'Due', 'Outcome', { label: 'Successful', right: true }, { label: 'Bought (face value)', right: true }, 'Version', 'Job']} />
      <Table.Tbody>
        {runs.map((o) => (
          <Table.Tr key={o.scheduledDay} data-testid="run-row" data-day={o.scheduledDay}>
            <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDay(o.scheduledDay)}</Table.Td>
            <Table.Td style={{ whiteSpace: 'nowrap' }}>{o.dueDay !== o.scheduledDay ? formatDay(o.dueDay) : '—'}</Table.Td>
            <Table.Td>
              <Badge color={OUTCOME_COLOR[o.outcome]} variant="light" style={{ minWidth: 'max-content' }} data-testid="run-outcome">
                {OUTCOME_LABEL[o.outcome]}
              </Badge>
              {o.reason && (
                <Text size="xs" c="dimmed" maw={420}>
                  {o.reason}
                </Text>
              )}
            </Table.Td>
            <Table.Td ta="right">{o.job ? `${formatCount(o.job.success)} of ${formatCount(o.job.items)}` : '—'}</Table.Td>
            <Table.Td ta="right" className="money">
              {o.job ? formatNaira(o.job.boughtKobo) : '—'}
            </Table.Td>
            <Table.Td>{o.version ?? '—'}</Table.Td>
            <Table.Td>
              <RunJobLink occurrence={o} onOpenJob={onOpenJob} />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
