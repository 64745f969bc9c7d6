/**
 * Dashboard: the wallet (read live), spend today / this week / this month (what left the wallet:
 * purchases and messaging, each on its line; the purchases' face value), daily spend of the last 30 days by type or network, purchases waiting for a final answer,
 * and the sync.
 */
import { Card, Group, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import type { DashboardSummary, SpendFigures } from '../../../shared/contract/dashboard';
import { dayCountText, missingDaysSince } from '../../../shared/coverageText';
import { monthStartDay, shiftDay, weekStartDay } from '../../../shared/localDates';
import { ErrorNotice } from '../components/ErrorNotice';
import { CostCentreBreakdown } from '../components/costCentres/CostCentreBreakdown';
import { SpendChart } from '../components/transactions/SpendChart';
import { SyncControl } from '../components/transactions/SyncControl';
import { UnreadDaysNotice } from '../components/transactions/UnreadDaysNotice';
import { FIGURE_CARD, FigureText } from '../components/FigureText';
import { PageHeader } from '../components/PageHeader';
import { messagesText, purchasesText, refundedText } from '../../../shared/spendText';
import { formatAgo, formatCount, formatDateTime, formatDay, formatNaira } from '../format';
import { useOperation } from '../hooks/useOperation';

function Figure({ label, value, note, testId }: { label: string; value: string | null; note?: string; testId?: string }) {
  return (
    <Card withBorder padding="lg" data-testid={testId} className={FIGURE_CARD}>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      {value === null ? (
        <Skeleton height={28} mt={6} />
      ) : (
        <FigureText size="xl" fw={700} mt={4}>
          {value}
        </FigureText>
      )}
      {note && (
        <Text size="xs" c="dimmed" mt={4}>
          {note}
        </Text>
      )}
    </Card>
  );
}

/**
 * Why a figure the service must give is not known (its wallet could not be read), in the words the
 * cards show instead of a number: unknown is never shown as ₦0.00.
 */
function notKnownReason(error: { message: string; details?: unknown } | null | undefined): string | null {
  if (!error) return null;
  const status = (error.details as { httpStatus?: number | null } | undefined)?.httpStatus;
  return typeof status === 'number' ? 'Not known — the service refused to answer' : 'Not known — the service is not answering';
}

function NotKnown({ text, testId }: { text: string; testId?: string }) {
  return (
    <Text size="md" fw={600} c="dimmed" mt={4} data-testid={testId}>
      {text}
    </Text>
  );
}

/** A line of a spend card: what it counts on the left, its amount on the right. */
function SpendLine({ label, title, kobo, testId }: { label: string; title: string; kobo: number; testId: string }) {
  return (
    <Group justify="space-between" gap="xs" wrap="nowrap">
      <Text size="xs" c="dimmed" title={title}>
        {label}
      </Text>
      <Text size="xs" className="money" data-testid={testId}>
        {formatNaira(kobo)}
      </Text>
    </Group>
  );
}

/**
 * Spend of a period: what left the wallet — the purchases' wallet cost and vendesk's messaging,
 * each on its own line — and the purchases' face value (what the customers received).
 */
function SpendCard({
  label,
  figures,
  note,
  testId,
  notKnown,
  unreadDays = 0,
}: {
  label: string;
  figures: SpendFigures | null;
  note: string;
  testId: string;
  notKnown: string | null;
  /** Days of the period vendesk has not read from the service: the figure leaves them out, and says so. */
  unreadDays?: number;
}) {
  const m = figures?.messaging;
  return (
    <Card withBorder padding="lg" data-testid={testId} className={FIGURE_CARD}>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      {notKnown !== null ? (
        <NotKnown text={notKnown} testId={`${testId}-not-known`} />
      ) : figures === null || !m ? (
        <Skeleton height={56} mt={6} />
      ) : (
        <Stack gap={0} mt={4}>
          <Text size="xs" c="dimmed">
            Left the wallet
          </Text>
          <FigureText size="xl" fw={700} data-testid={`${testId}-cost`}>
            {formatNaira(figures.walletKobo)}
          </FigureText>
          <SpendLine
            label={`Purchases (${formatCount(figures.purchases)})`}
            title={`${purchasesText(figures.purchases)}: their wallet cost`}
            kobo={figures.costKobo}
            testId={`${testId}-purchases`}
          />
          <SpendLine
            label={`SMS and codes (${formatCount(m.messages)})`}
            title={`${messagesText(m.messages)}: SMS, e-mail copies and one-time codes`}
            kobo={m.costKobo}
            testId={`${testId}-messaging`}
          />
          <Group justify="space-between" gap="xs" wrap="nowrap" mt={4}>
            <Text size="xs" c="dimmed" title="What the customers received: the purchases' face value">
              Face value
            </Text>
            <FigureText size="md" fw={600} data-testid={`${testId}-face`}>
              {formatNaira(figures.faceKobo)}
            </FigureText>
          </Group>
        </Stack>
      )}
      <Text size="xs" c="dimmed" mt={4}>
        {note}
      </Text>
      {notKnown === null && figures && unreadDays > 0 && (
        <Text size="xs" c="orange.8" fw={600} data-testid={`${testId}-incomplete`}>
          Incomplete: {dayCountText(unreadDays)} not read (see above)
        </Text>
      )}
      {notKnown === null && figures?.refunded && figures.refunded.count > 0 && (
        <Text size="xs" c="dimmed" className="tabular" data-testid={`${testId}-refunded`}>
          Not counted: {refundedText(figures.refunded)}
        </Text>
      )}
      {notKnown === null && m && m.uncertain.sends > 0 && (
        <Text size="xs" c="dimmed" className="tabular" data-testid={`${testId}-messaging-lost`}>
          Not counted: {m.uncertain.sends} message send{m.uncertain.sends === 1 ? '' : 's'} whose answer was lost ({formatNaira(m.uncertain.quotedKobo)} quoted)
        </Text>
      )}
    </Card>
  );
}

export function DashboardPage() {
  const balance = useOperation('account.balance', {});
  const summary = useOperation('dashboard.summary', {});
  const costCentres = useOperation('dashboard.costCentres', {});
  const s = summary.data;
  const walletNotKnown = balance.data ? null : notKnownReason(balance.error ?? s?.balanceError);
  // Spend comes from the copy of the log: while the service does not answer and the copy was never
  // filled, there is nothing to count, which is not the same as nothing spent.
  const spendNotKnown = s && s.lastSyncAt === null && s.entries === 0 ? walletNotKnown : null;
  return (
    <>
      <PageHeader title="Dashboard" description="Wallet, spend and what needs attention" actions={<SyncControl />} />
      <ErrorNotice error={balance.error} onRetry={() => void balance.reload()} title="The wallet balance could not be read" />
      <ErrorNotice error={summary.error} onRetry={() => void summary.reload()} title="The dashboard could not be read" />
      {spendNotKnown === null && <UnreadDaysNotice coverage={s?.coverage} subject="Some of these figures" />}
      <Stack gap="md">
        {/* Five figures in a row only where each card holds an eight-digit Naira figure at full size; a figure in a narrower card shrinks, never cut. */}
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3, xl: 5 }}>
          <Card withBorder padding="lg" data-testid="wallet-balance" className={FIGURE_CARD}>
            <Text size="sm" c="dimmed">
              Wallet balance
            </Text>
            {walletNotKnown !== null ? (
              <NotKnown text={walletNotKnown} testId="wallet-balance-not-known" />
            ) : balance.data ? (
              <>
                <FigureText size="xl" fw={700} mt={4} data-testid="wallet-balance-figure">
                  {formatNaira(balance.data.balanceKobo)}
                </FigureText>
                <Group gap={4} mt={4}>
                  <Text size="xs" c="dimmed">
                    {balance.data.accountName} · read {formatDateTime(balance.data.readAt)}
                  </Text>
                </Group>
              </>
            ) : (
              <Skeleton height={28} mt={6} />
            )}
          </Card>
          <SpendCard
            label="Spent today"
            figures={s?.spend.today ?? null}
            note={s ? `Lagos day, ${formatDay(s.today)}` : 'Lagos day'}
            testId="spend-today"
            notKnown={spendNotKnown}
            unreadDays={s ? missingDaysSince(s.coverage, s.today) : 0}
          />
          <SpendCard
            label="Spent this week"
            figures={s?.spend.week ?? null}
            note="Since Monday"
            testId="spend-week"
            notKnown={spendNotKnown}
            unreadDays={s ? missingDaysSince(s.coverage, weekStartDay(s.today)) : 0}
          />
          <SpendCard
            label="Spent this month"
            figures={s?.spend.month ?? null}
            note="Since the 1st"
            testId="spend-month"
            notKnown={spendNotKnown}
            unreadDays={s ? missingDaysSince(s.coverage, monthStartDay(s.today)) : 0}
          />
          <Figure
            label="Pending purchases"
            value={s ? formatCount(s.pendingCount) : null}
            note={s ? pendingNote(s.pendingCount, s.pendingAirtimeData) : undefined}
            testId="pending-count"
          />
        </SimpleGrid>
        <Text size="xs" c="dimmed" data-testid="spend-explained">
          Spent is what left the wallet: the wallet cost of successful and pending purchases (the log’s transaction cost: face value less commission), and the SMS, e-mail copies
          and one-time codes sent through vendesk (what the service said each cost). Failed purchases were refunded and are shown apart, at what the wallet got back. Messages sent
          outside vendesk are not counted: the service lists no messaging charges. Face value is what the customers received (the log’s amount). Days are Lagos days (WAT, UTC+1) on
          the service’s clock.
        </Text>
        <ErrorNotice error={costCentres.error} onRetry={() => void costCentres.reload()} title="This month by cost centre could not be read" />
        <CostCentreBreakdown shares={costCentres.data?.shares ?? null} notKnown={spendNotKnown} />
        <Card withBorder padding="lg" data-testid="spend-chart-card">
          <Group justify="space-between" mb="sm">
            <Group gap="xs">
              <Title order={2} size="h4">
                Daily spend, last 30 days
              </Title>
              {s && spendNotKnown === null && missingDaysSince(s.coverage, shiftDay(s.today, -29)) > 0 && (
                <Text size="xs" c="orange.8" fw={600} data-testid="spend-chart-incomplete">
                  Incomplete: {dayCountText(missingDaysSince(s.coverage, shiftDay(s.today, -29)))} not read (see above)
                </Text>
              )}
            </Group>
            <Text size="xs" c={s?.lastSyncFailure && !s.syncing ? 'orange.8' : 'dimmed'} data-testid="last-sync">
              {s ? `${formatCount(s.entries)} transactions on this computer · ${lastSyncWords(s)}${s.syncing ? ' · syncing now' : ''}` : ''}
            </Text>
          </Group>
          {spendNotKnown !== null ? (
            <Text size="sm" c="dimmed" data-testid="spend-chart-not-known">
              {spendNotKnown}: the chart fills in once vendesk has read the service’s log.
            </Text>
          ) : s ? (
            <SpendChart summary={s} />
          ) : (
            <Skeleton height={280} />
          )}
        </Card>
      </Stack>
    </>
  );
}

/** When the figures were read: never "last synced" over a sync that failed since. */
function lastSyncWords(s: DashboardSummary): string {
  if (!s.lastSyncFailure) return `last synced ${formatAgo(s.lastSyncAt)}`;
  return `last sync failed ${formatAgo(s.lastSyncFailure.at)} — showing what was read ${s.lastSyncAt ? `up to ${formatDateTime(s.lastSyncAt)}` : 'so far'}`;
}

/** Where the pending purchases are followed: electricity and cable on Pending, airtime and data on their receipt or job. */
function pendingNote(total: number, airtimeData: number): string {
  if (total === 0) return 'Nothing waiting for an answer';
  const vending = total - airtimeData;
  const parts = [
    vending > 0 ? `${formatCount(vending)} electricity or cable (see Pending)` : null,
    airtimeData > 0 ? `${formatCount(airtimeData)} airtime or data (see Purchases)` : null,
  ].filter((p): p is string => p !== null);
  return `Waiting for a final answer: ${parts.join(', ')}`;
}
