/**
 * The Dashboard's "This month by cost centre": the purchases of the Spent this month card split by
 * the cost centre they are charged to (docs/cost-centres.md), with their total, which is that
 * card's purchases line. Transactions filters by each.
 */
import { Card, Group, Skeleton, Table, Text, Title } from '@mantine/core';
import type { CostCentreShare } from '../../../../shared/contract/dashboard';
import { formatCount, formatNaira } from '../../format';

/** A line's figures: purchases, face value, wallet cost, right-aligned. */
function ShareCells({ share }: { share: Omit<CostCentreShare, 'costCentre'> }) {
  return (
    <>
      {[formatCount(share.purchases), formatNaira(share.faceKobo), formatNaira(share.costKobo)].map((text, i) => (
        <Table.Td key={i} className="money" style={{ textAlign: 'right' }}>
          {text}
        </Table.Td>
      ))}
    </>
  );
}

export function CostCentreBreakdown({ shares, notKnown }: { shares: CostCentreShare[] | null; notKnown: string | null }) {
  const total = (shares ?? []).reduce((t, s) => ({ purchases: t.purchases + s.purchases, faceKobo: t.faceKobo + s.faceKobo, costKobo: t.costKobo + s.costKobo }), {
    purchases: 0,
    faceKobo: 0,
    costKobo: 0,
  });
  return (
    <Card withBorder padding="lg" data-testid="cost-centre-breakdown">
      <Group justify="space-between" mb="sm" wrap="wrap">
        <Title order={2} size="h4">
          This month by cost centre
        </Title>
        <Text size="xs" c="dimmed">
          The purchases of “Spent this month”; messaging is not charged to a cost centre
        </Text>
      </Group>
      {notKnown !== null ? (
        <Text size="sm" c="dimmed">
          {notKnown}
        </Text>
      ) : shares === null ? (
        <Skeleton height={80} />
      ) : shares.length === 0 ? (
        <Text size="sm" c="dimmed" data-testid="cost-centre-breakdown-empty">
          No purchases this month yet.
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={480}>
          <Table striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Cost centre</Table.Th>
                <Table.Th style={{ textAlign: 'right' }}>Purchases</Table.Th>
                <Table.Th style={{ textAlign: 'right' }}>Face value</Table.Th>
                <Table.Th style={{ textAlign: 'right' }}>Wallet cost</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {shares.map((s) => (
                <Table.Tr key={s.costCentre} data-testid="cost-centre-share">
                  <Table.Td>
                    <Text size="sm" c={s.costCentre === 'Unassigned' ? 'dimmed' : undefined}>
                      {s.costCentre}
                    </Text>
                  </Table.Td>
                  <ShareCells share={s} />
                </Table.Tr>
              ))}
            </Table.Tbody>
            <Table.Tfoot>
              <Table.Tr data-testid="cost-centre-total" style={{ fontWeight: 700 }}>
                <Table.Td>All cost centres</Table.Td>
                <ShareCells share={total} />
              </Table.Tr>
            </Table.Tfoot>
          </Table>
        </Table.ScrollContainer>
      )}
    </Card>
  );
}
