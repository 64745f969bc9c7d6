/**
 * Daily spend of the last 30 days as stacked bars, by type or by network, at face value or wallet
 * cost, with a tooltip in Naira and both totals of the 30 days above it.
 */
import { BarChart } from '@mantine/charts';
import { Group, SegmentedControl, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import type { DashboardSummary } from '../../../../shared/contract/dashboard';
import { formatCount, formatNaira } from '../../format';
import { typeLabel } from './VirtualLogTable';

const COLORS = ['blue.6', 'teal.6', 'orange.6', 'grape.6', 'red.6', 'cyan.6', 'lime.6', 'pink.6', 'indigo.6', 'yellow.6'];
const short = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });

export function SpendChart({ summary }: { summary: DashboardSummary }) {
  const [by, setBy] = useState<'type' | 'network'>('type');
  const [measure, setMeasure] = useState<'face' | 'cost'>('face');
  const points = by === 'type' ? summary.dailyByType : summary.dailyByNetwork;
  const keys = by === 'type' ? summary.typeKeys : summary.networkKeys;
  const label = (k: string) => (by === 'type' ? typeLabel(k) : k);
  const data = points.map((p) => {
    const row: Record<string, string | number> = { day: short.format(new Date(`${p.day}T00:00:00Z`)) };
    const kobo = measure === 'face' ? p.values : p.costs;
    for (const k of keys) row[label(k)] = (kobo[k] ?? 0) / 100;
    return row;
  });
  const total = summary.spend.last30Days;
  return (
    <Stack gap="xs">
      <Group justify="space-between" wrap="wrap">
        <Group gap="xs">
          <SegmentedControl
            size="xs"
            value={by}
            onChange={(v) => setBy(v as 'type' | 'network')}
            data={[
              { value: 'type', label: 'By type' },
              { value: 'network', label: 'By network' },
            ]}
          />
          <SegmentedControl
            size="xs"
            value={measure}
            onChange={(v) => setMeasure(v as 'face' | 'cost')}
            data={[
              { value: 'face', label: 'Face value' },
              { value: 'cost', label: 'Wallet cost' },
            ]}
            data-testid="spend-chart-measure"
          />
        </Group>
        <Text size="sm" data-testid="spend-30-days">
          30 days: <b className="money">Face value {formatNaira(total.faceKobo)}</b> · <b className="money">Wallet cost {formatNaira(total.costKobo)}</b> ·{' '}
          {formatCount(total.purchases)} purchases
        </Text>
      </Group>
      {keys.length === 0 ? (
        <Text size="sm" c="dimmed">
          No spend in the last 30 days in the mirror. Sync to bring in the latest transactions.
        </Text>
      ) : (
        <BarChart
          h={280}
          data={data}
          dataKey="day"
          type="stacked"
          withLegend
          legendProps={{ verticalAlign: 'bottom' }}
          valueFormatter={(naira) => formatNaira(Math.round(naira * 100))}
          yAxisProps={{ width: 90 }}
          series={keys.map((k, i) => ({ name: label(k), color: COLORS[i % COLORS.length] }))}
          data-testid="spend-chart"
        />
      )}
    </Stack>
  );
}
