import { Alert, Button, Card, Grid, Group, Select, Stack, Table, Text, TextInput, Title, type ComboboxData } from '@mantine/core';
import { Fragment, type ReactNode } from 'react';
import type { PurchaseKind } from '../../../../shared/contract/purchases';
import type { AppError } from '../../bridge';
import { formatNaira } from '../../format';
import { ErrorNotice, WaitingNotice } from '../ErrorNotice';
import { CostCentreInput } from '../costCentres/CostCentreInput';
import { ConfirmPurchaseModal, type ConfirmPurchaseModalProps } from './ConfirmPurchaseModal';
import { PurchaseReceipt } from './PurchaseReceipt';
import { RecentPurchases } from './RecentPurchases';
import type { PurchaseFlow } from './usePurchaseFlow';

export interface PurchaseFlowLayoutProps<Checked> {
  kind: PurchaseKind;
  flow: PurchaseFlow<Checked>;
  /** The providers' list the form chooses from; shown as an error when it cannot be read. */
  catalog: { error: AppError | null; reload: () => Promise<void> };
  catalogErrorTitle: string;
  title: string;
  /** Left column: what identifies the account (provider, number, type). */
  accountFields: ReactNode;
  checkLabel: string;
  canCheck: boolean;
  onCheck: () => void;
  /** Shown beside the check button until the account is checked. */
  checkHint?: string;
  /** Right column before the check: the steps, one line each. */
  steps: string[];
  /** Right column after the check: what the service said, and what to buy. */
  checkedDetails: (checked: Checked) => ReactNode;
  canBuy: boolean;
  /** The amount named on the review button, when it is known. */
  reviewAmountKobo: number | null;
  /** The confirmation, once there is something to confirm. */
  confirm: Pick<ConfirmPurchaseModalProps, 'title' | 'rows' | 'amountKobo' | 'note' | 'onBuy'> | null;
  buyAnotherLabel: string;
  /** After a receipt: back to an empty form (call `flow.startOver` and clear the fields). */
  onStartOver: () => void;
  /** Under the receipt of a purchase that is still pending. */
  pendingNote?: string;
}

/**
 * The screen of one electricity or cable purchase: the form (check the account, then what to buy
 * and the customer's phone), the confirmation, the receipt, and the latest purchases of the kind.
 */
export function PurchaseFlowLayout<Checked>(props: PurchaseFlowLayoutProps<Checked>) {
  const { kind, flow, catalog, confirm } = props;
  const { result } = flow;
  return (
    <Stack gap="lg">
      <ErrorNotice error={catalog.error} onRetry={() => void catalog.reload()} title={props.catalogErrorTitle} />
      {result ? (
        <Stack gap="sm">
          <PurchaseReceipt
            purchase={result}
            actions={
              <Button onClick={props.onStartOver} data-testid="buy-another">
                {props.buyAnotherLabel}
              </Button>
            }
          />
          {props.pendingNote && result.state === 'pending' && (
            <Text size="sm" c="dimmed">
              {props.pendingNote}
            </Text>
          )}
        </Stack>
      ) : (
        <PurchaseFormCard
          flow={flow}
          title={props.title}
          accountFields={props.accountFields}
          check={{ label: props.checkLabel, hint: props.checkHint, enabled: props.canCheck, onCheck: props.onCheck }}
          steps={props.steps}
          checkedDetails={(c) => (
            <>
              {props.checkedDetails(c)}
              <TextInput
                label="Customer phone"
                placeholder="e.g. 08031234567"
                value={flow.phone}
                onChange={(e) => flow.setPhone(e.currentTarget.value)}
                error={flow.phoneProblem}
              />
            </>
          )}
          review={{ enabled: props.canBuy, amountKobo: props.reviewAmountKobo, testId: `${kind}-review` }}
        />
      )}

      {confirm && (
        <ConfirmPurchaseModal
          {...confirm}
          costCentre={flow.costCentre}
          opened={flow.confirming}
          buying={flow.buying}
          buyTestId={`${kind}-buy`}
          onClose={() => flow.setConfirming(false)}
        />
      )}

      <RecentPurchases kind={kind} refreshKey={flow.recentKey} />
    </Stack>
  );
}

/**
 * The form of one purchase, whatever it buys: on the left the account fields and the check button;
 * on the right the steps until the account is checked, then what the check said and the review
 * button; the flow's error under both.
 */
export function PurchaseFormCard<Checked, Result extends { state: string }>(props: {
  flow: PurchaseFlow<Checked, Result>;
  title: string;
  accountFields: ReactNode;
  check: { label: string; hint?: string; enabled: boolean; onCheck: () => void; testId?: string };
  steps: string[];
  /** What the check said (and anything more to fill in), above the review button. */
  checkedDetails: (checked: Checked) => ReactNode;
  review: { enabled: boolean; amountKobo: number | null; testId: string };
  checkedTestId?: string;
}) {
  const { flow, check, review } = props;
  const { checked } = flow;
  return (
    <Card withBorder padding="lg" radius="md">
      <Title order={2} size="h4" mb="md">
        {props.title}
      </Title>
      <Grid gap="md">
        <Grid.Col span={{ base: 12, md: 6 }}>
          <Stack gap="sm">
            {props.accountFields}
            <CostCentreInput value={flow.costCentre} onChange={flow.setCostCentre} />
            <Group>
              <Button variant={checked ? 'default' : 'filled'} onClick={check.onCheck} loading={flow.checking} disabled={!check.enabled} data-testid={check.testId}>
                {checked ? 'Check again' : check.label}
              </Button>
              {!checked && check.hint && (
                <Text size="xs" c="dimmed">
                  {check.hint}
                </Text>
              )}
            </Group>
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 6 }}>
          {checked ? (
            <Stack gap="sm" data-testid={props.checkedTestId}>
              {props.checkedDetails(checked)}
              <Group justify="flex-end">
                <Button onClick={() => flow.setConfirming(true)} disabled={!review.enabled} data-testid={review.testId}>
                  {review.amountKobo !== null ? `Review purchase of ${formatNaira(review.amountKobo)}` : 'Review purchase'}
                </Button>
              </Group>
            </Stack>
          ) : (
            <PurchaseSteps steps={props.steps} />
          )}
        </Grid.Col>
      </Grid>
      <Stack mt="md">
        {flow.waiting && <WaitingNotice code="awaiting_approval" message={flow.waiting.message} hint={flow.waiting.hint} testId="purchase-waiting" />}
        <ErrorNotice error={flow.error} title={flow.errorTitle} />
      </Stack>
    </Card>
  );
}

/**
 * Who sells the account (disco, cable provider), chosen from the service's catalog; any change
 * forgets the last check, since the account was checked with the company chosen before.
 */
export function AccountCompanySelect<Checked>(props: {
  label: string;
  placeholder: string;
  loading: boolean;
  data: ComboboxData;
  value: string | null;
  onChange: (value: string | null) => void;
  flow: PurchaseFlow<Checked>;
  searchable?: boolean;
  description?: ReactNode;
}) {
  return (
    <Select
      allowDeselect={false}
      label={props.label}
      placeholder={props.loading ? 'Loading…' : props.placeholder}
      data={props.data}
      value={props.value}
      onChange={(v) => {
        props.onChange(v);
        props.flow.forgetCheck();
      }}
      searchable={props.searchable}
      description={props.description}
    />
  );
}

/**
 * The number that identifies the account (meter, smartcard): digits typed by the user; any change
 * forgets the last check, so a purchase never goes to a number that was not checked.
 */
export function AccountNumberInput<Checked>(props: { label: string; placeholder: string; value: string; onChange: (value: string) => void; flow: PurchaseFlow<Checked> }) {
  return (
    <TextInput
      label={props.label}
      placeholder={props.placeholder}
      value={props.value}
      inputMode="numeric"
      onChange={(e) => {
        props.onChange(e.currentTarget.value);
        props.flow.forgetCheck();
      }}
    />
  );
}

/** One line of what a check found: a name and its value. */
export interface CheckedLine {
  label: string;
  value: ReactNode;
  strong?: boolean;
  mono?: boolean;
  testId?: string;
}

/** What the service said about the account when it was checked, as a short table (lines that are `false` are left out). */
export function CheckedAccount({
  title,
  ok = true,
  testId,
  lines,
  children,
}: {
  title: string;
  ok?: boolean;
  testId: string;
  lines: (CheckedLine | false | null)[];
  children?: ReactNode;
}) {
  return (
    <Alert color={ok ? 'green' : 'red'} variant="light" title={title} data-testid={testId}>
      <Table withRowBorders={false} verticalSpacing={2}>
        <Table.Tbody>
          {lines.map(
            (line) =>
              line && (
                <Table.Tr key={line.label}>
                  <Table.Td c="dimmed" w={130} style={{ whiteSpace: 'nowrap' }}>
                    {line.label}
                  </Table.Td>
                  <Table.Td fw={line.strong ? 600 : undefined} ff={line.mono ? 'monospace' : undefined} data-testid={line.testId}>
                    {line.value}
                  </Table.Td>
                </Table.Tr>
              ),
          )}
        </Table.Tbody>
      </Table>
      {children}
    </Alert>
  );
}

/** Before the check: what the form asks for, one numbered step a line. */
export function PurchaseSteps({ steps }: { steps: string[] }) {
  return (
    <Card withBorder padding="md" h="100%" bg="var(--mantine-color-default-hover)">
      <Text size="sm" c="dimmed">
        {steps.map((step, i) => (
          <Fragment key={step}>
            {i > 0 && <br />}
            {`${i + 1}. ${step}`}
          </Fragment>
        ))}
      </Text>
    </Card>
  );
}
