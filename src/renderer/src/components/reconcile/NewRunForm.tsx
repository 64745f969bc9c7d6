import { Button, Card, FileInput, Group, Progress, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import type { ReconcileRunView } from '../../../../shared/contract/reconcile';
import { AppError, bridge } from '../../bridge';
import { ErrorNotice } from '../ErrorNotice';
import { DateField } from '../DateField';

/** Choose the vendor export and the range; shows progress while it runs, with Cancel. */
export function NewRunForm({ onDone }: { onDone: (run: ReconcileRunView) => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [running, setRunning] = useState(false);
  const [stage, setStage] = useState<{ text: string; fraction: number | null } | null>(null);
  const [error, setError] = useState<AppError | null>(null);

  useEffect(
    () =>
      bridge.on('reconcile.progress', (p) => {
        setStage({ text: p.stage, fraction: p.total ? Math.min(1, p.done / p.total) : null });
      }),
    [],
  );

  const start = async () => {
    if (!file) return;
    setRunning(true);
    setError(null);
    setStage({ text: 'Sending the file', fraction: null });
    try {
      const ref = await bridge.fileRef(file);
      const run = await bridge.call('reconcile.start', { file: ref, ...(from ? { from } : {}), ...(to ? { to } : {}) });
      onDone(run);
    } catch (e) {
      setError(e instanceof AppError ? e : new AppError('internal', String(e)));
    } finally {
      setRunning(false);
      setStage(null);
    }
  };

  return (
    <Card withBorder padding="md">
      <Stack gap="sm">
        <Text fw={600}>New reconciliation</Text>
        <Group align="flex-end" gap="sm" wrap="wrap">
          <FileInput
            label="Vendor export"
            description="The transaction log the vendor exported, CSV or XLSX"
            placeholder="Choose the file"
            accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            value={file}
            onChange={setFile}
            clearable
            w={340}
            disabled={running}
          />
          <DateField label="From" value={from} onChange={setFrom} description="Default: the export's first day" w={170} disabled={running} />
          <DateField label="To (inclusive)" value={to} onChange={setTo} description="Default: the export's last day" w={170} disabled={running} />
          <Button onClick={() => void start()} disabled={!file} loading={running}>
            Reconcile
          </Button>
          {running && (
            <Button variant="default" onClick={() => void bridge.call('reconcile.cancel', {})}>
              Cancel
            </Button>
          )}
        </Group>
        {stage && (
          <Stack gap={4} aria-live="polite">
            <Text size="sm">{stage.text}</Text>
            <Progress value={stage.fraction === null ? 100 : stage.fraction * 100} animated={stage.fraction === null} />
          </Stack>
        )}
        <ErrorNotice error={error} title="The reconciliation did not run" />
      </Stack>
    </Card>
  );
}
