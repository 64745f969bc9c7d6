import { Badge } from '@mantine/core';

/** Whether a purchase about to be confirmed spends real money (LIVE) or the sandbox's test money. */
export function MoneyKindBadge({ live }: { live: boolean }) {
  return live ? (
    <Badge color="red.9" size="lg">
      LIVE — real money
    </Badge>
  ) : (
    <Badge color="gray" size="lg">
      Sandbox — test money
    </Badge>
  );
}
