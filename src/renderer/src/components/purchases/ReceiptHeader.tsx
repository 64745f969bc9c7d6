import { Badge, Group, Stack, Text, Title } from '@mantine/core';
import { formatDateTime } from '../../format';

/** The top of every purchase receipt: what it is, when it was settled (or made), SANDBOX when no real money moved, and its state. */
export function ReceiptHeader(props: { title: string; at: string; sandbox: boolean; stateColor: string; stateLabel: string; stateTestId: string }) {
  return (
    <Group justify="space-between" align="flex-start" mb="sm">
      <Stack gap={2}>
        <Title order={4}>{props.title}</Title>
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
