import { Stack, Text } from '@mantine/core';
import type { StandingOrderView, StandingRowView } from '../../../../shared/contract/standing';
import { formatCount } from '../../format';
import { purchaseRowColumns } from '../bulk/purchaseRowColumns';
import { VirtualRows } from '../bulk/VirtualRows';

/** The rows each run of an order buys (the first 200 of the version in force), in a bulk job's columns. */
export function StandingRows({ order }: { order: StandingOrderView }) {
  return (
    <Stack gap="xs">
      {order.rowCount > order.rows.length && (
        <Text size="sm" c="dimmed">
          The first {formatCount(order.rows.length)} of {formatCount(order.rowCount)} rows are listed.
        </Text>
      )}
      <VirtualRows label="What each run buys" rows={order.rows} rowKey={(r) => r.row} columns={purchaseRowColumns<StandingRowView>(order.kind)} />
    </Stack>
  );
}
