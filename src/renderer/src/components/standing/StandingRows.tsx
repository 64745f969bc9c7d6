import { Stack, Text } from '@mantine/core';
import type { StandingOrderView } from '../../../../shared/contract/standing';
import { formatCount, formatNaira } from '../../format';
import { VirtualRows } from '../bulk/VirtualRows';

/** The rows each run of an order buys (the first 200 of the version in force). */
export function StandingRows({ order }: { order: StandingOrderView }) {
  const vending = order.kind === 'electricity' || order.kind === 'cable';
  return (
    <Stack gap="xs">
      {order.rowCount > order.rows.length && (
        <Text size="sm" c="dimmed">
          The first {formatCount(order.rows.length)} of {formatCount(order.rowCount)} rows are listed.
        </Text>
      )}
      <VirtualRows
        label="What each run buys"
        rows={order.rows}
        rowKey={(r) => r.row}
        columns={[
          { header: 'Row', width: 60, render: (r) => <Text size="sm">{r.row}</Text> },
          {
            header: vending ? (order.kind === 'electricity' ? 'Meter' : 'Smartcard') : 'Phone',
            width: 130,
            render: (r) => (
              <Text size="sm" className="money">
                {r.account ?? r.phone}
              </Text>
            ),
          },
          { header: 'Name', width: 'minmax(120px, 1fr)', render: (r) => <Text size="sm">{r.name || '—'}</Text> },
          { header: vending ? (order.kind === 'electricity' ? 'Disco' : 'Provider') : 'Network', width: 100, render: (r) => <Text size="sm">{r.network}</Text> },
          { header: 'What', width: 'minmax(120px, 1fr)', render: (r) => <Text size="sm">{r.description || r.productCode}</Text> },
          {
            header: 'Amount',
            width: 120,
            align: 'right',
            render: (r) => (
              <Text size="sm" className="money">
                {formatNaira(r.amountKobo)}
              </Text>
            ),
          },
        ]}
      />
    </Stack>
  );
}
