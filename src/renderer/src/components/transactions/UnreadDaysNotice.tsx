/**
 * The notice a page shows above figures over days the mirror has not read (a first sync over one
 * day, a folder synced only by a nightly `vendesk sync --from D --to D`): which days, that the
 * figures leave them out, a button that reads them, and the command that does the same. Never a
 * silent short total. Nothing when every day is read.
 */
import { Alert, Button, Code, Group, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import type { MirrorCoverage } from '../../../../shared/contract/logs';
import { dayCountText, missingDayCount, missingDaysText } from '../../../../shared/coverageText';
import { bridge } from '../../bridge';
import { useAction } from '../../hooks/useAction';
import { ErrorNotice } from '../ErrorNotice';

export function UnreadDaysNotice({ coverage, subject, testId = 'unread-days' }: { coverage: MirrorCoverage | undefined; subject: string; testId?: string }) {
  const action = useAction();
  const [reading, setReading] = useState(false);
  const [failed, setFailed] = useState<string | null>(null);
  useEffect(
    () =>
      bridge.on('sync.progress', (p) => {
        setReading(p.state === 'running');
        if (p.state === 'failed') setFailed(p.message ?? 'The service could not be read.');
        if (p.state === 'done') setFailed(null);
      }),
    [],
  );
  if (!coverage || coverage.complete) return null;
  const days = missingDayCount(coverage);
  const title = coverage.wholeLogUnread
    ? `${subject} leave out the part of the log vendesk has not read`
    : `${subject} leave out ${dayCountText(days)} vendesk has not read from the service`;
  return (
    <Alert color="orange" variant="light" title={title} role="status" data-testid={testId} data-missing-days={days}>
      <Text size="sm">
        vendesk has not read {missingDaysText(coverage)} from the service, so {subject.toLowerCase()} do not count {coverage.wholeLogUnread ? 'it' : 'them'}: read{' '}
        {coverage.wholeLogUnread ? 'it' : 'them'} to see the whole figure.
      </Text>
      {failed && (
        <Text size="sm" c="red" mt={4} data-testid={`${testId}-failed`}>
          The last read stopped: {failed.replace(/\.$/, '')}.
        </Text>
      )}
      <Group gap="sm" mt="sm" align="center">
        <Button
          size="xs"
          color="orange"
          loading={reading || action.busy}
          onClick={() => {
            setFailed(null);
            void action.run(() => bridge.call('sync.start', coverage.read ?? {}));
          }}
          data-testid={`${testId}-read`}
        >
          Read the missing days
        </Button>
        {coverage.syncCommand && (
          <Text size="xs" c="dimmed">
            From the command line: <Code>{coverage.syncCommand}</Code>
          </Text>
        )}
      </Group>
      <ErrorNotice error={action.error} title="The days were not read" />
    </Alert>
  );
}
