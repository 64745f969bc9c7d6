import { Group, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** The top of a settings card: its title, what it does in a sentence or two, and its button on the right. */
export function CardHeader({ title, description, action }: { title: string; description: ReactNode; action: ReactNode }) {
  return (
    <Group justify="space-between" align="flex-start" mb="xs">
      <div>
        <Title order={4}>{title}</Title>
        <Text size="sm" c="dimmed" maw={760}>
          {description}
        </Text>
      </div>
      {action}
    </Group>
  );
}
