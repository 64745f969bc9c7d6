import { Card, SimpleGrid, Text, Tooltip } from '@mantine/core';
import type { BulkJobView, BulkMoney } from '../../../../shared/contract/bulk';
import { costKnownNote, walletCostKobo, walletCostText } from '../../../../shared/bulkMoney';
import { formatCount, formatNaira } from '../../format';

/** The wallet cost as a headline: the amount when known for every item, else at least what is known (the note says for how many). */
function costHeadline(m: BulkMoney): string {
  const all = walletCostKobo(m);
  if (all !== null) return formatNaira(all);
  return m.costKnown === 0 ? 'Not known yet' : `At least ${formatNaira(m.costKobo)}`;
}

/** A wallet cost in a table cell: the amount, and for how many items it is known when not all. */
export function WalletCost({ money }: { money: BulkMoney }) {
  const note = costKnownNote(money);
  return (
    <>
      <Text size="sm">{costHeadline(money)}</Text>
      {note && (
        <Text size="xs" c="dimmed">
          {note}
        </Text>
      )}
    </>
  );
}

function Figure({ label, value, note, tooltip, testId, color }: { label: string; value: string; note: string; tooltip: string; testId: string; color?: string }) {
  return (
    <Tooltip label={tooltip} withArrow multiline w={320}>
      <Card withBorder padding="xs" data-testid={testId}>
        <Text size="xs" c="dimmed">
          {label}
        </Text>
        <Text fw={700} c={color}>
          {value}
        </Text>
        <Text size="xs" c="dimmed">
          {note}
        </Text>
      </Card>
    </Tooltip>
  );
}

/**
 * A job's money: what was bought at face value and what the wallet was charged for it (known
 * for some items only while the service has not shown every cost), what may have been bought
 * (sent, no answer yet: never counted as bought, shown while there is any), what failed and was
 * refunded, and what was not bought.
 */
export function JobMoney({ job }: { job: BulkJobView }) {
  const { bought, maybeBought, refunded, notBought } = job;
  const maybe = maybeBought.count > 0;
  return (
    <SimpleGrid cols={{ base: 2, md: maybe ? 5 : 4 }} spacing="xs">
      <Figure
        testId="bought-face"
        label="Bought — face value"
        value={formatNaira(bought.faceKobo)}
        note={`${formatCount(bought.count)} item(s), successful or pending`}
        tooltip="The amounts of the rows bought: what the recipients get. Pending items are included; one that fails is refunded."
      />
      <Figure
        testId="bought-cost"
        label="Bought — wallet cost"
        value={costHeadline(bought)}
        note={costKnownNote(bought) ?? 'what the wallet was charged'}
        tooltip="What the wallet was charged for them: the service's transaction cost (the face value less its commission). A cost the service has not shown yet is not counted."
      />
      {maybe && (
        <Figure
          testId="maybe-bought"
          label="Maybe bought"
          value={formatNaira(maybeBought.faceKobo)}
          note={`${formatCount(maybeBought.count)} item(s) · sent, no answer yet`}
          tooltip="Sent, but no answer came back: the wallet may have been charged. Not counted as bought; vendesk settles them from the service's log and never sends them again blindly. The spending caps count them."
          color="orange"
        />
      )}
      <Figure
        testId="refunded"
        label="Failed and refunded"
        value={formatNaira(refunded.faceKobo)}
        note={`${formatCount(refunded.count)} item(s) · wallet cost ${walletCostText(refunded)}`}
        tooltip="Items the service charged and then refunded because delivery failed."
      />
      <Figure
        testId="not-bought"
        label="Not bought"
        value={formatCount(notBought.count)}
        note={`${formatNaira(notBought.faceKobo)} · never sent, nothing charged`}
        tooltip="Rows never sent to the service: the job was cancelled before them, or you marked them not bought."
      />
    </SimpleGrid>
  );
}
