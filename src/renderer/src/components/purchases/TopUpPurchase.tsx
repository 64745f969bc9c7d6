import { Alert, Button, Checkbox, Select, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { useMemo, useState } from 'react';
import type { CatalogKind } from '../../../../shared/contract/catalog';
import type { TopUpCheckView, TopUpKind, TopUpView } from '../../../../shared/contract/purchases';
import { NETWORKS, NETWORK_LABEL, networkOfPhone, type Network } from '../../../../shared/phone';
import { bridge } from '../../bridge';
import { formatNaira } from '../../format';
import { useOperation } from '../../hooks/useOperation';
import { ErrorNotice } from '../ErrorNotice';
import { MoneyInput, readMoneyField } from '../MoneyInput';
import { ConfirmPurchaseModal } from './ConfirmPurchaseModal';
import { CheckedAccount, PurchaseFormCard } from './PurchaseFlowLayout';
import { RecentTopUps } from './RecentTopUps';
import { TopUpReceipt, networkName } from './TopUpReceipt';
import { usePurchaseFlow } from './usePurchaseFlow';
import { expectedChargeText, type ExpectedCharge } from '../../../../shared/spendText';

/** What the check says the wallet will be charged. */
function chargeOf(checked: TopUpCheckView): ExpectedCharge {
  return { faceKobo: checked.amountKobo, costKobo: checked.expectedCostKobo, rateKnown: checked.expectedCostRateKnown };
}

const FROM_PREFIX = 'prefix';
/** The catalogs this tab reads: its notice names these, and another catalog's outage does not reach it. */
const TOP_UP_CATALOGS: CatalogKind[] = ['airtime', 'data'];

/**
 * Airtime or a data plan for one number, without a spreadsheet: enter the number, the amount or
 * the plan, check (vendesk says the network, what is bought, and whether the same was bought in
 * the last 24 hours), confirm, and get the receipt. It is bought as the bulk engine buys a row,
 * so it is never bought twice.
 */
export function TopUpPurchase() {
  const catalog = useOperation('catalog.get', { kinds: TOP_UP_CATALOGS });
  const flow = usePurchaseFlow<TopUpCheckView, TopUpView>();
  const [kind, setKind] = useState<TopUpKind>('airtime');
  const [network, setNetwork] = useState<string>(FROM_PREFIX);
  const [amount, setAmount] = useState('');
  const [plan, setPlan] = useState<string | null>(null);
  const [again, setAgain] = useState(false);

  const { phone, phoneCheck, checked } = flow;
  const prefixNetwork = phoneCheck?.ok ? networkOfPhone(phoneCheck.phone) : null;
  const chosenNetwork: Network | null = network === FROM_PREFIX ? prefixNetwork : (network as Network);
  const airtimeProduct = catalog.data?.airtime.find((p) => p.network === chosenNetwork) ?? null;
  const plans = useMemo(() => (catalog.data?.data ?? []).filter((p) => !chosenNetwork || p.network === chosenNetwork), [catalog.data, chosenNetwork]);
  const money = readMoneyField(amount);
  const ready = phoneCheck?.ok === true && (kind === 'airtime' ? money.kobo !== null : plan !== null);

  /** What the form says now; any change forgets the check, so nothing unchecked is bought. */
  const edit =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      set(v);
      flow.forgetCheck();
      setAgain(false);
    };
  const request = () => {
    const net = network === FROM_PREFIX ? {} : { network };
    return kind === 'airtime' ? { kind, phone, amountKobo: money.kobo ?? 0, ...net } : { kind, phone, productCode: plan ?? '', ...net };
  };
  const check = () => void flow.check('The purchase cannot be made as entered', () => bridge.call('purchases.checkTopUp', request()));
  const buy = () => void flow.buy(() => bridge.call('purchases.buyTopUp', { ...request(), costCentre: flow.costCentre, repeat: again }));
  const startOver = () => {
    flow.startOver();
    flow.setPhone('');
    setAmount('');
    setPlan(null);
    setAgain(false);
  };

  const canBuy = checked !== null && checked.blocker === null && (checked.recent === null || again);
  return (
    <Stack gap="lg">
      <ErrorNotice error={catalog.error} onRetry={() => void catalog.reload()} title="The airtime and data catalogs could not be read" />
      {flow.result ? (
        <TopUpReceipt
          purchase={flow.result}
          actions={
            <Button onClick={startOver} data-testid="buy-another">
              Buy for another number
            </Button>
          }
        />
      ) : (
        <PurchaseFormCard
          flow={flow}
          title="Buy airtime or data for one number"
          accountFields={
            <>
              <SegmentedControl
                value={kind}
                onChange={edit((v: string) => setKind(v === 'data' ? 'data' : 'airtime'))}
                data={[
                  { value: 'airtime', label: 'Airtime' },
                  { value: 'data', label: 'Data' },
                ]}
                data-testid="topup-kind"
              />
              <TextInput
                label="Phone number"
                placeholder="e.g. 08031234567"
                value={phone}
                inputMode="tel"
                onChange={(e) => edit(flow.setPhone)(e.currentTarget.value)}
                error={flow.phoneProblem}
                description={prefixNetwork ? `${NETWORK_LABEL[prefixNetwork]} number (from its prefix)` : undefined}
              />
              <Select
                allowDeselect={false}
                label="Network"
                value={network}
                onChange={(v) => edit(setNetwork)(v ?? FROM_PREFIX)}
                data={[
                  { value: FROM_PREFIX, label: prefixNetwork ? `From the number (${NETWORK_LABEL[prefixNetwork]})` : 'From the number' },
                  ...NETWORKS.map((n) => ({ value: n, label: `${NETWORK_LABEL[n]} (a number moved to ${NETWORK_LABEL[n]})` })),
                ]}
              />
              {kind === 'airtime' ? (
                <MoneyInput
                  label="Amount"
                  placeholder="e.g. 1,000"
                  value={amount}
                  onChange={edit(setAmount)}
                  description={
                    airtimeProduct
                      ? `${NETWORK_LABEL[airtimeProduct.network]} airtime: ₦${airtimeProduct.minAmount.toLocaleString('en-NG')} to ₦${airtimeProduct.maxAmount.toLocaleString('en-NG')}`
                      : undefined
                  }
                  data-testid="topup-amount-input"
                />
              ) : (
                <Select
                  label="Data plan"
                  placeholder={catalog.loading ? 'Loading…' : chosenNetwork ? `Choose a ${NETWORK_LABEL[chosenNetwork]} plan` : 'Enter the number first, or choose the network'}
                  searchable
                  value={plan}
                  onChange={edit(setPlan)}
                  data={plans.map((p) => ({ value: p.productCode, label: `${p.description} — ${formatNaira(Math.round(p.amount * 100))}` }))}
                  data-testid="topup-plan"
                />
              )}
            </>
          }
          check={{ label: 'Check', enabled: ready, onCheck: check, testId: 'topup-check' }}
          steps={[
            'Choose airtime or data and enter the phone number; the network comes from the number (choose it for a number moved to another network).',
            'Enter the amount, or choose the data plan, and check.',
            "Review and buy. vendesk waits for the service's answer and shows the receipt; a purchase is never sent twice.",
          ]}
          checkedTestId="topup-checked"
          checkedDetails={(checked) => (
            <>
              <CheckedAccount
                title={checked.blocker ? 'Cannot be bought now' : 'Ready to buy'}
                ok={!checked.blocker}
                testId="topup-check-result"
                lines={[
                  { label: 'Phone number', value: checked.phone, mono: true },
                  { label: 'Network', value: networkName(checked.network) },
                  { label: checked.kind === 'airtime' ? 'Buys' : 'Data plan', value: checked.description },
                  { label: 'Amount', value: formatNaira(checked.amountKobo), strong: true },
                  checked.walletKobo !== null && { label: 'Wallet', value: formatNaira(checked.walletKobo) },
                ]}
              >
                {checked.blocker && (
                  <Text size="sm" mt="xs" fw={500}>
                    {checked.blocker} Top up the wallet, then check again.
                  </Text>
                )}
              </CheckedAccount>
              {checked.warnings.map((w) => (
                <Alert key={w} color="yellow" variant="light">
                  <Text size="sm">{w}</Text>
                </Alert>
              ))}
              {checked.recent && (
                <Alert color="orange" variant="light" title="Bought for this number already" data-testid="topup-recent">
                  <Text size="sm">{checked.recent}</Text>
                  <Checkbox mt="xs" label="Buy it again anyway" checked={again} onChange={(e) => setAgain(e.currentTarget.checked)} data-testid="topup-again" />
                </Alert>
              )}
            </>
          )}
          review={{ enabled: canBuy, amountKobo: checked?.amountKobo ?? null, testId: 'topup-review' }}
        />
      )}

      {checked && (
        <ConfirmPurchaseModal
          opened={flow.confirming}
          costCentre={flow.costCentre}
          title={checked.kind === 'airtime' ? 'Confirm the airtime purchase' : 'Confirm the data purchase'}
          rows={[
            { label: 'Phone number', value: checked.phone, strong: true },
            { label: 'Network', value: networkName(checked.network) },
            { label: checked.kind === 'airtime' ? 'Buys' : 'Data plan', value: checked.description },
            ...(checked.recent && again ? [{ label: 'Note', value: 'Bought for this number in the last 24 hours; buying it again.' }] : []),
            { label: 'Wallet charged (estimate)', value: expectedChargeText(chargeOf(checked)) },
          ]}
          amountKobo={checked.amountKobo}
          note="The wallet is charged now (the estimate above; the receipt shows the exact charge). vendesk waits for the service's answer (usually a few seconds)."
          buying={flow.buying}
          buyTestId="topup-buy"
          onBuy={buy}
          onClose={() => flow.setConfirming(false)}
        />
      )}

      <RecentTopUps refreshKey={flow.recentKey} />
    </Stack>
  );
}
