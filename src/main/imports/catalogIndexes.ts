/**
 * The catalogs a bulk sheet is validated against, indexed once per run (by code, by loose name,
 * amounts in kobo).
 */
import { nairaToKobo } from '../../shared/money';
import type { Network } from '../../shared/phone';
import type { AirtimeProduct, CableBouquet, DataPlan, ElectricityProvider } from '../../shared/wire';
import type { BulkKind } from './columnMapping';
import type { BulkCatalogs } from './validationResult';

/** The service's floor for airtime, whatever the catalog says: ₦100. */
const MIN_AIRTIME_KOBO = 10_000;

export function lower(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9]/g, '');
}

export interface Indexes {
  airtimeByNetwork: Map<Network, AirtimeProduct>;
  airtimeByCode: Map<string, AirtimeProduct>;
  plansByCode: Map<string, DataPlan>;
  plansByLowerCode: Map<string, DataPlan>;
  discoByCode: Map<string, ElectricityProvider>;
  discoByLooseName: Map<string, ElectricityProvider>;
  bouquetsByCode: Map<string, CableBouquet[]>;
  bouquetsByLowerCode: Map<string, CableBouquet>;
  providers: Map<string, string>;
  /** Catalog amounts in kobo, converted once: [min, max] for airtime and discos, [amount, amount] for plans and bouquets. */
  kobo: Map<object, [number, number]>;
}

export function buildIndexes(ctx: BulkCatalogs, kind: BulkKind): Indexes {
  const ix: Indexes = {
    airtimeByNetwork: new Map(),
    airtimeByCode: new Map(),
    plansByCode: new Map(),
    plansByLowerCode: new Map(),
    discoByCode: new Map(),
    discoByLooseName: new Map(),
    bouquetsByCode: new Map(),
    bouquetsByLowerCode: new Map(),
    providers: new Map(),
    kobo: new Map(),
  };
  for (const p of ctx.airtime) {
    if (!ix.airtimeByNetwork.has(p.network)) ix.airtimeByNetwork.set(p.network, p);
    ix.airtimeByCode.set(p.productCode, p);
    ix.kobo.set(p, [Math.max(MIN_AIRTIME_KOBO, nairaToKobo(p.minAmount)), nairaToKobo(p.maxAmount)]);
  }
  for (const p of ctx.data) {
    ix.plansByCode.set(p.productCode, p);
    ix.plansByLowerCode.set(p.productCode.toLowerCase(), p);
    const amount = nairaToKobo(p.amount);
    ix.kobo.set(p, [amount, amount]);
  }
  if (kind === 'electricity') {
    if (!ctx.electricity) throw new TypeError('validateBulkRows: the electricity catalog is required for electricity rows');
    for (const d of ctx.electricity) {
      ix.discoByCode.set(d.productCode, d);
      ix.discoByLooseName.set(lower(d.name), d);
      ix.kobo.set(d, [nairaToKobo(d.minAmount), nairaToKobo(d.maxAmount)]);
    }
  }
  if (kind === 'cable') {
    if (!ctx.cable) throw new TypeError('validateBulkRows: the cable catalog is required for cable rows');
    for (const b of ctx.cable) {
      const list = ix.bouquetsByCode.get(b.productCode);
      if (list) list.push(b);
      else ix.bouquetsByCode.set(b.productCode, [b]);
      ix.bouquetsByLowerCode.set(b.productCode.toLowerCase(), b);
      ix.providers.set(lower(b.network), b.network);
      const amount = nairaToKobo(b.amount);
      ix.kobo.set(b, [amount, amount]);
    }
  }
  return ix;
}
