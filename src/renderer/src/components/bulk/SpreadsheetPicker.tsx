import { Button, FileButton, Group, Paper, Select, Stack, Text } from '@mantine/core';
import { useEffect, useRef, useState, type DragEvent } from 'react';
import type { BulkKind } from '../../../../shared/contract/bulk';
import type { FileRef } from '../../../../shared/contract/files';
import { bridge } from '../../bridge';
import { formatCount } from '../../format';
import { TemplateDownload } from '../TemplateDownload';

export const KIND_CHOICES: readonly { value: BulkKind; label: string }[] = [
  { value: 'airtime', label: 'Airtime' },
  { value: 'data', label: 'Data bundles' },
  { value: 'electricity', label: 'Electricity' },
  { value: 'cable', label: 'Cable TV' },
];
const KIND_HELP: Record<BulkKind, string> = {
  airtime: 'One row per recipient, with a Phone and an Amount column (Network, Name and Reference are optional).',
  data: 'One row per recipient, with a Phone and a Plan code column (copy codes from the Catalog page; Name and Reference are optional).',
  electricity:
    'One row per meter, with Meter number, Disco (e.g. IKEDC), Meter type (PREPAID or POSTPAID), Amount and the customer’s Phone. Each meter is checked with its disco before it is charged.',
  cable: 'One row per decoder, with Smartcard number, Bouquet code (from the Catalog page; the catalog’s price is used) and the customer’s Phone. Provider is optional.',
};

/**
 * The spreadsheet of a kind's rows (a bulk job's, a standing order's): dropped or chosen, its
 * sheet chosen when it has several (the one holding the table first), then handed to `onPicked`
 * to be read and checked. `run` is the caller's action (its spinner and its error place).
 */
export function SpreadsheetPicker({
  kind,
  busy,
  run,
  onPicked,
  sheetAction = 'Check this sheet',
}: {
  kind: BulkKind;
  busy: boolean;
  run: (work: () => Promise<unknown>) => Promise<boolean>;
  onPicked: (file: FileRef, sheet: string | null) => Promise<void>;
  sheetAction?: string;
}) {
  const [file, setFile] = useState<FileRef | null>(null);
  const [sheets, setSheets] = useState<string[]>([]);
  const [sheet, setSheet] = useState<string | null>(null);
  const [rowsRead, setRowsRead] = useState<number | null>(null);
  const [dragging, setDragging] = useState(false);
  const resetPicker = useRef<() => void>(null);

  useEffect(() => bridge.on('import.progress', (p) => setRowsRead(p.done)), []);

  const use = async (ref: FileRef, sheetName: string | null) => {
    setRowsRead(null);
    await onPicked(ref, sheetName);
  };

  const choose = async (picked: File | null) => {
    if (!picked) return;
    resetPicker.current?.();
    await run(async () => {
      const ref = await bridge.fileRef(picked);
      const info = await bridge.call('bulk.inspect', { file: ref });
      setFile(ref);
      setSheets(info.sheetNames);
      // The sheet that holds the table, not a notes or cover sheet before it.
      const first = info.dataSheet ?? info.sheetNames[0] ?? null;
      setSheet(first);
      // One sheet (or a CSV): nothing to choose, go straight on.
      if (info.sheetNames.length <= 1) await use(ref, first);
    });
  };

  const onDrop = (e: DragEvent<HTMLDivElement>) => {
    e.preventDefault();
    setDragging(false);
    const dropped = e.dataTransfer.files[0];
    if (dropped) void choose(dropped);
  };

  return (
    <>
      <Paper
        withBorder
        p="xl"
        radius="md"
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        style={{ borderStyle: 'dashed', background: dragging ? 'var(--mantine-color-blue-light)' : undefined, textAlign: 'center' }}
      >
        <Stack gap="xs" align="center">
          <Text fw={500}>Drop a spreadsheet here (.xlsx or .csv)</Text>
          <Text size="sm" c="dimmed">
            {KIND_HELP[kind]}
          </Text>
          <FileButton resetRef={resetPicker} onChange={(f) => void choose(f)} accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet">
            {(props) => (
              <Button {...props} variant="light" loading={busy}>
                Choose a spreadsheet…
              </Button>
            )}
          </FileButton>
          <TemplateDownload kind={kind} />
          {busy && (
            <Text size="sm" c="dimmed" aria-live="polite">
              Reading and checking every row{rowsRead !== null ? ` — ${formatCount(rowsRead)} rows read` : ''}…
            </Text>
          )}
        </Stack>
      </Paper>
      {file && sheets.length > 1 && (
        <Group align="flex-end">
          <Select label="Sheet" data={sheets} value={sheet} onChange={setSheet} allowDeselect={false} w={260} />
          <Button onClick={() => void run(() => use(file, sheet))} loading={busy}>
            {sheetAction}
          </Button>
        </Group>
      )}
    </>
  );
}
