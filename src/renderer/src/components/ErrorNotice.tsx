import { Alert, Button, Group, Text } from '@mantine/core';
import type { AppError } from '../bridge';

/**
 * Answers that are not failures: what was asked went as far as it may and now waits for someone
 * else. Shown as that state (its own colour, a status rather than an alert), with the way to it.
 */
const WAITING: Partial<Record<string, { title: string; color: string; link: { href: string; label: string } }>> = {
  awaiting_approval: { title: 'Sent for approval — nothing bought yet', color: 'violet', link: { href: '#/approvals', label: 'Open Approvals' } },
};

/**
 * Something that went as far as it may and now waits for someone else (an `awaiting_approval`
 * refusal, or a purchase's answer waiting for approval): its own colour, a status rather than an
 * alert, with the way to where it goes on.
 */
export function WaitingNotice({ code, message, hint, testId }: { code: string; message: string; hint?: string | null; testId?: string }) {
  const waiting = WAITING[code] ?? WAITING.awaiting_approval!;
  return (
    <Alert color={waiting.color} variant="light" title={waiting.title} role="status" data-testid={testId} data-code={code}>
      <Text size="sm">{message}</Text>
      {hint && (
        <Text size="sm" c="dimmed" mt={4}>
          {hint}
        </Text>
      )}
      <Group mt="sm">
        <Button component="a" href={waiting.link.href} size="xs" variant="default">
          {waiting.link.label}
        </Button>
      </Group>
    </Alert>
  );
}

/** An error shown where it happened: what went wrong, and what to do about it. */
export function ErrorNotice({ error, onRetry, title, testId }: { error: AppError | null; onRetry?: () => void; title?: string; testId?: string }) {
  if (!error) return null;
  if (WAITING[error.code]) return <WaitingNotice code={error.code} message={error.message} hint={error.hint} testId={testId} />;
  return (
    <Alert color="red" variant="light" title={title ?? 'Something needs your attention'} role="alert" data-testid={testId} data-code={error.code}>
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
