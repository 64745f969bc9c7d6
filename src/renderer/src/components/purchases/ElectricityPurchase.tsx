import { Alert, Button, Card, Grid, Group, NumberInput, SegmentedControl, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useMemo, useState } from 'react';
import type { MeterView, PurchaseView } from '../../../../shared/contract/purchases';
import { normalizePhone } from '../../../../shared/phone';
import { AppError, bridge } from '../../bridge';
import { formatNaira } from '../../format';
import { useOperation } from '../../hooks/useOperation';
import { ErrorNotice } from '../ErrorNotice';
import { ConfirmPurchaseModal } from './ConfirmPurchaseModal';
import { PurchaseReceipt } from './PurchaseReceipt';
import { asAppError } from '../../bridge';
import { RecentPurchases } from './RecentPurchases';

type VendType = 'PREPAID' | 'POSTPAID';

/**
 * Buy one electricity token: pick the electricity company, enter the meter and its type, check
 * the meter (the customer's name and address come back to confirm), enter the amount within the
 * allowed range, confirm, and get the receipt with the token.
 */
export function ElectricityPurchase() {
  const discos = useOperation('purchases.electricityProviders', {});
  const [disco, setDisco] = useState<string | null>(null);
  const [meter, setMeter] = useState('');
  const [vendType, setVendType] = useState<VendType>('PREPAID');
  const [amount, setAmount] = useState<number | string>('');
  const [phone, setPhone] = useState('');
  const [meterView, setMeterView] = useState<MeterView | null>(null);
  const [checking, setChecking] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [buying, setBuying] = useState(false);
  const [error, setError] = useState<AppError | null>(null);
  const [errorTitle, setErrorTitle] = useState('Not bought');
  const [result, setResult] = useState<PurchaseView | null>(null);
  const [recentKey, setRecentKey] = useState(0);

  const selected = discos.data?.find((d) => d.code === disco) ?? null;
  const amountKobo = typeof amount === 'number' && Number.isFinite(amount) ? Math.round(amount * 100) : null;
  const min = meterView?.allowedMinKobo ?? selected?.minKobo ?? null;
  const max = meterView?.allowedMaxKobo ?? selected?.maxKobo ?? null;
  const amountProblem =
    amountKobo === null ? null : min !== null && amountKobo < min ? `At least ${formatNaira(min)} for this meter` : max !== null && amountKobo > max ? `At most ${formatNaira(max)} per purchase` : null;
  const phoneCheck = phone.trim() === '' ? null : normalizePhone(phone);
  const phoneProblem = phoneCheck && !phoneCheck.ok ? phoneCheck.reason : null;
  const canBuy = meterView !== null && amountKobo !== null && amountKobo > 0 && !amountProblem && phoneCheck?.ok === true;

  const discoOptions = useMemo(() => (discos.data ?? []).map((d) => ({ value: d.code, label: `${d.name} (${d.code})` })), [discos.data]);

  const resetValidation = () => {
    setMeterView(null);
    setError(null);
  };

  const checkMeter = async () => {
    setErrorTitle('The meter check did not go through');
    if (!disco) return;
    setChecking(true);
    setError(null);
    try {
      setMeterView(await bridge.call('purchases.validateMeter', { disco, meter, vendType }));
    } catch (e) {
      setMeterView(null);
      setError(asAppError(e));
    } finally {
      setChecking(false);
    }
  };

  const buy = async () => {
    setErrorTitle('Not bought');
    if (!disco || amountKobo === null) return;
    setBuying(true);
    setError(null);
    try {
      const purchase = await bridge.call('purchases.buyElectricity', { disco, meter, vendType, amountKobo, phone });
      setResult(purchase);
      setConfirming(false);
      setRecentKey((k) => k + 1);
    } catch (e) {
      setError(asAppError(e));
      setConfirming(false);
    } finally {
      setBuying(false);
    }
  };

  const startOver = () => {
    setResult(null);
    setMeter('');
    setAmount('');
    setMeterView(null);
    setError(null);
  };

  return (
    <Stack gap="lg">
      <ErrorNotice error={discos.error} onRetry={() => void discos.reload()} title="The list of electricity companies could not be read" />
      {result ? (
        <Stack gap="sm">
          <PurchaseReceipt
            purchase={result}
            actions={
              <Button onClick={startOver} data-testid="buy-another">
                Buy another token
              </Button>
            }
          />
          {result.state === 'pending' && (
            <Text size="sm" c="dimmed">
              Follow it on the Pending page: the token appears here and there once the service confirms it.
            </Text>
          )}
        </Stack>
      ) : (
        <Card withBorder padding="lg" radius="md">
          <Title order={4} mb="md">
            Buy electricity
          </Title>
          <Grid gap="md">
            <Grid.Col span={{ base: 12, md: 6 }}>
              <Stack gap="sm">
                <Select
                  allowDeselect={false}
                  label="Electricity company (disco)"
                  placeholder={discos.loading ? 'Loading…' : 'Choose the company'}
                  data={discoOptions}
                  value={disco}
                  onChange={(v) => {
                    setDisco(v);
                    resetValidation();
                  }}
                  searchable
                  description={selected ? `${selected.description}. Sells ${formatNaira(selected.minKobo)} to ${formatNaira(selected.maxKobo)}.` : undefined}
                />
                <TextInput
                  label="Meter number"
                  placeholder="e.g. 45012345678"
                  value={meter}
                  inputMode="numeric"
                  onChange={(e) => {
                    setMeter(e.currentTarget.value);
                    resetValidation();
                  }}
                />
                <div>
                  <Text size="sm" fw={500} mb={4}>
                    Meter type
                  </Text>
                  <SegmentedControl
                    aria-label="Meter type"
                    data={[
                      { value: 'PREPAID', label: 'Prepaid (token)' },
                      { value: 'POSTPAID', label: 'Postpaid (bill)' },
                    ]}
                    value={vendType}
                    onChange={(v) => {
                      setVendType(v === 'POSTPAID' ? 'POSTPAID' : 'PREPAID');
                      resetValidation();
                    }}
                  />
                </div>
                <Group>
                  <Button variant={meterView ? 'default' : 'filled'} onClick={() => void checkMeter()} loading={checking} disabled={!disco || meter.trim().length < 6}>
                    {meterView ? 'Check again' : 'Check meter'}
                  </Button>
                  {!meterView && (
                    <Text size="xs" c="dimmed">
                      The customer's name comes back so you can confirm it is the right meter.
                    </Text>
                  )}
                </Group>
              </Stack>
            </Grid.Col>
            <Grid.Col span={{ base: 12, md: 6 }}>
              {meterView ? (
                <Stack gap="sm">
                  <Alert color="green" variant="light" title="Meter found" data-testid="meter-details">
                    <Table withRowBorders={false} verticalSpacing={2}>
                      <Table.Tbody>
                        <Table.Tr>
                          <Table.Td c="dimmed" w={120}>
                            Customer
                          </Table.Td>
                          <Table.Td fw={600} data-testid="meter-name">
                            {meterView.name}
                          </Table.Td>
                        </Table.Tr>
                        <Table.Tr>
                          <Table.Td c="dimmed">Address</Table.Td>
                          <Table.Td>{meterView.address}</Table.Td>
                        </Table.Tr>
                        <Table.Tr>
                          <Table.Td c="dimmed">Minimum</Table.Td>
                          <Table.Td>{formatNaira(meterView.allowedMinKobo)}</Table.Td>
                        </Table.Tr>
                        {meterView.outstandingKobo > 0 && (
                          <Table.Tr>
                            <Table.Td c="dimmed">Outstanding</Table.Td>
                            <Table.Td>{formatNaira(meterView.outstandingKobo)}</Table.Td>
                          </Table.Tr>
                        )}
                      </Table.Tbody>
                    </Table>
                  </Alert>
                  <NumberInput
                    label="Amount (₦)"
                    placeholder="e.g. 5000"
                    value={amount}
                    onChange={setAmount}
                    min={0}
                    decimalScale={2}
                    thousandSeparator=","
                    hideControls
                    description={`Between ${formatNaira(meterView.allowedMinKobo)} and ${formatNaira(meterView.allowedMaxKobo)}`}
                    error={amountProblem}
                  />
                  <TextInput label="Customer phone" placeholder="e.g. 08031234567" value={phone} onChange={(e) => setPhone(e.currentTarget.value)} error={phoneProblem} />
                  <Group justify="flex-end">
                    <Button onClick={() => setConfirming(true)} disabled={!canBuy} data-testid="electricity-review">
                      {amountKobo && canBuy ? `Review purchase of ${formatNaira(amountKobo)}` : 'Review purchase'}
                    </Button>
                  </Group>
                </Stack>
              ) : (
                <Card withBorder padding="md" h="100%" bg="var(--mantine-color-default-hover)">
                  <Text size="sm" c="dimmed">
                    1. Choose the electricity company and enter the meter number and type.
                    <br />
                    2. Check the meter: confirm the customer's name and address.
                    <br />
                    3. Enter the amount and the customer's phone, review, and buy.
                  </Text>
                </Card>
              )}
            </Grid.Col>
          </Grid>
          <Stack mt="md">
            <ErrorNotice error={error} title={errorTitle} />
          </Stack>
        </Card>
      )}

      {meterView && selected && amountKobo !== null && (
        <ConfirmPurchaseModal
          opened={confirming}
          title="Confirm the electricity purchase"
          rows={[
            { label: 'Customer', value: meterView.name, strong: true },
            { label: 'Meter', value: `${meterView.meter} · ${vendType}` },
            { label: 'Company', value: selected.name },
            { label: 'Phone', value: phoneCheck?.ok ? phoneCheck.phone : phone },
          ]}
          amountKobo={amountKobo}
          note="The amount is taken from the wallet now. A token that has been issued cannot be reversed."
          buying={buying}
          buyTestId="electricity-buy"
          onBuy={() => void buy()}
          onClose={() => setConfirming(false)}
        />
      )}

      <RecentPurchases kind="electricity" refreshKey={recentKey} />
    </Stack>
  );
}
