/** The filters of the Transactions page, matching the log endpoint's: dates, status, type, network, search; and the sort. */
import { Button, Group, Select, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useState } from 'react';
import type { LogFilter, LogSort } from '../../../../shared/contract/logs';

const STATUS = [
  { value: 'SUCCESS', label: 'Successful' },
  { value: 'FAILED', label: 'Failed' },
  { value: 'PENDING', label: 'Pending' },
];
const TYPES = [
  { value: 'AIRTIME', label: 'Airtime' },
  { value: 'DATA', label: 'Data' },
  { value: 'ELECTRICITY', label: 'Electricity' },
  { value: 'CABLETV', label: 'Cable TV' },
];
const NETWORKS = ['MTN', 'AIRTEL', 'GLOBACOM', '9MOBILE', 'IKEDC', 'EKEDC', 'AEDC', 'DSTV', 'GOTV', 'STARTIMES'].map((n) => ({ value: n, label: n }));
const SORTS: { value: LogSort; label: string }[] = [
  { value: 'time_desc', label: 'Newest first' },
  { value: 'time_asc', label: 'Oldest first' },
  { value: 'amount_desc', label: 'Largest amount first' },
  { value: 'amount_asc', label: 'Smallest amount first' },
];

export function LogFilters({ filter, sort, onChange }: { filter: LogFilter; sort: LogSort; onChange: (filter: LogFilter, sort: LogSort) => void }) {
  const [search, setSearch] = useState(filter.search ?? '');
  const [debounced] = useDebouncedValue(search, 250);
  useEffect(() => {
    if ((filter.search ?? '') !== debounced.trim()) onChange({ ...filter, search: debounced.trim() || undefined }, sort);
  }, [debounced]); // eslint-disable-line react-hooks/exhaustive-deps

  const set = (patch: Partial<LogFilter>) => onChange({ ...filter, ...patch }, sort);
  const badRange = filter.from && filter.to && filter.from > filter.to;
  return (
    <Group gap="sm" align="flex-end" wrap="wrap">
      <TextInput
        label="Search"
        placeholder="Part of a phone number or transaction id"
        value={search}
        onChange={(e) => setSearch(e.currentTarget.value)}
        w={280}
        data-testid="filter-search"
      />
      <TextInput label="From" type="date" value={filter.from ?? ''} onChange={(e) => set({ from: e.currentTarget.value || undefined })} w={150} error={badRange ? 'After “To”' : undefined} data-testid="filter-from" />
      <TextInput label="To" type="date" value={filter.to ?? ''} onChange={(e) => set({ to: e.currentTarget.value || undefined })} w={150} data-testid="filter-to" />
      <Select label="Status" placeholder="Any status" data={STATUS} value={filter.status ?? null} onChange={(v) => set({ status: (v ?? undefined) as LogFilter['status'] })} clearable w={140} data-testid="filter-status" />
      <Select label="Type" placeholder="Any type" data={TYPES} value={filter.type ?? null} onChange={(v) => set({ type: (v ?? undefined) as LogFilter['type'] })} clearable w={140} data-testid="filter-type" />
      <Select label="Network / provider" placeholder="Any" data={NETWORKS} value={filter.network ?? null} onChange={(v) => set({ network: v ?? undefined })} clearable searchable w={160} data-testid="filter-network" />
      <Select label="Sort" data={SORTS} value={sort} onChange={(v) => v && onChange(filter, v as LogSort)} allowDeselect={false} w={190} data-testid="sort" />
      <Button
        variant="subtle"
        onClick={() => {
          setSearch('');
          onChange({}, 'time_desc');
        }}
      >
        Clear filters
      </Button>
    </Group>
  );
}
