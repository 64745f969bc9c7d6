import { Box, Group, Text } from '@mantine/core';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef, type ReactNode } from 'react';

export interface VirtualColumn<T> {
  header: string;
  width: number | string;
  render: (row: T) => ReactNode;
  align?: 'left' | 'right';
}

/** A table that stays fast with thousands of rows: only the visible rows are drawn. */
export function VirtualRows<T>({
  rows,
  columns,
  height = 320,
  rowHeight = 40,
  label,
  rowKey,
}: {
  rows: T[];
  columns: VirtualColumn<T>[];
  height?: number;
  rowHeight?: number;
  label: string;
  rowKey: (row: T) => string | number;
}) {
  const parent = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({ count: rows.length, getScrollElement: () => parent.current, estimateSize: () => rowHeight, overscan: 12 });
  const template = columns.map((c) => (typeof c.width === 'number' ? `${c.width}px` : c.width)).join(' ');
  return (
    <Box role="table" aria-label={label} style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 6 }}>
      <Box
        role="row"
        style={{ display: 'grid', gridTemplateColumns: template, background: 'var(--mantine-color-default-hover)', borderBottom: '1px solid var(--mantine-color-default-border)' }}
      >
        {columns.map((c) => (
          <Text key={c.header} role="columnheader" size="xs" fw={700} tt="uppercase" c="dimmed" px="sm" py={8} ta={c.align ?? 'left'}>
            {c.header}
          </Text>
        ))}
      </Box>
      <div ref={parent} style={{ maxHeight: height, overflow: 'auto' }}>
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((v) => {
            const row = rows[v.index];
            return (
              <Box
                key={rowKey(row)}
                role="row"
                data-index={v.index}
                ref={virtualizer.measureElement}
                style={{
                  position: 'absolute',
                  top: 0,
                  left: 0,
                  width: '100%',
                  transform: `translateY(${v.start}px)`,
                  display: 'grid',
                  gridTemplateColumns: template,
                  borderBottom: '1px solid var(--mantine-color-default-border)',
                }}
              >
                {columns.map((c) => (
                  <Group key={c.header} role="cell" px="sm" py={8} gap={4} justify={c.align === 'right' ? 'flex-end' : 'flex-start'} style={{ minWidth: 0 }}>
                    {c.render(row)}
                  </Group>
                ))}
              </Box>
            );
          })}
        </div>
      </div>
      {rows.length === 0 && (
        <Text size="sm" c="dimmed" p="sm">
          Nothing to show.
        </Text>
      )}
    </Box>
  );
}
