import { Text, type TextProps } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * The card a figure is measured against (app.css makes it a size container): a figure inside it
 * shrinks with a narrow card rather than being cut.
 */
export const FIGURE_CARD = 'figure-card';

/**
 * A money figure that is never cut: its size, up to `size`, is at most a tenth of its card's width
 * (`cqi`), which holds ₦999,999,999.99 whole. A card wide enough shows it at full size.
 */
export function FigureText({ size, children, ...props }: Omit<TextProps, 'size' | 'fz'> & { size: 'md' | 'lg' | 'xl'; children: ReactNode; 'data-testid'?: string }) {
  return (
    <Text fz={`min(var(--mantine-font-size-${size}), 10cqi)`} className="money" {...props}>
      {children}
    </Text>
  );
}
