import { Select } from '@mantine/core';
import { useMemo, useState } from 'react';
import type { SmartcardView } from '../../../../shared/contract/purchases';
import { bridge } from '../../bridge';
import { formatNaira } from '../../format';
import { useOperation } from '../../hooks/useOperation';
import { AccountCompanySelect, AccountNumberInput, CheckedAccount, PurchaseFlowLayout } from './PurchaseFlowLayout';
import { usePurchaseFlow } from './usePurchaseFlow';
import { chargeNote } from '../../../../shared/spendText';

/**
 * Buy one cable TV bouquet: pick the provider, enter the smartcard (IUC) number, check it (the
 * customer's name and type come back), choose the bouquet from the catalog (its price is the
 * amount), confirm, and get the receipt.
 */
export function CablePurchase() {
  const providers = useOperation('purchases.cableProviders', {});
  const flow = usePurchaseFlow<SmartcardView>();
  const [provider, setProvider] = useState<string | null>(null);
  const [smartcard, setSmartcard] = useState('');
  const [bouquetCode, setBouquetCode] = useState<string | null>(null);

  const bouquets = useMemo(() => providers.data?.find((p) => p.provider === provider)?.bouquets ?? [], [providers.data, provider]);
  const bouquet = bouquets.find((b) => b.code === bouquetCode) ?? null;
  const { phone, phoneCheck, checked: card } = flow;
  const canBuy = card !== null && bouquet !== null && phoneCheck?.ok === true;
  const charge = useOperation(
    'purchases.expectedCost',
    { kind: 'cable', network: provider ?? '-', amountKobo: bouquet?.amountKobo ?? 1, productCode: bouquet?.code },
    { enabled: !!provider && !!bouquet },
  );

  const checkCard = () => {
    if (!provider) return;
    void flow.check('The smartcard check did not go through', () => bridge.call('purchases.validateSmartcard', { provider, smartcard }));
  };

  const buy = () => {
    if (!provider || !bouquet) return;
    void flow.buy(() => bridge.call('purchases.buyCable', { provider, smartcard, bouquetCode: bouquet.code, phone, costCentre: flow.costCentre }));
  };

  const startOver = () => {
    flow.startOver();
    setSmartcard('');
    setBouquetCode(null);
  };

  return (
    <PurchaseFlowLayout
      kind="cable"
      flow={flow}
      catalog={providers}
      catalogErrorTitle="The cable TV catalog could not be read"
      title="Buy a cable TV subscription"
      accountFields={
        <>
          <AccountCompanySelect
            label="Provider"
            placeholder="Choose the provider"
            loading={providers.loading}
            data={(providers.data ?? []).map((p) => p.provider)}
            value={provider}
            onChange={(v) => {
              setProvider(v);
              setBouquetCode(null);
            }}
            flow={flow}
          />
          <AccountNumberInput label="Smartcard / IUC number" placeholder="e.g. 7012345678" value={smartcard} onChange={setSmartcard} flow={flow} />
        </>
      }
      checkLabel="Check smartcard"
      canCheck={!!provider && smartcard.trim().length >= 6}
      onCheck={checkCard}
      steps={[
        'Choose the provider and enter the smartcard (IUC) number.',
        "Check the smartcard: confirm the customer's name.",
        'Choose the bouquet (its price is the amount), enter the phone, review, and buy.',
      ]}
      checkedDetails={(checkedCard) => (
        <>
          <CheckedAccount
            title="Smartcard found"
            testId="smartcard-details"
            lines={[
              { label: 'Customer', value: checkedCard.name, strong: true, testId: 'smartcard-name' },
              !!checkedCard.customerType && { label: 'Customer type', value: checkedCard.customerType },
              !!checkedCard.address && { label: 'Address', value: checkedCard.address },
            ]}
          />
          <Select
            allowDeselect={false}
            label="Bouquet"
            placeholder="Choose the bouquet"
            data={bouquets.map((b) => ({ value: b.code, label: `${b.name} — ${formatNaira(b.amountKobo)}` }))}
            value={bouquetCode}
            onChange={setBouquetCode}
            searchable
          />
        </>
      )}
      canBuy={canBuy}
      reviewAmountKobo={bouquet ? bouquet.amountKobo : null}
      confirm={
        card && bouquet
          ? {
              title: 'Confirm the cable TV purchase',
              rows: [
                { label: 'Customer', value: card.name, strong: true },
                { label: 'Smartcard', value: `${card.smartcard} · ${card.provider}` },
                { label: 'Bouquet', value: bouquet.name },
                { label: 'Phone', value: phoneCheck?.ok ? phoneCheck.phone : phone },
              ],
              amountKobo: bouquet.amountKobo,
              note: chargeNote(charge.data ?? null, ''),
              onBuy: buy,
            }
          : null
      }
      buyAnotherLabel="Buy another subscription"
      onStartOver={startOver}
    />
  );
}
