import { Alert, Badge, Button, CopyButton, Group, Stack, Table, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { walletCostWords } from '../../../../shared/spendText';
import { formatDateTime } from '../../format';

/** The parts every purchase receipt is made of (electricity/cable and airtime/data alike). */

/** The top of every purchase receipt: what it is, when it was bought (the time its row in the list shows), SANDBOX when no real money moved, and its state. */
export function ReceiptHeader(props: { title: string; at: string; sandbox: boolean; stateColor: string; stateLabel: string; stateTestId: string }) {
  return (
    <Group justify="space-between" align="flex-start" mb="sm">
      <Stack gap={2}>
        <Title order={2} size="h4">
          {props.title}
        </Title>
        <Text size="xs" c="dimmed">
          {formatDateTime(props.at)}
          {props.sandbox ? ' · SANDBOX (no real money)' : ''}
        </Text>
      </Stack>
      <Badge size="lg" color={props.stateColor} data-testid={props.stateTestId}>
        {props.stateLabel}
      </Badge>
    </Group>
  );
}

/** A line under the receipt's status sentence; empty lines are left out. */
export interface ReceiptNote {
  text: string | null | undefined;
  testId?: string;
  strong?: boolean;
}

/** What happened, in one sentence, coloured by how it ended, with the notes that go with it (what to do, why, the refund). */
export function ReceiptStatus({ state, statusText, notes, testId }: { state: string; statusText: string; notes: ReceiptNote[]; testId: string }) {
  const color = state === 'success' ? 'green' : state === 'failed' || state === 'uncertain' ? 'red' : state === 'rejected' || state === 'cancelled' ? 'gray' : 'yellow';
  return (
    <Alert color={color} variant="light" mb="md" data-testid={testId}>
      <Text size="sm" fw={500}>
        {statusText}
      </Text>
      {notes.map(
        (n, i) =>
          n.text && (
            <Text key={i} size="sm" mt={4} fw={n.strong ? 600 : undefined} data-testid={n.testId}>
              {n.text}
            </Text>
          ),
      )}
    </Alert>
  );
}

/** One detail of a receipt: its name on the left, the value on the right. */
export function ReceiptRow({ label, children, testId, className }: { label: string; children: ReactNode; testId?: string; className?: string }) {
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
 * What the wallet was charged, on every receipt alike and in the command line's words
 * (`walletCostWords`): "not known yet" until the service's records say, never ₦0.00; "(refunded)"
 * once the service's log states a failed purchase's refund; "nothing charged" for one refused.
 */
export function WalletCostRow({
  costKobo,
  refundedKobo,
  nothingCharged,
  testId,
}: {
  costKobo: number | null;
  refundedKobo: number | null;
  nothingCharged: boolean;
  testId: string;
}) {
  const words = walletCostWords(costKobo, refundedKobo, nothingCharged);
  return (
    <ReceiptRow label="Wallet cost" testId={testId}>
      {costKobo === null ? (
        <Text size="sm" c="dimmed" span>
          {words}
        </Text>
      ) : (
        <Text className="money" span>
          {words}
        </Text>
      )}
    </ReceiptRow>
  );
}

/** When the outcome came, beside the purchase's own time (the header's, as its row in the list shows it), when they differ. */
export function SettledRow({ createdAt, finalAt }: { createdAt: string; finalAt: string | null }) {
  if (!finalAt || formatDateTime(finalAt) === formatDateTime(createdAt)) return null;
  return (
    <ReceiptRow label="Outcome known" testId="receipt-settled-at">
      {formatDateTime(finalAt)}
    </ReceiptRow>
  );
}

/** Copies the receipt as plain text, for an email or a chat with the customer. */
export function CopyReceiptButton({ text }: { text: string }) {
  return (
    <CopyButton value={text}>
      {({ copied, copy }) => (
        <Button variant="default" onClick={copy}>
          {copied ? 'Receipt copied' : 'Copy receipt'}
        </Button>
      )}
    </CopyButton>
  );
}
