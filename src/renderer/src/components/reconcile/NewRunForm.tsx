import { Button, Card, FileInput, Group, Progress, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import type { ReconcileRunView } from '../../../../shared/contract/reconcile';
import { bridge } from '../../bridge';
import { useAction } from '../../hooks/useAction';
import { useConnection } from '../../hooks/useConnection';
import { ErrorNotice } from '../ErrorNotice';
import { DateField } from '../DateField';

/** Choose the vendor export and the range; shows progress while it runs, with Cancel. */
export function NewRunForm({ onDone }: { onDone: (run: ReconcileRunView) => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const { busy: running, error, run: runAction } = useAction();
  const cancelling = useAction();
  const sandboxExport = useAction();
  const onSandbox = useConnection().info?.connection.kind === 'sandbox';
  const [stage, setStage] = useState<{ text: string; fraction: number | null } | null>(null);

  useEffect(
    () =>
      bridge.on('reconcile.progress', (p) => {
        setStage({ text: p.stage, fraction: p.total ? Math.min(1, p.done / p.total) : null });
      }),
    [],
  );

  const start = async () => {
    if (!file) return;
    setStage({ text: 'Sending the file', fraction: null });
    await runAction(async () => {
      const ref = await bridge.fileRef(file);
      onDone(await bridge.call('reconcile.start', { file: ref, ...(from ? { from } : {}), ...(to ? { to } : {}) }));
    });
    setStage(null);
  };

  return (
    <Card withBorder padding="md">
      <Stack gap="sm">
        <Text fw={600}>New reconciliation</Text>
        <Group align="flex-end" gap="sm" wrap="wrap">
          <FileInput
            label="Vendor export"
            description="The vendor's transaction log, CSV or XLSX"
            placeholder="Choose the file"
            accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            value={file}
            onChange={setFile}
            clearable
            w={340}
            disabled={running}
          />
          <DateField label="From" value={from} onChange={setFrom} description="Default: first day in file" w={180} disabled={running} />
          <DateField label="To (inclusive)" value={to} onChange={setTo} description="Default: last day in file" w={180} disabled={running} />
          <Button onClick={() => void start()} disabled={!file} loading={running}>
            Reconcile
          </Button>
          {running && (
            <Button variant="default" onClick={() => void cancelling.run(() => bridge.call('reconcile.cancel', {}))} loading={cancelling.busy}>
              Cancel
            </Button>
          )}
        </Group>
        {onSandbox && (
          <Group gap="sm" wrap="nowrap" data-testid="sandbox-export">
            <Button
              size="xs"
              variant="light"
              style={{ flex: 'none' }}
              onClick={() => void sandboxExport.run(async () => bridge.download(await bridge.call('reconcile.sandboxExport', {})))}
              loading={sandboxExport.busy}
            >
              Download the sandbox's vendor export
            </Button>
            <Text size="xs" c="dimmed">
              No vendor file yet? On the sandbox, get its log as the vendor would export it (CSV), then choose it above. On a live connection the export comes from your vendor.
            </Text>
          </Group>
        )}
        {stage && (
          <Stack gap={4} aria-live="polite">
            <Text size="sm">{stage.text}</Text>
            <Progress value={stage.fraction === null ? 100 : stage.fraction * 100} animated={stage.fraction === null} />
          </Stack>
        )}
        <ErrorNotice error={error ?? cancelling.error} title="The reconciliation did not run" />
        <ErrorNotice error={sandboxExport.error} title="The sandbox's export was not written" />
      </Stack>
    </Card>
  );
}
