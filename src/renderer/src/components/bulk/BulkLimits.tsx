import { Accordion, Button, Group, NumberInput, SimpleGrid, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import type { BulkSettingsView } from '../../../../shared/contract/bulk';
import { bridge } from '../../bridge';
import { formatNaira } from '../../format';
import { useSettingsForm } from '../../hooks/useSettingsForm';
import { AccordionSection } from '../AccordionSection';
import { ErrorNotice } from '../ErrorNotice';
import { MoneyInput, readMoneyField } from '../MoneyInput';

type Field = number | string;

/** A cap as its box shows it: empty for no cap, else the amount as vendesk writes it (₦50,000.00). */
const capText = (kobo: number | null): string => (kobo === null ? '' : formatNaira(kobo));

/** Spending caps and sending pace of bulk jobs. Empty cap = no cap. */
export function BulkLimits() {
  const [perJob, setPerJob] = useState('');
  const [perDay, setPerDay] = useState('');
  const [batch, setBatch] = useState<Field>(50);
  const [concurrency, setConcurrency] = useState<Field>(3);
  // The limits are those of the connection in use: another connection's are read when it is switched.
  const {
    saved,
    busy,
    error,
    save: saveWith,
  } = useSettingsForm<'bulk.settings.get', BulkSettingsView>('bulk.settings.get', (s) => {
    setPerJob(capText(s.capPerJobKobo));
    setPerDay(capText(s.capPerDayKobo));
    setBatch(s.batchSize);
    setConcurrency(s.concurrency);
  });

  const jobCap = readMoneyField(perJob, true);
  const dayCap = readMoneyField(perDay, true);
  const capsRead = jobCap.reason === null && dayCap.reason === null;

  const save = () =>
    saveWith(() =>
      bridge.call('bulk.settings.set', {
        capPerJobKobo: jobCap.kobo,
        capPerDayKobo: dayCap.kobo,
        ...(typeof batch === 'number' ? { batchSize: batch } : {}),
        ...(typeof concurrency === 'number' ? { concurrency } : {}),
      }),
    );

  return (
    <Accordion variant="separated">
      <AccordionSection value="limits" title="Limits for bulk jobs">
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            These limits are for the connection in use; each connection has its own. Caps are checked when a job is confirmed and again before every batch is sent. Leave a cap
            empty for no cap. Both count what was bought or maybe bought (sent with no answer yet). The daily cap counts the Lagos day on this connection: its bulk jobs and its
            single purchases.
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }}>
            <MoneyInput label="Cap per job (₦)" placeholder="No cap" value={perJob} onChange={setPerJob} optional />
            <MoneyInput label="Cap per day (₦)" placeholder="No cap" value={perDay} onChange={setPerDay} optional />
            <NumberInput label="Rows per request" description="1 to 100" value={batch} onChange={setBatch} min={1} max={100} allowDecimal={false} />
            <NumberInput label="Requests at once" description="1 to 8" value={concurrency} onChange={setConcurrency} min={1} max={8} allowDecimal={false} />
          </SimpleGrid>
          <ErrorNotice error={error} />
          <Group>
            <Button onClick={() => void save()} loading={busy} disabled={!capsRead}>
              Save limits
            </Button>
            {saved && (
              <Text size="sm" c="green" role="status">
                Saved. Per job: {saved.capPerJobKobo === null ? 'no cap' : formatNaira(saved.capPerJobKobo)}; per day:{' '}
                {saved.capPerDayKobo === null ? 'no cap' : formatNaira(saved.capPerDayKobo)}.
              </Text>
            )}
          </Group>
        </Stack>
      </AccordionSection>
    </Accordion>
  );
}
