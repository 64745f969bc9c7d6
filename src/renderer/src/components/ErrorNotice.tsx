import { Alert, Button, Group, Text } from '@mantine/core';
import type { AppError } from '../bridge';

/**
 * Answers that are not failures: what was asked went as far as it may and now waits for someone
 * else. Shown as that state (its own colour, a status rather than an alert), with the way to it.
 */
const WAITING: Partial<Record<string, { title: string; color: string; link: { href: string; label: string } }>> = {
  awaiting_approval: { title: 'Sent for approval — nothing bought yet', color: 'violet', link: { href: '#/approvals', label: 'Open Approvals' } },
};

/** An error shown where it happened: what went wrong, and what to do about it. */
export function ErrorNotice({ error, onRetry, title, testId }: { error: AppError | null; onRetry?: () => void; title?: string; testId?: string }) {
  if (!error) return null;
  const waiting = WAITING[error.code];
  return (
    <Alert
      color={waiting?.color ?? 'red'}
      variant="light"
      title={waiting?.title ?? title ?? 'Something needs your attention'}
      role={waiting ? 'status' : 'alert'}
      data-testid={testId}
      data-code={error.code}
    >
      <Text size="sm">{error.message}</Text>
      {error.hint && (
        <Text size="sm" c="dimmed" mt={4}>
          {error.hint}
        </Text>
      )}
      {waiting && (
        <Group mt="sm">
          <Button component="a" href={waiting.link.href} size="xs" variant="default">
            {waiting.link.label}
          </Button>
        </Group>
      )}
      {onRetry && !waiting && (
        <Group mt="sm">
          <Button size="xs" variant="white" color="red" onClick={onRetry}>
            Try again
          </Button>
        </Group>
      )}
    </Alert>
  );
}
