/**
 * The catalogs (airtime, data, cable, electricity) cached in SQLite per profile with the time
 * they were read, for the Catalog page (`catalog.get`); its Refresh re-reads the service
 * (`catalog.refresh`). A catalog never read is read on first use. Purchases and bulk jobs do not
 * read this cache: they ask the service for the catalog they sell from.
 */
import type { CatalogKind, Catalogs } from '../../shared/contract/logs';
import type { App } from '../app';

const KINDS: CatalogKind[] = ['airtime', 'data', 'cable', 'electricity'];

function readService(app: App, kind: CatalogKind): Promise<unknown[]> {
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

/**
 * Every catalog: from the cache, or from the service when `refresh` is set or a catalog was never
 * read. A refresh that fails leaves the cache as it was and throws the service's error.
 */
export async function getCatalogs(app: App, options: { refresh?: boolean } = {}): Promise<Catalogs> {
  const profileId = app.connection.profileId;
  const cached = new Map<CatalogKind, CachedRow>();
  for (const row of app.db.prepare('SELECT kind, read_at, body FROM catalog_cache WHERE profile_id = ?').all(profileId) as CachedRow[]) {
    cached.set(row.kind, row);
  }
  const missing = KINDS.filter((k) => options.refresh || !cached.has(k));
  if (missing.length > 0) {
    const read = await Promise.all(missing.map(async (kind) => ({ kind, body: await readService(app, kind) })));
    const readAt = new Date().toISOString();
    const save = app.db.prepare(
      `INSERT INTO catalog_cache (profile_id, kind, read_at, body) VALUES (?, ?, ?, ?)
       ON CONFLICT (profile_id, kind) DO UPDATE SET read_at = excluded.read_at, body = excluded.body`,
    );
    app.db.transaction(() => {
      for (const r of read) {
        const body = JSON.stringify(r.body);
        save.run(profileId, r.kind, readAt, body);
        cached.set(r.kind, { kind: r.kind, read_at: readAt, body });
      }
    })();
    app.events.emit('data.changed', { topics: ['catalog'] });
  }
  const body = <T>(kind: CatalogKind): T[] => JSON.parse(cached.get(kind)?.body ?? '[]') as T[];
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
