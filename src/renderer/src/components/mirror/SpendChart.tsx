/** Daily spend of the last 30 days as stacked bars, by type or by network, with a tooltip in Naira. */
import { BarChart } from '@mantine/charts';
import { SegmentedControl, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import type { DashboardSummary } from '../../../../shared/contract/logs';
import { formatNaira } from '../../format';
import { typeLabel } from './VirtualLogTable';

const COLORS = ['blue.6', 'teal.6', 'orange.6', 'grape.6', 'red.6', 'cyan.6', 'lime.6', 'pink.6', 'indigo.6', 'yellow.6'];
const short = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });

export function SpendChart({ summary }: { summary: DashboardSummary }) {
  const [by, setBy] = useState<'type' | 'network'>('type');
  const points = by === 'type' ? summary.dailyByType : summary.dailyByNetwork;
  const keys = by === 'type' ? summary.typeKeys : summary.networkKeys;
  const label = (k: string) => (by === 'type' ? typeLabel(k) : k);
  const data = points.map((p) => {
    const row: Record<string, string | number> = { day: short.format(new Date(`${p.day}T00:00:00Z`)) };
    for (const k of keys) row[label(k)] = (p.values[k] ?? 0) / 100;
    return row;
  });
  return (
    <Stack gap="xs">
      <SegmentedControl size="xs" w={220} value={by} onChange={(v) => setBy(v as 'type' | 'network')} data={[{ value: 'type', label: 'By type' }, { value: 'network', label: 'By network' }]} />
      {keys.length === 0 ? (
        <Text size="sm" c="dimmed">No spend in the last 30 days in the mirror. Sync to bring in the latest transactions.</Text>
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
