/** The filters of the Transactions page, matching the log endpoint's: dates, status, type, network, search; the cost centre (docs/cost-centres.md); and the sort. */
import { Button, Group, Select, TextInput, type ComboboxData } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useState } from 'react';
import type { LogFacets, LogFilter, LogSort } from '../../../../shared/contract/logs';
import { typeLabel } from './VirtualLogTable';
import { DateField } from '../DateField';
import { useOperation } from '../../hooks/useOperation';

/** What an entry charged to no cost centre is filed under (the view's `Unassigned`), always a choice. */
const UNASSIGNED = 'Unassigned';

const STATUS_LABEL: Record<string, string> = { SUCCESS: 'Successful', FAILED: 'Failed', PENDING: 'Pending' };
const SORTS: { value: LogSort; label: string }[] = [
  { value: 'time_desc', label: 'Newest first' },
  { value: 'time_asc', label: 'Oldest first' },
  { value: 'amount_desc', label: 'Largest amount first' },
  { value: 'amount_asc', label: 'Smallest amount first' },
];

/** `values` as options, plus the chosen one when the data no longer has it, so a filter in force is never hidden. */
function options(values: string[], chosen: string | undefined, label: (v: string) => string = (v) => v) {
  const all = chosen && !values.includes(chosen) ? [...values, chosen] : values;
  return all.map((v) => ({ value: v, label: label(v) }));
}

/**
 * Networks and providers of the type chosen, or of every type grouped by the types they serve
 * ("Airtime and Data": MTN…, "Electricity": IKEDC…, "Cable TV": DSTV…). Each appears once.
 */
function networkOptions(facets: LogFacets | undefined, filter: LogFilter): ComboboxData {
  const typesOf = new Map<string, string[]>();
  for (const g of facets?.networks ?? []) {
    if (filter.type && g.type !== filter.type) continue;
    for (const n of g.networks) typesOf.set(n, [...(typesOf.get(n) ?? []), g.type]);
  }
  const chosen = filter.network && !typesOf.has(filter.network) ? [{ value: filter.network, label: filter.network }] : [];
  if (filter.type) return [...options([...typesOf.keys()], undefined), ...chosen];
  const groups = new Map<string, string[]>();
  for (const [network, types] of typesOf) {
    const label = types.map(typeLabel).join(' and ');
    groups.set(label, [...(groups.get(label) ?? []), network]);
  }
  return [...[...groups].map(([group, networks]) => ({ group, items: options(networks, undefined) })), ...chosen];
}

/** `facets`: the choices present in this connection's mirror (logs.facets); undefined while they load. */
export function LogFilters({
  filter,
  sort,
  facets,
  onChange,
}: {
  filter: LogFilter;
  sort: LogSort;
  facets: LogFacets | undefined;
  onChange: (filter: LogFilter, sort: LogSort) => void;
}) {
  const [search, setSearch] = useState(filter.search ?? '');
  const [debounced] = useDebouncedValue(search, 250);
  useEffect(() => {
    if ((filter.search ?? '') !== debounced.trim()) onChange({ ...filter, search: debounced.trim() || undefined }, sort);
  }, [debounced]); // eslint-disable-line react-hooks/exhaustive-deps

  const set = (patch: Partial<LogFilter>) => onChange({ ...filter, ...patch }, sort);
  const centres = useOperation('costCentres.inUse', {});
  const badRange = filter.from && filter.to && filter.from > filter.to;
  return (
    <Group gap="sm" align="flex-end" wrap="wrap">
      <TextInput
        label="Search"
        placeholder="Phone number or transaction id"
        value={search}
        onChange={(e) => setSearch(e.currentTarget.value)}
        w={280}
        data-testid="filter-search"
      />
      <DateField
        label="From"
        value={filter.from ?? ''}
        onChange={(d) => set({ from: d || undefined })}
        w={150}
        error={badRange ? 'After “To”' : undefined}
        data-testid="filter-from"
      />
      <DateField label="To" value={filter.to ?? ''} onChange={(d) => set({ to: d || undefined })} w={150} data-testid="filter-to" />
      <Select
        label="Status"
        placeholder="Any status"
        data={options(facets?.statuses ?? [], filter.status, (v) => STATUS_LABEL[v] ?? v)}
        value={filter.status ?? null}
        onChange={(v) => set({ status: (v ?? undefined) as LogFilter['status'] })}
        clearable
        w={140}
        data-testid="filter-status"
      />
      <Select
        label="Type"
        placeholder="Any type"
        data={options(
          (facets?.networks ?? []).map((g) => g.type),
          filter.type,
          typeLabel,
        )}
        value={filter.type ?? null}
        onChange={(v) => {
          const type = (v ?? undefined) as LogFilter['type'];
          // A network of another type would leave the list empty for no visible reason.
          const keeps = !type || !filter.network || facets?.networks.some((g) => g.type === type && g.networks.includes(filter.network ?? ''));
          set({ type, ...(keeps ? {} : { network: undefined }) });
        }}
        clearable
        w={140}
        data-testid="filter-type"
      />
      <Select
        label="Network / provider"
        placeholder="Any"
        data={networkOptions(facets, filter)}
        value={filter.network ?? null}
        onChange={(v) => set({ network: v ?? undefined })}
        nothingFoundMessage={facets ? 'None in this mirror' : 'Loading…'}
        maxDropdownHeight={400}
        clearable
        searchable
        w={180}
        data-testid="filter-network"
      />
      <Select
        label="Cost centre"
        placeholder="Any"
        data={options([...(centres.data ?? []).filter((c) => c !== UNASSIGNED), UNASSIGNED], filter.costCentre)}
        value={filter.costCentre ?? null}
        onChange={(v) => set({ costCentre: v ?? undefined })}
        clearable
        searchable
        w={170}
        data-testid="filter-cost-centre"
      />
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
