/**
 * Settings → Sync: how often the open app syncs the log by itself (0 = never; Sync now and the
 * command line's `vendesk sync` still work), and how hard one sync may press the service.
 */
import { Button, Card, Group, NumberInput, SimpleGrid, Text, Title } from '@mantine/core';
import { useState } from 'react';
import type { SyncSettingsView } from '../../../../shared/contract/logs';
import { bridge } from '../../bridge';
import { useSettingsForm } from '../../hooks/useSettingsForm';
import { ErrorNotice } from '../ErrorNotice';

type Field = number | string;

export function SyncSettings() {
  const [minutes, setMinutes] = useState<Field>(5);
  const [concurrency, setConcurrency] = useState<Field>(12);
  const [rate, setRate] = useState<Field>(300);
  const {
    saved,
    busy,
    error,
    save: saveWith,
  } = useSettingsForm<'sync.settings.get', SyncSettingsView>('sync.settings.get', (s) => {
    setMinutes(s.autoSyncMinutes);
    setConcurrency(s.concurrency);
    setRate(s.maxRequestsPerSecond);
  });

  const save = () =>
    saveWith(() =>
      bridge.call('sync.settings.set', {
        ...(typeof minutes === 'number' ? { autoSyncMinutes: minutes } : {}),
        ...(typeof concurrency === 'number' ? { concurrency } : {}),
        ...(typeof rate === 'number' ? { maxRequestsPerSecond: rate } : {}),
      }),
    );

  return (
    <Card withBorder padding="lg" data-testid="sync-settings">
      <Title order={2} size="h4">
        Sync
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        While vendesk is open it reads the recent days of the service's log by itself, so the Dashboard and Transactions stay current. 0 minutes turns that off (Sync now still
        works).
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 3 }} maw={720}>
        <NumberInput label="Sync by itself every" description="minutes, 0 to 1,440 (0 = never)" value={minutes} onChange={setMinutes} min={0} max={1440} allowDecimal={false} />
        <NumberInput label="Pages requested at once" description="1 to 32" value={concurrency} onChange={setConcurrency} min={1} max={32} allowDecimal={false} />
        <NumberInput label="Requests a second, at most" description="1 to 1,000" value={rate} onChange={setRate} min={1} max={1000} allowDecimal={false} />
      </SimpleGrid>
      <ErrorNotice error={error} title="The sync settings were not saved" />
      <Group mt="sm">
        <Button onClick={() => void save()} loading={busy}>
          Save sync settings
        </Button>
        {saved && (
          <Text size="sm" c="green" role="status">
            Saved. {saved.autoSyncMinutes === 0 ? 'vendesk no longer syncs by itself.' : `vendesk syncs by itself every ${saved.autoSyncMinutes} min.`}
          </Text>
        )}
      </Group>
    </Card>
  );
}
