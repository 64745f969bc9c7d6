import { Alert, Badge, Button, Card, Group, Modal, Pagination, ScrollArea, SimpleGrid, Stack, Table, Text, Textarea, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState, type ReactNode } from 'react';
import type { TeamJobRowView, TeamJobView, TeamStatusView } from '../../../../shared/contract/team';
import { bridge } from '../../bridge';
import { formatCount, formatDateTime, formatNaira } from '../../format';
import { useAction } from '../../hooks/useAction';
import { useOperation } from '../../hooks/useOperation';
import { shortDigest } from '../../../../shared/teamDigest';
import { ErrorNotice } from '../ErrorNotice';
import { FreeText, freeText } from '../FreeText';
import { TableHead } from '../TableHead';
import { ApprovedJobActions } from './ApprovedJobActions';
import { mayDecide, TEAM_STATE_COLOR, TEAM_STATE_LABEL, teamErrorTitle, teamJobKindLabel } from './teamLabels';

function Figure({ label, value, testId, color }: { label: string; value: string; testId: string; color?: string }) {
  return (
    <Card withBorder padding="xs" data-testid={testId}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={700} c={color}>
        {value}
      </Text>
    </Card>
  );
}

/** What the approver needs to decide: the figures, who prepared it where and when, the same-file flag and the rows. */
export function TeamJobSummary({ job }: { job: TeamJobView }) {
  return (
    <Stack gap="sm">
      <SimpleGrid cols={{ base: 2, md: 4 }} spacing="xs">
        <Figure label="Rows" value={formatCount(job.itemCount)} testId="team-job-rows" />
        <Figure label="Total" value={formatNaira(job.totalKobo)} testId="team-job-total" />
        <Figure label="Wallet when prepared" value={job.walletKobo === null ? 'Not known' : formatNaira(job.walletKobo)} testId="team-job-wallet" />
        <Figure
          label="Wallet after, if every row succeeds"
          value={job.walletAfterKobo === null ? 'Not known' : formatNaira(job.walletAfterKobo)}
          color={job.walletAfterKobo !== null && job.walletAfterKobo < 0 ? 'red' : undefined}
          testId="team-job-wallet-after"
        />
      </SimpleGrid>
      {/* Free text a preparer chose (the desktop's and the file's names) after the figures, isolated and with hidden characters shown. */}
      <Text size="sm" data-testid="team-job-prepared">
        Prepared by <b>{job.preparedBy}</b> on <FreeText text={job.preparedOn} />, {formatDateTime(job.preparedAt)}
        {job.fileName ? (
          <>
            {' '}
            {job.kind === 'single' ? 'for' : 'from the file'}{' '}
            <b>
              “<FreeText text={job.fileName} />”
            </b>
          </>
        ) : null}
      </Text>
      {job.sameFileJobs.length > 0 && (
        <Alert color="orange" variant="light" title="The same spreadsheet was prepared before" data-testid="team-job-same-file">
          <Text size="sm">
            {job.sameFileJobs.length === 1 ? 'Another team job was' : `${formatCount(job.sameFileJobs.length)} other team jobs were`} prepared from a spreadsheet with exactly the
            same content (on this or another desktop): {job.sameFileJobs.join(', ')}.
          </Text>
          <Text size="sm" mt={4}>
            Check this is not a repeat. A row another job already sent is not sent again by this one, unless its preparer marked the job as a deliberate repeat.
          </Text>
        </Alert>
      )}
      <Text size="sm" data-testid="team-job-digest">
        Rows digest <b style={{ fontFamily: 'monospace' }}>{shortDigest(job.itemsDigest)}</b> — computed by the team database from the rows it stores; each desktop checks it before
        it sends anything.
      </Text>
      <TeamJobRows job={job} />
    </Stack>
  );
}

const ROWS_PAGE = 50;

/**
 * The columns of a job's rows: each row's recipient and amount first, then only the fields a
 * desktop sends for what the job buys (an airtime or data row's meter or smartcard field is not
 * sent, so it is not shown); every field when the team database does not say what the job buys.
 */
function rowColumns(buys: TeamJobView['buys']): { label: string; right?: boolean; cell: (r: TeamJobRowView) => string }[] {
  const amount = { label: 'Amount', right: true, cell: (r: TeamJobRowView) => formatNaira(r.amountKobo) };
  const dash = (v: string | null) => (v === null ? '—' : freeText(v));
  if (buys === 'airtime' || buys === 'data') {
    return [{ label: 'Number', cell: (r) => dash(r.phone) }, amount, { label: 'Network', cell: (r) => dash(r.network) }, { label: 'Product', cell: (r) => freeText(r.product) }];
  }
  if (buys === 'electricity' || buys === 'cable') {
    return [
      { label: buys === 'electricity' ? 'Meter' : 'Smartcard', cell: (r) => dash(r.account) },
      amount,
      { label: buys === 'electricity' ? 'Disco' : 'Bouquet', cell: (r) => freeText(r.product) },
      { label: 'Customer’s phone', cell: (r) => dash(r.phone) },
    ];
  }
  return [
    { label: 'Number', cell: (r) => dash(r.phone) },
    { label: 'Meter or smartcard', cell: (r) => dash(r.account) },
    amount,
    { label: 'Network', cell: (r) => dash(r.network) },
    { label: 'Product', cell: (r) => freeText(r.product) },
  ];
}

/** The job's rows as the team database stores them (what is bought), a page at a time. */
function TeamJobRows({ job }: { job: TeamJobView }) {
  const [page, setPage] = useState(1);
  const rows = useOperation('approvals.rows', { jobId: job.id, page, pageSize: ROWS_PAGE });
  const columns = rowColumns(job.buys);
  const unsent = job.buys === 'airtime' || job.buys === 'data' ? (rows.data?.rows ?? []).filter((r) => r.account !== null && r.account !== r.phone).map((r) => r.row) : [];
  return (
    <Stack gap={4}>
      <ErrorNotice error={rows.error} onRetry={() => void rows.reload()} title={teamErrorTitle(rows.error?.code, 'The rows could not be read')} />
      {rows.data && rows.data.rows.length > 0 && (
        <ScrollArea.Autosize mah={260} type="auto" offsetScrollbars>
          <Table striped verticalSpacing={4} aria-label={`Rows of ${job.fileName === null ? 'the job' : freeText(job.fileName)}`} data-testid="team-job-row-table">
            <TableHead columns={['Row', ...columns.map((c) => (c.right ? { label: c.label, right: true } : c.label))]} />
            <Table.Tbody>
              {rows.data.rows.map((r) => (
                <Table.Tr key={r.row}>
                  <Table.Td>{r.row}</Table.Td>
                  {columns.map((c) => (
                    <Table.Td key={c.label} ta={c.right ? 'right' : undefined}>
                      <bdi>{c.cell(r)}</bdi>
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea.Autosize>
      )}
      {job.buys === null && rows.data && rows.data.rows.length > 0 && (
        <Text size="xs" c="dimmed">
          The team database does not record what this job buys: every field of its rows is shown.
        </Text>
      )}
      {unsent.length > 0 && (
        <Alert color="orange" variant="light" p="xs" data-testid="team-job-unsent-fields">
          <Text size="sm">
            Row{unsent.length > 1 ? 's' : ''} {unsent.join(', ')} also carr{unsent.length > 1 ? 'y' : 'ies'} a meter or smartcard field, which {job.buys} does not send: it is not
            shown, and nothing is bought with it.
          </Text>
        </Alert>
      )}
      {rows.data && rows.data.pages > 1 && (
        <Group gap="xs">
          <Pagination total={rows.data.pages} value={page} onChange={setPage} size="sm" aria-label="Pages of rows" />
          <Text size="xs" c="dimmed">
            {formatCount(ROWS_PAGE)} rows a page
          </Text>
        </Group>
      )}
    </Stack>
  );
}

/** Who decided, when, and why. */
export function TeamDecision({ job }: { job: TeamJobView }) {
  if (job.state === 'awaiting_approval' && job.approvedBy.length > 0) {
    return (
      <Text size="sm" data-testid="team-job-decision">
        {job.approvedBy.length} of {job.approvalsNeeded} approvals: approved by <b>{job.approvedBy.join(', ')}</b>. Another approver (not the preparer) is needed before anything is
        bought.
      </Text>
    );
  }
  if (!job.decidedBy) return null;
  const approved = job.state !== 'rejected';
  return (
    <Text size="sm" data-testid="team-job-decision">
      {approved ? 'Approved' : 'Rejected'} by <b>{approved && job.approvedBy.length > 1 ? job.approvedBy.join(' and ') : job.decidedBy}</b>
      {job.decidedAt ? `, ${formatDateTime(job.decidedAt)}` : ''}
      {job.decisionNote ? (
        <>
          : “<FreeText text={job.decisionNote} />”
        </>
      ) : (
        ''
      )}
    </Text>
  );
}

function DecideButtons({ job, onDecided, onAsking }: { job: TeamJobView; onDecided: (job: TeamJobView) => void; onAsking?: (open: boolean) => void }) {
  const [asking, setAskingState] = useState<'approve' | 'reject' | null>(null);
  const setAsking = (next: 'approve' | 'reject' | null) => {
    setAskingState(next);
    onAsking?.(next !== null);
  };
  const [note, setNote] = useState('');
  const { busy, error, run } = useAction();
  const decide = (decision: 'approve' | 'reject') =>
    run(async () => {
      const decided = await bridge.call('approvals.decide', { jobId: job.id, decision, note: note.trim() });
      setAsking(null);
      setNote('');
      notifications.show({
        color: decision === 'approve' ? 'teal' : 'red',
        message: `${decision === 'approve' ? 'Approved' : 'Rejected'}: ${formatCount(job.itemCount)} row(s) for ${formatNaira(job.totalKobo)} (${job.fileName === null ? teamJobKindLabel(job) : freeText(job.fileName)}).`,
      });
      onDecided(decided);
    });
  const what = `${formatCount(job.itemCount)} row(s) for ${formatNaira(job.totalKobo)}`;
  return (
    <>
      <Modal opened={asking !== null} onClose={() => setAsking(null)} title={asking === 'reject' ? 'Reject this job?' : 'Approve this job?'} centered>
        <Stack gap="sm">
          <Text size="sm">
            {asking === 'reject'
              ? `${job.preparedBy}’s job (${what}) will not be bought. Say why, so they can correct it.`
              : `${job.preparedBy} can then buy ${what} from the LIVE wallet${job.kind === 'bulk' ? ' (or another member runs it from their desktop, with Run here)' : ''}. Each row is sent once.`}
          </Text>
          <Textarea
            label={asking === 'reject' ? 'Why is it rejected?' : 'Note (optional)'}
            description="Kept with the decision in the audit trail"
            value={note}
            onChange={(e) => setNote(e.currentTarget.value)}
            required={asking === 'reject'}
            maxLength={500}
            minRows={2}
            autosize
            data-autofocus
          />
          <ErrorNotice error={error} title={teamErrorTitle(error?.code, 'The decision was not saved')} />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setAsking(null)}>
              Back
            </Button>
            {asking === 'reject' ? (
              <Button color="red" onClick={() => void decide('reject')} loading={busy} disabled={note.trim() === ''}>
                Reject
              </Button>
            ) : (
              <Button color="teal" onClick={() => void decide('approve')} loading={busy}>
                Approve {formatNaira(job.totalKobo)}
              </Button>
            )}
          </Group>
        </Stack>
      </Modal>
      <ErrorNotice error={asking === null ? error : null} title={teamErrorTitle(error?.code, 'The decision was not saved')} />
      <Group>
        <Button color="teal" onClick={() => setAsking('approve')}>
          Approve…
        </Button>
        <Button color="red" variant="light" onClick={() => setAsking('reject')}>
          Reject…
        </Button>
      </Group>
    </>
  );
}

/**
 * One team job on the Approvals page: its summary, its decision, and Approve / Reject for a member
 * who may decide it. `onDeciding` hears when its Approve or Reject dialog opens (the job) and
 * closes (null), so the page keeps the card while someone else's decision re-reads the list.
 */
export function TeamJobCard({
  job,
  status,
  onDecided,
  onDeciding,
  extra,
}: {
  job: TeamJobView;
  status: TeamStatusView | undefined;
  onDecided: (job: TeamJobView) => void;
  onDeciding?: (job: TeamJobView | null) => void;
  extra?: ReactNode;
}) {
  const mine = status?.user === job.preparedBy;
  const waiting = job.state === 'awaiting_approval';
  const approvedByMe = status?.user !== undefined && status.user !== null && job.approvedBy.includes(status.user);
  return (
    <Card withBorder padding="lg" component="article" aria-label={`${teamJobKindLabel(job)}: ${job.fileName === null ? job.id : freeText(job.fileName)}`} data-testid="team-job">
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <div>
            {/* The heading is what the job buys, from typed fields; the file's name (free text) comes after, under it. */}
            <Title order={2} size="h4" data-testid="team-job-title">
              {teamJobKindLabel(job)} · {formatCount(job.itemCount)} row{job.itemCount === 1 ? '' : 's'} · {formatNaira(job.totalKobo)}
            </Title>
            <Text size="sm" c="dimmed">
              {job.fileName === null ? null : (
                <>
                  “<FreeText text={job.fileName} />” ·{' '}
                </>
              )}
              team job {job.id}
            </Text>
          </div>
          <Badge size="lg" color={TEAM_STATE_COLOR[job.state]} variant="light" style={{ flexShrink: 0 }} data-testid="team-job-state">
            {TEAM_STATE_LABEL[job.state]}
          </Badge>
        </Group>
        <TeamJobSummary job={job} />
        <TeamDecision job={job} />
        {waiting && mine && (
          <Alert color="violet" variant="light" data-testid="team-job-own">
            You prepared this job, so another member approves it: the team database does not accept an approval from its preparer.
          </Alert>
        )}
        {waiting && !mine && approvedByMe && (
          <Text size="sm" c="dimmed" data-testid="team-job-approved-by-me">
            You approved this job. It needs a second approver — neither you nor its preparer — before anything is bought.
          </Text>
        )}
        {waiting && !mine && !approvedByMe && mayDecide(status) && <DecideButtons job={job} onDecided={onDecided} onAsking={(open) => onDeciding?.(open ? job : null)} />}
        {waiting && !mine && !mayDecide(status) && (
          <Text size="sm" c="dimmed">
            An approver or admin decides this job; your role prepares jobs only.
          </Text>
        )}
        <ApprovedJobActions job={job} />
        {extra}
      </Stack>
    </Card>
  );
}
