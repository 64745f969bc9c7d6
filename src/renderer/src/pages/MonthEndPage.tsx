/**
 * Month-end: a month's figures by cost centre and type (Lagos days, the service's clock), its close
 * pack (Excel), its journal (CSV for Xero, QuickBooks Online, Sage or plain), and closing or
 * reopening it — the same operations as `vendesk close`, `journal` and `month close|reopen`
 * (docs/month-end.md).
 */
import { Alert, Badge, Button, Card, Group, Modal, Select, SimpleGrid, Stack, Table, Text, TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import { JOURNAL_FORMATS, type JournalFormat } from '../../../shared/contract/monthEnd';
import { bridge } from '../bridge';
import { ErrorNotice } from '../components/ErrorNotice';
import { PageHeader } from '../components/PageHeader';
import { formatDay, formatNaira } from '../format';
import { useAction } from '../hooks/useAction';
import { useOperation } from '../hooks/useOperation';

const FORMAT_LABELS: Record<JournalFormat, string> = {
  xero: 'Xero (manual journals)',
  quickbooks: 'QuickBooks Online (journal entries)',
  sage: 'Sage (journals)',
  plain: 'Plain CSV',
};

function Figure({ label, kobo, note, testId }: { label: string; kobo: number | null; note?: string; testId: string }) {
  return (
    <Card withBorder padding="md">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text size="xl" fw={700} className="money" data-testid={testId}>
        {kobo === null ? '—' : formatNaira(kobo)}
      </Text>
      {note && (
        <Text size="xs" c="dimmed">
          {note}
        </Text>
      )}
    </Card>
  );
}

export function MonthEndPage() {
  const months = useOperation('monthEnd.months', {});
  const [month, setMonth] = useState<string | null>(null);
  const [format, setFormat] = useState<JournalFormat>('xero');
  const [confirmClose, setConfirmClose] = useState(false);
  const [reopening, setReopening] = useState(false);
  const [reason, setReason] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const action = useAction<'pack' | 'journal' | 'close' | 'reopen'>();
  useEffect(() => {
    // The latest month that is over (the first listed is the current one).
    if (month === null && months.data) setMonth(months.data.months[1]?.month ?? months.data.months[0]?.month ?? null);
  }, [month, months.data]);
  const summary = useOperation('monthEnd.summary', { month: month ?? '2000-01' }, { enabled: month !== null });
  const s = summary.data?.summary;
  const state = months.data?.months.find((m) => m.month === month);

  const writePack = () =>
    void action.run(async () => {
      if (!month) return;
      const file = await bridge.call('monthEnd.closePack', { month });
      setDone(`Close pack written: ${file.fileName}`);
      await bridge.download(file);
    }, 'pack');
  const writeJournal = () =>
    void action.run(async () => {
      if (!month) return;
      const file = await bridge.call('monthEnd.journal', { month, format });
      setDone(
        `Journal written (${FORMAT_LABELS[format]}, dated ${formatDay(file.date)}): ${file.fileName}; debits ${formatNaira(file.debitKobo)} = credits ${formatNaira(file.creditKobo)}`,
      );
      await bridge.download(file);
    }, 'journal');
  const close = () =>
    void action.run(async () => {
      if (!month) return;
      await bridge.call('monthEnd.close', { month });
      setConfirmClose(false);
      setDone(`${month} is closed: its figures stay as they are; later changes are adjustments of the next open month.`);
      await months.reload();
      await summary.reload();
    }, 'close');
  const reopen = () =>
    void action.run(async () => {
      if (!month) return;
      await bridge.call('monthEnd.reopen', { month, reason });
      setReopening(false);
      setReason('');
      setDone(`${month} is open again.`);
      await months.reload();
      await summary.reload();
    }, 'reopen');

  return (
    <>
      <PageHeader
        title="Month-end"
        description="A month's spend by cost centre, its close pack and journal, and closing it so its figures never move. Days are Lagos days on the service's clock."
        actions={
          <Select
            aria-label="Month"
            data={(months.data?.months ?? []).map((m) => ({ value: m.month, label: `${m.month}${m.state === 'closed' ? ' (closed)' : ''}` }))}
            value={month}
            onChange={(v) => {
              setMonth(v);
              setDone(null);
            }}
            w={190}
            data-testid="month-end-month"
          />
        }
      />
      <Stack gap="md">
        <ErrorNotice error={months.error ?? summary.error ?? action.error} title="Month-end" />
        {s && (
          <>
            <Group gap="sm">
              <Text fw={600}>
                {formatDay(s.from)} to {formatDay(s.to)}
              </Text>
              {s.closed ? (
                <Badge color="teal" data-testid="month-end-state">
                  Closed by {s.closed.closedBy}
                </Badge>
              ) : (
                <Badge color="gray" data-testid="month-end-state">
                  Open
                </Badge>
              )}
            </Group>
            <SimpleGrid cols={{ base: 2, md: 4 }}>
              <Figure
                label="Purchases (wallet cost)"
                kobo={s.purchases.costKobo}
                note={`${s.purchases.purchases} purchases; face value ${formatNaira(s.purchases.faceKobo)}`}
                testId="month-end-spend"
              />
              <Figure label="Commission earned" kobo={s.purchases.commissionKobo} testId="month-end-commission" />
              <Figure label="SMS charges" kobo={s.messaging.costKobo} note={`${s.messaging.messages} messages`} testId="month-end-sms" />
              <Figure
                label="Unexplained (wallet)"
                kobo={s.wallet.available ? s.wallet.unexplainedKobo : null}
                note={s.wallet.available ? 'Between the balance readings around the month' : (s.wallet.note ?? '')}
                testId="month-end-unexplained"
              />
            </SimpleGrid>
            <Text size="sm">
              Still pending at month end: <b>{s.pending.count}</b> ({formatNaira(s.pending.costKobo)}) · refunds: <b>{s.refunds.count}</b> ({formatNaira(s.refunds.costKobo)}) ·
              adjustments of closed months: <b>{s.adjustments.entries}</b> (net {formatNaira(s.adjustments.costKobo)})
            </Text>
            <Table striped withTableBorder data-testid="month-end-by-centre">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Cost centre</Table.Th>
                  <Table.Th>Type</Table.Th>
                  <Table.Th ta="right">Purchases</Table.Th>
                  <Table.Th ta="right">Face value</Table.Th>
                  <Table.Th ta="right">Wallet cost</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {[...s.byCostCentre.map((l) => ({ ...l, adj: false })), ...s.adjustments.lines.map((l) => ({ ...l, adj: true }))].map((l) => (
                  <Table.Tr key={`${l.adj}/${l.costCentre}/${l.type}`}>
                    <Table.Td>
                      {l.costCentre}
                      {l.adj ? ' (adjustment)' : ''}
                    </Table.Td>
                    <Table.Td>{l.type}</Table.Td>
                    <Table.Td ta="right">{l.purchases}</Table.Td>
                    <Table.Td ta="right" className="money">
                      {formatNaira(l.faceKobo)}
                    </Table.Td>
                    <Table.Td ta="right" className="money">
                      {formatNaira(l.costKobo)}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </>
        )}
        {done && (
          <Alert color="teal" variant="light" data-testid="month-end-done">
            {done}
          </Alert>
        )}
        {months.data?.team && (
          <Text size="sm" c="dimmed" data-testid="month-end-team">
            Months are closed in your team database: an approver or admin closes and reopens them, each in the team&apos;s audit trail, and every desktop of the team follows.
          </Text>
        )}
        <Group gap="sm" align="flex-end">
          <Button onClick={writePack} loading={action.running === 'pack'} disabled={!month} data-testid="month-end-pack">
            Write the close pack (Excel)
          </Button>
          <Select
            label="Journal for"
            data={JOURNAL_FORMATS.map((f) => ({ value: f, label: FORMAT_LABELS[f] }))}
            value={format}
            onChange={(v) => v && setFormat(v as JournalFormat)}
            w={260}
          />
          <Button variant="default" onClick={writeJournal} loading={action.running === 'journal'} disabled={!month} data-testid="month-end-journal">
            Export the journal
          </Button>
          {state?.state === 'closed' ? (
            <Button variant="default" color="red" onClick={() => setReopening(true)} data-testid="month-end-reopen">
              Reopen…
            </Button>
          ) : (
            <Button color="teal" onClick={() => setConfirmClose(true)} disabled={!month} data-testid="month-end-close">
              Close the month…
            </Button>
          )}
        </Group>
      </Stack>
      <Modal opened={confirmClose} onClose={() => setConfirmClose(false)} title={`Close ${month ?? ''}`} centered>
        <Stack gap="sm">
          <Text size="sm">
            The month's figures are kept as they are now. A purchase that settles later, a late refund or a cost centre changed afterwards is counted in the next open month as an
            adjustment. Reopening is possible, with a reason, and is recorded.
            {months.data?.team ? ' The close is the team’s: every desktop of the team sees the month closed.' : ''}
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirmClose(false)}>
              Cancel
            </Button>
            <Button color="teal" onClick={close} loading={action.running === 'close'} data-testid="month-end-close-confirm">
              Close {month}
            </Button>
          </Group>
        </Stack>
      </Modal>
      <Modal opened={reopening} onClose={() => setReopening(false)} title={`Reopen ${month ?? ''}`} centered>
        <Stack gap="sm">
          <TextInput label="Why it is reopened" value={reason} onChange={(e) => setReason(e.currentTarget.value)} placeholder="Vendor credit note, ticket 1234" />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setReopening(false)}>
              Cancel
            </Button>
            <Button color="red" onClick={reopen} loading={action.running === 'reopen'} disabled={reason.trim().length < 3}>
              Reopen {month}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
