import { Card, Group, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** A settings card: its title, what it does in a sentence or two, its button on the right, and what it shows below. */
export function HeaderedCard({ testId, title, description, action, children }: { testId: string; title: string; description: ReactNode; action: ReactNode; children: ReactNode }) {
  return (
    <Card withBorder padding="lg" data-testid={testId}>
      <Group justify="space-between" align="flex-start" mb="xs">
        <div>
          <Title order={2} size="h4">
            {title}
          </Title>
          <Text size="sm" c="dimmed" maw={760}>
            {description}
          </Text>
        </div>
        {action}
      </Group>
      {children}
    </Card>
  );
}
