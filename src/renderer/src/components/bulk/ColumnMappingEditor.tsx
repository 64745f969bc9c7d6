import { Badge, Button, Group, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import type { BulkMappingField } from '../../../../shared/contract/bulk';
import { columnLetter } from './bulkLabels';

const NONE = 'none';

/** Which column holds what: detected from the headings, corrected here, remembered for the next file with the same headings. */
export function ColumnMappingEditor({
  headers,
  mapping,
  remembered,
  busy,
  onApply,
}: {
  headers: string[];
  mapping: BulkMappingField[];
  remembered: boolean;
  busy: boolean;
  onApply: (mapping: Record<string, number | null>) => void;
}) {
  const initial = () => Object.fromEntries(mapping.map((m) => [m.field, m.column === null ? NONE : String(m.column)]));
  const [choice, setChoice] = useState<Record<string, string>>(initial);
  useEffect(() => setChoice(Object.fromEntries(mapping.map((m) => [m.field, m.column === null ? NONE : String(m.column)]))), [mapping]);

  const options = [{ value: NONE, label: '— not in this file —' }, ...headers.map((h, i) => ({ value: String(i), label: `${columnLetter(i)} — ${h || '(no heading)'}` }))];
  const changed = mapping.some((m) => (m.column === null ? NONE : String(m.column)) !== choice[m.field]);
  const missing = mapping.filter((m) => m.required && choice[m.field] === NONE);

  return (
    <Stack gap="sm">
      <Group gap="xs">
        <Text size="sm" c="dimmed">
          Check that each field reads the right column. Changes are remembered for the next file with the same headings.
        </Text>
        {remembered && (
          <Badge variant="light" color="teal">
            Remembered from an earlier file
          </Badge>
        )}
      </Group>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
        {mapping.map((m) => (
          <Select
            key={m.field}
            label={`${m.label}${m.required ? ' (required)' : ''}`}
            data={options}
            value={choice[m.field] ?? NONE}
            onChange={(v) => setChoice((c) => ({ ...c, [m.field]: v ?? NONE }))}
            allowDeselect={false}
            error={m.required && choice[m.field] === NONE ? 'Choose the column' : undefined}
          />
        ))}
      </SimpleGrid>
      {changed && (
        <Group>
          <Button
            onClick={() => onApply(Object.fromEntries(Object.entries(choice).map(([f, v]) => [f, v === NONE ? null : Number(v)])))}
            loading={busy}
            disabled={missing.length > 0}
          >
            Apply columns and check again
          </Button>
          <Button variant="subtle" onClick={() => setChoice(initial())} disabled={busy}>
            Undo changes
          </Button>
        </Group>
      )}
    </Stack>
  );
}
