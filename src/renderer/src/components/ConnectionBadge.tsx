import { Badge, Group, Text, Tooltip } from '@mantine/core';
import { useConnection } from '../hooks/useConnection';

/** SANDBOX or LIVE, always visible, the profile in use, and whether its service is answering (a state, not a link). */
export function ConnectionBadge() {
  const { info, online, service } = useConnection();
  if (!info) return null;
  const live = info.connection.kind === 'live';
  const state = !online ? 'down' : service === null ? 'checking' : service.reachable ? 'up' : 'unreachable';
  const colour = state === 'up' ? 'var(--mantine-color-green-6)' : state === 'checking' ? 'var(--mantine-color-gray-5)' : 'var(--mantine-color-red-6)';
  // The profile's name may be cut to fit; the state never is.
  const words = state === 'down' ? 'vendesk is not answering' : state === 'checking' ? 'checking the service…' : state === 'up' ? 'service answering' : 'service not answering';
  const detail =
    service && !service.reachable
      ? `${service.message}${service.hint ? ` ${service.hint}` : ''}`
      : live
        ? `Real money: connected to ${info.connection.baseUrl}`
        : 'Built-in test service: no real money moves';
  return (
    <Group gap="xs" wrap="nowrap">
      <Tooltip label={live ? `Real money: connected to ${info.connection.baseUrl}` : 'Built-in test service: no real money moves'} withArrow>
        {/* red.9 keeps white text at 5.5:1 (AA) in both themes; the default red (shade 6) is 3.3:1. */}
        <Badge size="lg" color={live ? 'red.9' : 'yellow'} variant={live ? 'filled' : 'light'} data-testid="connection-badge">
          {live ? 'LIVE' : 'SANDBOX'}
        </Badge>
      </Tooltip>
      <Tooltip label={detail} withArrow multiline maw={360}>
        <Group gap={6} wrap="nowrap" data-testid="connection-status" data-state={state}>
          <span aria-hidden style={{ width: 8, height: 8, borderRadius: 8, background: colour, flex: 'none' }} />
          {state !== 'down' && (
            <Text size="sm" c="dimmed" truncate maw={160} data-testid="connection-profile">
              {info.connection.profileName}
            </Text>
          )}
          <Text size="sm" c={state === 'unreachable' || state === 'down' ? 'red' : 'dimmed'} style={{ whiteSpace: 'nowrap', flex: 'none' }}>
            {state === 'down' ? words : `· ${words}`}
          </Text>
        </Group>
      </Tooltip>
    </Group>
  );
}
