/**
 * An organisation's changes to the priced catalogs (`/__sandbox/catalog`): a data plan or cable
 * bouquet repriced or withdrawn, as a provider does from one month to the next. The lists and the
 * purchases both read the catalog through here, so a withdrawn plan is neither listed nor sold and
 * a repriced one is sold at its new amount only.
 */
import { z } from 'zod';
import type { CableBouquet, DataPlan } from '../shared/wire';
import { CABLE_CATALOG, DATA_CATALOG, type CableProvider } from './catalogs';
import { parseBody, type Ctx } from './context';
import type { OrgState } from './core';
import { HttpError, ok, type Reply } from './httpErrors';
import { SUCCESS_MESSAGE } from '../shared/wire';

export interface CatalogChange {
  catalog: 'data' | 'cable';
  productCode: string;
  /** The new amount in Naira; absent when only withdrawn. */
  amount?: number;
  withdrawn: boolean;
}

const keyOf = (catalog: CatalogChange['catalog'], productCode: string): string => `${catalog}:${productCode}`;

function changed<T extends { productCode: string; amount: number }>(org: OrgState, catalog: CatalogChange['catalog'], item: T): T | null {
  const change = org.catalogChanges?.get(keyOf(catalog, item.productCode));
  if (!change) return item;
  if (change.withdrawn) return null;
  return change.amount === undefined ? item : { ...item, amount: change.amount };
}

function catalogOf<T extends { productCode: string; amount: number }>(org: OrgState, catalog: CatalogChange['catalog'], items: readonly T[]): T[] {
  if (!org.catalogChanges?.size) return items as T[];
  return items.flatMap((i) => changed(org, catalog, i) ?? []);
}

/** The organisation's data plans today. */
export const dataPlansOf = (org: OrgState): DataPlan[] => catalogOf(org, 'data', DATA_CATALOG);

/** The organisation's cable bouquets today. */
export const bouquetsOf = (org: OrgState): CableBouquet[] => catalogOf(org, 'cable', CABLE_CATALOG);

export function dataPlanOf(org: OrgState, productCode: string): DataPlan | undefined {
  const plan = DATA_CATALOG.find((p) => p.productCode === productCode);
  return plan && (changed(org, 'data', plan) ?? undefined);
}

export function bouquetOf(org: OrgState, provider: CableProvider, productCode: string): CableBouquet | undefined {
  const bouquet = CABLE_CATALOG.find((b) => b.network === provider && b.productCode === productCode);
  return bouquet && (changed(org, 'cable', bouquet) ?? undefined);
}

const changeBody = z
  .object({
    catalog: z.enum(['data', 'cable']),
    productCode: z.string().min(1).max(100),
    amount: z.number().positive().max(10_000_000).optional(),
    withdrawn: z.boolean().default(false),
  })
  .refine((b) => b.withdrawn || b.amount !== undefined, 'give a new "amount" (Naira) or "withdrawn": true');

const changesView = (org: OrgState): { changes: CatalogChange[] } => ({ changes: [...(org.catalogChanges?.values() ?? [])] });

/** POST: reprices or withdraws one plan or bouquet of this organisation; answers every change in force. */
export function changeCatalog(ctx: Ctx): Reply {
  const body = parseBody(ctx, changeBody, 'a JSON object like {"catalog": "data", "productCode": "MTN-1GB-30D", "amount": 1200} or {…, "withdrawn": true}');
  const known = body.catalog === 'data' ? DATA_CATALOG : CABLE_CATALOG;
  if (!known.some((p) => p.productCode === body.productCode)) {
    throw new HttpError(400, `product code "${body.productCode}" is not in the ${body.catalog} catalog (codes are case-sensitive)`);
  }
  const change: CatalogChange = { catalog: body.catalog, productCode: body.productCode, withdrawn: body.withdrawn, ...(body.amount === undefined ? {} : { amount: body.amount }) };
  (ctx.org.catalogChanges ??= new Map()).set(keyOf(body.catalog, body.productCode), change);
  return ok(ctx.ref, changesView(ctx.org), SUCCESS_MESSAGE);
}

export const readCatalogChanges = (ctx: Ctx): Reply => ok(ctx.ref, changesView(ctx.org), SUCCESS_MESSAGE);

/** DELETE: the catalogs back as the sandbox ships them. */
export function clearCatalogChanges(ctx: Ctx): Reply {
  ctx.org.catalogChanges = undefined;
  return ok(ctx.ref, changesView(ctx.org), SUCCESS_MESSAGE);
}
