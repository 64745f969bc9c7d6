import { useMemo, useState } from 'react';
import type { MeterView } from '../../../../shared/contract/purchases';
import { bridge } from '../../bridge';
import { formatNaira } from '../../format';
import { useOperation } from '../../hooks/useOperation';
import { LabeledChoice } from '../LabeledChoice';
import { MoneyInput, readMoneyField } from '../MoneyInput';
import { AccountCompanySelect, AccountNumberInput, CheckedAccount, PurchaseFlowLayout } from './PurchaseFlowLayout';
import { usePurchaseFlow } from './usePurchaseFlow';
import { chargeNote } from '../../../../shared/spendText';

type VendType = 'PREPAID' | 'POSTPAID';
const VEND_TYPE_CHOICES: readonly { value: VendType; label: string }[] = [
  { value: 'PREPAID', label: 'Prepaid (token)' },
  { value: 'POSTPAID', label: 'Postpaid (bill)' },
];

/**
 * Buy one electricity token: pick the electricity company, enter the meter and its type, check
 * the meter (the customer's name and address come back to confirm), enter the amount within the
 * allowed range, confirm, and get the receipt with the token.
 */
export function ElectricityPurchase() {
  const discos = useOperation('purchases.electricityProviders', {});
  const flow = usePurchaseFlow<MeterView>();
  const [disco, setDisco] = useState<string | null>(null);
  const [meter, setMeter] = useState('');
  const [vendType, setVendType] = useState<VendType>('PREPAID');
  const [amount, setAmount] = useState('');

  const { phone, phoneCheck, checked: meterView } = flow;
  const selected = discos.data?.find((d) => d.code === disco) ?? null;
  const amountKobo = readMoneyField(amount).kobo;
  const charge = useOperation(
    'purchases.expectedCost',
    { kind: 'electricity', network: disco ?? '-', amountKobo: amountKobo ?? 1 },
    { enabled: !!disco && amountKobo !== null && amountKobo > 0 },
  );
  const min = meterView?.allowedMinKobo ?? selected?.minKobo ?? null;
  const max = meterView?.allowedMaxKobo ?? selected?.maxKobo ?? null;
  const amountProblem =
    amountKobo === null
      ? null
      : min !== null && amountKobo < min
        ? `At least ${formatNaira(min)} for this meter`
        : max !== null && amountKobo > max
          ? `At most ${formatNaira(max)} per purchase`
          : null;
  const canBuy = meterView !== null && amountKobo !== null && amountKobo > 0 && !amountProblem && phoneCheck?.ok === true;

  const discoOptions = useMemo(() => (discos.data ?? []).map((d) => ({ value: d.code, label: `${d.name} (${d.code})` })), [discos.data]);

  const checkMeter = () => {
    if (!disco) return;
    void flow.check('The meter check did not go through', () => bridge.call('purchases.validateMeter', { disco, meter, vendType }));
  };

  const buy = () => {
    if (!disco || amountKobo === null) return;
    void flow.buy(() => bridge.call('purchases.buyElectricity', { disco, meter, vendType, amountKobo, phone, costCentre: flow.costCentre }));
  };

  const startOver = () => {
    flow.startOver();
    setMeter('');
    setAmount('');
  };

  return (
    <PurchaseFlowLayout
      kind="electricity"
      flow={flow}
      catalog={discos}
      catalogErrorTitle="The list of electricity companies could not be read"
      title="Buy electricity"
      accountFields={
        <>
          <AccountCompanySelect
            label="Electricity company (disco)"
            placeholder="Choose the company"
            loading={discos.loading}
            data={discoOptions}
            value={disco}
            onChange={setDisco}
            flow={flow}
            searchable
            description={selected ? `${selected.description}. Sells ${formatNaira(selected.minKobo)} to ${formatNaira(selected.maxKobo)}.` : undefined}
          />
          <AccountNumberInput label="Meter number" placeholder="e.g. 45012345678" value={meter} onChange={setMeter} flow={flow} />
          <LabeledChoice
            label="Meter type"
            data={VEND_TYPE_CHOICES}
            value={vendType}
            onChange={(v) => {
              setVendType(v);
              flow.forgetCheck();
            }}
          />
        </>
      }
      checkLabel="Check meter"
      canCheck={!!disco && meter.trim().length >= 6}
      onCheck={checkMeter}
      checkHint="The customer's name comes back so you can confirm it is the right meter."
      steps={[
        'Choose the electricity company and enter the meter number and type.',
        "Check the meter: confirm the customer's name and address.",
        "Enter the amount and the customer's phone, review, and buy.",
      ]}
      checkedDetails={(checkedMeter) => (
        <>
          <CheckedAccount
            title="Meter found"
            testId="meter-details"
            lines={[
              { label: 'Customer', value: checkedMeter.name, strong: true, testId: 'meter-name' },
              { label: 'Address', value: checkedMeter.address },
              { label: 'Minimum', value: formatNaira(checkedMeter.allowedMinKobo) },
              checkedMeter.outstandingKobo > 0 && { label: 'Outstanding', value: formatNaira(checkedMeter.outstandingKobo) },
            ]}
          />
          <MoneyInput
            label="Amount (₦)"
            placeholder="e.g. 5,000"
            value={amount}
            onChange={setAmount}
            description={`Between ${formatNaira(checkedMeter.allowedMinKobo)} and ${formatNaira(checkedMeter.allowedMaxKobo)}, in Naira like 5000, 5,000 or 5,000.50`}
            problem={amountProblem}
          />
        </>
      )}
      canBuy={canBuy}
      reviewAmountKobo={amountKobo && canBuy ? amountKobo : null}
      confirm={
        meterView && selected && amountKobo !== null
          ? {
              title: 'Confirm the electricity purchase',
              rows: [
                { label: 'Customer', value: meterView.name, strong: true },
                { label: 'Meter', value: `${meterView.meter} · ${vendType}` },
                { label: 'Company', value: selected.name },
                { label: 'Phone', value: phoneCheck?.ok ? phoneCheck.phone : phone },
              ],
              amountKobo,
              note: chargeNote(charge.data ?? null, 'A token that has been issued cannot be reversed.'),
              onBuy: buy,
            }
          : null
      }
      buyAnotherLabel="Buy another token"
      onStartOver={startOver}
      pendingNote="Follow it on the Pending page: the token appears here and there once the service confirms it."
    />
  );
}
