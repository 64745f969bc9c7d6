import { SegmentedControl, Stack, Text } from '@mantine/core';

/**
 * A choice between a few options shown side by side, under a label like every field's (the
 * label also names the control for screen readers).
 */
export function LabeledChoice<T extends string>({
  label,
  value,
  onChange,
  data,
}: {
  label: string;
  value: T;
  onChange: (value: T) => void;
  data: readonly { value: T; label: string }[];
}) {
  return (
    <Stack gap={4} align="flex-start">
      <Text size="sm" fw={500}>
        {label}
      </Text>
      <SegmentedControl aria-label={label} value={value} onChange={(v) => onChange(v as T)} data={[...data]} />
    </Stack>
  );
}
