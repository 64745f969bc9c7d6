/**
 * The electricity and cable TV catalogs a purchase is checked against, read through the client
 * and kept for five minutes per connection (a disco's range or a bouquet's price rarely changes
 * within a session; the purchase itself is checked again by the service).
 */
import type { CableBouquet, ElectricityProvider } from '../../shared/wire';
import type { App } from '../app';

const TTL_MS = 5 * 60_000;

interface Cached<T> {
  baseUrl: string;
  at: number;
  value: T;
}

export interface VendingCatalogs {
  electricity(): Promise<ElectricityProvider[]>;
  cable(): Promise<CableBouquet[]>;
}

export function createVendingCatalogs(app: App): VendingCatalogs {
  let electricity: Cached<ElectricityProvider[]> | null = null;
  let cable: Cached<CableBouquet[]> | null = null;
  const fresh = <T>(c: Cached<T> | null): c is Cached<T> => c !== null && c.baseUrl === app.connection.baseUrl && Date.now() - c.at < TTL_MS;
  return {
    async electricity() {
      if (!fresh(electricity)) electricity = { baseUrl: app.connection.baseUrl, at: Date.now(), value: await app.client().electricityCatalog() };
      return electricity.value;
    },
    async cable() {
      if (!fresh(cable)) cable = { baseUrl: app.connection.baseUrl, at: Date.now(), value: await app.client().cableCatalog() };
      return cable.value;
    },
  };
}
