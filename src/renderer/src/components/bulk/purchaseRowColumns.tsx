import { Text } from '@mantine/core';
import type { BulkKind } from '../../../../shared/contract/bulk';
import { formatNaira } from '../../format';
import type { VirtualColumn } from './VirtualRows';

/** What a row to buy shows, whether a bulk job's item or a standing order's row. */
export interface PurchaseRowFields {
  row: number;
  phone: string;
  account: string | null;
  name: string;
  network: string;
  productCode: string;
  description: string;
  amountKobo: number;
}

/**
 * The columns of the rows a purchase will buy (a bulk job's preview, a standing order's rows): the
 * row, the number it buys for, the name, `afterName` (such as the meter owner the service gave),
 * the network, disco or provider, what is bought and the amount.
 */
export function purchaseRowColumns<T extends PurchaseRowFields>(kind: BulkKind, afterName: VirtualColumn<T>[] = []): VirtualColumn<T>[] {
  const vending = kind === 'electricity' || kind === 'cable';
  return [
    { header: 'Row', width: 60, render: (r) => <Text size="sm">{r.row}</Text> },
    {
      header: vending ? (kind === 'electricity' ? 'Meter' : 'Smartcard') : 'Phone',
      width: 130,
      render: (r) => (
        <Text size="sm" className="money">
          {r.account ?? r.phone}
        </Text>
      ),
    },
    { header: 'Name', width: 'minmax(120px, 1fr)', render: (r) => <Text size="sm">{r.name || '—'}</Text> },
    ...afterName,
    { header: vending ? (kind === 'electricity' ? 'Disco' : 'Provider') : 'Network', width: 100, render: (r) => <Text size="sm">{r.network}</Text> },
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
  ];
}
