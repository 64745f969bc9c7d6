/** The detail panel of one mirrored log entry: every field the service gave, money in Naira. */
import { Badge, Button, Drawer, Group, Stack, Table, Text } from '@mantine/core';
import type { LogRowView } from '../../../../shared/contract/logs';
import { formatDateTime, formatDateTimeSeconds, formatNaira } from '../../format';
import { STATUS_COLOR, typeLabel } from './VirtualLogTable';

/** Where an entry's cost centre came from, in words (docs/cost-centres.md). */
const COST_CENTRE_SOURCE: Record<LogRowView['costCentreSource'], string> = {
  purchase: 'kept on the purchase',
  recipient: 'from the recipients list',
  unassigned: 'none given, and the recipients list does not name it',
};

export function LogDetail({ row, onClose, onChangeCostCentre }: { row: LogRowView | null; onClose: () => void; onChangeCostCentre: (reference: string) => void }) {
  const fields: [string, string][] = row
    ? [
        // Lagos time only: the service's own text of the time is UTC, and two clocks side by side mislead.
        ['Time (Lagos)', formatDateTimeSeconds(row.createdAt)],
        ['Type', typeLabel(row.type)],
        ['Network / provider', row.network],
        ['Operator', row.operator || '—'],
        ['Region', row.region || '—'],
        ['Phone number', row.phoneNumber],
        ['Description', row.description || '—'],
        ['Data plan code', row.dataPlan || '—'],
        ['Amount', formatNaira(row.amountKobo)],
        // A refunded purchase earned nothing: it was charged its cost and that cost came back.
        ...(row.status === 'FAILED'
          ? ([
              ['Charged, then refunded', `${formatNaira(row.costKobo)} (the log’s cost: what the wallet got back)`],
              ['Commission earned', `none (the ${formatNaira(row.commissionKobo)} the log records went with the refund)`],
            ] as [string, string][])
          : ([
              ['Cost charged', formatNaira(row.costKobo)],
              ['Commission earned', formatNaira(row.commissionKobo)],
            ] as [string, string][])),
        ['Cost centre', `${row.costCentre} (${COST_CENTRE_SOURCE[row.costCentreSource]})`],
        ['Transaction id', row.transactionId],
        ['Partner reference', row.partnerReference],
        ['Log id', String(row.id)],
        ['Last changed', formatDateTime(row.updatedAt)],
        ['Synced to this computer', formatDateTime(row.syncedAt)],
      ]
    : [];
  return (
    <Drawer opened={row !== null} onClose={onClose} position="right" size="md" title="Transaction details">
      {row && (
        <Stack gap="sm" data-testid="tx-detail">
          <Badge size="lg" variant="light" color={STATUS_COLOR[row.status] ?? 'gray'}>
            {row.status === 'PENDING' ? 'Pending: not final yet' : row.status === 'FAILED' ? 'Failed: refunded by the service' : 'Successful'}
          </Badge>
          <Table withRowBorders={false} verticalSpacing={4}>
            <Table.Tbody>
              {fields.map(([label, value]) => (
                <Table.Tr key={label}>
                  <Table.Td w={170}>
                    <Text size="sm" c="dimmed">
                      {label}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" style={{ wordBreak: 'break-all' }}>
                      {value}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          <Group>
            <Button variant="default" onClick={() => onChangeCostCentre(row.transactionId)} data-testid="tx-change-cost-centre">
              {row.vendeskPurchase ? 'Change cost centre' : 'Cost centre and history'}
            </Button>
          </Group>
        </Stack>
      )}
    </Drawer>
  );
}
