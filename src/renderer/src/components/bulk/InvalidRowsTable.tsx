import { Text } from '@mantine/core';
import type { BulkRowIssueView } from '../../../../shared/contract/bulk';
import { VirtualRows } from './VirtualRows';

/**
 * The invalid rows of a spreadsheet, one line per problem: its row, what to fix and, when given,
 * the file's own heading of the column at fault. The bulk preview and a standing order's
 * confirmation show them alike.
 */
export function InvalidRowsTable({ rows, columnOf }: { rows: BulkRowIssueView[]; columnOf?: (r: BulkRowIssueView) => string }) {
  return (
    <VirtualRows
      label="Invalid rows"
      rows={rows}
      rowKey={(r) => `${r.row}-${r.field}-${r.message}`}
      columns={[
        { header: 'Row', width: 70, render: (r) => <Text size="sm">{r.row}</Text> },
        ...(columnOf
          ? [
              {
                header: 'Column',
                width: 130,
                render: (r: BulkRowIssueView) => (
                  <Text size="sm" data-testid="invalid-column">
                    {columnOf(r)}
                  </Text>
                ),
              },
            ]
          : []),
        { header: 'What to fix', width: '1fr', render: (r) => <Text size="sm">{r.message.replace(/^Row \d+: /, '')}</Text> },
      ]}
    />
  );
}
