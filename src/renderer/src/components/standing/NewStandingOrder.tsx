import { Alert, Button, Card, Group, NumberInput, Select, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import type { BulkKind } from '../../../../shared/contract/bulk';
import type { FileRef } from '../../../../shared/contract/files';
import { WEEKDAY_NAMES, type StandingDraftView, type StandingRecurrence, type Weekday, type WeekendMove } from '../../../../shared/contract/standing';
import { bridge } from '../../bridge';
import { formatCount, formatDateTime } from '../../format';
import { useAction } from '../../hooks/useAction';
import { useOperation } from '../../hooks/useOperation';
import { KIND_LABEL } from '../bulk/bulkLabels';
import { KIND_CHOICES, SpreadsheetPicker } from '../bulk/SpreadsheetPicker';
import { DateField } from '../DateField';
import { ErrorNotice } from '../ErrorNotice';
import { LabeledChoice } from '../LabeledChoice';

type Repeats = StandingRecurrence['kind'];
type Ends = 'never' | 'on' | 'after';
type Source = 'file' | 'job';

const REPEAT_CHOICES: readonly { value: Repeats; label: string }[] = [
  { value: 'monthly', label: 'Monthly on a day' },
  { value: 'last_working_day', label: 'Last working day of the month' },
  { value: 'weekly', label: 'Weekly' },
];
const END_CHOICES: readonly { value: Ends; label: string }[] = [
  { value: 'never', label: 'Until I end it' },
  { value: 'on', label: 'On a date' },
  { value: 'after', label: 'After a number of runs' },
];
const SOURCE_CHOICES: readonly { value: Source; label: string }[] = [
  { value: 'file', label: 'A spreadsheet' },
  { value: 'job', label: 'A bulk job that ran' },
];
const WEEKEND_CHOICES: { value: WeekendMove; label: string }[] = [
  { value: 'next', label: 'Move it to the next working day (Monday)' },
  { value: 'previous', label: 'Move it to the working day before (Friday)' },
  { value: 'none', label: 'Buy on the day itself' },
];
const WEEKDAY_CHOICES = WEEKDAY_NAMES.map((d) => ({ value: d, label: d[0]!.toUpperCase() + d.slice(1) }));

/** A new standing order: its name, its schedule, and its rows from a spreadsheet or from a bulk job that ran. Nothing is bought until it is confirmed. */
export function NewStandingOrder({ onPrepared, onCancel }: { onPrepared: (draft: StandingDraftView) => void; onCancel: () => void }) {
  const [name, setName] = useState('');
  const [kind, setKind] = useState<BulkKind>('airtime');
  const [source, setSource] = useState<Source>('file');
  const [repeats, setRepeats] = useState<Repeats>('monthly');
  const [day, setDay] = useState<number | string>(25);
  const [weekday, setWeekday] = useState<Weekday>('friday');
  const [start, setStart] = useState('');
  const [ends, setEnds] = useState<Ends>('never');
  const [end, setEnd] = useState('');
  const [runs, setRuns] = useState<number | string>(12);
  const [weekend, setWeekend] = useState<WeekendMove>('next');
  const [grace, setGrace] = useState<number | string>(3);
  const [jobId, setJobId] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const { busy, error, run } = useAction();
  const jobs = useOperation('bulk.list', { limit: 100 }, { enabled: source === 'job' });
  // A job that ran (not a draft, not one waiting for approval) gives an order its rows.
  const ranJobs = (jobs.data ?? []).filter((j) => j.state !== 'draft' && j.state !== 'awaiting_approval');

  const recurrence = (): StandingRecurrence =>
    repeats === 'monthly' ? { kind: 'monthly', day: Number(day) } : repeats === 'weekly' ? { kind: 'weekly', weekday } : { kind: 'last_working_day' };

  /** The schedule as the contract takes it, or a sentence saying what to fill in. */
  const schedule = () => {
    if (name.trim() === '') return 'Give the order a name (for example “Staff data allowance”).';
    if (repeats === 'monthly' && !(Number.isInteger(Number(day)) && Number(day) >= 1 && Number(day) <= 31)) return 'The day of the month is 1 to 31.';
    if (ends === 'on' && end === '') return 'Give the last date, or choose “Until I end it”.';
    if (ends === 'after' && !(Number.isInteger(Number(runs)) && Number(runs) >= 1)) return 'The number of runs is 1 or more.';
    if (!(Number.isInteger(Number(grace)) && Number(grace) >= 0 && Number(grace) <= 60)) return 'The grace period is 0 to 60 days.';
    return {
      name: name.trim(),
      recurrence: recurrence(),
      ...(start ? { start } : {}),
      ...(ends === 'on' ? { end } : {}),
      ...(ends === 'after' ? { runs: Number(runs) } : {}),
      weekend: repeats === 'last_working_day' ? ('none' as const) : weekend,
      graceDays: Number(grace),
      skipInvalid: true,
    };
  };

  const prepare = async (rows: { file: FileRef; sheet: string | null } | { fromJobId: string }) => {
    const fields = schedule();
    if (typeof fields === 'string') {
      setProblem(fields);
      return;
    }
    setProblem(null);
    const draft = await bridge.call(
      'standing.prepare',
      'file' in rows ? { ...fields, kind, file: rows.file, ...(rows.sheet ? { sheet: rows.sheet } : {}) } : { ...fields, fromJobId: rows.fromJobId },
    );
    onPrepared(draft);
  };

  return (
    <Card withBorder padding="lg">
      <Stack gap="md">
        <Group justify="space-between">
          <Title order={2} size="h4">
            New standing order
          </Title>
          <Button variant="default" size="xs" onClick={onCancel}>
            Back to the orders
          </Button>
        </Group>
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          <TextInput
            label="Name"
            description="What the team calls it, e.g. “Staff data allowance”"
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            maxLength={120}
            required
          />
          <Stack gap="xs">
            <LabeledChoice label="Repeats" value={repeats} onChange={setRepeats} data={REPEAT_CHOICES} />
            {repeats === 'monthly' && (
              <NumberInput
                label="Day of the month"
                description="29, 30 or 31 means the month’s last day when it is shorter"
                min={1}
                max={31}
                allowDecimal={false}
                value={day}
                onChange={setDay}
                w={260}
              />
            )}
            {repeats === 'weekly' && (
              <Select label="Weekday" data={WEEKDAY_CHOICES} value={weekday} onChange={(v) => v && setWeekday(v as Weekday)} allowDeselect={false} w={260} />
            )}
            {repeats === 'last_working_day' && (
              <Text size="sm" c="dimmed">
                The month’s last Monday-to-Friday day.
              </Text>
            )}
          </Stack>
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          <DateField label="First date" description="Empty: from today (Lagos)" value={start} onChange={setStart} />
          <Stack gap="xs">
            <LabeledChoice label="Ends" value={ends} onChange={setEnds} data={END_CHOICES} />
            {ends === 'on' && <DateField label="Last date" value={end} onChange={setEnd} w={260} />}
            {ends === 'after' && <NumberInput label="Number of runs" min={1} max={1000} allowDecimal={false} value={runs} onChange={setRuns} w={260} />}
          </Stack>
          {repeats !== 'last_working_day' && (
            <Select label="When the day is a Saturday or Sunday" data={WEEKEND_CHOICES} value={weekend} onChange={(v) => v && setWeekend(v as WeekendMove)} allowDeselect={false} />
          )}
          <NumberInput
            label="Grace period (days)"
            description="A run missed (vendesk closed on the day) is still bought at the next start within this many days; after it, it waits for you"
            min={0}
            max={60}
            allowDecimal={false}
            value={grace}
            onChange={setGrace}
          />
        </SimpleGrid>
        <LabeledChoice label="The rows come from" value={source} onChange={setSource} data={SOURCE_CHOICES} />
        {source === 'file' ? (
          <>
            <LabeledChoice label="What to buy" value={kind} onChange={setKind} data={KIND_CHOICES} />
            <SpreadsheetPicker kind={kind} busy={busy} run={run} onPicked={(file, sheet) => prepare({ file, sheet })} />
          </>
        ) : (
          <Group align="flex-end">
            <Select
              label="Bulk job"
              placeholder={ranJobs.length === 0 ? 'No bulk job has run yet' : 'Choose a job'}
              data={ranJobs.map((j) => ({
                value: j.id,
                label: `${j.fileName} — ${KIND_LABEL[j.kind]}, ${formatCount(j.items)} rows, ${formatDateTime(j.confirmedAt ?? j.createdAt)}`,
              }))}
              value={jobId}
              onChange={setJobId}
              searchable
              w={520}
            />
            <Button disabled={!jobId} loading={busy} onClick={() => jobId && void run(() => prepare({ fromJobId: jobId }))}>
              Check these rows
            </Button>
          </Group>
        )}
        <Text size="sm" c="dimmed" data-testid="standing-cost-centre-help">
          Cost centres: a standing order does not keep the sheet’s Cost centre column yet, so each run’s purchases are charged by the recipients list (else Unassigned). Change a
          purchase’s cost centre afterwards from its row in Transactions.
        </Text>
        {problem && (
          <Alert color="red" variant="light" title="Fill in the order first" role="alert">
            {problem}
          </Alert>
        )}
        <Alert variant="light" color="blue" title="Nothing is bought yet">
          vendesk checks every row as it checks a bulk job, then shows the rows, the total of each run and the next dates. You confirm once; then each run buys itself on its day.
        </Alert>
        <ErrorNotice error={error} title="The standing order could not be made" />
      </Stack>
    </Card>
  );
}
