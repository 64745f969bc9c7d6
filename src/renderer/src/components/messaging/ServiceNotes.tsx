import { Alert, Stack, Text, type MantineSpacing } from '@mantine/core';

/** A quiet box of sentences under a title (nothing when there are none). */
export function SentencesNotice({ title, sentences, testId, mt, mb }: { title: string; sentences: string[]; testId?: string; mt?: MantineSpacing; mb?: MantineSpacing }) {
  if (sentences.length === 0) return null;
  return (
    <Alert color="gray" variant="light" title={title} data-testid={testId} mt={mt} mb={mb}>
      <Stack gap={2}>
        {sentences.map((s) => (
          <Text key={s} size="sm">
            {s}
          </Text>
        ))}
      </Stack>
    </Alert>
  );
}

/** What the service's answer did not say, and how vendesk filled in for it, in sentences. */
export function ServiceNotes({ notes }: { notes: string[] }) {
  return <SentencesNotice title="Not in the service's answer" sentences={notes} testId="service-notes" mt="xs" />;
}
