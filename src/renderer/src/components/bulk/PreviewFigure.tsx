import { Card, Text } from '@mantine/core';
import { FIGURE_CARD, FigureText } from '../FigureText';

/** One figure of a draft's preview (rows, total, wallet, spent today): its label, the figure never cut, and what it means. */
export function PreviewFigure({ label, value, hint, color, testId }: { label: string; value: string; hint?: string; color?: string; testId?: string }) {
  return (
    <Card withBorder padding="sm" data-testid={testId} className={FIGURE_CARD}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
        {label}
      </Text>
      <FigureText size="xl" fw={700} c={color}>
        {value}
      </FigureText>
      {hint && (
        <Text size="xs" c="dimmed">
          {hint}
        </Text>
      )}
    </Card>
  );
}
