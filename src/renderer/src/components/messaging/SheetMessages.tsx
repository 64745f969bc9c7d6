/**
 * Personalised messages from a contacts sheet (docs/messaging.md): the text's `{Column heading}`
 * placeholders are filled from each row. Before anything is sent the tab shows which column fills
 * each placeholder, the first messages exactly as they will be sent with their pages and charge,
 * the total, and every row left out and why; the send is a job whose progress and charges show
 * here (and on the History tab's jobs).
 */
import { Alert, Badge, Button, Card, Checkbox, FileButton, Group, List, Modal, Progress, Select, SimpleGrid, Stack, Table, Text, Textarea, Title } from '@mantine/core';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { FileRef } from '../../../../shared/contract/files';
import type { MessageJobView, SheetMessagesPreview } from '../../../../shared/contract/messaging';
import { SMS_PAGE_CHARACTERS, SMS_PAGE_KOBO } from '../../../../shared/messagingCost';
import { placeholderText } from '../../../../shared/messagePlaceholders';
import { bridge } from '../../bridge';
import { useAction } from '../../hooks/useAction';
import { useOperation } from '../../hooks/useOperation';
import { ErrorNotice } from '../ErrorNotice';
import { formatCount, formatNaira } from '../../format';
import { SentencesNotice } from './ServiceNotes';

const JOB_STATE_LABEL: Record<MessageJobView['state'], string> = {
  running: 'Sending',
  paused: 'Paused',
  cancelled: 'Cancelled',
  completed: 'Sent',
  needs_attention: 'Needs attention',
};

/** A job's progress, charges and controls, read again as it changes. */
function JobCard({ jobId }: { jobId: number }) {
  const page = useOperation('messaging.jobs.get', { id: jobId, limit: 1 });
  const [progress, setProgress] = useState<{ done: number; total: number | null } | null>(null);
  const acting = useAction();
  useEffect(() => bridge.on('messaging.job.progress', (p) => (p.jobId === jobId ? setProgress({ done: p.done, total: p.total }) : undefined)), [jobId]);
  const job = page.data?.job;
  if (!job) return <ErrorNotice error={page.error} />;
  const c = job.counts;
  const done = job.state === 'running' && progress ? progress.done : c.sent + c.failed + c.cancelled;
  return (
    <Card withBorder padding="lg" data-testid="sheet-job">
      <Group justify="space-between" mb="xs">
        <Title order={2} size="h4">
          Job {job.id}: {job.label}
        </Title>
        <Badge color={job.state === 'completed' ? 'green' : job.state === 'running' ? 'blue' : job.state === 'cancelled' ? 'gray' : 'orange'}>{JOB_STATE_LABEL[job.state]}</Badge>
      </Group>
      <Progress value={job.messages ? (done / job.messages) * 100 : 0} mb="xs" />
      <Text size="sm">
        {formatCount(c.sent)} of {formatCount(job.messages)} sent
        {c.failed ? ` · ${formatCount(c.failed)} refused (nothing charged)` : ''}
        {c.uncertain + c.sending ? ` · ${formatCount(c.uncertain + c.sending)} may have been sent (checked in the service's history)` : ''}
        {c.cancelled ? ` · ${formatCount(c.cancelled)} cancelled` : ''}
      </Text>
      <Text size="sm" fw={600} data-testid="sheet-job-charged">
        Charged {formatNaira(job.chargedKobo)} of {formatNaira(job.estimatedKobo)} estimated
        {job.chargedAsQuoted ? ` (${formatCount(job.chargedAsQuoted)} at the estimate: the service gave no cost)` : ''}
      </Text>
      {job.note && (
        <Text size="sm" c="dimmed" mt={4}>
          {job.note}
        </Text>
      )}
      <ErrorNotice error={acting.error} />
      <Group mt="sm">
        {job.state === 'running' && !job.interrupted && (
          <Button variant="default" onClick={() => void acting.run(() => bridge.call('messaging.jobs.pause', { id: job.id }))}>
            Pause
          </Button>
        )}
        {(job.state === 'paused' || job.interrupted || job.state === 'needs_attention') && (
          <Button onClick={() => void acting.run(() => bridge.call('messaging.jobs.resume', { id: job.id, wait: false }))}>Resume</Button>
        )}
        {(job.state === 'paused' || job.state === 'running' || job.state === 'needs_attention') && (
          <Button variant="subtle" color="red" onClick={() => void acting.run(() => bridge.call('messaging.jobs.cancel', { id: job.id }))}>
            Cancel the rest
          </Button>
        )}
      </Group>
    </Card>
  );
}

/** The preview: placeholders and their columns, the first messages with their pages and charge, the rows left out. */
function SheetPreview({ preview }: { preview: SheetMessagesPreview }) {
  return (
    <Stack gap="sm" data-testid="sheet-preview">
      <Text size="sm">
        <b>{preview.fileName}</b>
        {preview.sheet ? ` (sheet ${preview.sheet})` : ''} · {formatCount(preview.rows)} rows · numbers from “{preview.phoneColumn}”
      </Text>
      {preview.placeholders.length > 0 && (
        <Group gap={6}>
          {preview.placeholders.map((p) => (
            <Badge key={p.name} variant="light" color={p.column === null ? 'red' : 'teal'} tt="none">
              {placeholderText(p.name)} → {p.column === null ? 'no such column' : `“${p.column}”`}
            </Badge>
          ))}
        </Group>
      )}
      {preview.sample.length > 0 && (
        <Table withTableBorder verticalSpacing={6} data-testid="sheet-sample">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Row</Table.Th>
              <Table.Th>To</Table.Th>
              <Table.Th>Message, as it will be sent</Table.Th>
              <Table.Th ta="right">Pages</Table.Th>
              <Table.Th ta="right">Charge</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {preview.sample.map((s) => (
              <Table.Tr key={s.row}>
                <Table.Td>{s.row}</Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{s.phone}</Table.Td>
                <Table.Td style={{ whiteSpace: 'pre-wrap' }}>
                  {s.text}
                  <Text span size="xs" c="dimmed">
                    {' '}
                    ({formatCount([...s.text].length)} characters)
                  </Text>
                </Table.Td>
                <Table.Td ta="right">{s.pages}</Table.Td>
                <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                  {formatNaira(s.pages * SMS_PAGE_KOBO)}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {preview.messages > preview.sample.length && (
        <Text size="xs" c="dimmed">
          … and {formatCount(preview.messages - preview.sample.length)} more, each priced on its own text.
        </Text>
      )}
      {preview.incompleteCount > 0 && (
        <Alert
          color="orange"
          variant="light"
          title={`${formatCount(preview.incompleteCount)} row${preview.incompleteCount === 1 ? ' has' : 's have'} an empty value`}
          data-testid="sheet-incomplete"
        >
          <List size="sm">
            {preview.incomplete.slice(0, 8).map((r) => (
              <List.Item key={r.row}>
                Row {r.row} ({r.phone}): {r.empty.map(placeholderText).join(', ')} empty
              </List.Item>
            ))}
          </List>
          {preview.incompleteCount > 8 && <Text size="xs">… and {formatCount(preview.incompleteCount - 8)} more.</Text>}
          <Text size="sm" mt={4}>
            Fill in those cells and choose the file again, or leave those rows out below.
          </Text>
        </Alert>
      )}
      {preview.invalidCount > 0 && (
        <Alert color="red" variant="light" title={`${formatCount(preview.invalidCount)} row${preview.invalidCount === 1 ? '' : 's'} cannot be sent`} data-testid="sheet-invalid">
          <List size="sm">
            {preview.invalid.slice(0, 8).map((r) => (
              <List.Item key={r.row}>{r.message}</List.Item>
            ))}
          </List>
          {preview.invalidCount > 8 && <Text size="xs">… and {formatCount(preview.invalidCount - 8)} more.</Text>}
        </Alert>
      )}
      {preview.duplicateCount > 0 && (
        <Text size="sm" c="dimmed">
          {formatCount(preview.duplicateCount)} number{preview.duplicateCount === 1 ? ' is' : 's are'} repeated: each receives one message, its first row’s.
        </Text>
      )}
    </Stack>
  );
}

/** `fields`: the tab's own fields (Send to, Sender ID), shown first. */
export function SheetMessages({ senderId, fields }: { senderId: string | null; fields: ReactNode }) {
  const [file, setFile] = useState<FileRef | null>(null);
  const [sheet, setSheet] = useState<string | null>(null);
  const [text, setText] = useState('');
  const [preview, setPreview] = useState<SheetMessagesPreview | null>(null);
  const [skipEmpty, setSkipEmpty] = useState(false);
  const [skipInvalid, setSkipInvalid] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [jobId, setJobId] = useState<number | null>(null);
  const reading = useAction();
  const sending = useAction();
  const resetPicker = useRef<() => void>(null);

  // The preview follows the file and the text (read again a moment after typing stops).
  useEffect(() => {
    if (!file || text.trim() === '') {
      setPreview(null);
      return;
    }
    const timer = setTimeout(() => void reading.run(async () => setPreview(await bridge.call('messaging.sheet.preview', { file, text, ...(sheet ? { sheet } : {}) }))), 300);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [file, sheet, text]);

  const choose = async (picked: File | null) => {
    if (!picked) return;
    resetPicker.current?.();
    await reading.run(async () => {
      setFile(await bridge.fileRef(picked));
      setSheet(null);
      setJobId(null);
    });
  };

  const problems: string[] = [];
  if (!file) problems.push('Choose the contacts sheet (CSV or Excel): a Phone column and the columns your text names.');
  if (text.trim() === '') problems.push('Write the message; put a column’s heading in braces, like {Name}, for each recipient’s own value.');
  if (!senderId) problems.push('No approved sender ID: a message can only be sent from an approved one (see the Sender IDs tab).');
  if (preview) {
    problems.push(...preview.textProblems);
    const unknown = preview.placeholders.filter((p) => p.column === null);
    if (unknown.length)
      problems.push(`The sheet has no column ${unknown.map((p) => placeholderText(p.name)).join(', ')}; its columns are ${preview.headers.map((h) => `“${h}”`).join(', ')}.`);
    if (preview.incompleteCount > 0 && !skipEmpty) problems.push('Some rows have an empty value: fill them in, or leave them out.');
    if (preview.invalidCount > 0 && !skipInvalid) problems.push('Some rows cannot be sent: fix them, or leave them out.');
    if (preview.messages === 0 && unknown.length === 0 && preview.textProblems.length === 0) problems.push('No row of the sheet can be sent a message.');
  }

  const send = () =>
    sending.run(async () => {
      if (!file || !preview || !senderId) return;
      const job = await bridge.call('messaging.sheet.send', {
        file,
        text,
        ...(sheet ? { sheet } : {}),
        senderId,
        skipEmpty,
        skipInvalid,
        confirmedTotalKobo: preview.smsKobo,
        wait: false,
      });
      setConfirming(false);
      setJobId(job.id);
      setFile(null);
      setPreview(null);
    });

  return (
    <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="lg">
      <Card withBorder padding="lg">
        <Stack gap="md">
          {fields}
          <Group justify="space-between" align="flex-end">
            <div>
              <Text size="sm" fw={500}>
                Contacts sheet
              </Text>
              <Text size="xs" c="dimmed">
                {file ? file.name : 'Each row gets its own text. CSV or Excel (.xlsx): a Phone column, and a column for each value your text names.'}
              </Text>
            </div>
            <FileButton resetRef={resetPicker} onChange={(f) => void choose(f)} accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet">
              {(props) => (
                <Button {...props} variant="light" loading={reading.busy && !preview}>
                  {file ? 'Choose another…' : 'Choose file…'}
                </Button>
              )}
            </FileButton>
          </Group>
          {preview && preview.sheetNames.length > 1 && <Select label="Worksheet" data={preview.sheetNames} value={sheet ?? preview.sheet} onChange={setSheet} w={260} />}
          <Textarea
            label="Text"
            autosize
            minRows={3}
            maxRows={10}
            value={text}
            onChange={(e) => setText(e.currentTarget.value)}
            placeholder="Hello {Name}, your November data allowance of {Data allowance} has been sent."
            description={`Each {Column heading} is filled from the recipient’s row (any case). Write \\{ or \\} for a brace itself. ${SMS_PAGE_CHARACTERS} characters a page, ${formatNaira(SMS_PAGE_KOBO)} a page per recipient.`}
          />
          {preview && preview.headers.length > 0 && (
            <Text size="xs" c="dimmed">
              Columns of the sheet: {preview.headers.map((h) => `{${h}}`).join(' ')}
            </Text>
          )}
        </Stack>
      </Card>

      <Stack gap="lg">
        <Card withBorder padding="lg">
          <Title order={2} size="h4" mb="xs">
            Before you send
          </Title>
          <ErrorNotice error={reading.error} title="The sheet cannot be read" />
          {preview && <SheetPreview preview={preview} />}
          {preview && (
            <Group gap="xl" my="sm">
              <div>
                <Text size="xs" c="dimmed">
                  Messages
                </Text>
                <Text fw={600}>{formatCount(preview.messages)}</Text>
              </div>
              <div>
                <Text size="xs" c="dimmed">
                  Pages each
                </Text>
                <Text fw={600}>{preview.pages.fewest === preview.pages.most ? preview.pages.most : `${preview.pages.fewest}–${preview.pages.most}`}</Text>
              </div>
              <div>
                <Text size="xs" c="dimmed">
                  Charged to the wallet
                </Text>
                <Text fw={700} data-testid="sheet-total">
                  {formatNaira(preview.smsKobo)}
                </Text>
              </div>
            </Group>
          )}
          {preview && preview.incompleteCount > 0 && (
            <Checkbox
              mb={4}
              label={`Leave out the ${formatCount(preview.incompleteCount)} row${preview.incompleteCount === 1 ? '' : 's'} with an empty value`}
              checked={skipEmpty}
              onChange={(e) => setSkipEmpty(e.currentTarget.checked)}
            />
          )}
          {preview && preview.invalidCount > 0 && (
            <Checkbox
              mb={4}
              label={`Leave out the ${formatCount(preview.invalidCount)} row${preview.invalidCount === 1 ? '' : 's'} that cannot be sent`}
              checked={skipInvalid}
              onChange={(e) => setSkipInvalid(e.currentTarget.checked)}
            />
          )}
          <SentencesNotice title="To send, first:" sentences={problems} mt="sm" mb="sm" />
          <Button mt="sm" disabled={problems.length > 0 || !preview} onClick={() => setConfirming(true)} data-testid="sheet-review">
            {preview && preview.messages > 0 ? `Send ${formatCount(preview.messages)} messages…` : 'Send…'}
          </Button>
        </Card>
        {jobId !== null && <JobCard jobId={jobId} />}
      </Stack>

      <Modal opened={confirming && preview !== null} onClose={() => setConfirming(false)} title={<Text fw={700}>Send these messages?</Text>} centered>
        {preview && (
          <Stack gap="sm">
            <Text size="sm">
              {formatCount(preview.messages)} messages from {senderId}, each with its recipient’s own values, {formatCount(preview.pages.total)} pages in all.
            </Text>
            <Text fw={700} fz="lg" data-testid="sheet-confirm-total">
              {formatNaira(preview.smsKobo)} from the wallet
            </Text>
            <Text size="sm" c="dimmed">
              Each message is sent once, one after the other; you can pause or cancel the rest. A sent message cannot be recalled.
            </Text>
            <ErrorNotice error={sending.error} title="Nothing was sent" />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setConfirming(false)} disabled={sending.busy}>
                Go back
              </Button>
              <Button onClick={() => void send()} loading={sending.busy} data-testid="sheet-confirm-send">
                Send for {formatNaira(preview.smsKobo)}
              </Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </SimpleGrid>
  );
}
