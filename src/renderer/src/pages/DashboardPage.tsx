import { Card, Group, SimpleGrid, Skeleton, Text } from '@mantine/core';
import { ErrorNotice } from '../components/ErrorNotice';
import { PageHeader } from '../components/PageHeader';
import { formatDateTime, formatNaira } from '../format';
import { useDataChanged, useOperation } from '../hooks/useOperation';

export function DashboardPage() {
  const balance = useOperation('account.balance', {});
  useDataChanged(['balance', 'connection'], () => void balance.reload());
  return (
    <>
      <PageHeader title="Dashboard" description="Wallet, spend and what needs attention" />
      <ErrorNotice error={balance.error} onRetry={() => void balance.reload()} title="The wallet balance could not be read" />
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }}>
        <Card withBorder padding="lg" data-testid="wallet-balance">
          <Text size="sm" c="dimmed">
            Wallet balance
          </Text>
          {balance.data ? (
            <>
              <Text size="xl" fw={700} className="money" mt={4}>
                {formatNaira(balance.data.balanceKobo)}
              </Text>
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
      </SimpleGrid>
    </>
  );
}
