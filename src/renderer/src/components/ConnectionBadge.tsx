import { Badge, Group, Text, Tooltip } from '@mantine/core';
import { useConnection } from '../hooks/useConnection';

/** SANDBOX or LIVE, always visible, and whether the service answers. */
export function ConnectionBadge() {
  const { info, online } = useConnection();
  if (!info) return null;
  const live = info.connection.kind === 'live';
  return (
    <Group gap="xs" wrap="nowrap">
      <Tooltip
        label={live ? `Real money: connected to ${info.connection.baseUrl}` : 'Built-in test service: no real money moves'}
        withArrow
      >
        <Badge size="lg" color={live ? 'red' : 'yellow'} variant={live ? 'filled' : 'light'} data-testid="connection-badge">
          {live ? 'LIVE' : 'SANDBOX'}
        </Badge>
      </Tooltip>
      <Group gap={6} wrap="nowrap" data-testid="connection-status">
        <span
          aria-hidden
          style={{ width: 8, height: 8, borderRadius: 8, background: online ? 'var(--mantine-color-green-6)' : 'var(--mantine-color-red-6)' }}
        />
        <Text size="sm" c="dimmed">
          {online ? info.connection.profileName : 'Not reachable'}
        </Text>
      </Group>
    </Group>
  );
}
