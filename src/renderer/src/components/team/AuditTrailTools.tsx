import { Alert, Button, Card, Group, List, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import type { AuditVerifyView } from '../../../../shared/contract/team';
import { bridge } from '../../bridge';
import { formatCount } from '../../format';
import { useAction } from '../../hooks/useAction';
import { DateField } from '../DateField';
import { ErrorNotice } from '../ErrorNotice';
import { teamErrorTitle } from './teamLabels';

/** The result of a check of the hash chain, in words. */
function Verdict({ result }: { result: AuditVerifyView }) {
  if (result.intact) {
    return (
      <Alert color="teal" variant="light" title="The audit trail is intact" data-testid="audit-verdict">
        <Text size="sm">
          All {formatCount(result.rows)} row(s) match their hashes{result.head ? `, up to row ${result.head.seq} (hash ${result.head.hash.slice(0, 16)}…)` : ''}. No row was
          changed, re-linked or deleted, and none was cut from the end since this desktop last checked.
        </Text>
      </Alert>
    );
  }
  const problems = result.breaks.length + result.unrecorded.length;
  const late = result.unrecorded.filter((u) => u.code === 'send_after_expiry').length;
  const title =
    result.breaks.length > 0
      ? 'The audit trail was changed'
      : late === result.unrecorded.length
        ? 'Rows were sent after their approval expired'
        : late > 0
          ? 'The team database and its audit trail do not agree'
          : 'The team database holds what the audit trail does not record';
  return (
    <Alert color="red" variant="light" title={`${title}: ${formatCount(problems)} problem(s)`} data-testid="audit-verdict">
      <List size="sm" spacing={2}>
        {result.breaks.map((b) => (
          <List.Item key={`${b.kind}-${b.seq}`}>{b.message}</List.Item>
        ))}
        {result.unrecorded.map((u) => (
          <List.Item key={`${u.code}-${u.jobId ?? ''}-${u.item ?? ''}-${u.message}`}>{u.message}</List.Item>
        ))}
      </List>
      <Text size="sm" mt="xs">
        Tell your database administrator and auditor: the rows after a break cannot be trusted as written, and a state the trail does not record was written around vendesk (by a
        superuser, or a role that could become the schema’s owner).
        {late > 0 ? ' A row sent after its approval expired was sent under an approval that no longer allowed it: compare it with the service’s log.' : ''}
      </Text>
    </Alert>
  );
}

/** Verify the team audit trail's hash chain, and export a range of days to Excel for an auditor. */
export function AuditTrailTools() {
  const [result, setResult] = useState<AuditVerifyView | null>(null);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const verifying = useAction();
  const exporting = useAction();

  const verify = () => verifying.run(async () => setResult(await bridge.call('audit.verify', {})));
  const exportRange = () =>
    exporting.run(async () => {
      const file = await bridge.call('audit.export', { ...(from ? { from } : {}), ...(to ? { to } : {}) });
      await bridge.download(file);
      notifications.show({
        color: file.verification.intact ? 'teal' : 'red',
        message: `${file.fileName}: ${formatCount(file.rows)} row(s); the whole trail is ${file.verification.intact ? 'intact' : 'NOT intact (see the Verification sheet)'}.`,
      });
    });

  return (
    <Stack gap="md">
      <Card withBorder padding="lg">
        <Title order={2} size="h4">
          Verify the audit trail
        </Title>
        <Text size="sm" c="dimmed" mb="sm">
          Every join, approval, rejection, purchase and settlement in the team database is a row carrying the hash of the row before it. vendesk recomputes every hash itself, so a
          row changed, re-hashed or deleted — even by a database superuser — shows here.
        </Text>
        <Stack gap="sm">
          {result && <Verdict result={result} />}
          <ErrorNotice error={verifying.error} title={teamErrorTitle(verifying.error?.code, 'The audit trail could not be checked')} />
          <Group>
            <Button onClick={() => void verify()} loading={verifying.busy}>
              Verify audit trail
            </Button>
          </Group>
        </Stack>
      </Card>
      <Card withBorder padding="lg">
        <Title order={2} size="h4">
          Export for an auditor
        </Title>
        <Text size="sm" c="dimmed" mb="sm">
          An Excel workbook of the rows of these Lagos days (both included; leave empty for all): when, who, from which desktop, what, which job, how much, and each row’s hashes,
          with a Verification sheet saying how to recompute them without vendesk.
        </Text>
        <Stack gap="sm">
          <Group align="flex-start">
            <DateField label="From" value={from} onChange={setFrom} w={170} />
            <DateField label="To" value={to} onChange={setTo} w={170} error={from && to && from > to ? 'The end is before the start' : undefined} />
          </Group>
          <ErrorNotice error={exporting.error} title={teamErrorTitle(exporting.error?.code, 'The audit trail was not exported')} />
          <Group>
            <Button variant="light" onClick={() => void exportRange()} loading={exporting.busy} disabled={!!from && !!to && from > to}>
              Export audit trail to Excel
            </Button>
          </Group>
        </Stack>
      </Card>
    </Stack>
  );
}
