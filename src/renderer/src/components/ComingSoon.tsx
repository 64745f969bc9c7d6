import { Card, Text } from '@mantine/core';

/** What a page shows while its capability is not in this build yet: says so plainly. */
export function NotInThisBuild({ what }: { what: string }) {
  return (
    <Card withBorder padding="xl" radius="md">
      <Text fw={600}>Not in this build yet</Text>
      <Text c="dimmed" size="sm" mt={4}>
        {what}
      </Text>
    </Card>
  );
}
