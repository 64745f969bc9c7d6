/**
 * The electricity and cable TV catalogs a purchase is checked against: the one catalog cache
 * (`catalog/catalogCache.ts`), read from the service again when older than five minutes.
 */
import type { CableBouquet, ElectricityProvider } from '../../shared/wire';
import type { AppPart } from '../appContext';
import { freshCatalog } from '../catalog/catalogCache';

export interface VendingCatalogs {
  electricity(): Promise<ElectricityProvider[]>;
  cable(): Promise<CableBouquet[]>;
}

export function createVendingCatalogs(app: AppPart<'client' | 'connection' | 'db'>): VendingCatalogs {
  return {
    electricity: () => freshCatalog(app, 'electricity'),
    cable: () => freshCatalog(app, 'cable'),
  };
}
