/**
 * The Sync button with its progress bar: starts a sync of the vending log into the mirror, shows
 * how far it got from the `sync.progress` events, and lets the user stop it (the next sync
 * continues where it stopped).
 */
import { Button, Group, Progress, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import type { EventMap } from '../../../../shared/contract';
import { bridge } from '../../bridge';
import { formatAgo, formatCount, formatDateTime } from '../../format';
import { useAction } from '../../hooks/useAction';
import { useOperation } from '../../hooks/useOperation';

type SyncEvent = EventMap['sync.progress'];

export function SyncControl({ compact = false }: { compact?: boolean }) {
  const status = useOperation('sync.status', {});
  const [live, setLive] = useState<SyncEvent | null>(null);
  const action = useAction();
  useEffect(() => bridge.on('sync.progress', (p) => setLive(p)), []);

  const running = live ? live.state === 'running' : (status.data?.running ?? false);
  const done = live?.done ?? status.data?.progress?.done ?? 0;
  const total = live?.total ?? status.data?.progress?.total ?? null;
  const percent = total ? Math.min(100, (done / Math.max(total, 1)) * 100) : running ? 100 : 0;
  const lastAt = status.data?.lastFinishedAt ?? null;

  let line: string;
  if (running) line = total !== null ? `Syncing: ${formatCount(done)} of ${formatCount(total)} entries` : 'Syncing…';
  else if (live?.state === 'failed') line = `Sync stopped: ${(live.message ?? 'the service could not be read').replace(/\.$/, '')}. Press Sync to continue.`;
  else if (action.error) line = `Sync did not run: ${action.error.message.replace(/\.$/, '')}.${action.error.hint ? ` ${action.error.hint}` : ''}`;
  else if (live?.state === 'cancelled' || (status.data?.interrupted && !status.data.lastFailure)) line = 'Sync was stopped part-way. Press Sync to continue from where it stopped.';
  else if (!live && status.data?.lastFailure) {
    // A sync that failed (here, by itself or from the command line) since the last one that finished.
    const f = status.data.lastFailure;
    line = `Last sync failed ${formatAgo(f.at)}: ${f.message.replace(/\.$/, '')}. Showing what was read ${lastAt ? `up to ${formatDateTime(lastAt)}` : 'so far'}; press Sync now to try again.`;
  } else line = lastAt ? `Last synced ${formatAgo(lastAt)} · ${formatCount(status.data?.entries ?? 0)} entries on this computer` : 'Not synced yet';

  return (
    <Stack gap={4} data-testid="sync-control" miw={compact ? 260 : 320}>
      <Group gap="xs" wrap="nowrap">
        {running ? (
          <Button variant="default" color="red" style={{ flex: 'none' }} onClick={() => void action.run(() => bridge.call('sync.cancel', {}))}>
            Stop sync
          </Button>
        ) : (
          // flex none: a long line beside it never squeezes the button's words ("Sync no…").
          <Button
            style={{ flex: 'none' }}
            onClick={() => {
              setLive(null);
              void action.run(() => bridge.call('sync.start', {})).then(() => status.reload());
            }}
            loading={action.busy && !running}
          >
            Sync now
          </Button>
        )}
        <Text size="xs" c={live?.state === 'failed' || (!running && action.error) || (!running && !live && status.data?.lastFailure) ? 'red' : 'dimmed'} data-testid="sync-line">
          {line}
        </Text>
      </Group>
      {running && <Progress value={percent} animated={total === null} aria-label="Sync progress" />}
    </Stack>
  );
}
