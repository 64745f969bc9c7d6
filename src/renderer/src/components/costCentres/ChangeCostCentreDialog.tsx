/**
 * Change cost centre: a vendesk purchase's cost centre, what its spend is charged to now, every
 * recorded change (who, when, from what), and the change itself (`costCentres.change`). When the
 * purchase's month is closed it says, before the change is saved, that the change is counted as an
 * adjustment in the next open month and the closed month's figures stay as they are
 * (docs/month-end.md).
 */
import { Alert, Button, Group, Loader, Modal, Stack, Table, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { monthLabel } from '../../../../shared/months';
import { bridge } from '../../bridge';
import { formatDateTime } from '../../format';
import { useAction } from '../../hooks/useAction';
import { useOperation } from '../../hooks/useOperation';
import { ErrorNotice } from '../ErrorNotice';
import { CostCentreInput } from './CostCentreInput';

const HEADER_AS_BLOCK = { component: 'div' } as object;

const none = (centre: string | null) => centre ?? 'none';

export function ChangeCostCentreDialog({ reference, onClose }: { reference: string | null; onClose: () => void }) {
  const view = useOperation('costCentres.purchase', { reference: reference ?? '-' }, { enabled: reference !== null });
  const [next, setNext] = useState('');
  const [saved, setSaved] = useState<string | null>(null);
  const save = useAction();
  const p = view.data && view.data.reference === reference ? view.data : null;
  // Another purchase: nothing said yet. The field follows the cost centre as it is read (again after a save, which re-reads it).
  useEffect(() => {
    setSaved(null);
    save.setError(null);
  }, [reference]); // eslint-disable-line react-hooks/exhaustive-deps
  useEffect(() => setNext(p?.costCentre ?? ''), [reference, p?.costCentre]);

  const unchanged = (next.trim() || null) === (p?.costCentre ?? null);
  const submit = () =>
    void save.run(async () => {
      if (!reference || !p) return;
      const change = await bridge.call('costCentres.change', { reference, costCentre: next });
      setSaved(
        p.monthClosed && p.adjustmentMonth && p.month
          ? `Changed from ${none(change.from)} to ${none(change.to)}. ${monthLabel(p.month)} is closed: the change is counted as an adjustment in ${monthLabel(p.adjustmentMonth)}.`
          : `Changed from ${none(change.from)} to ${none(change.to)}.`,
      );
      await view.reload();
    });

  return (
    <Modal.Root opened={reference !== null} onClose={onClose} size="lg">
      <Modal.Overlay />
      <Modal.Content>
        {/* Mantine draws a modal's header as <header>, a second banner beside the window's: a plain block here. */}
        <Modal.Header {...HEADER_AS_BLOCK}>
          <Modal.Title>Change cost centre</Modal.Title>
          <Modal.CloseButton aria-label="Close" />
        </Modal.Header>
        <Modal.Body>
          {!p ? (
            view.error ? (
              <ErrorNotice error={view.error} onRetry={() => void view.reload()} title="The purchase's cost centre could not be read" />
            ) : (
              <Group gap="xs">
                <Loader size="sm" />
                <Text size="sm">Reading the purchase…</Text>
              </Group>
            )
          ) : (
            <Stack gap="md" data-testid="cost-centre-dialog">
              <Table withRowBorders={false} verticalSpacing={2}>
                <Table.Tbody>
                  <Table.Tr>
                    <Table.Td w={170} c="dimmed">
                      Transaction id
                    </Table.Td>
                    <Table.Td style={{ wordBreak: 'break-all' }}>{p.reference}</Table.Td>
                  </Table.Tr>
                  <Table.Tr>
                    <Table.Td c="dimmed">Cost centre now</Table.Td>
                    <Table.Td fw={600} data-testid="cost-centre-current">
                      {p.costCentre ?? `none kept on the purchase (charged to ${p.chargedTo})`}
                    </Table.Td>
                  </Table.Tr>
                  {p.month && (
                    <Table.Tr>
                      <Table.Td c="dimmed">Month</Table.Td>
                      <Table.Td data-testid="cost-centre-month">
                        {monthLabel(p.month)} ({p.monthClosed ? 'closed' : 'open'})
                      </Table.Td>
                    </Table.Tr>
                  )}
                </Table.Tbody>
              </Table>
              {p.monthClosed && p.month && p.adjustmentMonth && (
                <Alert color="yellow" variant="light" title={`${monthLabel(p.month)} is closed`} data-testid="cost-centre-closed-month">
                  A change is recorded now and counted as an adjustment in {monthLabel(p.adjustmentMonth)}, the next open month: it appears on that month’s Adjustments sheet and
                  journal. {monthLabel(p.month)}’s close pack and journal stay as they were closed.
                </Alert>
              )}
              {p.vendeskPurchase ? (
                <>
                  <CostCentreInput
                    label="New cost centre"
                    value={next}
                    onChange={setNext}
                    description="Leave empty to remove it: the recipients list then decides, else Unassigned."
                    testId="cost-centre-new"
                  />
                  <ErrorNotice error={save.error} title="The cost centre was not changed" />
                  {saved && (
                    <Alert color="teal" variant="light" role="status" data-testid="cost-centre-saved">
                      {saved}
                    </Alert>
                  )}
                  <Group justify="flex-end">
                    <Button variant="default" onClick={onClose} data-testid="cost-centre-close">
                      Close
                    </Button>
                    <Button onClick={submit} loading={save.busy} disabled={unchanged} data-testid="cost-centre-save">
                      Save change
                    </Button>
                  </Group>
                </>
              ) : (
                <Alert color="gray" variant="light" data-testid="cost-centre-not-vendesk">
                  vendesk did not make this purchase, so its cost centre comes from the recipients list (now: {p.chargedTo}). To charge it elsewhere, put its phone, meter or
                  smartcard in the recipients list and import it again.
                </Alert>
              )}
              <Stack gap={4}>
                <Text fw={600} size="sm">
                  Changes recorded
                </Text>
                {p.history.length === 0 ? (
                  <Text size="sm" c="dimmed" data-testid="cost-centre-history-empty">
                    None: the cost centre is the one it was bought with.
                  </Text>
                ) : (
                  <Table striped withTableBorder data-testid="cost-centre-history">
                    <Table.Thead>
                      <Table.Tr>
                        <Table.Th>When (Lagos)</Table.Th>
                        <Table.Th>Who</Table.Th>
                        <Table.Th>From</Table.Th>
                        <Table.Th>To</Table.Th>
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {p.history.map((h) => (
                        <Table.Tr key={`${h.changedAt}/${h.from}/${h.to}`}>
                          <Table.Td>{formatDateTime(h.changedAt)}</Table.Td>
                          <Table.Td>{h.actor}</Table.Td>
                          <Table.Td>{none(h.from)}</Table.Td>
                          <Table.Td>{none(h.to)}</Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                )}
              </Stack>
            </Stack>
          )}
        </Modal.Body>
      </Modal.Content>
    </Modal.Root>
  );
}
