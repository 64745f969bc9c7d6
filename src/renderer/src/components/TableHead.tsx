import { Table } from '@mantine/core';

/** A column heading: its text, right-aligned for amounts and counts. */
export type HeadColumn = string | { label: string; right?: boolean };

/** The heading row of a table. */
export function TableHead({ columns }: { columns: HeadColumn[] }) {
  return (
    <Table.Thead>
      <Table.Tr>
        {columns.map((c, i) => {
          const col = typeof c === 'string' ? { label: c } : c;
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
