import { Accordion, Badge, Group, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { formatCount } from '../format';

/**
 * One section of an accordion: its title, with how many rows it holds when `count` is given,
 * and what it shows when opened.
 */
export function AccordionSection({
  value,
  title,
  count,
  countColor = 'gray',
  children,
}: {
  value: string;
  title: string;
  count?: number;
  countColor?: string;
  children: ReactNode;
}) {
  return (
    <Accordion.Item value={value}>
      <Accordion.Control>
        {count === undefined ? (
          title
        ) : (
          <Group gap="xs">
            <Text>{title}</Text>
            <Badge color={countColor} variant="light">
              {formatCount(count)}
            </Badge>
          </Group>
        )}
      </Accordion.Control>
      <Accordion.Panel>{children}</Accordion.Panel>
    </Accordion.Item>
  );
}
