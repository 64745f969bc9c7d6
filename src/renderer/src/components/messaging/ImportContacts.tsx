import { Alert, Button, Card, FileButton, Group, List, Progress, ScrollArea, Select, Stack, Text, Title } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import type { FileRef } from '../../../../shared/contract/files';
import type { ContactsImportResult, ContactsPreview, PhonebookView } from '../../../../shared/contract/messaging';
import { bridge } from '../../bridge';
import { useAction } from '../../hooks/useAction';
import { ErrorNotice } from '../ErrorNotice';
import { TemplateDownload } from '../TemplateDownload';
import { ServiceNotes } from './ServiceNotes';
import { formatCount, formatDateTime } from '../../format';

interface ProgressState {
  done: number;
  total: number | null;
  message: string;
}

/** Pick a file → see what will be imported and why rows are left out → upload with progress. */
export function ImportContacts({ phonebook, onImported }: { phonebook: PhonebookView; onImported: () => void }) {
  const [file, setFile] = useState<FileRef | null>(null);
  const [sheet, setSheet] = useState<string | null>(null);
  const [preview, setPreview] = useState<ContactsPreview | null>(null);
  const [result, setResult] = useState<ContactsImportResult | null>(null);
  const [progress, setProgress] = useState<ProgressState | null>(null);
  const { running: busy, error, setError, run } = useAction<'reading' | 'uploading'>();
  const cancelling = useAction();
  // Lets the same file be chosen again (a re-import) after it was edited or uploaded.
  const resetPicker = useRef<() => void>(null);
  // Progress counts only while this window's upload runs: a late event after the end brings no Cancel back.
  const uploading = useRef(false);

  useEffect(() => {
    setFile(null);
    setPreview(null);
    setResult(null);
    setError(null);
    setSheet(null);
  }, [phonebook.id, setError]);

  useEffect(
    () =>
      bridge.on('contacts.progress', (p) => {
        if (p.phoneBookId === phonebook.id && uploading.current) setProgress({ done: p.done, total: p.total, message: p.message ?? '' });
      }),
    [phonebook.id],
  );

  const readPreview = async (ref: FileRef, sheetName: string | null) => {
    setResult(null);
    setPreview(null);
    setPreview(await bridge.call('messaging.contacts.preview', { file: ref, phoneBookId: phonebook.id, ...(sheetName ? { sheet: sheetName } : {}) }));
  };
  const read = (ref: FileRef, sheetName: string | null) => run(() => readPreview(ref, sheetName), 'reading');

  const choose = async (picked: File | null) => {
    if (!picked) return;
    resetPicker.current?.();
    await run(async () => {
      const ref = await bridge.fileRef(picked);
      setFile(ref);
      setSheet(null);
      await readPreview(ref, null);
    }, 'reading');
  };

  const upload = async () => {
    if (!file) return;
    uploading.current = true;
    setProgress({ done: 0, total: null, message: 'Starting…' });
    await run(async () => {
      setResult(await bridge.call('messaging.contacts.import', { file, phoneBookId: phonebook.id, ...(sheet ? { sheet } : {}) }));
      setPreview(null);
      onImported();
    }, 'uploading');
    uploading.current = false;
    setProgress(null);
  };

  const toAdd = preview ? preview.valid - (preview.alreadyInPhonebook ?? 0) : 0;
  const percent = progress?.total ? Math.round((progress.done / progress.total) * 100) : 0;

  return (
    <Card withBorder padding="lg" data-testid="import-contacts">
      <Group justify="space-between" align="flex-start" mb="xs">
        <div>
          <Title order={2} size="h4">
            Import contacts into {phonebook.name}
          </Title>
          <Text size="sm" c="dimmed">
            A CSV or Excel (.xlsx) file with a Phone column and, if you like, a Name column. Numbers already in the phonebook are not added again.
          </Text>
          <TemplateDownload kind="contacts" justify="flex-start" />
        </div>
        <FileButton resetRef={resetPicker} onChange={(f) => void choose(f)} accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet">
          {(props) => (
            <Button {...props} variant="light" loading={busy === 'reading'} disabled={busy === 'uploading'}>
              Choose file…
            </Button>
          )}
        </FileButton>
      </Group>
      <ErrorNotice error={error ?? cancelling.error} title="The contacts cannot be imported" />
      {preview && (
        <Stack gap="xs" mt="xs" data-testid="contacts-preview">
          <Text size="sm">
            <b>{preview.fileName}</b> · {formatCount(preview.rows)} rows · phone numbers from column “{preview.phoneColumn}”
            {preview.nameColumn ? `, names from “${preview.nameColumn}”` : ', no name column'}
          </Text>
          {preview.sheetNames.length > 1 && (
            <Select
              label="Worksheet"
              data={preview.sheetNames}
              value={sheet ?? preview.sheet}
              onChange={(v) => {
                setSheet(v);
                if (file) void read(file, v);
              }}
              w={260}
            />
          )}
          <List size="sm" spacing={2}>
            <List.Item>
              <b>{formatCount(toAdd)}</b> new contact{toAdd === 1 ? '' : 's'} will be added
            </List.Item>
            {(preview.alreadyInPhonebook ?? 0) > 0 && <List.Item>{formatCount(preview.alreadyInPhonebook ?? 0)} already in this phonebook (not added again)</List.Item>}
            {preview.alreadyInPhonebook === null && (
              <List.Item c="dimmed">
                The service does not list this phonebook&apos;s contacts, so vendesk cannot tell which numbers it already holds; every valid one is uploaded.
              </List.Item>
            )}
            {preview.duplicateCount > 0 && <List.Item>{formatCount(preview.duplicateCount)} repeated in the file (each number added once)</List.Item>}
            {preview.invalidCount > 0 && (
              <List.Item c="red">
                {formatCount(preview.invalidCount)} row{preview.invalidCount === 1 ? '' : 's'} with a number that is not a Nigerian mobile number (left out)
              </List.Item>
            )}
          </List>
          {preview.importedBefore && (
            <Alert color="blue" variant="light">
              This file was imported into {phonebook.name} on {formatDateTime(preview.importedBefore)}.
            </Alert>
          )}
          {preview.invalid.length > 0 && (
            <ScrollArea.Autosize mah={140}>
              <Stack gap={0}>
                <Text size="xs" c="dimmed" data-testid="invalid-rows-what-to-do">
                  These rows are left out. To add them, correct them in the file and import it again: the contacts already added are not added twice.
                </Text>
                {preview.invalid.map((p) => (
                  <Text key={p.row} size="xs" c="red">
                    {p.message}
                  </Text>
                ))}
              </Stack>
            </ScrollArea.Autosize>
          )}
          <Group>
            <Button onClick={() => void upload()} loading={busy === 'uploading'} disabled={busy !== null}>
              {toAdd > 0 ? `Add ${formatCount(toAdd)} contacts` : 'Nothing new: check again'}
            </Button>
          </Group>
        </Stack>
      )}
      {progress && busy === 'uploading' && (
        <Stack gap={4} mt="sm">
          <Progress value={progress.total ? percent : 100} animated={!progress.total} aria-label="Upload progress" />
          <Group justify="space-between">
            <Text size="sm" c="dimmed">
              {progress.message}
            </Text>
            <Button
              size="xs"
              variant="subtle"
              color="red"
              onClick={() => void cancelling.run(() => bridge.call('messaging.contacts.cancel', { phoneBookId: phonebook.id }))}
              loading={cancelling.busy}
            >
              Cancel
            </Button>
          </Group>
        </Stack>
      )}
      {result && (
        <Alert color={result.cancelled ? 'yellow' : 'teal'} variant="light" mt="sm" title={result.cancelled ? 'Import cancelled' : 'Import finished'} data-testid="import-result">
          <Text size="sm">
            {formatCount(result.added)} added · {formatCount(result.skipped)} already in the phonebook · {formatCount(result.invalidCount)} invalid row
            {result.invalidCount === 1 ? '' : 's'} left out · {(result.durationMs / 1000).toFixed(1)} s
          </Text>
          <ServiceNotes notes={result.notes} />
        </Alert>
      )}
    </Card>
  );
}
