import { Alert, Card, Group, Stack, Title } from '@mantine/core';
import { useState } from 'react';
import type { BulkKind, BulkPreview } from '../../../../shared/contract/bulk';
import type { FileRef } from '../../../../shared/contract/files';
import { bridge } from '../../bridge';
import { useAction } from '../../hooks/useAction';
import { ErrorNotice } from '../ErrorNotice';
import { LabeledChoice } from '../LabeledChoice';
import { KIND_CHOICES, SpreadsheetPicker } from './SpreadsheetPicker';

/** Step 1: what to buy, and the spreadsheet with the recipients. */
export function NewBulkJob({ onPrepared }: { onPrepared: (preview: BulkPreview, file: FileRef, kind: BulkKind, sheet: string | null) => void }) {
  const [kind, setKind] = useState<BulkKind>('airtime');
  const { busy, error, run } = useAction();

  const readRows = async (ref: FileRef, sheetName: string | null) => {
    const preview = await bridge.call('bulk.prepare', { file: ref, kind, ...(sheetName ? { sheet: sheetName } : {}) });
    onPrepared(preview, ref, kind, sheetName);
  };

  return (
    <Card withBorder padding="lg">
      <Stack gap="md">
        <Title order={2} size="h4">
          New bulk purchase
        </Title>
        <Group gap="md" align="flex-end">
          <LabeledChoice label="What to buy" value={kind} onChange={setKind} data={KIND_CHOICES} />
        </Group>
        <SpreadsheetPicker kind={kind} busy={busy} run={run} onPicked={readRows} />
        <Alert variant="light" color="blue" title="Nothing is bought yet">
          vendesk reads and checks every row first, then shows what it would buy, the total and your wallet. You confirm before anything is sent.
        </Alert>
        <ErrorNotice error={error} title="The spreadsheet could not be used" />
      </Stack>
    </Card>
  );
}
