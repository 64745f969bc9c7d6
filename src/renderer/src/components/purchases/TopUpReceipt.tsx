import { Button, Card, Group, Table, Text } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { nothingCharged, type TopUpView } from '../../../../shared/contract/purchases';
import { walletCostWords } from '../../../../shared/spendText';
import { NETWORK_LABEL, type Network } from '../../../../shared/phone';
import { bridge } from '../../bridge';
import { formatDateTimeSeconds, formatNaira, localTimesIn } from '../../format';
import { ErrorNotice } from '../ErrorNotice';
import { ITEM_COLOR, ITEM_LABEL } from '../bulk/bulkLabels';
import { useAction } from '../../hooks/useAction';
import { CopyReceiptButton, ReceiptHeader, ReceiptRow, ReceiptStatus, SettledRow, WalletCostRow } from './ReceiptParts';

/** States whose outcome the service has not given yet: "Check again" asks it now. */
const OPEN = new Set<TopUpView['state']>(['accepted', 'pending', 'uncertain', 'sending', 'queued', 'held']);

export const networkName = (network: string): string => NETWORK_LABEL[network as Network] ?? network;

/** Where the outcome was learned, in words: `log` → the service's transaction log. */
function outcomeSource(settledBy: string): string {
  return settledBy
    .replace(/^log\b/, "the service's transaction log")
    .replace(/^requery\b/, 'a status check (requery)')
    .replace(/^user\b/, 'marked by hand');
}

/** The receipt as plain text, for the clipboard. */
export function topUpReceiptText(p: TopUpView): string {
  const money = (kobo: number) => `NGN ${(kobo / 100).toLocaleString('en-NG', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
  return [
    p.kind === 'airtime' ? 'AIRTIME RECEIPT' : 'DATA RECEIPT',
    `Status: ${ITEM_LABEL[p.state]}`,
    `Phone: ${p.phone}`,
    `Network: ${networkName(p.network)}`,
    `Bought: ${p.description}${p.kind === 'data' ? ` (${p.productCode})` : ''}`,
    `Amount: ${money(p.amountKobo)}`,
    `Wallet cost: ${walletCostWords(p.costKobo, p.refundedKobo, nothingCharged(p), money)}`,
    p.reference ? `Reference: ${p.reference}` : '',
    `Date: ${formatDateTimeSeconds(p.createdAt)}`,
  ]
    .filter(Boolean)
    .join('\n');
}

/**
 * The receipt of one airtime or data purchase: what happened in one sentence, what to do, and
 * the details support asks for. A purchase the service has not settled yet can be checked again.
 */
export function TopUpReceipt({ purchase, actions }: { purchase: TopUpView; actions?: ReactNode }) {
  const [latest, setLatest] = useState<TopUpView | null>(null);
  const checking = useAction();
  const p = latest && latest.id === purchase.id ? latest : purchase;
  const checkAgain = () =>
    checking.run(async () => {
      // The purchase is a one-item job: asking about the job asks the service's log (then requery).
      await bridge.call('bulk.checkAgain', { jobId: p.id });
      setLatest(await bridge.call('purchases.topUp', { id: p.id }));
    });
  return (
    <Card withBorder padding="lg" radius="md" data-testid="topup-receipt">
      <ReceiptHeader
        title={p.kind === 'airtime' ? 'Airtime receipt' : 'Data receipt'}
        at={p.createdAt}
        sandbox={p.connectionKind === 'sandbox'}
        stateColor={ITEM_COLOR[p.state]}
        stateLabel={ITEM_LABEL[p.state]}
        stateTestId="topup-state"
      />

      <ReceiptStatus state={p.state} statusText={p.statusText} testId="topup-status" notes={[{ text: p.reason && localTimesIn(p.reason) }, { text: p.whatToDo }]} />

      <Table withRowBorders={false} verticalSpacing={3}>
        <Table.Tbody>
          <ReceiptRow label="Phone number">
            <Text ff="monospace" size="sm" span>
              {p.phone}
            </Text>
          </ReceiptRow>
          <ReceiptRow label="Network">{networkName(p.network)}</ReceiptRow>
          <ReceiptRow label={p.kind === 'airtime' ? 'Bought' : 'Data plan'}>
            {p.description}
            {p.kind === 'data' && (
              <Text size="xs" c="dimmed" span>
                {' '}
                ({p.productCode})
              </Text>
            )}
          </ReceiptRow>
          <ReceiptRow label="Amount" testId="topup-amount">
            <Text fw={700} className="money" span>
              {formatNaira(p.amountKobo)}
            </Text>
          </ReceiptRow>
          <WalletCostRow costKobo={p.costKobo} refundedKobo={p.refundedKobo} nothingCharged={nothingCharged(p)} testId="topup-cost" />
          <ReceiptRow label="Reference" testId="topup-reference">
            <Text ff="monospace" size="sm" span>
              {p.reference ?? 'none yet'}
            </Text>
          </ReceiptRow>
          {p.settledBy && <ReceiptRow label="Outcome read from">{outcomeSource(p.settledBy)}</ReceiptRow>}
          <SettledRow createdAt={p.createdAt} finalAt={p.finalAt} />
        </Table.Tbody>
      </Table>

      <Group mt="md" gap="xs">
        <CopyReceiptButton text={topUpReceiptText(p)} />
        {OPEN.has(p.state) && (
          <Button variant="light" onClick={() => void checkAgain()} loading={checking.busy} data-testid="topup-check-again">
            Check again
          </Button>
        )}
        {actions}
      </Group>
      <ErrorNotice error={checking.error} title="The service could not be asked" />
    </Card>
  );
}
