import { Button, Card, CopyButton, Group, Table, Text } from '@mantine/core';
import { useEffect, useState, type ReactNode } from 'react';
import { nothingCharged, type PurchaseView } from '../../../../shared/contract/purchases';
import { bridge } from '../../bridge';
import { formatNaira } from '../../format';
import { ErrorNotice } from '../ErrorNotice';
import { receiptText, STATE_COLOR, STATE_LABEL } from './purchaseStatus';
import { useAction } from '../../hooks/useAction';
import { CopyReceiptButton, ReceiptHeader, ReceiptRow, ReceiptStatus, SettledRow, WalletCostRow } from './ReceiptParts';

/** While printing, only the receipt marked `vd-printing` is shown. */
const PRINT_CSS = `@media print {
  body * { visibility: hidden !important; }
  .vd-printing, .vd-printing * { visibility: visible !important; }
  .vd-printing { position: absolute; left: 0; top: 0; width: 100%; border: none !important; box-shadow: none !important; }
  .vd-printing .vd-no-print { display: none !important; }
}`;

/**
 * The receipt of one electricity or cable purchase: what happened in one sentence, the token in
 * large type (copy it, or print the receipt for the customer), and every detail support or the
 * customer may ask for.
 */
export function PurchaseReceipt({ purchase, actions }: { purchase: PurchaseView; actions?: ReactNode }) {
  const [printing, setPrinting] = useState(false);
  const [rechecked, setRechecked] = useState<PurchaseView | null>(null);
  const recheck = useAction();
  const p = rechecked && rechecked.id === purchase.id && rechecked.refund.state !== purchase.refund.state ? rechecked : purchase;
  const recheckRefund = () => recheck.run(async () => setRechecked(await bridge.call('purchases.checkRefund', { id: purchase.id })));
  useEffect(() => {
    if (!printing) return;
    const done = () => setPrinting(false);
    window.addEventListener('afterprint', done);
    const timer = window.setTimeout(() => window.print(), 50);
    return () => {
      window.removeEventListener('afterprint', done);
      window.clearTimeout(timer);
    };
  }, [printing]);

  const electricity = p.kind === 'electricity';
  return (
    <Card withBorder padding="lg" radius="md" className={printing ? 'vd-printing' : undefined} data-testid="purchase-receipt">
      <style>{PRINT_CSS}</style>
      <ReceiptHeader
        title={electricity ? 'Electricity receipt' : 'Cable TV receipt'}
        at={p.createdAt}
        sandbox={p.connectionKind === 'sandbox'}
        stateColor={STATE_COLOR[p.state]}
        stateLabel={STATE_LABEL[p.state]}
        stateTestId="receipt-state"
      />

      <ReceiptStatus
        state={p.state}
        statusText={p.statusText}
        testId="receipt-status"
        notes={[{ text: p.whatToDo }, { text: p.refund.message, testId: 'receipt-refund', strong: p.refund.state === 'missing' }]}
      />

      {p.token && (
        <Card withBorder padding="md" mb="md" bg="var(--mantine-color-default-hover)">
          <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
            Token
          </Text>
          <Group justify="space-between" wrap="wrap" gap="xs">
            <Text ff="monospace" fz={24} fw={700} style={{ letterSpacing: '0.04em', whiteSpace: 'nowrap' }} data-testid="receipt-token">
              {p.token}
            </Text>
            <CopyButton value={p.token}>
              {({ copied, copy }) => (
                <Button className="vd-no-print" variant="light" color={copied ? 'teal' : undefined} onClick={copy}>
                  {copied ? 'Copied' : 'Copy token'}
                </Button>
              )}
            </CopyButton>
          </Group>
          {p.units !== null && (
            <Text size="sm" mt={4} data-testid="receipt-units">
              {p.units} kWh
            </Text>
          )}
        </Card>
      )}

      <Table withRowBorders={false} verticalSpacing={3}>
        <Table.Tbody>
          <ReceiptRow label="Customer">
            {p.customerName || '—'}
            {p.customerAddress && (
              <Text size="xs" c="dimmed">
                {p.customerAddress}
              </Text>
            )}
          </ReceiptRow>
          <ReceiptRow label={electricity ? 'Meter' : 'Smartcard'}>
            <Text ff="monospace" size="sm" span>
              {p.account}
            </Text>
            {p.vendType ? ` · ${p.vendType}` : ''}
            {p.customerType ? ` · ${p.customerType}` : ''}
          </ReceiptRow>
          <ReceiptRow label={electricity ? 'Electricity company' : 'Provider'}>
            {p.providerName}
            {p.providerName !== p.providerCode ? ` (${p.providerCode})` : ''}
          </ReceiptRow>
          {p.bouquetName && <ReceiptRow label="Bouquet">{p.bouquetName}</ReceiptRow>}
          <ReceiptRow label="Amount" testId="receipt-amount">
            <Text fw={700} className="money" span>
              {formatNaira(p.amountKobo)}
            </Text>
          </ReceiptRow>
          {/* As on an airtime or data receipt: what the wallet was charged, from the service's records (a failed one's given back). */}
          <WalletCostRow costKobo={p.costKobo} refundedKobo={p.refund.refundedKobo} nothingCharged={nothingCharged(p)} testId="receipt-cost" />
          {!p.token && p.units !== null && <ReceiptRow label="Units">{p.units} kWh</ReceiptRow>}
          <ReceiptRow label="Customer phone">{p.phone}</ReceiptRow>
          <ReceiptRow label="Reference" testId="receipt-reference">
            <Text ff="monospace" size="sm" span>
              {p.reference ?? 'none yet'}
            </Text>
          </ReceiptRow>
          {p.receiptNo && <ReceiptRow label="Receipt no.">{p.receiptNo}</ReceiptRow>}
          {p.commissionKobo !== null && p.state === 'success' && (
            <ReceiptRow label="Commission (not printed)" className="vd-no-print">
              {formatNaira(p.commissionKobo)}
            </ReceiptRow>
          )}
          {p.requery.attempts > 0 && <ReceiptRow label="Status checks">{p.requery.attempts}</ReceiptRow>}
          {p.note && <ReceiptRow label="Note">{p.note}</ReceiptRow>}
          <SettledRow createdAt={p.createdAt} finalAt={p.finalAt} />
        </Table.Tbody>
      </Table>

      <Group mt="md" gap="xs" className="vd-no-print">
        <CopyReceiptButton text={receiptText(p)} />
        <Button variant="default" onClick={() => setPrinting(true)}>
          Print receipt
        </Button>
        {(p.refund.state === 'missing' || p.refund.state === 'checking') && (
          <Button variant="light" color="orange" onClick={() => void recheckRefund()} loading={recheck.busy}>
            Check refund again
          </Button>
        )}
        {actions}
      </Group>
      <ErrorNotice error={recheck.error} title="The wallet could not be read" />
    </Card>
  );
}
