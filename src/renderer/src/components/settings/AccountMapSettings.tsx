/**
 * Settings → Account map: the ledger accounts the month's journal posts to (docs/month-end.md) —
 * type and cost centre → expense account (`*`: every cost centre of the type), the prepaid wallet
 * and commission earned — listed, added, changed and removed (`accounts.list|set|remove`), and
 * checked against a month's journal before export (`accounts.check`): a combination the map does
 * not name is listed by name, never guessed.
 */
import { Alert, Button, Card, Group, List, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { ACCOUNT_KINDS, type AccountMapping } from '../../../../shared/contract/monthEnd';
import { monthLabel } from '../../../../shared/months';
import { bridge } from '../../bridge';
import { useAction } from '../../hooks/useAction';
import { useOperation } from '../../hooks/useOperation';
import { CostCentreInput } from '../costCentres/CostCentreInput';
import { ErrorNotice } from '../ErrorNotice';
import { TableHead } from '../TableHead';

/** The types a journal posts (src/main/monthEnd/accountMap.ts JOURNAL_TYPES), in words. */
const TYPES = [
  { value: 'AIRTIME', label: 'Airtime' },
  { value: 'DATA', label: 'Data' },
  { value: 'ELECTRICITY', label: 'Electricity' },
  { value: 'CABLETV', label: 'Cable TV' },
  { value: 'SMS', label: 'SMS, e-mail copies and one-time codes' },
];
const KIND_LABEL: Record<AccountMapping['kind'], string> = { expense: 'Expense', wallet: 'Prepaid wallet', commission: 'Commission earned' };
const typeText = (type: string) => TYPES.find((t) => t.value === type)?.label ?? type;
const centreText = (m: AccountMapping) => (m.kind !== 'expense' ? '—' : m.costCentre === '*' ? 'every cost centre (*)' : m.costCentre);

function MappingForm({ editing, onDone }: { editing: AccountMapping | null; onDone: () => void }) {
  const [kind, setKind] = useState<AccountMapping['kind']>(editing?.kind ?? 'expense');
  const [type, setType] = useState<string | null>(editing?.type || 'AIRTIME');
  const [centre, setCentre] = useState(editing?.costCentre ?? '*');
  const [account, setAccount] = useState(editing?.account ?? '');
  const save = useAction();
  const submit = () =>
    void save.run(async () => {
      await bridge.call('accounts.set', { kind, type: kind === 'expense' ? (type ?? '') : '', costCentre: kind === 'expense' ? centre : '', account });
      setAccount('');
      onDone();
    });
  return (
    <Stack gap="sm" data-testid="account-map-form">
      <Group align="flex-end" wrap="wrap" gap="sm">
        <Select
          label="Account for"
          data={ACCOUNT_KINDS.map((k) => ({ value: k, label: KIND_LABEL[k] }))}
          value={kind}
          onChange={(v) => v && setKind(v as AccountMapping['kind'])}
          allowDeselect={false}
          disabled={editing !== null}
          w={190}
          data-testid="account-map-kind"
        />
        {kind === 'expense' && (
          <>
            <Select label="Type" data={TYPES} value={type} onChange={setType} allowDeselect={false} disabled={editing !== null} w={220} data-testid="account-map-type" />
            <div style={{ width: 220 }}>
              <CostCentreInput label="Cost centre" description="* for every cost centre of the type" value={centre} onChange={setCentre} testId="account-map-cost-centre" />
            </div>
          </>
        )}
        <TextInput
          label="Ledger account code"
          placeholder="e.g. 6100"
          value={account}
          onChange={(e) => setAccount(e.currentTarget.value)}
          maxLength={64}
          w={170}
          data-testid="account-map-account"
        />
        <Button onClick={submit} loading={save.busy} disabled={account.trim() === '' || (kind === 'expense' && centre.trim() === '')} data-testid="account-map-save">
          {editing ? 'Save account' : 'Add to the map'}
        </Button>
        {editing && (
          <Button variant="default" onClick={onDone}>
            Cancel
          </Button>
        )}
      </Group>
      <ErrorNotice error={save.error} title="The account was not saved" />
    </Stack>
  );
}

function MapCheck() {
  const months = useOperation('monthEnd.months', {});
  const [month, setMonth] = useState<string | null>(null);
  const chosen = month ?? months.data?.months[1]?.month ?? months.data?.months[0]?.month ?? null;
  const [asked, setAsked] = useState<string | null>(null);
  const check = useOperation('accounts.check', { month: asked ?? '2000-01' }, { enabled: asked !== null });
  const result = check.data && check.data.month === asked ? check.data : null;
  return (
    <Card withBorder padding="lg">
      <Title order={3} size="h5" mb={4}>
        Check the map for a month
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        Every line of the month’s journal is looked up as the export does; anything the map does not name is listed here, and the journal is not written until it is mapped.
      </Text>
      <Group align="flex-end" gap="sm">
        <Select
          label="Month"
          data={(months.data?.months ?? []).map((m) => ({ value: m.month, label: `${monthLabel(m.month)}${m.state === 'closed' ? ' (closed)' : ''}` }))}
          value={chosen}
          onChange={setMonth}
          allowDeselect={false}
          w={220}
          data-testid="account-map-month"
        />
        <Button
          variant="default"
          onClick={() => (asked === chosen ? void check.reload() : setAsked(chosen))}
          loading={check.loading}
          disabled={!chosen}
          data-testid="account-map-check"
        >
          Check
        </Button>
      </Group>
      <ErrorNotice error={check.error} onRetry={() => void check.reload()} title="The month could not be checked" />
      {result &&
        (result.unmapped.length === 0 ? (
          <Alert color="teal" variant="light" mt="sm" role="status" data-testid="account-map-check-ok">
            Every line of {monthLabel(result.month)}’s journal ({result.lines} lines) has an account: it can be exported.
          </Alert>
        ) : (
          <Alert color="orange" variant="light" mt="sm" title={`${result.unmapped.length} not mapped for ${monthLabel(result.month)}`} data-testid="account-map-unmapped">
            <Text size="sm">The journal names no account for:</Text>
            <List size="sm" mt={4}>
              {result.unmapped.map((u) => (
                <List.Item key={u}>{u}</List.Item>
              ))}
            </List>
            <Text size="sm" mt={4}>
              Add each above (a type with * covers every cost centre of it), then check again.
            </Text>
          </Alert>
        ))}
    </Card>
  );
}

export function AccountMapSettings() {
  const list = useOperation('accounts.list', {});
  const [editing, setEditing] = useState<AccountMapping | null>(null);
  const remove = useAction();
  const key = (m: AccountMapping) => `${m.kind}/${m.type}/${m.costCentre}`;
  return (
    <Stack gap="lg">
      <Card withBorder padding="lg">
        <Title order={2} size="h4" mb={4}>
          Account map
        </Title>
        <Text size="sm" c="dimmed" mb="md">
          Which ledger account each line of the month’s journal posts to: a type and cost centre to an expense account (the most specific wins; * is every cost centre of that
          type), and one account each for the prepaid wallet and commission earned. The same map as <code>vendesk accounts</code>; this connection’s only.
        </Text>
        <ErrorNotice error={list.error} onRetry={() => void list.reload()} title="The account map could not be read" />
        <ErrorNotice error={remove.error} title="The account was not removed" />
        {list.data && list.data.length === 0 ? (
          <Text size="sm" c="dimmed" mb="md" data-testid="account-map-empty">
            Nothing is mapped yet: add the wallet, commission and an expense account for each type you buy.
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={560} mb="md">
            <Table striped data-testid="account-map-table">
              <TableHead columns={['Account for', 'Type', 'Cost centre', 'Ledger account', '']} />
              <Table.Tbody>
                {(list.data ?? []).map((m) => (
                  <Table.Tr key={key(m)} data-testid="account-map-row">
                    <Table.Td>{KIND_LABEL[m.kind]}</Table.Td>
                    <Table.Td>{m.kind === 'expense' ? typeText(m.type) : '—'}</Table.Td>
                    <Table.Td>{centreText(m)}</Table.Td>
                    <Table.Td fw={600}>{m.account}</Table.Td>
                    <Table.Td>
                      <Group gap={4} justify="flex-end" wrap="nowrap">
                        <Button
                          size="xs"
                          variant="subtle"
                          onClick={() => setEditing(m)}
                          aria-label={`Change the account for ${KIND_LABEL[m.kind]} ${m.type} ${m.costCentre}`.trim()}
                        >
                          Change
                        </Button>
                        <Button
                          size="xs"
                          variant="subtle"
                          color="red"
                          onClick={() => void remove.run(() => bridge.call('accounts.remove', { kind: m.kind, type: m.type, costCentre: m.costCentre }))}
                          aria-label={`Remove the account for ${KIND_LABEL[m.kind]} ${m.type} ${m.costCentre}`.trim()}
                        >
                          Remove
                        </Button>
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        <MappingForm key={editing ? key(editing) : 'new'} editing={editing} onDone={() => setEditing(null)} />
      </Card>
      <MapCheck />
    </Stack>
  );
}
