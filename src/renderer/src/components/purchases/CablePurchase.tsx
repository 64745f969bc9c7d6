import { Alert, Button, Card, Grid, Group, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMemo, useState } from 'react';
import type { PurchaseView, SmartcardView } from '../../../../shared/contract/purchases';
import { normalizePhone } from '../../../../shared/phone';
import { AppError, bridge } from '../../bridge';
import { formatNaira } from '../../format';
import { useOperation } from '../../hooks/useOperation';
import { ErrorNotice } from '../ErrorNotice';
import { ConfirmPurchaseModal } from './ConfirmPurchaseModal';
import { PurchaseReceipt } from './PurchaseReceipt';
import { asAppError } from '../../bridge';
import { RecentPurchases } from './RecentPurchases';

/**
 * Buy one cable TV bouquet: pick the provider, enter the smartcard (IUC) number, check it (the
 * customer's name and type come back), choose the bouquet from the catalog (its price is the
 * amount), confirm, and get the receipt.
 */
export function CablePurchase() {
  const providers = useOperation('purchases.cableProviders', {});
  const [provider, setProvider] = useState<string | null>(null);
  const [smartcard, setSmartcard] = useState('');
  const [bouquetCode, setBouquetCode] = useState<string | null>(null);
  const [phone, setPhone] = useState('');
  const [card, setCard] = useState<SmartcardView | null>(null);
  const [checking, setChecking] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [buying, setBuying] = useState(false);
  const [error, setError] = useState<AppError | null>(null);
  const [errorTitle, setErrorTitle] = useState('Not bought');
  const [result, setResult] = useState<PurchaseView | null>(null);
  const [recentKey, setRecentKey] = useState(0);

  const bouquets = useMemo(() => providers.data?.find((p) => p.provider === provider)?.bouquets ?? [], [providers.data, provider]);
  const bouquet = bouquets.find((b) => b.code === bouquetCode) ?? null;
  const phoneCheck = phone.trim() === '' ? null : normalizePhone(phone);
  const phoneProblem = phoneCheck && !phoneCheck.ok ? phoneCheck.reason : null;
  const canBuy = card !== null && bouquet !== null && phoneCheck?.ok === true;

  const checkCard = async () => {
    setErrorTitle('The smartcard check did not go through');
    if (!provider) return;
    setChecking(true);
    setError(null);
    try {
      setCard(await bridge.call('purchases.validateSmartcard', { provider, smartcard }));
    } catch (e) {
      setCard(null);
      setError(asAppError(e));
    } finally {
      setChecking(false);
    }
  };

  const buy = async () => {
    setErrorTitle('Not bought');
    if (!provider || !bouquet) return;
    setBuying(true);
    setError(null);
    try {
      setResult(await bridge.call('purchases.buyCable', { provider, smartcard, bouquetCode: bouquet.code, phone }));
      setRecentKey((k) => k + 1);
    } catch (e) {
      setError(asAppError(e));
    } finally {
      setConfirming(false);
      setBuying(false);
    }
  };

  const startOver = () => {
    setResult(null);
    setSmartcard('');
    setBouquetCode(null);
    setCard(null);
    setError(null);
  };

  return (
    <Stack gap="lg">
      <ErrorNotice error={providers.error} onRetry={() => void providers.reload()} title="The cable TV catalog could not be read" />
      {result ? (
        <PurchaseReceipt
          purchase={result}
          actions={
            <Button onClick={startOver} data-testid="buy-another">
              Buy another subscription
            </Button>
          }
        />
      ) : (
        <Card withBorder padding="lg" radius="md">
          <Title order={4} mb="md">
            Buy a cable TV subscription
          </Title>
          <Grid gap="md">
            <Grid.Col span={{ base: 12, md: 6 }}>
              <Stack gap="sm">
                <Select
                  allowDeselect={false}
                  label="Provider"
                  placeholder={providers.loading ? 'Loading…' : 'Choose the provider'}
                  data={(providers.data ?? []).map((p) => p.provider)}
                  value={provider}
                  onChange={(v) => {
                    setProvider(v);
                    setBouquetCode(null);
                    setCard(null);
                    setError(null);
                  }}
                />
                <TextInput
                  label="Smartcard / IUC number"
                  placeholder="e.g. 7012345678"
                  value={smartcard}
                  inputMode="numeric"
                  onChange={(e) => {
                    setSmartcard(e.currentTarget.value);
                    setCard(null);
                    setError(null);
                  }}
                />
                <Group>
                  <Button variant={card ? 'default' : 'filled'} onClick={() => void checkCard()} loading={checking} disabled={!provider || smartcard.trim().length < 6}>
                    {card ? 'Check again' : 'Check smartcard'}
                  </Button>
                </Group>
              </Stack>
            </Grid.Col>
            <Grid.Col span={{ base: 12, md: 6 }}>
              {card ? (
                <Stack gap="sm">
                  <Alert color="green" variant="light" title="Smartcard found" data-testid="smartcard-details">
                    <Text size="sm" fw={600} data-testid="smartcard-name">
                      {card.name}
                    </Text>
                    <Text size="sm">
                      {[card.customerType, card.address].filter(Boolean).join(' · ')}
                    </Text>
                  </Alert>
                  <Select
                  allowDeselect={false}
                    label="Bouquet"
                    placeholder="Choose the bouquet"
                    data={bouquets.map((b) => ({ value: b.code, label: `${b.name} — ${formatNaira(b.amountKobo)}` }))}
                    value={bouquetCode}
                    onChange={setBouquetCode}
                    searchable
                  />
                  <TextInput label="Customer phone" placeholder="e.g. 08031234567" value={phone} onChange={(e) => setPhone(e.currentTarget.value)} error={phoneProblem} />
                  <Group justify="flex-end">
                    <Button onClick={() => setConfirming(true)} disabled={!canBuy} data-testid="cable-review">
                      {bouquet ? `Review purchase of ${formatNaira(bouquet.amountKobo)}` : 'Review purchase'}
                    </Button>
                  </Group>
                </Stack>
              ) : (
                <Card withBorder padding="md" h="100%" bg="var(--mantine-color-default-hover)">
                  <Text size="sm" c="dimmed">
                    1. Choose the provider and enter the smartcard (IUC) number.
                    <br />
                    2. Check the smartcard: confirm the customer's name.
                    <br />
                    3. Choose the bouquet (its price is the amount), enter the phone, review, and buy.
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

      {card && bouquet && (
        <ConfirmPurchaseModal
          opened={confirming}
          title="Confirm the cable TV purchase"
          rows={[
            { label: 'Customer', value: card.name, strong: true },
            { label: 'Smartcard', value: `${card.smartcard} · ${card.provider}` },
            { label: 'Bouquet', value: bouquet.name },
            { label: 'Phone', value: phoneCheck?.ok ? phoneCheck.phone : phone },
          ]}
          amountKobo={bouquet.amountKobo}
          note="The amount is taken from the wallet now."
          buying={buying}
          buyTestId="cable-buy"
          onBuy={() => void buy()}
          onClose={() => setConfirming(false)}
        />
      )}

      <RecentPurchases kind="cable" refreshKey={recentKey} />
    </Stack>
  );
}
