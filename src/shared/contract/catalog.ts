/**
 * The service's catalogs (airtime, data, cable TV, electricity) as the Catalog page shows them:
 * cached on this computer per connection with the time each was read, and read again on Refresh.
 */
import { z } from 'zod';
import { op } from './define';
import type { AirtimeProduct, CableBouquet, DataPlan, ElectricityProvider } from '../wire';

export const CATALOG_KINDS = ['airtime', 'data', 'cable', 'electricity'] as const;
export type CatalogKind = (typeof CATALOG_KINDS)[number];

export interface Catalogs {
  airtime: AirtimeProduct[];
  data: DataPlan[];
  cable: CableBouquet[];
  electricity: ElectricityProvider[];
  /** When each was read from the service. */
  readAt: Record<CatalogKind, string | null>;
}

export const catalogOperations = {
  'catalog.get': op(
    z.object({ kinds: z.array(z.enum(CATALOG_KINDS)).min(1).optional() }),
    'Catalogs from the cache (read from the service when never read); with `kinds`, only those are read from the service (the others as cached, or empty)',
  ).returns<Catalogs>(),
  'catalog.refresh': op(z.object({}), 'Read every catalog from the service again', { invalidates: ['catalog'] }).returns<Catalogs>(),
} as const;
