import { Badge, Button, Card, Group, Pagination, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { ActionsHeader } from '../TableHead';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { bridge } from '../../bridge';
import { ErrorNotice } from '../ErrorNotice';
import { formatCount, formatDate } from '../../format';
import { useAction } from '../../hooks/useAction';
import { useOperation } from '../../hooks/useOperation';
import { ImportContacts } from './ImportContacts';
import { NewItemCard } from './NewItemCard';
import { usePhonebooks } from './useMessagingLists';

const PAGE = 100;

const contactsText = (n: number | null): string => (n === null ? 'number of contacts not given by the service' : `${formatCount(n)} contacts`);

function CreatePhonebook({ onCreated }: { onCreated: (id: number) => void }) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const { busy, error, run } = useAction();
  const create = () =>
    run(async () => {
      const pb = await bridge.call('messaging.phonebooks.create', { name, description });
      notifications.show({ color: 'teal', message: `Phonebook "${pb.name}" created. Import contacts into it next.` });
      setName('');
      setDescription('');
      onCreated(pb.id);
    });
  return (
    <NewItemCard
      thing="phonebook"
      titleSize="h5"
      gap="xs"
      name={name}
      onName={setName}
      namePlaceholder="All staff"
      busy={busy}
      error={error}
      canCreate={!!name.trim()}
      onCreate={() => void create()}
    >
      <TextInput label="Description" placeholder="Who is in it" value={description} onChange={(e) => setDescription(e.currentTarget.value)} />
    </NewItemCard>
  );
}

function PhonebookContacts({ id }: { id: number }) {
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const contacts = useOperation('messaging.phonebooks.get', { id, offset: (page - 1) * PAGE, limit: PAGE, search });
  const data = contacts.data;
  const pages = data ? Math.max(1, Math.ceil(data.matching / PAGE)) : 1;
  return (
    <Card withBorder padding="lg" data-testid="phonebook-contacts">
      <Group justify="space-between" mb="xs" align="flex-start">
        <div>
          <Title order={2} size="h4">
            {data?.phonebook.name ?? '…'}
          </Title>
          <Text size="sm" c="dimmed">
            {data
              ? `${contactsText(data.phonebook.contactCount)}${data.phonebook.description ? ` · ${data.phonebook.description}` : ''} · phonebook ${data.phonebook.id}`
              : 'Loading…'}
          </Text>
        </div>
        <TextInput
          placeholder="Search name or number"
          value={search}
          onChange={(e) => {
            setSearch(e.currentTarget.value);
            setPage(1);
          }}
          w={240}
          aria-label="Search contacts"
        />
      </Group>
      <ErrorNotice error={contacts.error} onRetry={() => void contacts.reload()} />
      {data && !data.contactsListed ? (
        <Text c="dimmed" size="sm" py="md">
          The service does not list this phonebook's contacts, so vendesk cannot show them here.
        </Text>
      ) : data && data.contacts.length === 0 ? (
        <Text c="dimmed" size="sm" py="md">
          {search ? 'No contact matches the search.' : 'No contacts yet. Import a CSV or Excel file with a Phone column (and a Name column) above.'}
        </Text>
      ) : (
        <Table striped highlightOnHover verticalSpacing={4}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>Phone number</Table.Th>
              <Table.Th>Added</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(data?.contacts ?? []).map((c) => (
              <Table.Tr key={c.id}>
                <Table.Td>{c.name || <Text c="dimmed">—</Text>}</Table.Td>
                <Table.Td ff="monospace">{c.phoneNumber}</Table.Td>
                <Table.Td>{formatDate(c.createdAt)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {pages > 1 && (
        <Group justify="space-between" mt="sm">
          <Text size="sm" c="dimmed">
            {formatCount(data?.matching ?? 0)} matching
          </Text>
          <Pagination total={pages} value={page} onChange={setPage} size="sm" />
        </Group>
      )}
    </Card>
  );
}

export function PhonebooksTab() {
  const phonebooks = usePhonebooks();
  const [selected, setSelected] = useState<number | null>(null);
  const list = phonebooks.data ?? [];
  const current = list.find((p) => p.id === selected) ?? null;
  return (
    <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="lg">
      <Stack gap="lg">
        <Card withBorder padding="lg">
          <Title order={2} size="h4" mb="xs">
            Phonebooks
          </Title>
          <ErrorNotice error={phonebooks.error} onRetry={() => void phonebooks.reload()} />
          {list.length === 0 && !phonebooks.loading ? (
            <Text c="dimmed" size="sm">
              No phonebooks yet. Create one, then import its contacts from a spreadsheet.
            </Text>
          ) : (
            <Table highlightOnHover verticalSpacing="xs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Contacts</Table.Th>
                  <Table.Th>Created</Table.Th>
                  <ActionsHeader />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.map((p) => (
                  <Table.Tr key={p.id} bg={p.id === selected ? 'var(--mantine-color-teal-light)' : undefined}>
                    <Table.Td>
                      <Text fw={500}>{p.name}</Text>
                      {p.description && (
                        <Text size="xs" c="dimmed">
                          {p.description}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>
                      <Badge variant="light" color={p.contactCount ? 'teal' : 'gray'} title={p.contactCount === null ? "The service's list does not say" : undefined}>
                        {p.contactCount === null ? 'not given' : formatCount(p.contactCount)}
                      </Badge>
                    </Table.Td>
                    <Table.Td>{formatDate(p.createdAt)}</Table.Td>
                    <Table.Td>
                      <Button size="xs" variant={p.id === selected ? 'filled' : 'light'} onClick={() => setSelected(p.id)} aria-label={`Open ${p.name}`}>
                        Open
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </Card>
        <CreatePhonebook
          onCreated={(id) => {
            setSelected(id);
            void phonebooks.reload();
          }}
        />
      </Stack>
      <Stack gap="lg">
        {current ? (
          <>
            <ImportContacts phonebook={current} onImported={() => void phonebooks.reload()} />
            <PhonebookContacts id={current.id} />
          </>
        ) : (
          <Card withBorder padding="lg">
            <Text c="dimmed">Open a phonebook to see its contacts and import more from a CSV or Excel file.</Text>
          </Card>
        )}
      </Stack>
    </SimpleGrid>
  );
}
