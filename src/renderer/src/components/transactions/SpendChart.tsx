/**
 * Daily spend of the last 30 days as stacked bars, by type or by network, at face value or wallet
 * cost, with a tooltip in Naira and both totals of the 30 days above it.
 */
import { BarChart } from '@mantine/charts';
import { Box, Group, SegmentedControl, Stack, Text } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import { useState } from 'react';
import type { DashboardSummary } from '../../../../shared/contract/dashboard';
import { formatCount, formatNaira } from '../../format';
import { typeLabel } from './VirtualLogTable';

const COLORS = ['blue.6', 'teal.6', 'orange.6', 'grape.6', 'red.6', 'cyan.6', 'lime.6', 'pink.6', 'indigo.6', 'yellow.6'];
const short = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });

/** The room one day's label ("28 Nov") needs to be read apart from the next. */
const LABEL_PX = 56;
/** The axis's amounts in whole Naira ("₦14,000,000"): the tooltip gives each day's to the kobo. */
const wholeNaira = new Intl.NumberFormat('en-NG', { maximumFractionDigits: 0 });
const axisNaira = (naira: number) => `₦${wholeNaira.format(naira)}`;
/** Wide enough for the axis's largest amount (its top tick may be a digit longer than the largest day's spend), never cut. */
const axisWidth = (largestNaira: number) => (axisNaira(largestNaira).length + 1) * 8 + 8;
/** Days between two labels: every day where they fit, else an even step. */
const STEPS = [1, 2, 3, 5, 6, 10, 15];

/**
 * The days that carry a label: the last day (today) and every `step` days before it, the step the
 * same all along the axis and as small as the chart's width allows. Left to itself, the chart drops
 * labels that would overlap one by one, and the days shown jump unevenly (26, then 29 Nov).
 */
export function labelledDays(days: readonly string[], plotPx: number): string[] {
  const room = Math.max(1, Math.floor(plotPx / LABEL_PX));
  const step = STEPS.find((s) => Math.ceil(days.length / s) <= room) ?? Math.ceil(days.length / room);
  return days.filter((_, i) => (days.length - 1 - i) % step === 0);
}

export function SpendChart({ summary }: { summary: DashboardSummary }) {
  const [by, setBy] = useState<'type' | 'network'>('type');
  const [measure, setMeasure] = useState<'face' | 'cost'>('face');
  const { ref: chartBox, width } = useElementSize();
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
  const largestDay = Math.max(0, ...data.map((row) => keys.reduce((sum, k) => sum + Number(row[label(k)] ?? 0), 0)));
  const yAxisWidth = axisWidth(largestDay);
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
        <Box ref={chartBox}>
          <BarChart
            h={280}
            data={data}
            dataKey="day"
            type="stacked"
            withLegend
            legendProps={{ verticalAlign: 'bottom' }}
            valueFormatter={(naira) => formatNaira(Math.round(naira * 100))}
            xAxisProps={{
              ticks: labelledDays(
                data.map((d) => String(d.day)),
                width - yAxisWidth,
              ),
              interval: 0,
            }}
            yAxisProps={{ width: yAxisWidth, tickFormatter: axisNaira }}
            series={keys.map((k, i) => ({ name: label(k), color: COLORS[i % COLORS.length] }))}
            data-testid="spend-chart"
          />
        </Box>
      )}
    </Stack>
  );
}
