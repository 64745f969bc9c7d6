import { Alert, Button, Card, CopyButton, Group, Table, Text } from '@mantine/core';
import { useEffect, useState, type ReactNode } from 'react';
import type { PurchaseView } from '../../../../shared/contract/purchases';
import { AppError, asAppError, bridge } from '../../bridge';
import { formatNaira } from '../../format';
import { ErrorNotice } from '../ErrorNotice';
import { receiptText, STATE_COLOR, STATE_LABEL } from './purchaseStatus';
import { ReceiptHeader } from './ReceiptHeader';

/** While printing, only the receipt marked `vd-printing` is shown. */
const PRINT_CSS = `@media print {
  body * { visibility: hidden !important; }
  .vd-printing, .vd-printing * { visibility: visible !important; }
  .vd-printing { position: absolute; left: 0; top: 0; width: 100%; border: none !important; box-shadow: none !important; }
  .vd-printing .vd-no-print { display: none !important; }
}`;

function Row({ label, children, testId, className }: { label: string; children: ReactNode; testId?: string; className?: string }) {
  return (
    <Table.Tr className={className}>
      <Table.Td c="dimmed" w={150} style={{ verticalAlign: 'top' }}>
        {label}
      </Table.Td>
      <Table.Td data-testid={testId}>{children}</Table.Td>
    </Table.Tr>
  );
}

/**
 * The receipt of one electricity or cable purchase: what happened in one sentence, the token in
 * large type (copy it, or print the receipt for the customer), and every detail support or the
 * customer may ask for.
 */
export function PurchaseReceipt({ purchase, actions }: { purchase: PurchaseView; actions?: ReactNode }) {
  const [printing, setPrinting] = useState(false);
  const [rechecked, setRechecked] = useState<PurchaseView | null>(null);
  const [checking, setChecking] = useState(false);
  const [checkError, setCheckError] = useState<AppError | null>(null);
  const p = rechecked && rechecked.id === purchase.id && rechecked.refund.state !== purchase.refund.state ? rechecked : purchase;
  const recheckRefund = async () => {
    setChecking(true);
    setCheckError(null);
    try {
      setRechecked(await bridge.call('purchases.checkRefund', { id: purchase.id }));
    } catch (e) {
      setCheckError(asAppError(e));
    } finally {
      setChecking(false);
    }
  };
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
  const tone = p.state === 'success' ? 'green' : p.state === 'failed' || p.state === 'uncertain' ? 'red' : p.state === 'rejected' ? 'gray' : 'yellow';
  return (
    <Card withBorder padding="lg" radius="md" className={printing ? 'vd-printing' : undefined} data-testid="purchase-receipt">
      <style>{PRINT_CSS}</style>
      <ReceiptHeader
        title={electricity ? 'Electricity receipt' : 'Cable TV receipt'}
        at={p.finalAt ?? p.createdAt}
        sandbox={p.connectionKind === 'sandbox'}
        stateColor={STATE_COLOR[p.state]}
        stateLabel={STATE_LABEL[p.state]}
        stateTestId="receipt-state"
      />

      <Alert color={tone} variant="light" mb="md" data-testid="receipt-status">
        <Text size="sm" fw={500}>
          {p.statusText}
        </Text>
        {p.whatToDo && (
          <Text size="sm" mt={4}>
            {p.whatToDo}
          </Text>
        )}
        {p.refund.message && (
          <Text size="sm" mt={4} fw={p.refund.state === 'missing' ? 600 : undefined} data-testid="receipt-refund">
            {p.refund.message}
          </Text>
        )}
      </Alert>

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
          <Row label="Customer">
            {p.customerName || '—'}
            {p.customerAddress && (
              <Text size="xs" c="dimmed">
                {p.customerAddress}
              </Text>
            )}
          </Row>
          <Row label={electricity ? 'Meter' : 'Smartcard'}>
            <Text ff="monospace" size="sm" span>
              {p.account}
            </Text>
            {p.vendType ? ` · ${p.vendType}` : ''}
            {p.customerType ? ` · ${p.customerType}` : ''}
          </Row>
          <Row label={electricity ? 'Electricity company' : 'Provider'}>
            {p.providerName}
            {p.providerName !== p.providerCode ? ` (${p.providerCode})` : ''}
          </Row>
          {p.bouquetName && <Row label="Bouquet">{p.bouquetName}</Row>}
          <Row label="Amount" testId="receipt-amount">
            <Text fw={700} className="money" span>
              {formatNaira(p.amountKobo)}
            </Text>
          </Row>
          {!p.token && p.units !== null && <Row label="Units">{p.units} kWh</Row>}
          <Row label="Customer phone">{p.phone}</Row>
          <Row label="Reference" testId="receipt-reference">
            <Text ff="monospace" size="sm" span>
              {p.reference ?? 'none yet'}
            </Text>
          </Row>
          {p.receiptNo && <Row label="Receipt no.">{p.receiptNo}</Row>}
          {p.commissionKobo !== null && p.state === 'success' && <Row label="Commission (not printed)" className="vd-no-print">{formatNaira(p.commissionKobo)}</Row>}
          {p.requery.attempts > 0 && <Row label="Status checks">{p.requery.attempts}</Row>}
          {p.note && <Row label="Note">{p.note}</Row>}
        </Table.Tbody>
      </Table>

      <Group mt="md" gap="xs" className="vd-no-print">
        <CopyButton value={receiptText(p)}>
          {({ copied, copy }) => (
            <Button variant="default" onClick={copy}>
              {copied ? 'Receipt copied' : 'Copy receipt'}
            </Button>
          )}
        </CopyButton>
        <Button variant="default" onClick={() => setPrinting(true)}>
          Print receipt
        </Button>
        {(p.refund.state === 'missing' || p.refund.state === 'checking') && (
          <Button variant="light" color="orange" onClick={() => void recheckRefund()} loading={checking}>
            Check refund again
          </Button>
        )}
        {actions}
      </Group>
      <ErrorNotice error={checkError} title="The wallet could not be read" />
    </Card>
  );
}
