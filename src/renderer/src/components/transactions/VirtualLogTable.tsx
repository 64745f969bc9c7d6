/**
 * The mirror as a table that reaches every row of 1,000,000: a capped spacer with a scaled scroll
 * (see logTableModel), and rows fetched from SQLite in blocks of 100 for the visible window only.
 *
 * No blank frames: a block is asked for as soon as it comes into view (the main side answers any
 * window in a few milliseconds), the blocks around the view and the last ones of the list are
 * fetched ahead (the scrollbar's bottom is where people jump), and until every row of the view has
 * arrived the last complete view stays on screen. New data (a sync) refetches the rows in view and
 * keeps the scroll position; only a new filter or sort goes back to the top.
 */
import { Badge, Box, Group, Text } from '@mantine/core';
import { useCallback, useEffect, useRef, useState, type UIEvent } from 'react';
import type { LogFilter, LogSort, LogRowView } from '../../../../shared/contract/logs';
import { bridge } from '../../bridge';
import { formatDateTime, formatNaira } from '../../format';
import { BLOCK, ROW_HEIGHT, blocksFor, firstRowAt, spacerHeight } from './logTableModel';

const VIEWPORT_PX = 540;
export const STATUS_COLOR: Record<string, string> = { SUCCESS: 'teal', FAILED: 'red', PENDING: 'yellow' };
const TYPE_LABEL: Record<string, string> = { AIRTIME: 'Airtime', DATA: 'Data', ELECTRICITY: 'Electricity', CABLETV: 'Cable TV' };
/** Time, type and network, phone, amount, status and cost centre, transaction id (which wraps rather than being cut). */
const GRID = '140px 95px 105px 110px minmax(110px, 0.7fr) minmax(130px, 1fr)';
/** Below this width (narrower than a 1024 px window's page) the table scrolls sideways rather than cut a figure. */
const MIN_WIDTH = 730;

export function typeLabel(type: string): string {
  return TYPE_LABEL[type] ?? type;
}

/** Rows fetched for one filter, sort and version of the data. */
interface Blocks {
  key: string;
  rows: Map<number, LogRowView[]>;
  asked: Set<number>;
}

/** Rows [first, first + n) as shown, each with its index. */
type Frame = { index: number; row: LogRowView }[];

export function VirtualLogTable({ filter, sort, count, version, onOpen }: { filter: LogFilter; sort: LogSort; count: number; version: number; onOpen: (row: LogRowView) => void }) {
  const [scrollTop, setScrollTop] = useState(0);
  const [, setArrived] = useState(0);
  const view = JSON.stringify({ filter, sort });
  const key = `${view}|${version}|${count}`;
  const store = useRef<Blocks | null>(null);
  if (!store.current || store.current.key !== key) store.current = { key, rows: new Map(), asked: new Set() };
  const blocks = store.current;
  /** The last view whose rows had all arrived. */
  const lastFrame = useRef<{ view: string; rows: Frame } | null>(null);
  const scroller = useRef<HTMLDivElement>(null);

  // A new filter or sort starts at the top; new data keeps the place.
  useEffect(() => {
    setScrollTop(0);
    if (scroller.current) scroller.current.scrollTop = 0;
  }, [view]);

  const first = firstRowAt(scrollTop, count, VIEWPORT_PX);
  const firstIndex = Math.floor(first);
  const shown = Math.ceil(VIEWPORT_PX / ROW_HEIGHT) + 1;

  const load = useCallback(
    (block: number, into: Blocks) => {
      if (into.asked.has(block)) return;
      into.asked.add(block);
      void bridge.call('logs.query', { filter, sort, offset: block * BLOCK, limit: BLOCK }).then(
        (page) => {
          into.rows.set(block, page.rows);
          if (store.current === into) setArrived((n) => n + 1);
        },
        () => into.asked.delete(block),
      );
    },
    [filter, sort],
  );

  useEffect(() => {
    if (count === 0) return;
    const visible = blocksFor(firstIndex, shown, count);
    const last = Math.ceil(count / BLOCK) - 1;
    const around = [visible[0] - 1, visible[visible.length - 1] + 1, 0, last, last - 1];
    for (const b of [...visible, ...around]) if (b >= 0 && b <= last) load(b, blocks);
  }, [firstIndex, shown, count, load, blocks]);

  const wanted: { index: number; row: LogRowView | undefined }[] = [];
  for (let i = firstIndex; i < Math.min(count, firstIndex + shown); i++) {
    wanted.push({ index: i, row: blocks.rows.get(Math.floor(i / BLOCK))?.[i % BLOCK] });
  }
  const complete = wanted.every((w) => w.row !== undefined);
  if (complete) lastFrame.current = { view, rows: wanted as Frame };
  // Until the view's rows have all arrived, the last complete view of this filter and sort stays.
  const stale = !complete && lastFrame.current?.view === view ? lastFrame.current.rows : null;
  const rows: { index: number; row: LogRowView | undefined }[] = stale ?? wanted;
  const offset = stale ? 0 : (first - firstIndex) * ROW_HEIGHT;

  return (
    <Box style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 8, overflow: 'hidden' }}>
      <Box role="grid" aria-label="Transactions" aria-rowcount={count + 1} data-testid="transactions-grid" style={{ overflowX: 'auto' }}>
        <Box role="rowgroup" style={{ minWidth: MIN_WIDTH }}>
          <Box
            role="row"
            aria-rowindex={1}
            style={{ display: 'grid', gridTemplateColumns: GRID, gap: 8, padding: '8px 12px', background: 'var(--mantine-color-default-hover)', fontWeight: 600, fontSize: 13 }}
          >
            <span role="columnheader">Time</span>
            <span role="columnheader">Type / network</span>
            <span role="columnheader">Phone</span>
            <span role="columnheader" style={{ textAlign: 'right' }}>
              Amount
            </span>
            <span role="columnheader">Status / cost centre</span>
            <span role="columnheader">Transaction id</span>
          </Box>
        </Box>
        <div
          ref={scroller}
          data-testid="transactions-table"
          role="rowgroup"
          style={{ height: VIEWPORT_PX, overflowY: 'auto', position: 'relative', minWidth: MIN_WIDTH }}
          onScroll={(e: UIEvent<HTMLDivElement>) => setScrollTop(e.currentTarget.scrollTop)}
        >
          <div style={{ height: Math.max(spacerHeight(count), VIEWPORT_PX - 2), position: 'relative' }}>
            <div style={{ position: 'absolute', top: scrollTop - offset, left: 0, right: 0 }}>
              {rows.map(({ index, row }) => (
                <div
                  key={index}
                  role="row"
                  aria-rowindex={index + 2}
                  aria-label={row ? `${formatDateTime(row.createdAt)}, ${typeLabel(row.type)}, ${formatNaira(row.amountKobo)}, ${row.status.toLowerCase()}` : undefined}
                  data-testid={row ? 'tx-row' : 'tx-row-loading'}
                  tabIndex={0}
                  onClick={() => row && onOpen(row)}
                  onKeyDown={(e) => e.key === 'Enter' && row && onOpen(row)}
                  style={{
                    display: 'grid',
                    gridTemplateColumns: GRID,
                    gap: 8,
                    alignItems: 'center',
                    height: ROW_HEIGHT,
                    padding: '0 12px',
                    borderTop: '1px solid var(--mantine-color-default-border)',
                    cursor: row ? 'pointer' : 'default',
                    fontSize: 13,
                    background: index % 2 ? 'var(--vendesk-stripe)' : undefined,
                  }}
                >
                  {row ? (
                    <>
                      <span role="gridcell">{formatDateTime(row.createdAt)}</span>
                      <span role="gridcell" style={{ lineHeight: 1.15 }}>
                        <span style={{ display: 'block' }}>{typeLabel(row.type)}</span>
                        <span style={{ display: 'block', fontSize: 12, color: 'var(--mantine-color-dimmed)' }}>{row.network}</span>
                      </span>
                      <span role="gridcell" className="money">
                        {row.phoneNumber}
                      </span>
                      <span role="gridcell" className="money" style={{ textAlign: 'right' }}>
                        {formatNaira(row.amountKobo)}
                      </span>
                      <span role="gridcell" style={{ lineHeight: 1.15, minWidth: 0 }}>
                        <Badge size="sm" variant="light" color={STATUS_COLOR[row.status] ?? 'gray'} style={{ display: 'block', width: 'fit-content' }}>
                          {row.status.toLowerCase()}
                        </Badge>
                        {/* A long cost centre ends in "…" here; the row's details show it whole. */}
                        <span
                          title={row.costCentre}
                          data-testid="tx-cost-centre"
                          style={{
                            display: 'block',
                            fontSize: 12,
                            whiteSpace: 'nowrap',
                            overflow: 'hidden',
                            textOverflow: 'ellipsis',
                            color: row.costCentreSource === 'unassigned' ? 'var(--mantine-color-dimmed)' : undefined,
                          }}
                        >
                          {row.costCentre}
                        </span>
                      </span>
                      <Text role="gridcell" size="xs" c="dimmed" className="tabular" style={{ overflowWrap: 'anywhere', lineHeight: 1.2 }}>
                        {row.transactionId}
                      </Text>
                    </>
                  ) : (
                    <Text role="gridcell" size="xs" c="dimmed">
                      Loading row {index + 1}…
                    </Text>
                  )}
                </div>
              ))}
            </div>
          </div>
        </div>
      </Box>
      <Group justify="space-between" px="sm" py={6} style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}>
        <Text size="xs" c="dimmed" data-testid="table-position">
          {count === 0
            ? 'No transactions match'
            : `Rows ${(firstIndex + 1).toLocaleString('en-NG')}–${Math.min(count, firstIndex + shown - 1).toLocaleString('en-NG')} of ${count.toLocaleString('en-NG')}`}
        </Text>
        <Text size="xs" c="dimmed">
          Click a row, or press Enter on it, for its details
        </Text>
      </Group>
    </Box>
  );
}
