/**
 * The one cache of the service's catalogs (airtime, data, cable, electricity): in SQLite per
 * connection, each with the time it was read.
 *
 * - The Catalog page (`catalog.get`) shows what is cached, read from the service when never read;
 *   its Refresh (`catalog.refresh`) reads every catalog again.
 * - Purchases and bulk jobs check against a catalog no older than five minutes (`fresh`): a
 *   disco's range or a bouquet's price rarely changes within a session, and the purchase itself
 *   is checked again by the service. Reading it again updates what the Catalog page shows.
 *
 * A read that fails leaves the cache as it was and throws the service's error.
 */
import { CATALOG_KINDS, type CatalogKind, type Catalogs } from '../../shared/contract/catalog';
import type { AirtimeProduct, CableBouquet, DataPlan, ElectricityProvider } from '../../shared/wire';
import type { AppPart } from '../appContext';

/** How old a catalog a purchase is checked against may be. */
export const CATALOG_FRESH_MS = 5 * 60_000;

interface CatalogOf {
  airtime: AirtimeProduct;
  data: DataPlan;
  cable: CableBouquet;
  electricity: ElectricityProvider;
}

function readService(app: AppPart<'client'>, kind: CatalogKind): Promise<unknown[]> {
  const client = app.client();
  switch (kind) {
    case 'airtime':
      return client.airtimeCatalog();
    case 'data':
      return client.dataCatalog();
    case 'cable':
      return client.cableCatalog();
    case 'electricity':
      return client.electricityCatalog();
  }
}

interface CachedRow {
  kind: CatalogKind;
  read_at: string;
  body: string;
}

function cachedRows(app: AppPart<'db'>, profileId: string): Map<CatalogKind, CachedRow> {
  const rows = app.db.prepare('SELECT kind, read_at, body FROM catalog_cache WHERE profile_id = ?').all(profileId) as CachedRow[];
  return new Map(rows.map((r) => [r.kind, r]));
}

/** Reads `kinds` from the service and saves them for `profileId`, all or none. */
async function readAndSave(app: AppPart<'client' | 'db'>, profileId: string, kinds: readonly CatalogKind[], into: Map<CatalogKind, CachedRow>): Promise<void> {
  if (kinds.length === 0) return;
  const read = await Promise.all(kinds.map(async (kind) => ({ kind, body: await readService(app, kind) })));
  const readAt = new Date().toISOString();
  const save = app.db.prepare(
    `INSERT INTO catalog_cache (profile_id, kind, read_at, body) VALUES (?, ?, ?, ?)
     ON CONFLICT (profile_id, kind) DO UPDATE SET read_at = excluded.read_at, body = excluded.body`,
  );
  app.db.transaction(() => {
    for (const r of read) {
      const body = JSON.stringify(r.body);
      save.run(profileId, r.kind, readAt, body);
      into.set(r.kind, { kind: r.kind, read_at: readAt, body });
    }
  })();
}

/**
 * Every catalog, from the cache, or from the service when `refresh` is set or a catalog was never
 * read. With `kinds`, only those are read from the service: a page that needs two catalogs (the
 * Airtime and data tab) is not refused for a third the service cannot give now.
 */
export async function getCatalogs(app: AppPart<'client' | 'connection' | 'db'>, options: { refresh?: boolean; kinds?: readonly CatalogKind[] } = {}): Promise<Catalogs> {
  const profileId = app.connection.profileId;
  const cached = cachedRows(app, profileId);
  await readAndSave(
    app,
    profileId,
    (options.kinds ?? CATALOG_KINDS).filter((k) => options.refresh || !cached.has(k)),
    cached,
  );
  const body = <K extends CatalogKind>(kind: K): CatalogOf[K][] => JSON.parse(cached.get(kind)?.body ?? '[]') as CatalogOf[K][];
  return {
    airtime: body('airtime'),
    data: body('data'),
    cable: body('cable'),
    electricity: body('electricity'),
    readAt: {
      airtime: cached.get('airtime')?.read_at ?? null,
      data: cached.get('data')?.read_at ?? null,
      cable: cached.get('cable')?.read_at ?? null,
      electricity: cached.get('electricity')?.read_at ?? null,
    },
  };
}

/** One catalog read from the service within `maxAgeMs` (`CATALOG_FRESH_MS`): what a purchase is checked against. */
export async function freshCatalog<K extends CatalogKind>(app: AppPart<'client' | 'connection' | 'db'>, kind: K, maxAgeMs = CATALOG_FRESH_MS): Promise<CatalogOf[K][]> {
  const profileId = app.connection.profileId;
  const cached = cachedRows(app, profileId);
  const row = cached.get(kind);
  if (!row || !(Date.now() - Date.parse(row.read_at) < maxAgeMs)) await readAndSave(app, profileId, [kind], cached);
  return JSON.parse(cached.get(kind)?.body ?? '[]') as CatalogOf[K][];
}
