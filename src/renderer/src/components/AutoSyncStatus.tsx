/**
 * The header's word on the sync, beside the connection: "Synced 2 min ago" (it keeps the mirror
 * current by itself), "Syncing…", "Last sync failed 2 min ago · data read up to 14:05" when the
 * last sync failed — whoever ran it: the automatic sync, Sync now or `vendesk sync` — so the
 * header never says "Synced" over a failure, or "Auto-sync off". The tooltip says why it failed,
 * what the figures show, and when the next try comes; a click opens Transactions, where Sync now is.
 */
import { Group, Loader, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { useEffect, useState } from 'react';
import type { AutoSyncView } from '../../../shared/contract/logs';
import { lagosDayOf, lagosToday } from '../../../shared/localDates';
import { bridge } from '../bridge';
import { formatAgo, formatDateTime, formatTime } from '../format';

/** When the figures were last read: the time when it was today (a Lagos day), else the date and time. */
function readTime(iso: string): string {
  return lagosDayOf(iso) === lagosToday() ? formatTime(iso) : formatDateTime(iso);
}
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
  // A failure since the last finished sync, told by the schedule's own state or the sync's record.
  const failure = auto.lastFailure ?? (auto.state === 'paused' ? { at: null, message: auto.reason ?? 'The last sync did not finish.' } : null);
  let words: string;
  let colour = 'dimmed';
  let detail: string;
  let readUpTo: string | null = null;
  if (syncing) {
    words = percent !== null ? `Syncing… ${percent}%` : 'Syncing…';
    detail = 'Reading the service’s log into this computer.';
  } else if (failure) {
    words = failure.at ? `Last sync failed ${formatAgo(failure.at)}` : 'Last sync failed';
    colour = 'orange';
    readUpTo = auto.lastAt ? `data read up to ${readTime(auto.lastAt)}` : 'nothing read yet';
    const retry =
      auto.state === 'off' ? 'Press Sync now on Transactions to try again.' : `vendesk tries again by itself${next ? ` at ${next}` : ''}; or press Sync now on Transactions.`;
    detail = `${failure.message.replace(/\.?$/, '.')} The figures show the transactions read up to ${auto.lastAt ? formatDateTime(auto.lastAt) : '— nothing has been read yet'}. ${retry}`;
  } else if (auto.state === 'off') {
    words = auto.lastAt ? `Synced ${formatAgo(auto.lastAt)}` : 'Not synced yet';
    detail = `Automatic sync is off: sync by hand on Transactions, or set how often in Settings → Sync.`;
  } else {
    words = auto.lastAt ? `Synced ${formatAgo(auto.lastAt)}` : 'First sync soon';
    detail = `Syncs by itself every ${auto.everyMinutes} min${next ? `; next at ${next}` : ''}. Change it in Settings → Sync.`;
  }
  return (
    <Tooltip label={detail} withArrow multiline maw={340}>
      <UnstyledButton
        component="a"
        href="#/transactions"
        aria-label={`${words}${readUpTo ? ` — ${readUpTo}` : ''}. ${detail}`}
        data-testid="auto-sync"
        data-state={syncing ? 'running' : auto.state}
        data-failed={!syncing && failure ? 'true' : undefined}
      >
        <Group gap={6} wrap="nowrap">
          {syncing ? (
            <Loader size={12} />
          ) : (
            <span aria-hidden style={{ fontSize: 13, lineHeight: 1, color: failure ? 'var(--mantine-color-orange-6)' : 'var(--mantine-color-dimmed)' }}>
              {failure ? '⚠' : '⟳'}
            </span>
          )}
          <Text size="sm" c={colour} fw={failure && !syncing ? 600 : undefined} style={{ whiteSpace: 'nowrap' }}>
            {words}
          </Text>
          {readUpTo && !syncing && (
            <Text size="xs" c="dimmed" visibleFrom="lg" style={{ whiteSpace: 'nowrap' }} data-testid="auto-sync-read-up-to">
              · {readUpTo}
            </Text>
          )}
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
