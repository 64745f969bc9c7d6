import { Alert, Stack, Text } from '@mantine/core';

/** What the service's answer did not say, and how vendesk filled in for it, in sentences. */
export function ServiceNotes({ notes }: { notes: string[] }) {
  if (notes.length === 0) return null;
  return (
    <Alert color="gray" variant="light" title="Not in the service's answer" data-testid="service-notes" mt="xs">
      <Stack gap={2}>
        {notes.map((n) => (
          <Text key={n} size="sm">
            {n}
          </Text>
        ))}
      </Stack>
    </Alert>
  );
}
