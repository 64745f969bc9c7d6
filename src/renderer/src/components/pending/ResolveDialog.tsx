import { Button, Group, Modal, Radio, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { useState } from 'react';
import type { PendingItemView } from '../../../../shared/contract/pending';
import { bridge } from '../../bridge';
import { formatNaira } from '../../format';
import { useAction } from '../../hooks/useAction';
import { ErrorNotice } from '../ErrorNotice';

/** Settling a purchase by hand (support answered, or the wallet shows it): an outcome and a note that says how you know. */
export function ResolveDialog({ item, onClose, onResolved }: { item: PendingItemView | null; onClose: () => void; onResolved: () => void }) {
  const [outcome, setOutcome] = useState<'SUCCESS' | 'FAILED'>('SUCCESS');
  const [note, setNote] = useState('');
  const [token, setToken] = useState('');
  const { busy: saving, error, setError, run } = useAction();
  const p = item?.purchase;

  const save = async () => {
    if (!p) return;
    setError(null);
    await run(async () => {
      await bridge.call('pending.resolve', { id: p.id, outcome, note, ...(outcome === 'SUCCESS' && token.trim() ? { token: token.trim() } : {}) });
      setNote('');
      setToken('');
      onResolved();
    });
  };

  return (
    <Modal opened={item !== null} onClose={onClose} title="Resolve by hand" centered>
      {p && (
        <Stack gap="sm">
          <Text size="sm">
            {formatNaira(p.amountKobo)} for {p.kind === 'electricity' ? 'meter' : 'smartcard'} <b>{p.account}</b> ({p.customerName || p.providerName}), reference{' '}
            {p.reference ?? 'none'}.
          </Text>
          <Text size="sm" c="dimmed">
            Only resolve it when you know the outcome — from support, the customer or the Transactions page. vendesk stops checking it.
          </Text>
          <Radio.Group label="What happened?" value={outcome} onChange={(v) => setOutcome(v === 'FAILED' ? 'FAILED' : 'SUCCESS')}>
            <Group mt={4}>
              <Radio value="SUCCESS" label="It succeeded" />
              <Radio value="FAILED" label="It failed (not delivered)" />
            </Group>
          </Radio.Group>
          {outcome === 'SUCCESS' && p.kind === 'electricity' && p.vendType === 'PREPAID' && (
            <TextInput label="Token (if support gave it)" placeholder="1234-5678-9012-3456-7890" value={token} onChange={(e) => setToken(e.currentTarget.value)} />
          )}
          <Textarea label="Note" description="How do you know? e.g. support ticket number" value={note} onChange={(e) => setNote(e.currentTarget.value)} minRows={2} autosize />
          <ErrorNotice error={error} title="Not resolved" />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button onClick={() => void save()} loading={saving} disabled={note.trim().length < 3}>
              Resolve as {outcome === 'SUCCESS' ? 'successful' : 'failed'}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
