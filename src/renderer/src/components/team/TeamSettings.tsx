import { Alert, Badge, Button, Card, Code, Group, Modal, PasswordInput, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState, type ReactNode } from 'react';
import type { TeamJoinResult, TeamSetupCheck, TeamStatusView } from '../../../../shared/contract/team';
import { bridge } from '../../bridge';
import { useAction } from '../../hooks/useAction';
import { useOperation } from '../../hooks/useOperation';
import { CheckedTextInput } from '../CheckedTextInput';
import { ErrorNotice } from '../ErrorNotice';
import { teamAddress } from '../../../../shared/teamAddress';
import { ROLE_LABEL, ROLE_MEANING, teamErrorTitle } from './teamLabels';

/** The roles that could still forge an approval, each with the SQL that removes its power. */
function SetupProblems({ setup }: { setup: TeamSetupCheck }) {
  return (
    <Stack gap={6} data-testid="team-setup-problems">
      {setup.problems.map((p) => (
        <div key={`${p.role}:${p.kind}:${p.fix}`}>
          <Text size="sm">{p.message}</Text>
          <Code>{p.fix}</Code>
        </div>
      ))}
    </Stack>
  );
}

/** After a join with the setup role: the schema is ready, the team's roles come next. */
function SetupReady({ result }: { result: TeamJoinResult }) {
  return (
    <Alert color="blue" variant="light" title="The schema is ready; now create the team’s roles" data-testid="team-setup-ready">
      <Stack gap="xs">
        <Text size="sm">
          vendesk is set up in {result.database ?? 'the database'} (schema version {result.schemaVersion}). This desktop is not joined with the setup role, and its password was not
          kept.
        </Text>
        <Text size="sm">
          Next, as the team guide says: create one login role per person and grant it vendesk_preparer, vendesk_approver or vendesk_admin; then end the setup so that the setup role
          can no longer create roles. Each person then joins here with their own role.
        </Text>
        {result.setup && !result.setup.finished && <SetupProblems setup={result.setup} />}
      </Stack>
    </Alert>
  );
}

function JoinForm({ onJoined }: { onJoined: () => void }) {
  const [setupDone, setSetupDone] = useState<TeamJoinResult | null>(null);
  const [server, setServer] = useState('');
  const [role, setRole] = useState('');
  const [password, setPassword] = useState('');
  const [desktopName, setDesktopName] = useState('');
  const { busy, error, run } = useAction();
  const address = server.trim() === '' ? null : teamAddress(server, role || 'ROLE');

  const join = () =>
    run(async () => {
      const target = teamAddress(server, role);
      if ('problem' in target) return;
      try {
        const joined = await bridge.call('team.join', { url: target.url, password, ...(desktopName.trim() ? { desktopName: desktopName.trim() } : {}) });
        setSetupDone(joined.setupRole ? joined : null);
        if (joined.setupRole) return;
        notifications.show({ color: 'teal', message: `This desktop joined ${joined.database} as ${joined.user}.` });
        onJoined();
      } finally {
        // The password is sent once, to the protected store; it is never kept or shown here.
        setPassword('');
      }
    });

  return (
    <Stack gap="sm" maw={560}>
      <Text size="sm" c="dimmed">
        Joining connects this desktop to the PostgreSQL database your team shares. On a LIVE connection, bulk jobs then wait for another member’s approval before anything is
        bought, and every approval is written to an audit trail no one can quietly change.
      </Text>
      <CheckedTextInput
        label="Database server"
        placeholder="db.example.ng:5432/finance_team"
        value={server}
        onValue={setServer}
        problem={address && 'problem' in address ? address.problem : null}
        note={address && 'url' in address ? `Connects to ${address.url} (encrypted, certificate checked, unless the server is this computer or ?sslmode= says otherwise)` : null}
        hint="HOST:PORT/DATABASE — no role or password here"
        required
        autoComplete="off"
      />
      <TextInput label="Your database role" placeholder="ada" value={role} onChange={(e) => setRole(e.currentTarget.value)} required autoComplete="off" />
      <PasswordInput
        label="Password of your role"
        description="Kept in protected storage on this computer and never shown again"
        value={password}
        onChange={(e) => setPassword(e.currentTarget.value)}
        required
        autoComplete="off"
      />
      <TextInput
        label="Desktop shown in the audit trail"
        placeholder="Accounts PC 2"
        description="Optional: how the audit trail calls this computer"
        value={desktopName}
        onChange={(e) => setDesktopName(e.currentTarget.value)}
      />
      <ErrorNotice error={error} title={teamErrorTitle(error?.code, 'This desktop did not join')} />
      {setupDone && <SetupReady result={setupDone} />}
      <Group>
        <Button onClick={() => void join()} loading={busy} disabled={!server.trim() || !role.trim() || !password || (address !== null && 'problem' in address)}>
          Join the team database
        </Button>
      </Group>
    </Stack>
  );
}

function Fact({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={500} data-testid={testId}>
        {children}
      </Text>
    </div>
  );
}

function JoinedStatus({ status, onLeft }: { status: TeamStatusView; onLeft: () => void }) {
  const [asking, setAsking] = useState(false);
  const { busy, error, run } = useAction();
  const leave = () =>
    run(async () => {
      setAsking(false);
      await bridge.call('team.leave', {});
      notifications.show({ color: 'teal', message: 'This desktop left the team database. The database keeps everything.' });
      onLeft();
    });
  return (
    <Stack gap="sm">
      <Modal opened={asking} onClose={() => setAsking(false)} title="Leave the team database?" centered>
        <Stack gap="sm">
          <Text size="sm">
            This desktop forgets <b>{status.url}</b> and its password. Jobs, approvals and the audit trail stay in the database; LIVE bulk jobs prepared here are no longer sent for
            approval.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setAsking(false)}>
              Stay joined
            </Button>
            <Button color="red" onClick={() => void leave()}>
              Leave
            </Button>
          </Group>
        </Stack>
      </Modal>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" maw={720}>
        <Fact label="Database" testId="team-database">
          {status.database}
        </Fact>
        <Fact label="Signed in as" testId="team-user">
          {status.user}
        </Fact>
        <Fact label="Server address (no password)">
          <Code>{status.url}</Code>
        </Fact>
        <Fact label="This desktop" testId="team-desktop">
          {status.desktopName}
        </Fact>
      </SimpleGrid>
      <div>
        <Text size="xs" c="dimmed" mb={4}>
          Your team roles
        </Text>
        {status.roles.length > 0 ? (
          <Stack gap={4} data-testid="team-roles">
            {status.roles.map((r) => (
              <Group key={r} gap="xs">
                <Badge variant="light" color={r === 'preparer' ? 'blue' : r === 'approver' ? 'teal' : 'grape'}>
                  {ROLE_LABEL[r]}
                </Badge>
                <Text size="sm" c="dimmed">
                  {ROLE_MEANING[r]}
                </Text>
              </Group>
            ))}
          </Stack>
        ) : (
          <Text size="sm" c="dimmed" data-testid="team-roles">
            {status.problem ? 'Not known while the database cannot be read.' : 'None: ask your administrator for a team role.'}
          </Text>
        )}
      </div>
      {status.setup && !status.setup.finished && (
        <Alert
          color="orange"
          variant="light"
          title="The team database’s setup is not finished: each of these could forge an approval or reach the team’s data"
          data-testid="team-setup-unfinished"
        >
          <SetupProblems setup={status.setup} />
        </Alert>
      )}
      {status.problem && (
        <Alert color="orange" variant="light" title="The team database cannot be read just now" data-testid="team-problem">
          <Text size="sm">{status.problem}</Text>
        </Alert>
      )}
      <ErrorNotice error={error} title="This desktop did not leave" />
      <Group>
        <Button variant="light" color="red" onClick={() => setAsking(true)} loading={busy}>
          Leave the team database
        </Button>
      </Group>
    </Stack>
  );
}

/** Settings → Team: join a team database, see as whom and with which roles, leave. */
export function TeamSettings() {
  const status = useOperation('team.status', {});
  const joined = status.data?.joined ?? false;
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="team-settings-title">
      <Group justify="space-between" mb="xs">
        <Title order={2} size="h4" id="team-settings-title">
          Team
        </Title>
        {status.data && (
          <Badge color={joined ? 'teal' : 'gray'} variant="light" data-testid="team-joined">
            {joined ? 'Joined' : 'Not joined'}
          </Badge>
        )}
      </Group>
      <ErrorNotice error={status.error} onRetry={() => void status.reload()} />
      {status.data && (joined ? <JoinedStatus status={status.data} onLeft={() => void status.reload()} /> : <JoinForm onJoined={() => void status.reload()} />)}
    </Card>
  );
}
