import { Badge, Button, Card, Group, NumberInput, SegmentedControl, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import type { StandingOrderView } from '../../../../shared/contract/standing';
import { bridge } from '../../bridge';
import { formatDay, formatNaira } from '../../format';
import { useAction } from '../../hooks/useAction';
import { DateField } from '../DateField';
import { ErrorNotice } from '../ErrorNotice';
import { MoneyInput, readMoneyField } from '../MoneyInput';

/**
 * A team's order: its standing approval (terms, who approved, runs used, what stops the next run)
 * and, for an approver, Approve… — the rows of the version in force once, for a ceiling per run and
 * a number of runs or an end day. The team database decides; its refusal is shown as it says.
 */
export function StandingApprovalCard({ order, onChanged }: { order: StandingOrderView; onChanged: () => void }) {
  const a = order.standingApproval;
  const [open, setOpen] = useState(false);
  const [ceiling, setCeiling] = useState(String(order.perRunKobo / 100));
  const [limit, setLimit] = useState<'runs' | 'until'>('runs');
  const [runs, setRuns] = useState<number | string>(12);
  const [until, setUntil] = useState<string | null>(null);
  const [note, setNote] = useState('');
  const { running, error, run } = useAction();
  const ceilingField = readMoneyField(ceiling);
  const ready = ceilingField.kobo !== null && (limit === 'runs' ? typeof runs === 'number' && runs >= 1 : until !== null);
  const approve = () =>
    run(async () => {
      await bridge.call('standing.approve', {
        orderId: order.id,
        ceilingKobo: ceilingField.kobo as number,
        runs: limit === 'runs' ? (runs as number) : null,
        until: limit === 'until' ? until : null,
        ...(note.trim() ? { note: note.trim() } : {}),
      });
      setOpen(false);
      onChanged();
    });

  return (
    <Card withBorder padding="lg" data-testid="standing-approval">
      <Group justify="space-between" align="flex-start">
        <div>
          <Title order={3} size="h5">
            Standing approval
          </Title>
          {a ? (
            <Stack gap={2} mt={4}>
              <Group gap="xs">
                <Badge color={a.stops ? 'orange' : a.state === 'granted' ? 'teal' : 'violet'} variant="light">
                  {a.stops ? 'Does not cover the next run' : a.state === 'granted' ? 'Covers the next run' : 'Needs a second approver'}
                </Badge>
                <Text size="sm">
                  Up to {formatNaira(a.ceilingKobo)} a run, {a.runs !== null ? `${a.runsUsed} of ${a.runs} run(s) used` : `until ${formatDay(a.until ?? '')}`}
                </Text>
              </Group>
              <Text size="xs" c="dimmed">
                Approved by {a.approvedBy.join(' and ')} ({a.approvedBy.length} of {a.approvalsNeeded}) for version {a.version}
              </Text>
              {a.stops && (
                <Text size="sm" c="orange">
                  The next run waits for an ordinary approval: {a.stops}.
                </Text>
              )}
            </Stack>
          ) : (
            <Text size="sm" c="dimmed" mt={4}>
              None: each run waits for approval like any bulk job (Approvals page).
            </Text>
          )}
        </div>
        {!open && order.state !== 'ended' && (
          <Button size="xs" variant="default" onClick={() => setOpen(true)}>
            Approve…
          </Button>
        )}
      </Group>
      {open && (
        <Stack gap="sm" mt="md">
          <Text size="sm">
            Approve the {order.items} row(s) of version {order.version} ({formatNaira(order.perRunKobo)} a run) once: runs within these terms need no new approval; a changed row or
            amount, a higher total, or another connection needs a new one.
          </Text>
          <Group align="flex-start" gap="md">
            <MoneyInput label="Ceiling per run (₦)" value={ceiling} onChange={setCeiling} w={180} />
            <Stack gap={4}>
              <Text size="sm" fw={500}>
                For
              </Text>
              <SegmentedControl
                size="xs"
                value={limit}
                onChange={(v) => setLimit(v as 'runs' | 'until')}
                data={[
                  { value: 'runs', label: 'A number of runs' },
                  { value: 'until', label: 'Until a day' },
                ]}
              />
            </Stack>
            {limit === 'runs' ? (
              <NumberInput label="Runs" value={runs} onChange={setRuns} min={1} max={1000} allowDecimal={false} w={110} />
            ) : (
              <DateField label="Last day (Lagos)" value={until} onChange={setUntil} w={180} />
            )}
          </Group>
          <TextInput label="Note (kept in the audit trail)" value={note} onChange={(e) => setNote(e.currentTarget.value)} maxLength={500} />
          <ErrorNotice error={error} title="The team database did not take the approval" />
          <Group gap="xs">
            <Button size="xs" disabled={!ready} loading={running !== null} onClick={() => void approve()}>
              Approve
            </Button>
            <Button size="xs" variant="default" disabled={running !== null} onClick={() => setOpen(false)}>
              Cancel
            </Button>
          </Group>
        </Stack>
      )}
    </Card>
  );
}
