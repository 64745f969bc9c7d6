import { Alert, Button, Group, Text } from '@mantine/core';
import type { AppError } from '../bridge';

/** An error shown where it happened: what went wrong, and what to do about it. */
export function ErrorNotice({ error, onRetry, title, testId }: { error: AppError | null; onRetry?: () => void; title?: string; testId?: string }) {
  if (!error) return null;
  return (
    <Alert color="red" variant="light" title={title ?? 'Something needs your attention'} role="alert" data-testid={testId}>
      <Text size="sm">{error.message}</Text>
      {error.hint && (
        <Text size="sm" c="dimmed" mt={4}>
          {error.hint}
        </Text>
      )}
      {onRetry && (
        <Group mt="sm">
          <Button size="xs" variant="white" color="red" onClick={onRetry}>
            Try again
          </Button>
        </Group>
      )}
    </Alert>
  );
}
