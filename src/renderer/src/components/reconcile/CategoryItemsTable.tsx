import { Badge, Box, Button, Checkbox, Group, Modal, Stack, Text, Textarea, TextInput, Tooltip } from '@mantine/core';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import type { ReconcileCategory, ReconcileItemView } from '../../../../shared/contract/reconcile';
import { AppError, asAppError, bridge } from '../../bridge';
import { useAction } from '../../hooks/useAction';
import { formatCount, formatDateTime, formatNaira } from '../../format';
import { ErrorNotice } from '../ErrorNotice';
import { RULE_LABELS } from './reconcileLabels';

const CHUNK = 200;
const ROW_HEIGHT = 44;

interface Column {
  header: string;
  width: string;
  align?: 'right';
  render: (i: ReconcileItemView) => ReactNode;
}

const money = (kobo: number | null) => (kobo === null ? '—' : formatNaira(kobo));

function columnsFor(category: ReconcileCategory): Column[] {
  const base: Column[] = [
    { header: 'Time', width: '120px', render: (i) => <Text size="sm">{formatDateTime(i.createdAt)}</Text> },
    {
      header: 'Transaction id',
      width: 'minmax(120px, 1fr)',
      render: (i) => (
        <Text size="sm" ff="monospace" truncate title={i.transactionId}>
          {i.transactionId || '—'}
        </Text>
      ),
    },
    { header: 'Phone', width: '110px', render: (i) => <Text size="sm">{i.phone || '—'}</Text> },
    { header: 'Type', width: '95px', render: (i) => <Text size="sm">{i.type || '—'}</Text> },
    { header: 'Amount', width: '105px', align: 'right', render: (i) => <Text size="sm">{formatNaira(i.amountKobo)}</Text> },
  ];
  if (category === 'matched') {
    return [...base, { header: 'Matched on', width: '160px', render: (i) => <Badge variant="light">{RULE_LABELS[i.rule ?? ''] ?? '—'}</Badge> }];
  }
  const side: Column[] =
    category === 'amountMismatch'
      ? [
          { header: 'Export amount / cost', width: '170px', align: 'right', render: (i) => <Text size="sm">{`${money(i.exportAmountKobo)} / ${money(i.exportCostKobo)}`}</Text> },
          { header: 'Mirror amount / cost', width: '170px', align: 'right', render: (i) => <Text size="sm">{`${money(i.mirrorAmountKobo)} / ${money(i.mirrorCostKobo)}`}</Text> },
        ]
      : category === 'lostSubmissions'
        ? [{ header: 'vendesk record', width: '200px', render: (i) => <Text size="sm" truncate>{`${i.localRef ?? ''} (${i.localState ?? ''})`}</Text> }]
        : [
            {
              header: 'Status export / mirror',
              width: '140px',
              render: (i) => <Text size="sm">{`${i.exportStatus ?? '—'} / ${i.mirrorStatus ?? '—'}`}</Text>,
            },
          ];
  return [
    ...base,
    ...side,
    {
      header: 'What to do',
      width: 'minmax(165px, 1.4fr)',
      render: (i) => (
        <Tooltip label={i.detail} multiline w={360} openDelay={300}>
          <Text size="xs" c="dimmed" lineClamp={2}>
            {i.detail}
          </Text>
        </Tooltip>
      ),
    },
    {
      header: 'Resolved / requery',
      width: '115px',
      render: (i) =>
        i.resolvedAt ? (
          <Tooltip label={i.resolutionNote ?? ''} multiline w={300}>
            <Badge color="teal" variant="light">
              resolved
            </Badge>
          </Tooltip>
        ) : i.requeryStatus ? (
          <Text size="xs">{`requery: ${i.requeryStatus}`}</Text>
        ) : (
          <Text size="xs" c="dimmed">
            open
          </Text>
        ),
    },
  ];
}

/**
 * One category's items: only the visible rows are drawn and only their pages are fetched, so a
 * million matched rows scroll like ten. Exceptions can be selected and marked resolved.
 */
export function CategoryItemsTable({ runId, category, total, onChanged }: { runId: string; category: ReconcileCategory; total: number; onChanged: () => void }) {
  const [search, setSearch] = useState('');
  const [count, setCount] = useState(total);
  const [rows, setRows] = useState<Map<number, ReconcileItemView>>(new Map());
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [resolving, setResolving] = useState(false);
  const [note, setNote] = useState('');
  const [readError, setReadError] = useState<AppError | null>(null);
  const resolveAction = useAction();
  const loading = useRef(new Set<number>());
  const generation = useRef(0);
  const parent = useRef<HTMLDivElement>(null);
  const canResolve = category !== 'matched';

  const loadChunk = useCallback(
    async (chunk: number) => {
      if (loading.current.has(chunk)) return;
      loading.current.add(chunk);
      const mine = generation.current;
      try {
        const page = await bridge.call('reconcile.items', { runId, category, offset: chunk * CHUNK, limit: CHUNK, ...(search ? { search } : {}) });
        if (mine !== generation.current) return;
        setCount(page.total);
        setRows((prev) => {
          const next = new Map(prev);
          page.items.forEach((item, k) => next.set(chunk * CHUNK + k, item));
          return next;
        });
      } catch (e) {
        setReadError(asAppError(e));
      }
    },
    [runId, category, search],
  );

  useEffect(() => {
    generation.current++;
    loading.current = new Set();
    setRows(new Map());
    setSelected(new Set());
    void loadChunk(0);
  }, [loadChunk]);

  const virtualizer = useVirtualizer({ count, getScrollElement: () => parent.current, estimateSize: () => ROW_HEIGHT, overscan: 10 });
  const visible = virtualizer.getVirtualItems();
  useEffect(() => {
    for (const v of visible) if (!rows.has(v.index)) void loadChunk(Math.floor(v.index / CHUNK));
  }, [visible, rows, loadChunk]);

  const columns = columnsFor(category);
  const template = [...(canResolve ? ['32px'] : []), ...columns.map((c) => c.width)].join(' ');

  const resolve = () =>
    resolveAction.run(async () => {
      await bridge.call('reconcile.resolve', { runId, seqs: [...selected], note });
      setResolving(false);
      setNote('');
      generation.current++;
      loading.current = new Set();
      setRows(new Map());
      setSelected(new Set());
      void loadChunk(0);
      onChanged();
    });

  return (
    <Stack gap="xs">
      <Group justify="space-between">
        <TextInput placeholder="Search transaction id or phone" value={search} onChange={(e) => setSearch(e.currentTarget.value)} w={280} size="xs" aria-label="Search items" />
        <Group gap="xs">
          <Text size="sm" c="dimmed">
            {formatCount(count)} item(s)
          </Text>
          {canResolve && (
            <Button size="xs" variant="light" disabled={selected.size === 0} onClick={() => setResolving(true)}>
              Mark {selected.size || ''} resolved…
            </Button>
          )}
        </Group>
      </Group>
      <ErrorNotice error={resolveAction.error ?? readError} />
      <Box role="table" aria-label={`${category} items`} style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 6, overflowX: 'auto' }}>
        <Box
          role="row"
          style={{
            display: 'grid',
            gridTemplateColumns: template,
            minWidth: 960,
            background: 'var(--mantine-color-default-hover)',
            borderBottom: '1px solid var(--mantine-color-default-border)',
          }}
        >
          {canResolve && <span />}
          {columns.map((c) => (
            <Text key={c.header} role="columnheader" size="xs" fw={700} tt="uppercase" c="dimmed" px="sm" py={8} ta={c.align ?? 'left'}>
              {c.header}
            </Text>
          ))}
        </Box>
        <div ref={parent} style={{ height: Math.min(440, Math.max(ROW_HEIGHT, count * ROW_HEIGHT)), overflow: 'auto', minWidth: 960 }}>
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {visible.map((v) => {
              const item = rows.get(v.index);
              return (
                <Box
                  key={v.index}
                  role="row"
                  data-index={v.index}
                  style={{
                    position: 'absolute',
                    top: 0,
                    left: 0,
                    width: '100%',
                    height: ROW_HEIGHT,
                    transform: `translateY(${v.start}px)`,
                    display: 'grid',
                    gridTemplateColumns: template,
                    alignItems: 'center',
                    borderBottom: '1px solid var(--mantine-color-default-border)',
                  }}
                >
                  {!item ? (
                    <Text size="sm" c="dimmed" px="sm" style={{ gridColumn: '1 / -1' }}>
                      Loading…
                    </Text>
                  ) : (
                    <>
                      {canResolve && (
                        <Checkbox
                          ml="sm"
                          aria-label={`Select ${item.transactionId || item.seq}`}
                          checked={selected.has(item.seq)}
                          disabled={item.resolvedAt !== null}
                          onChange={(e) => {
                            const checked = e.currentTarget.checked;
                            setSelected((prev) => {
                              const next = new Set(prev);
                              if (checked) next.add(item.seq);
                              else next.delete(item.seq);
                              return next;
                            });
                          }}
                        />
                      )}
                      {columns.map((c) => (
                        <Group key={c.header} role="cell" px="sm" gap={4} justify={c.align === 'right' ? 'flex-end' : 'flex-start'} style={{ minWidth: 0 }} wrap="nowrap">
                          {c.render(item)}
                        </Group>
                      ))}
                    </>
                  )}
                </Box>
              );
            })}
          </div>
        </div>
        {count === 0 && (
          <Text size="sm" c="dimmed" p="sm">
            Nothing in this category.
          </Text>
        )}
      </Box>
      <Modal opened={resolving} onClose={() => setResolving(false)} title={`Mark ${selected.size} item(s) resolved`}>
        <Stack>
          <Textarea
            label="Note"
            description="Say how it was settled, e.g. “refund arrived 3 Dec, vendor ticket 1234”"
            value={note}
            onChange={(e) => setNote(e.currentTarget.value)}
            minRows={3}
            autoFocus
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setResolving(false)}>
              Cancel
            </Button>
            <Button onClick={() => void resolve()} disabled={note.trim().length < 3} loading={resolveAction.busy}>
              Mark resolved
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
