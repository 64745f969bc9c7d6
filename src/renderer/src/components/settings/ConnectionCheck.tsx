import { Alert, Badge, Button, Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import type { DoctorReport, DoctorVerdict } from '../../../../shared/contract/serviceCheck';
import { bridge } from '../../bridge';
import { formatDateTime } from '../../format';
import { useAction } from '../../hooks/useAction';
import { HeaderedCard } from '../HeaderedCard';
import { ErrorNotice } from '../ErrorNotice';
import { TableHead } from '../TableHead';
import { READING } from './readingLabels';

const VERDICT_COLOR: Record<DoctorVerdict, string> = { ok: 'teal', gaps: 'yellow', problems: 'orange', not_the_service: 'red', unreachable: 'red', credentials: 'red' };
const VERDICT_TITLE: Record<DoctorVerdict, string> = {
  ok: 'vendesk can read the service',
  gaps: 'vendesk can read the service; some answers leave facts out',
  problems: 'vendesk cannot read some answers',
  not_the_service: 'This address is not the vending service',
  unreachable: 'The service does not answer',
  credentials: 'The API token was refused',
};

/** Settings → Check connection: every read endpoint once, whether vendesk can read each answer; nothing bought or sent. */
export function ConnectionCheck({ onChecked }: { onChecked?: () => void }) {
  const [report, setReport] = useState<DoctorReport | null>(null);
  const { busy, error, run } = useAction();
  const check = () =>
    run(async () => {
      setReport(await bridge.call('connection.doctor', {}));
      onChecked?.();
    });
  return (
    <HeaderedCard
      testId="connection-check"
      title="Check connection"
      description="Asks every read endpoint of the connection in use once — wallet, catalogs, a page of the log, sender IDs, templates, phonebooks, message history and one message's status — and shows whether vendesk can read each answer and what it could not. It buys nothing and sends nothing."
      action={
        <Button onClick={() => void check()} loading={busy}>
          Check connection
        </Button>
      }
    >
      <ErrorNotice error={error} title="The check could not run" />
      {report && (
        <Stack gap="sm" mt="sm">
          <Alert color={VERDICT_COLOR[report.verdict]} variant="light" title={VERDICT_TITLE[report.verdict]} data-testid="doctor-summary">
            <Text size="sm">{report.summary}</Text>
            <Text size="xs" c="dimmed" mt={4}>
              {report.readable} of {report.checked} endpoints readable · checked {formatDateTime(report.checkedAt)} · {report.connection.profileName}
            </Text>
          </Alert>
          <Table verticalSpacing="xs" data-testid="doctor-checks">
            <TableHead columns={['Endpoint', 'HTTP', 'Outcome', 'What vendesk read']} />
            <Table.Tbody>
              {report.checks.map((c) => (
                <Table.Tr key={c.endpoint} data-testid={`doctor-${c.endpoint}`}>
                  <Table.Td>
                    <Text size="sm" fw={500}>
                      {c.subject}
                    </Text>
                    <Text size="xs" c="dimmed" ff="monospace">
                      {c.path}
                    </Text>
                  </Table.Td>
                  <Table.Td>{c.httpStatus ?? '—'}</Table.Td>
                  <Table.Td>
                    <Badge color={READING[c.state].color} variant="light">
                      {READING[c.state].label}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{c.summary}</Text>
                    {c.problems.map((p) => (
                      <Text key={p} size="xs" c="dimmed">
                        · {p}
                      </Text>
                    ))}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Stack>
      )}
    </HeaderedCard>
  );
}
