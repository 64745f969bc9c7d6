import { Button, Card, Group, Stack, Table, Text } from '@mantine/core';
import type { MessageQuote } from '../../../../shared/contract/messaging';
import { EMAIL_COPY_KOBO, SMS_PAGE_KOBO } from '../../../../shared/messagingCost';
import type { AppError } from '../../bridge';
import { ErrorNotice } from '../ErrorNotice';
import { formatCount, formatNaira } from '../../format';

/** The confirmation: who receives it, what it says, and what it costs, before anything is sent. */
export function ConfirmSend({
  quote,
  senderId,
  sending,
  error,
  onCancel,
  onSend,
}: {
  quote: MessageQuote;
  senderId: string;
  sending: boolean;
  error: AppError | null;
  onCancel: () => void;
  onSend: () => void;
}) {
  return (
    <Stack gap="sm">
      <Table withRowBorders={false} verticalSpacing={4}>
        <Table.Tbody>
          <Table.Tr>
            <Table.Td c="dimmed">To</Table.Td>
            <Table.Td fw={500}>{quote.recipientsLabel}</Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Td c="dimmed">From</Table.Td>
            <Table.Td>{senderId}</Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Td c="dimmed">Recipients</Table.Td>
            <Table.Td data-testid="confirm-recipients">{formatCount(quote.recipients)}</Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Td c="dimmed">SMS</Table.Td>
            <Table.Td>
              {formatCount(quote.recipients)} × {quote.pages} page{quote.pages === 1 ? '' : 's'} × {formatNaira(SMS_PAGE_KOBO)} = {formatNaira(quote.smsKobo)}
            </Table.Td>
          </Table.Tr>
          {quote.emails > 0 && (
            <Table.Tr>
              <Table.Td c="dimmed">Email copies</Table.Td>
              <Table.Td>
                {quote.emails} × {formatNaira(EMAIL_COPY_KOBO)} = {formatNaira(quote.emailKobo)}
              </Table.Td>
            </Table.Tr>
          )}
          <Table.Tr>
            <Table.Td c="dimmed">Total cost</Table.Td>
            <Table.Td fw={700} fz="lg" data-testid="confirm-total">
              {formatNaira(quote.totalKobo)}
            </Table.Td>
          </Table.Tr>
        </Table.Tbody>
      </Table>
      <Card withBorder padding="sm" bg="var(--mantine-color-default-hover)">
        <Text size="xs" c="dimmed" mb={4}>
          The message ({formatCount(quote.characters)} characters)
        </Text>
        <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
          {quote.body}
        </Text>
      </Card>
      <Text size="sm" c="dimmed">
        The cost is taken from the wallet when you send. A sent message cannot be recalled.
      </Text>
      <ErrorNotice error={error} title="The message was not sent" />
      <Group justify="flex-end">
        <Button variant="default" onClick={onCancel} disabled={sending}>
          Go back
        </Button>
        <Button onClick={onSend} loading={sending} data-testid="confirm-send">
          Send for {formatNaira(quote.totalKobo)}
        </Button>
      </Group>
    </Stack>
  );
}
