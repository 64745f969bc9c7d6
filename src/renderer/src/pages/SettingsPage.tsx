import { Alert, Badge, Button, Card, Code, Group, Modal, PasswordInput, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState, type ReactNode } from 'react';
import { bridge } from '../bridge';
import { CheckedTextInput } from '../components/CheckedTextInput';
import { ErrorNotice } from '../components/ErrorNotice';
import { TableHead } from '../components/TableHead';
import { AccountMapSettings } from '../components/settings/AccountMapSettings';
import { ConnectionCheck } from '../components/settings/ConnectionCheck';
import { ServiceAnswers } from '../components/settings/ServiceAnswers';
import { SyncSettings } from '../components/transactions/SyncSettings';
import { TabbedPage } from '../components/TabbedPage';
import { TeamSettings } from '../components/team/TeamSettings';
import { useConnection } from '../hooks/useConnection';
import { useAction } from '../hooks/useAction';
import { useOperation } from '../hooks/useOperation';
import type { ProfileView } from '../../../shared/contract/app';
import { checkServiceAddress } from '../../../shared/serviceAddress';

function AddProfileForm({ onSaved }: { onSaved: () => void }) {
  const [name, setName] = useState('');
  const [baseUrl, setBaseUrl] = useState('');
  const addressCheck = baseUrl.trim() === '' ? null : checkServiceAddress(baseUrl);
  const [token, setToken] = useState('');
  const { busy: saving, error, run } = useAction();
  // The desktop app without a keyring: say so where the token would be entered.
  const tokenRefusal = useConnection().info?.tokenRefusal ?? null;

  const save = () =>
    run(async () => {
      await bridge.call('profiles.save', { name, baseUrl, token: token || undefined });
      setName('');
      setBaseUrl('');
      setToken('');
      notifications.show({ color: 'teal', message: `Profile "${name}" saved. Activate it to use the live service.` });
      onSaved();
    });

  return (
    <Card withBorder padding="lg">
      <Title order={2} size="h4">
        Add a live profile
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        A live profile spends real money from your organisation's wallet. The token is kept in protected storage on this computer (encrypted by the system keychain in the desktop
        app) and is never shown again.
      </Text>
      <Stack gap="sm" maw={520}>
        <TextInput label="Name" placeholder="Acme Finance — production" value={name} onChange={(e) => setName(e.currentTarget.value)} required />
        <CheckedTextInput
          label="Service address"
          placeholder="https://…"
          value={baseUrl}
          onValue={setBaseUrl}
          required
          problem={addressCheck && !addressCheck.ok ? addressCheck.reason : null}
          note={addressCheck?.ok ? addressCheck.warning : null}
          hint="The token is sent to this address only; changing it later clears the token."
        />
        {tokenRefusal ? (
          <Alert color="orange" variant="light" title="The API token cannot be saved on this computer" data-testid="token-refusal">
            <Text size="sm">{tokenRefusal.message}</Text>
            {tokenRefusal.hint && (
              <Text size="sm" mt={4}>
                {tokenRefusal.hint}
              </Text>
            )}
          </Alert>
        ) : (
          <PasswordInput label="API token" value={token} onChange={(e) => setToken(e.currentTarget.value)} autoComplete="off" />
        )}
        <ErrorNotice error={error} title="The profile was not saved" />
        <Group>
          <Button onClick={() => void save()} loading={saving} disabled={!name || !baseUrl}>
            Save profile
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

/** Switching to a LIVE profile spends real money from then on: the user says so first. */
function ConfirmLiveSwitch({ profile, onCancel, onConfirm }: { profile: ProfileView | null; onCancel: () => void; onConfirm: (p: ProfileView) => void }) {
  return (
    <Modal opened={profile !== null} onClose={onCancel} title="Switch to a LIVE connection?" centered>
      {profile && (
        <Stack gap="sm">
          <Text size="sm">
            From now on, purchases and messages go to <b>{profile.baseUrl}</b> as <b>{profile.name}</b> and spend <b>real money</b> from your organisation's wallet.
          </Text>
          <Text size="sm" c="dimmed">
            The sandbox's test purchases, jobs and reports stay with the sandbox; this connection shows only its own.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={onCancel}>
              Stay on the current connection
            </Button>
            <Button color="red" onClick={() => onConfirm(profile)} data-testid="confirm-live-switch">
              Switch to LIVE
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

/** The sections of Settings, each a tab; `#/settings?section=team` opens one directly. */
const SECTIONS = [
  { value: 'profiles', label: 'Profiles' },
  { value: 'team', label: 'Team' },
  { value: 'sync', label: 'Sync' },
  { value: 'accounts', label: 'Account map' },
  { value: 'data', label: 'Data folder' },
  { value: 'diagnostics', label: 'Diagnostics' },
] as const;

type Section = (typeof SECTIONS)[number]['value'];

function sectionOfAddress(): Section {
  const asked = /[?&]section=([a-z]+)/.exec(window.location.hash)?.[1];
  return SECTIONS.find((s) => s.value === asked)?.value ?? 'profiles';
}

function ProfilesSection() {
  const { info, refresh } = useConnection();
  const profiles = useOperation('profiles.list', {});
  const profileAction = useAction();
  const error = profileAction.error;
  const [confirming, setConfirming] = useState<ProfileView | null>(null);

  const act = (fn: () => Promise<unknown>, done: string) =>
    profileAction.run(async () => {
      await fn();
      notifications.show({ color: 'teal', message: done });
      await Promise.all([profiles.reload(), refresh()]);
    });
  const activate = (p: ProfileView) => act(() => bridge.call('profiles.activate', { id: p.id, confirmLive: p.kind === 'live' }), `Now using ${p.name}`);

  return (
    <Stack gap="lg">
      <ConfirmLiveSwitch
        profile={confirming}
        onCancel={() => setConfirming(null)}
        onConfirm={(p) => {
          setConfirming(null);
          void activate(p);
        }}
      />
      <Card withBorder padding="lg">
        <Title order={2} size="h4">
          Connection profiles
        </Title>
        <Text size="sm" c="dimmed" mb="sm" data-testid="current-connection">
          Connected now to {info ? `${info.connection.profileName} (${info.connection.kind === 'live' ? 'LIVE' : 'SANDBOX'})` : '…'}
        </Text>
        <ErrorNotice error={error ?? profiles.error} />
        <Table verticalSpacing="sm" highlightOnHover>
          <TableHead columns={['Profile', 'Kind', 'Service', 'Token', '']} />
          <Table.Tbody>
            {(profiles.data ?? []).map((p) => (
              <Table.Tr key={p.id}>
                <Table.Td>
                  <Group gap="xs">
                    <Text fw={500}>{p.name}</Text>
                    {p.active && (
                      <Badge color="teal" variant="light">
                        In use
                      </Badge>
                    )}
                  </Group>
                </Table.Td>
                <Table.Td>
                  <Badge color={p.kind === 'live' ? 'red' : 'yellow'} variant="light">
                    {p.kind === 'live' ? 'LIVE' : 'SANDBOX'}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{p.baseUrl ?? 'Built in (this computer)'}</Text>
                  {p.warning && (
                    <Text size="xs" c="orange.8" data-testid="profile-warning">
                      {p.warning}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  <Text size="sm" c={p.hasToken ? undefined : 'red'}>
                    {p.kind === 'sandbox'
                      ? 'Not needed'
                      : p.hasToken
                        ? 'Stored'
                        : info?.tokenRefusal
                          ? 'Missing — this computer cannot store it (see below)'
                          : 'Missing — save the profile with a token'}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Group gap="xs" justify="flex-end">
                    {!p.active && (
                      <Button size="xs" variant="light" onClick={() => (p.kind === 'live' ? setConfirming(p) : void activate(p))}>
                        Use this profile
                      </Button>
                    )}
                    {p.kind === 'live' && (
                      <Button size="xs" variant="subtle" color="red" onClick={() => void act(() => bridge.call('profiles.delete', { id: p.id }), `Deleted ${p.name}`)}>
                        Delete
                      </Button>
                    )}
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Card>
      <AddProfileForm onSaved={() => void profiles.reload()} />
    </Stack>
  );
}

function DataFolderSection() {
  const { info } = useConnection();
  return (
    <Card withBorder padding="lg">
      <Title order={2} size="h4" mb="xs">
        Data folder
      </Title>
      <Text size="sm" c="dimmed" mb="xs">
        The local database, the mirrored log, exports and the built-in sandbox's state live here. Back it up with your other finance records.
      </Text>
      <Code data-testid="data-dir">{info?.dataDir ?? '…'}</Code>
      <Text size="xs" c="dimmed" mt="sm">
        vendesk {info?.version} · {info?.shell === 'electron' ? 'desktop app' : 'browser window (web shell)'}
      </Text>
    </Card>
  );
}

/** Check connection, then the service's last answers (folded until asked for): for when something looks wrong. */
function DiagnosticsSection() {
  const [checkedAt, setCheckedAt] = useState(0);
  return (
    <Stack gap="lg">
      <ConnectionCheck onChecked={() => setCheckedAt(Date.now())} />
      <ServiceAnswers checkedAt={checkedAt} />
    </Stack>
  );
}

export function SettingsPage() {
  const [section, setSection] = useState<Section>(sectionOfAddress);
  const choose = (next: Section) => {
    setSection(next);
    // The address names the section, so a reload or a link opens it again.
    window.history.replaceState(null, '', `#/settings?section=${next}`);
  };
  const content: Record<Section, ReactNode> = {
    profiles: <ProfilesSection />,
    team: <TeamSettings />,
    sync: <SyncSettings />,
    accounts: <AccountMapSettings />,
    data: <DataFolderSection />,
    diagnostics: <DiagnosticsSection />,
  };
  return (
    <TabbedPage
      title="Settings"
      description="Connection profiles, the team database, sync, the ledger account map, the data folder, and diagnostics of the connection"
      value={section}
      onChange={choose}
      tabs={SECTIONS.map((s) => ({ value: s.value, label: s.label, content: content[s.value] }))}
    />
  );
}
