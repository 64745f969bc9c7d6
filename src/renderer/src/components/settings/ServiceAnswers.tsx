import { Accordion, Badge, Button, Code, Group, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useDataChanged, useOperation } from '../../hooks/useOperation';
import { HeaderedCard } from '../HeaderedCard';
import { ErrorNotice } from '../ErrorNotice';
import { READING } from './readingLabels';
import { formatDateTimeSeconds } from '../../format';

/** Settings → Service answers: the last answers of each endpoint, as the service gave them (token and phone numbers hidden). */
export function ServiceAnswers({ checkedAt }: { checkedAt: number }) {
  const answers = useOperation('connection.answers', {});
  const { reload } = answers;
  // A check just ran: its answers are the newest.
  useEffect(() => {
    if (checkedAt > 0) void reload();
  }, [checkedAt, reload]);
  useDataChanged(['balance', 'messages', 'templates', 'phonebooks'], () => void reload());
  const list = answers.data?.answers ?? [];
  // Folded until asked for: dozens of answers are for support, not for every visit to Settings.
  const [shown, setShown] = useState(false);
  return (
    <HeaderedCard
      testId="service-answers"
      title="Service answers"
      description="The last five answers of each endpoint on this connection, exactly as the service gave them — the API token and phone numbers are hidden. When something looks wrong, share these with support: they show what the service said and what vendesk could not read."
      action={
        <Group gap="xs">
          {list.length > 0 && (
            <Button variant="light" onClick={() => setShown(!shown)} aria-expanded={shown} data-testid="service-answers-toggle">
              {shown ? 'Hide the answers' : `Show the ${list.length.toLocaleString('en-NG')} answers`}
            </Button>
          )}
          <Button variant="default" onClick={() => void answers.reload()} loading={answers.loading}>
            Refresh
          </Button>
        </Group>
      }
    >
      <ErrorNotice error={answers.error} onRetry={() => void answers.reload()} />
      {!shown && list.length > 0 ? null : list.length === 0 && !answers.loading ? (
        <Text size="sm" c="dimmed">
          No answers yet on this connection. Use vendesk, or run Check connection above.
        </Text>
      ) : (
        <Accordion variant="separated" chevronPosition="left">
          {list.map((a) => (
            <Accordion.Item key={a.seq} value={String(a.seq)} data-testid={`answer-${a.endpoint}`}>
              <Accordion.Control>
                <Group gap="sm" wrap="nowrap">
                  <Text size="sm" c="dimmed" w={170}>
                    {formatDateTimeSeconds(a.at) /* to the second: answers often come within the same minute */}
                  </Text>
                  <Text size="sm" fw={500} w={220}>
                    {a.subject}
                  </Text>
                  <Text size="xs" ff="monospace" c="dimmed" style={{ flex: 1 }} truncate="end">
                    {a.method} {a.path}
                  </Text>
                  <Badge variant="outline" color="gray">
                    {a.httpStatus === null ? 'no answer' : `HTTP ${a.httpStatus}`}
                  </Badge>
                  <Badge variant="light" color={READING[a.reading].color} w={130}>
                    {READING[a.reading].label}
                  </Badge>
                </Group>
              </Accordion.Control>
              <Accordion.Panel>
                <Stack gap="xs">
                  {a.notes.map((n) => (
                    <Text key={n} size="sm">
                      · {n}
                    </Text>
                  ))}
                  <Text size="xs" c="dimmed">
                    {a.contentType ?? 'no content type'} · {a.bodyChars.toLocaleString('en-NG')} characters · {a.durationMs} ms
                  </Text>
                  <Code block mah={320} style={{ overflow: 'auto' }} data-testid="answer-body">
                    {a.body || '(empty body)'}
                  </Code>
                </Stack>
              </Accordion.Panel>
            </Accordion.Item>
          ))}
        </Accordion>
      )}
    </HeaderedCard>
  );
}
