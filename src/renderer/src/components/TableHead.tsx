import { Table, VisuallyHidden } from '@mantine/core';

/** A column heading: its text, right-aligned for amounts and counts. */
export type HeadColumn = string | { label: string; right?: boolean };

/**
 * The heading of a column of buttons: no words on screen, but a name for screen readers (a table
 * heading is never empty).
 */
export function ActionsHeader() {
  return (
    <Table.Th>
      <VisuallyHidden>Actions</VisuallyHidden>
    </Table.Th>
  );
}

/** The heading row of a table; a column named '' holds buttons (see ActionsHeader). */
export function TableHead({ columns }: { columns: HeadColumn[] }) {
  return (
    <Table.Thead>
      <Table.Tr>
        {columns.map((c, i) => {
          const col = typeof c === 'string' ? { label: c } : c;
          if (col.label === '') return <ActionsHeader key={`${i}-actions`} />;
          return (
            <Table.Th key={`${i}-${col.label}`} ta={col.right ? 'right' : undefined}>
              {col.label}
            </Table.Th>
          );
        })}
      </Table.Tr>
    </Table.Thead>
  );
}
