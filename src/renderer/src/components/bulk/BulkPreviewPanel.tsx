import { Accordion, Alert, Button, Card, Checkbox, Group, SegmentedControl, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import type { BulkItemView, BulkJobView, BulkPreview, BulkRowIssueView } from '../../../../shared/contract/bulk';
import { bridge } from '../../bridge';
import { formatCount, formatNaira, localTimesIn } from '../../format';
import { useAction } from '../../hooks/useAction';
import { useOperation } from '../../hooks/useOperation';
import { MoneyKindBadge } from './MoneyKindBadge';
import { ErrorNotice } from '../ErrorNotice';
import { MoneyInput, readMoneyField } from '../MoneyInput';
import { KIND_WORD, RECIPIENT_WORD, rowAccount } from './bulkLabels';
import { AccordionSection } from '../AccordionSection';
import { ColumnMappingEditor } from './ColumnMappingEditor';
import { purchaseRowColumns } from './purchaseRowColumns';
import { InvalidRowsTable } from './InvalidRowsTable';
import { VirtualRows } from './VirtualRows';
import { PreviewFigure as Figure } from './PreviewFigure';

/** The heading of the file's column a field was read from ("Plan code"), else the field's name in words ("Product code"), never `productCode`. */
function fileHeading(preview: BulkPreview, field: string): string {
  const mapped = preview.mapping.find((m) => m.field === field);
  if (!mapped) return field;
  return (mapped.column !== null ? preview.headers[mapped.column] : undefined) || mapped.label;
}

/** Step 2: what would be bought, what is left out and why, and the confirmation. */
export function BulkPreviewPanel({
  preview,
  onPreview,
  onRemap,
  remapping,
  onConfirmed,
  onDiscard,
}: {
  preview: BulkPreview;
  onPreview: (p: BulkPreview) => void;
  onRemap: (mapping: Record<string, number | null>) => void;
  remapping: boolean;
  onConfirmed: (job: BulkJobView) => void;
  onDiscard: () => void;
}) {
  const jobId = preview.job.id;
  const [invalid, setInvalid] = useState<BulkRowIssueView[]>([]);
  const [invalidTotal, setInvalidTotal] = useState(0);
  const [typed, setTyped] = useState('');
  const [toBuy, setToBuy] = useState<BulkItemView[]>([]);
  const [toBuyTotal, setToBuyTotal] = useState(0);
  const { busy, error, run } = useAction();

  useEffect(() => {
    let live = true;
    void bridge.call('bulk.invalidRows', { jobId, limit: 5000 }).then((r) => {
      if (!live) return;
      setInvalid(r.rows);
      setInvalidTotal(r.total);
    });
    return () => {
      live = false;
    };
  }, [jobId]);

  // What will be bought, row by row, before anything is: refreshed when rows are kept or left out.
  useEffect(() => {
    let live = true;
    void bridge.call('bulk.items', { jobId, limit: 5000, states: ['queued'] }).then((r) => {
      if (!live) return;
      setToBuy(r.items);
      setToBuyTotal(r.total);
    });
    return () => {
      live = false;
    };
  }, [jobId, preview.includedItems, preview.includedKobo]);

  const act = (fn: () => Promise<BulkPreview>) => run(async () => onPreview(await fn()));

  // In a team on a LIVE connection, confirming sends the job for approval (nothing is bought): it opens, waiting for approval.
  const confirm = () => run(async () => onConfirmed(await bridge.call('bulk.confirm', { jobId, ...(preview.live ? { typedTotal: typed } : {}) })));

  // On a joined desktop a LIVE job is sent for approval, not bought: the button says so.
  const team = useOperation('team.status', {});
  const forApproval = preview.live && team.data?.joined === true;
  const invalidRowCount = preview.job.invalidRows;
  const unmapped = preview.mapping.some((m) => m.required && m.column === null);
  const typedOk = !preview.live || readMoneyField(typed).kobo === preview.includedKobo;
  const kindWord = KIND_WORD[preview.job.kind];
  const vending = preview.job.kind === 'electricity' || preview.job.kind === 'cable';

  const setKept = (item: BulkItemView, keep: boolean) => act(() => bridge.call('bulk.setIncluded', { jobId, seqs: [item.seq], include: keep }));

  return (
    <Stack gap="md">
      <Card withBorder padding="lg">
        <Stack gap="md">
          <Group justify="space-between">
            <div>
              <Title order={2} size="h4">
                Check before buying: {preview.job.fileName}
              </Title>
              <Text size="sm" c="dimmed">
                {preview.job.sheetName ? `Sheet “${preview.job.sheetName}”, ` : ''}
                {formatCount(preview.job.rowsInFile)} rows read. Nothing has been bought yet.
              </Text>
              <Text size="sm" c="dimmed" data-testid="mapping-source">
                Columns: {preview.mappingRemembered ? 'as you chose them for an earlier file with the same headings' : 'recognised from the headings'} (see “Columns used” below).
              </Text>
            </div>
            <MoneyKindBadge live={preview.live} />
          </Group>
          {/* Two by two in a narrow window: each figure at its full size. */}
          <SimpleGrid cols={{ base: 2, lg: 4 }}>
            <Figure
              label={`${kindWord} purchases`}
              value={unmapped ? '—' : formatCount(preview.includedItems)}
              hint={unmapped ? 'Choose the columns first' : `${formatCount(invalidRowCount)} invalid, ${formatCount(preview.job.counts.excluded)} left out`}
            />
            <Figure
              label="Wallet cost (estimate)"
              value={unmapped ? '—' : formatNaira(preview.expectedCostKobo)}
              hint={unmapped ? undefined : `Face value ${formatNaira(preview.includedKobo)}. ${preview.expectedCostNote}`}
              testId="preview-expected-cost"
            />
            <Figure
              label="Wallet balance"
              value={preview.walletKobo === null ? '—' : formatNaira(preview.walletKobo)}
              hint={preview.walletProblem ?? undefined}
              testId="preview-wallet"
            />
            <Figure
              label="Wallet after this job (estimate)"
              value={preview.remainingKobo === null || unmapped ? '—' : formatNaira(preview.remainingKobo)}
              hint={preview.remainingKobo === null || unmapped ? undefined : 'The balance less the estimated wallet cost, if every row succeeds'}
              testId="preview-wallet-after"
              color={preview.remainingKobo !== null && preview.remainingKobo < 0 ? 'red' : undefined}
            />
          </SimpleGrid>
        </Stack>
      </Card>

      {preview.job.message && (
        <Alert color="yellow" variant="light">
          {preview.job.message}
        </Alert>
      )}

      <Accordion
        variant="separated"
        multiple
        defaultValue={[
          preview.mapping.some((m) => m.required && m.column === null) ? 'columns' : '',
          invalidRowCount > 0 ? 'invalid' : '',
          preview.duplicates.length > 0 ? 'duplicates' : '',
          preview.networkConflicts.length > 0 ? 'networks' : '',
        ].filter(Boolean)}
      >
        <AccordionSection value="columns" title="Columns used">
          <ColumnMappingEditor headers={preview.headers} mapping={preview.mapping} remembered={preview.mappingRemembered} busy={remapping} onApply={onRemap} />
        </AccordionSection>

        <AccordionSection value="tobuy" title="What will be bought" count={preview.includedItems} countColor="teal">
          {toBuy.length === 0 ? (
            <Text size="sm" c="dimmed">
              No row will be bought yet.
            </Text>
          ) : (
            <Stack gap="xs">
              {toBuyTotal > toBuy.length && (
                <Text size="sm" c="dimmed">
                  The first {formatCount(toBuy.length)} of {formatCount(toBuyTotal)} rows are listed.
                </Text>
              )}
              <VirtualRows
                label="What will be bought"
                rows={toBuy}
                rowKey={(r) => r.seq}
                columns={purchaseRowColumns<BulkItemView>(
                  preview.job.kind,
                  vending
                    ? [
                        {
                          header: preview.job.kind === 'electricity' ? 'Meter owner (service)' : 'Subscriber (service)',
                          width: 'minmax(140px, 1fr)',
                          render: (r) => (
                            <Text size="sm" data-testid="tobuy-owner">
                              {r.accountName ?? 'checked when bought'}
                            </Text>
                          ),
                        },
                      ]
                    : [],
                )}
              />
            </Stack>
          )}
        </AccordionSection>

        <AccordionSection value="invalid" title="Rows that will not be bought" count={invalidRowCount} countColor={invalidRowCount > 0 ? 'red' : 'gray'}>
          {invalidRowCount === 0 ? (
            <Text size="sm" c="dimmed">
              Every row is valid.
            </Text>
          ) : (
            <Stack gap="xs">
              <Text size="sm" c="dimmed">
                These rows are skipped. To buy them, fix them in the spreadsheet and check the file again.
                {invalidTotal > invalid.length ? ` The first ${formatCount(invalid.length)} problems are shown.` : ''}
              </Text>
              <InvalidRowsTable rows={invalid} columnOf={(r) => fileHeading(preview, r.field)} />
            </Stack>
          )}
        </AccordionSection>

        <AccordionSection value="duplicates" title="Possible duplicates" count={preview.duplicates.length} countColor={preview.duplicates.length > 0 ? 'yellow' : 'gray'}>
          {preview.duplicates.length === 0 ? (
            <Text size="sm" c="dimmed">
              No row repeats another row or a purchase of the last 24 hours.
            </Text>
          ) : (
            <Stack gap="xs">
              <Text size="sm" c="dimmed">
                These rows would buy the same thing again. They are left out unless you tick them.
              </Text>
              <Group gap="xs">
                <Button
                  size="xs"
                  variant="light"
                  disabled={busy}
                  onClick={() => void act(() => bridge.call('bulk.setIncluded', { jobId, seqs: preview.duplicates.map((d) => d.seq), include: true }))}
                >
                  Buy all of them
                </Button>
                <Button
                  size="xs"
                  variant="subtle"
                  disabled={busy}
                  onClick={() => void act(() => bridge.call('bulk.setIncluded', { jobId, seqs: preview.duplicates.map((d) => d.seq), include: false }))}
                >
                  Leave all out
                </Button>
              </Group>
              <VirtualRows
                label="Possible duplicates"
                rows={preview.duplicates}
                rowKey={(r) => r.seq}
                columns={[
                  {
                    header: 'Buy',
                    width: 60,
                    render: (r) => (
                      <Checkbox aria-label={`Buy row ${r.row}`} checked={r.state !== 'excluded'} disabled={busy} onChange={(e) => void setKept(r, e.currentTarget.checked)} />
                    ),
                  },
                  { header: 'Row', width: 60, render: (r) => <Text size="sm">{r.row}</Text> },
                  { header: vending ? (preview.job.kind === 'electricity' ? 'Meter' : 'Smartcard') : 'Phone', width: 130, render: (r) => <Text size="sm">{rowAccount(r)}</Text> },
                  { header: 'Amount', width: 110, align: 'right', render: (r) => <Text size="sm">{formatNaira(r.amountKobo)}</Text> },
                  { header: 'Why it is flagged', width: '1fr', render: (r) => <Text size="sm">{localTimesIn(r.duplicateOf ?? '')}</Text> },
                ]}
              />
            </Stack>
          )}
        </AccordionSection>

        {preview.networkConflicts.length > 0 && (
          <AccordionSection value="networks" title="Network to check" count={preview.networkConflicts.length} countColor="yellow">
            <Stack gap="xs">
              <Text size="sm" c="dimmed">
                The file names one network but the number starts like another (numbers can be moved between networks). Choose the network to buy on.
              </Text>
              {preview.networkConflicts.map((c) => (
                <Group key={c.seq} gap="md">
                  <Text size="sm" w={220}>
                    Row {c.row}: {c.phone}
                  </Text>
                  {preview.job.kind === 'airtime' && c.givenNetwork && c.prefixNetwork ? (
                    <SegmentedControl
                      size="xs"
                      aria-label={`Network for row ${c.row}`}
                      value={c.network === c.prefixNetwork ? 'prefix' : 'file'}
                      disabled={busy}
                      onChange={(v) => void act(() => bridge.call('bulk.setNetwork', { jobId, seqs: [c.seq], use: v as 'file' | 'prefix' }))}
                      data={[
                        { value: 'file', label: `${c.givenNetwork} (as in the file)` },
                        { value: 'prefix', label: `${c.prefixNetwork} (from the number)` },
                      ]}
                    />
                  ) : (
                    <Text size="sm" c="dimmed">
                      Bought on {c.network} with plan {c.productCode}. To change it, use a plan of the other network in the file.
                    </Text>
                  )}
                </Group>
              ))}
            </Stack>
          </AccordionSection>
        )}
      </Accordion>

      <Card withBorder padding="lg">
        <Stack gap="sm">
          {preview.blocker ? (
            <Alert color="red" variant="light" title="This job cannot be confirmed yet">
              {preview.blocker}
            </Alert>
          ) : (
            <Text size="sm">
              {forApproval ? 'Confirming sends' : 'Confirming buys'} {kindWord} for <b>{formatCount(preview.includedItems)}</b> {RECIPIENT_WORD[preview.job.kind]},{' '}
              <b>{formatNaira(preview.includedKobo)}</b> in total,{' '}
              {forApproval ? 'to another team member for approval: nothing is bought until it is approved and you press Buy now.' : 'from the wallet of this connection.'}
              {preview.capPerDayKobo !== null &&
                ` Bought or maybe bought today on this connection (bulk jobs and single purchases): ${formatNaira(preview.spentTodayKobo)} of the daily cap of ${formatNaira(preview.capPerDayKobo)}.`}
            </Text>
          )}
          {preview.live && !preview.blocker && (
            <MoneyInput
              label={`Type the total (${formatNaira(preview.includedKobo)}) to confirm this LIVE purchase`}
              placeholder={formatNaira(preview.includedKobo).slice(1)}
              value={typed}
              onChange={setTyped}
              problem={typedOk ? null : `This is not the total shown above (${formatNaira(preview.includedKobo)}).`}
              w={360}
            />
          )}
          <ErrorNotice error={error} />
          <Group>
            {!unmapped && (
              <Button
                // The primary action's colour, as every other Buy; red where it spends real money.
                color={preview.live ? 'red' : undefined}
                onClick={() => void confirm()}
                loading={busy}
                disabled={!!preview.blocker || !typedOk || (preview.live && typed === '')}
              >
                {forApproval
                  ? `Send ${formatCount(preview.includedItems)} for approval (${formatNaira(preview.includedKobo)})`
                  : `Buy ${formatCount(preview.includedItems)} for ${formatNaira(preview.includedKobo)}`}
              </Button>
            )}
            <Button variant="default" onClick={onDiscard} disabled={busy}>
              Discard
            </Button>
          </Group>
        </Stack>
      </Card>
    </Stack>
  );
}
