/**
 * The one Cost centre field of the window (single purchases, the Change cost centre dialog):
 * free text, as the ledger names it (docs/cost-centres.md), with the cost centres already in use
 * on this connection and in the recipients list as suggestions. Empty means none.
 */
import { Autocomplete } from '@mantine/core';
import { useOperation } from '../../hooks/useOperation';

export function CostCentreInput({
  value,
  onChange,
  label = 'Cost centre (optional)',
  description,
  error,
  testId = 'cost-centre-input',
}: {
  value: string;
  onChange: (value: string) => void;
  label?: string;
  description?: string;
  error?: string | null;
  testId?: string;
}) {
  const inUse = useOperation('costCentres.inUse', {});
  return (
    <Autocomplete
      label={label}
      placeholder="e.g. Sales"
      description={description ?? 'The department this spend is charged to; leave empty for none (the recipients list then applies).'}
      data={inUse.data ?? []}
      value={value}
      onChange={onChange}
      maxLength={64}
      error={error ?? undefined}
      data-testid={testId}
    />
  );
}
