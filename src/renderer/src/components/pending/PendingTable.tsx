import { Badge, Button, CopyButton, Group, Stack, Table, Text, Tooltip } from '@mantine/core';
import { ActionsHeader } from '../TableHead';
import type { PendingItemView } from '../../../../shared/contract/pending';
import { formatDateTime, formatNaira, formatTime } from '../../format';
import { STATE_COLOR, STATE_LABEL } from '../purchases/purchaseStatus';

/** "1:45" until due, "Due now" at zero. */
export function countdownText(seconds: number): string {
  if (seconds <= 0) return 'Due now';
  const m = Math.floor(seconds / 60);
  const s = seconds % 60;
  if (m >= 60) return `in ${Math.floor(m / 60)} h ${m % 60} min`;
  return `in ${m}:${String(s).padStart(2, '0')}`;
}

export interface PendingRowActions {
  onRequery: (item: PendingItemView) => void;
  onResolve: (item: PendingItemView) => void;
  onReceipt: (item: PendingItemView) => void;
  busyId: string | null;
}

/**
 * One row per purchase waiting for a final answer: what it is, when it was bought, its status,
 * how many checks the service has answered, a live countdown to the next check, and what can be
 * done about it now.
 */
/**
 * What "Requery now" does, in the words of the real wait. Before the service answers (2 min 1 s after
 * the purchase), pressing it asks nothing: vendesk asks at that moment by itself. After a check that
 * was still pending, vendesk waits 1, 2, 4, 8, 16, 32 minutes, then every hour
 * (src/main/api/requeryBackoff.ts) — its own pace: the service answers at any time, so it asks at once.
 */
export function requeryButtonText(item: PendingItemView, allowedLeft: number, dueLeft: number): string {
  const p = item.purchase;
  if (p.state === 'uncertain') return 'Look for it in the service’s transaction log now';
  if (allowedLeft > 0) {
    const at = item.requeryAllowedAt ? ` (${formatTime(item.requeryAllowedAt)})` : '';
    return `The service answers a requery from 2 min 1 s after the purchase${at}, ${countdownText(allowedLeft)}: vendesk asks it then by itself`;
  }
  if (dueLeft <= 0) return 'Ask the service for the final answer now';
  return `Ask the service now. Checked ${p.requery.attempts} time${p.requery.attempts === 1 ? '' : 's'} and still pending: by itself vendesk asks again after 1, 2, 4, 8, 16 and 32 minutes, then every hour (next ${countdownText(dueLeft)})`;
}

export function PendingTable({
  items,
  secondsLeft,
  actions,
}: {
  items: PendingItemView[];
  /** Seconds left of a countdown of the list as read, ticking on this page. */
  secondsLeft: (seconds: number | null) => number | null;
  actions: PendingRowActions;
}) {
  return (
    <Table striped highlightOnHover verticalSpacing="sm" data-testid="pending-table">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Purchase</Table.Th>
          <Table.Th style={{ textAlign: 'right' }}>Amount</Table.Th>
          <Table.Th>Bought</Table.Th>
          <Table.Th>Status</Table.Th>
          <Table.Th style={{ textAlign: 'center' }}>Checks answered</Table.Th>
          <Table.Th style={{ whiteSpace: 'nowrap' }}>Next check</Table.Th>
          <ActionsHeader />
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {items.map((item) => {
          const p = item.purchase;
          const left = secondsLeft(item.dueInSeconds);
          const allowedLeft = secondsLeft(item.requeryAllowedInSeconds) ?? 0;
          const waiting = p.state === 'pending' || p.state === 'uncertain';
          const due = left !== null && left <= 0;
          const busy = actions.busyId === p.id;
          return (
            <Table.Tr key={p.id} data-testid={`pending-row-${p.id}`} data-reference={p.reference ?? ''}>
              <Table.Td>
                <Text size="sm" fw={600}>
                  {p.kind === 'electricity' ? `Electricity · ${p.providerCode}` : `Cable TV · ${p.providerName}`}
                </Text>
                <Text size="xs" c="dimmed">
                  {p.kind === 'electricity' ? 'Meter' : 'Smartcard'} <span style={{ fontFamily: 'monospace' }}>{p.account}</span>
                  {p.customerName ? ` · ${p.customerName}` : ''}
                </Text>
                <Text size="xs" c="dimmed">
                  {/* A long reference wraps: in a narrow window the row's buttons stay in view. */}
                  Ref <span style={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>{p.reference ?? 'none yet'}</span>
                </Text>
              </Table.Td>
              <Table.Td className="money" style={{ textAlign: 'right' }}>
                {formatNaira(p.amountKobo)}
              </Table.Td>
              <Table.Td>
                <Text size="sm">{formatDateTime(p.createdAt)}</Text>
              </Table.Td>
              <Table.Td maw={320}>
                <Badge color={STATE_COLOR[p.state]} variant="light" data-testid="pending-state">
                  {STATE_LABEL[p.state]}
                </Badge>
                {p.requery.lastNote && (
                  <Text size="xs" c="dimmed" mt={2}>
                    {p.requery.lastNote}
                  </Text>
                )}
                {p.state === 'failed' && p.refund.message && (
                  <Text size="xs" c={p.refund.state === 'missing' ? 'red' : 'dimmed'} mt={2}>
                    {p.refund.message}
                  </Text>
                )}
              </Table.Td>
              <Table.Td style={{ textAlign: 'center' }} data-testid="pending-attempts">
                {p.requery.attempts}
              </Table.Td>
              <Table.Td data-testid="pending-countdown" style={{ whiteSpace: 'nowrap' }}>
                {waiting && left !== null ? (
                  <Text size="sm" fw={due ? 700 : undefined} c={due ? 'blue' : undefined} className="tabular">
                    {countdownText(left)}
                  </Text>
                ) : (
                  <Text size="sm" c="dimmed">
                    {p.state === 'needs_support' ? 'Stopped — support' : '—'}
                  </Text>
                )}
              </Table.Td>
              <Table.Td>
                <Stack gap={4} align="flex-end">
                  {waiting && (
                    <Tooltip label={requeryButtonText(item, allowedLeft, left ?? 0)} withArrow multiline maw={320}>
                      <Button size="compact-sm" onClick={() => actions.onRequery(item)} loading={busy} data-testid="requery-now">
                        {p.state === 'uncertain' ? 'Look in log now' : 'Requery now'}
                      </Button>
                    </Tooltip>
                  )}
                  <Group gap={4} wrap="nowrap">
                    <Button size="compact-xs" variant="subtle" onClick={() => actions.onReceipt(item)} data-testid="view-receipt">
                      Receipt
                    </Button>
                    {p.state !== 'success' && p.state !== 'failed' && p.state !== 'rejected' && (
                      <Button size="compact-xs" variant="subtle" onClick={() => actions.onResolve(item)}>
                        Resolve…
                      </Button>
                    )}
                    {item.support && (
                      <CopyButton value={item.support.text}>
                        {({ copied, copy }) => (
                          <Button size="compact-xs" variant="subtle" color={copied ? 'teal' : 'grape'} onClick={copy}>
                            {copied ? 'Copied' : 'Copy for support'}
                          </Button>
                        )}
                      </CopyButton>
                    )}
                  </Group>
                </Stack>
              </Table.Td>
            </Table.Tr>
          );
        })}
      </Table.Tbody>
    </Table>
  );
}
