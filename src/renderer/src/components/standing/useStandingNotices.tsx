import { Anchor, Button, Card, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect, useState } from 'react';
import { standingNotice, standingNoticeLevel, tellsSystem } from '../../../../shared/standingNotice';
import { bridge } from '../../bridge';

const COLOR = { problem: 'orange', done: 'teal', info: 'blue' } as const;

/** The web shell's tab may use the browser's notifications (the Electron shell shows its own from the main process). */
function browserNotifications(): typeof Notification | null {
  return !window.vendesk && typeof window.Notification === 'function' ? window.Notification : null;
}

/**
 * Tells the person when a standing order's occurrence ran, failed or waits: a notice in the window
 * (whatever page is open), and in the web shell the browser's notification when the person allowed
 * it. In the Electron shell the main process shows the operating system's notification.
 */
export function useStandingNotices(): void {
  useEffect(
    () =>
      bridge.on('standing.occurrence', (e) => {
        const { title, body } = standingNotice(e);
        const level = standingNoticeLevel(e.outcome);
        notifications.show({
          title,
          color: COLOR[level],
          autoClose: level === 'problem' ? false : 8000,
          message: (
            <Stack gap={4}>
              <Text size="sm">{body}</Text>
              <Anchor href="#/standing" size="sm">
                Open Standing orders
              </Anchor>
            </Stack>
          ),
        });
        const system = browserNotifications();
        if (system && system.permission === 'granted' && tellsSystem(e.outcome)) new system(title, { body, tag: `standing-${e.orderId}-${e.scheduledDay}` });
      }),
    [],
  );
}

/** In the web shell, a way to let the browser show vendesk's notices outside the tab (asked only when the person presses it). */
export function SystemNoticesChoice() {
  const system = browserNotifications();
  const [permission, setPermission] = useState(system?.permission ?? null);
  if (!system || permission === null) return null;
  return (
    <Card withBorder padding="md">
      <Group justify="space-between" wrap="nowrap">
        <Text size="sm">
          {permission === 'granted'
            ? 'This browser shows a notification when a run is bought, fails or waits, even when this tab is hidden.'
            : permission === 'denied'
              ? 'This browser does not allow vendesk’s notifications: runs are told on this page and in a notice in the window. Allow notifications for this site in the browser’s settings to be told outside the tab.'
              : 'Runs that are bought, fail or wait are told in a notice in this window. The browser can also show them when this tab is hidden.'}
        </Text>
        {permission === 'default' && (
          <Button variant="default" size="xs" style={{ flexShrink: 0 }} onClick={() => void system.requestPermission().then(setPermission)}>
            Allow browser notifications
          </Button>
        )}
      </Group>
    </Card>
  );
}
