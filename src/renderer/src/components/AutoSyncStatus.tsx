/**
 * The header's word on the automatic sync, beside the connection: "Synced 2 min ago" (it keeps
 * the mirror current by itself), "Syncing…", "Sync paused" (the service does not answer; it tries
 * again by itself) or "Auto-sync off". The tooltip says when the next one comes and where to
 * change it; a click opens Transactions, where Sync now is.
 */
import { Group, Loader, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { useEffect, useState } from 'react';
import type { AutoSyncView } from '../../../shared/contract/logs';
import { bridge } from '../bridge';
import { formatAgo, formatTime } from '../format';
import { useOperation } from '../hooks/useOperation';

export function AutoSyncStatus() {
  const status = useOperation('sync.status', {});
  const [auto, setAuto] = useState<AutoSyncView | null>(null);
  const [percent, setPercent] = useState<number | null>(null);
  const [, setNow] = useState(0);
  useEffect(() => setAuto(status.data?.auto ?? null), [status.data]);
  useEffect(() => bridge.on('sync.auto', (view) => setAuto(view)), []);
  const reload = status.reload;
  useEffect(
    () =>
      bridge.on('sync.progress', (p) => {
        setPercent(p.state === 'running' && p.total ? Math.min(99, Math.floor((p.done / Math.max(1, p.total)) * 100)) : null);
        if (p.state !== 'running') void reload();
      }),
    [reload],
  );
  // "2 min ago" moves on by itself.
  useEffect(() => {
    const timer = window.setInterval(() => setNow((n) => n + 1), 30_000);
    return () => window.clearInterval(timer);
  }, []);

  if (!auto) return null;
  const syncing = auto.state === 'running' || status.data?.running === true;
  const next = auto.nextAt ? formatTime(auto.nextAt) : null;
  let words: string;
  let colour = 'dimmed';
  let detail: string;
  if (syncing) {
    words = percent !== null ? `Syncing… ${percent}%` : 'Syncing…';
    detail = 'Reading the service’s log into this computer.';
  } else if (auto.state === 'paused') {
    words = 'Sync paused';
    colour = 'orange';
    detail = `${auto.reason ?? 'The last sync did not finish.'} vendesk tries again by itself${next ? ` at ${next}` : ''}.`;
  } else if (auto.state === 'off') {
    words = auto.lastAt ? `Synced ${formatAgo(auto.lastAt)}` : 'Not synced yet';
    detail = `Automatic sync is off: sync by hand on Transactions, or set how often in Settings → Sync.`;
  } else {
    words = auto.lastAt ? `Synced ${formatAgo(auto.lastAt)}` : 'First sync soon';
    detail = `Syncs by itself every ${auto.everyMinutes} min${next ? `; next at ${next}` : ''}. Change it in Settings → Sync.`;
  }
  return (
    <Tooltip label={detail} withArrow multiline maw={340}>
      <UnstyledButton component="a" href="#/transactions" aria-label={`${words}. ${detail}`} data-testid="auto-sync" data-state={syncing ? 'running' : auto.state}>
        <Group gap={6} wrap="nowrap">
          {syncing ? (
            <Loader size={12} />
          ) : (
            <span aria-hidden style={{ fontSize: 13, lineHeight: 1, color: auto.state === 'paused' ? 'var(--mantine-color-orange-6)' : 'var(--mantine-color-dimmed)' }}>
              ⟳
            </span>
          )}
          <Text size="sm" c={colour} style={{ whiteSpace: 'nowrap' }}>
            {words}
          </Text>
          {auto.state === 'off' && !syncing && (
            <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
              · auto off
            </Text>
          )}
        </Group>
      </UnstyledButton>
    </Tooltip>
  );
}
