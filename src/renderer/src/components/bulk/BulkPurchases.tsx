import { Anchor, Badge, Card, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import type { BulkKind, BulkPreview } from '../../../../shared/contract/bulk';
import type { FileRef } from '../../../../shared/contract/files';
import { bridge } from '../../bridge';
import { formatCount, formatDateTime, formatNaira } from '../../format';
import { useAction } from '../../hooks/useAction';
import { useOperation } from '../../hooks/useOperation';
import { ErrorNotice } from '../ErrorNotice';
import { TableHead } from '../TableHead';
import { ApprovedBy, PreparedBy, TeamDraftState, useTeamJobsOf } from '../team/teamJobsOfBulk';
import { JOB_COLOR, jobLabel, KIND_LABEL } from './bulkLabels';
import { BulkLimits } from './BulkLimits';
import { BulkPreviewPanel } from './BulkPreviewPanel';
import { WalletCost } from './JobMoney';
import { JobProgressPanel } from './JobProgressPanel';
import { NewBulkJob } from './NewBulkJob';
import { useJobProgress } from './useJobProgress';

interface Draft {
  preview: BulkPreview;
  file: FileRef;
  kind: BulkKind;
  sheet: string | null;
}

/** Bulk purchases (airtime, data, electricity, cable TV): pick a file → check it → confirm → watch it buy → download the results. */
export function BulkPurchases() {
  const [draft, setDraft] = useState<Draft | null>(null);
  const [openJob, setOpenJob] = useState<string | null>(null);
  const { busy: remapping, error, run } = useAction();
  const jobs = useOperation('bulk.list', { limit: 20 });
  // A job running (here or opened and left) moves the list's counts as it goes.
  useJobProgress(null, 1000, () => void jobs.reload());

  const remap = async (mapping: Record<string, number | null>) => {
    if (!draft) return;
    await run(async () => {
      const preview = await bridge.call('bulk.prepare', {
        file: draft.file,
        kind: draft.kind,
        ...(draft.sheet ? { sheet: draft.sheet } : {}),
        mapping,
        replaceJobId: draft.preview.job.id,
      });
      setDraft({ ...draft, preview });
    });
  };

  const discard = async () => {
    if (!draft) return;
    try {
      await bridge.call('bulk.discard', { jobId: draft.preview.job.id });
    } catch {
      // Already gone: nothing to discard.
    }
    setDraft(null);
  };

  // Drafts are not listed (the one open is shown above); a job sent for a team's approval is.
  const list = (jobs.data ?? []).filter((j) => j.state !== 'draft');
  const team = useTeamJobsOf(list);

  if (openJob) return <JobProgressPanel jobId={openJob} onClose={() => setOpenJob(null)} />;

  if (draft) {
    return (
      <Stack gap="md">
        <ErrorNotice error={error} title="The columns could not be applied" />
        <BulkPreviewPanel
          key={draft.preview.job.id}
          preview={draft.preview}
          onPreview={(preview) => setDraft({ ...draft, preview })}
          onRemap={(m) => void remap(m)}
          remapping={remapping}
          onConfirmed={(job) => {
            setDraft(null);
            setOpenJob(job.id);
          }}
          onDiscard={() => void discard()}
        />
      </Stack>
    );
  }

  return (
    <Stack gap="md">
      <NewBulkJob onPrepared={(preview, file, kind, sheet) => setDraft({ preview, file, kind, sheet })} />
      <Card withBorder padding="lg">
        <Title order={2} size="h4" mb="sm">
          Bulk jobs
        </Title>
        <ErrorNotice error={jobs.error} onRetry={() => void jobs.reload()} />
        {list.length === 0 ? (
          <Text size="sm" c="dimmed">
            No bulk jobs yet. Jobs you confirm appear here with their results.
          </Text>
        ) : (
          <Table highlightOnHover verticalSpacing="xs" aria-label="Bulk jobs">
            <TableHead
              columns={[
                'Confirmed',
                'File',
                'Kind',
                'State',
                ...(team.linked ? ['Prepared by', 'Approved by'] : []),
                ...['Rows', 'Successful', 'Bought (face value)', 'Wallet cost', 'Maybe bought', 'Not bought'].map((label) => ({ label, right: true })),
              ]}
            />
            <Table.Tbody>
              {list.map((j) => (
                <Table.Tr key={j.id} onClick={() => setOpenJob(j.id)} style={{ cursor: 'pointer' }}>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(j.confirmedAt ?? j.createdAt)}</Table.Td>
                  <Table.Td>
                    {/* The row opens by click; this button opens it from the keyboard (Tab, then Enter). */}
                    <Anchor
                      component="button"
                      type="button"
                      size="sm"
                      ta="left"
                      onClick={(e) => {
                        e.stopPropagation();
                        setOpenJob(j.id);
                      }}
                      aria-label={`Open the job ${j.fileName}`}
                      data-testid="open-job"
                    >
                      {j.fileName}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{KIND_LABEL[j.kind]}</Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>
                    {j.state === 'awaiting_approval' && j.teamJobId ? (
                      <TeamDraftState team={team.byId.get(j.teamJobId)} unreadable={team.unreadable} />
                    ) : (
                      <Badge color={j.interrupted ? 'orange' : JOB_COLOR[j.state]} variant="light" style={{ minWidth: 'max-content' }}>
                        {j.active && j.state === 'running' ? 'Buying…' : jobLabel(j)}
                      </Badge>
                    )}
                  </Table.Td>
                  {team.linked && (
                    <Table.Td>
                      <PreparedBy job={j} team={j.teamJobId ? team.byId.get(j.teamJobId) : undefined} />
                    </Table.Td>
                  )}
                  {team.linked && (
                    <Table.Td>
                      <ApprovedBy job={j} team={j.teamJobId ? team.byId.get(j.teamJobId) : undefined} />
                    </Table.Td>
                  )}
                  <Table.Td ta="right">{formatCount(j.items)}</Table.Td>
                  <Table.Td ta="right">{formatCount(j.counts.success)}</Table.Td>
                  <Table.Td ta="right">{formatNaira(j.bought.faceKobo)}</Table.Td>
                  <Table.Td ta="right">
                    <WalletCost money={j.bought} />
                  </Table.Td>
                  <Table.Td ta="right" c={j.maybeBought.count > 0 ? 'orange' : undefined}>
                    {j.maybeBought.count > 0 ? `${formatCount(j.maybeBought.count)} (${formatNaira(j.maybeBought.faceKobo)})` : '—'}
                  </Table.Td>
                  <Table.Td ta="right">{j.notBought.count > 0 ? `${formatCount(j.notBought.count)} (${formatNaira(j.notBought.faceKobo)})` : '—'}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Card>
      <BulkLimits />
    </Stack>
  );
}
