/**
 * The filter choices of the Transactions page, from the data of one connection's mirror: the
 * networks or providers present per type, and the statuses present. Kept in `log_facets`
 * (migration 011) as rows are written, so reading them costs a few rows, not a walk of the mirror.
 */
import type { LogFacets, MirrorStatus, MirrorType } from '../../shared/contract/logs';
import type { Statement } from 'better-sqlite3';
import type { Db } from '../store/database';
import type { ReadableDB } from '../store/readableDb';

const TYPE_ORDER: readonly MirrorType[] = ['AIRTIME', 'DATA', 'ELECTRICITY', 'CABLETV'];
const STATUS_ORDER: readonly MirrorStatus[] = ['SUCCESS', 'FAILED', 'PENDING'];

interface FacetSource {
  type: string;
  network: string;
  status: string;
}

const inserts = new WeakMap<Db, Statement<string[]>>();

/** Notes the (type, network, status) of newly written rows; call in the writer's transaction. */
export function recordLogFacets(db: Db, profileId: string, rows: Iterable<FacetSource>): void {
  let insert = inserts.get(db);
  if (!insert) {
    insert = db.prepare<string[]>('INSERT OR IGNORE INTO log_facets (profile_id, type, network, status) VALUES (?, ?, ?, ?)');
    inserts.set(db, insert);
  }
  // A batch holds a few dozen combinations at most: compared in a short list, no key made per row.
  const seen: FacetSource[] = [];
  for (const r of rows) {
    if (seen.some((s) => s.type === r.type && s.network === r.network && s.status === r.status)) continue;
    seen.push(r);
    insert.run(profileId, r.type, r.network, r.status);
  }
}

export function logFacets(db: ReadableDB, profileId: string): LogFacets {
  const pairs = db.prepare('SELECT DISTINCT type, network FROM log_facets WHERE profile_id = ? ORDER BY network').all(profileId) as { type: string; network: string }[];
  const byType = new Map<string, string[]>();
  for (const p of pairs) byType.set(p.type, [...(byType.get(p.type) ?? []), p.network]);
  const statuses = new Set(db.prepare('SELECT DISTINCT status FROM log_facets WHERE profile_id = ?').pluck().all(profileId) as string[]);
  // A PENDING entry settles in place: the choice stays only while one is still pending (partial index).
  if (statuses.has('PENDING') && !db.prepare("SELECT 1 FROM log_entries WHERE profile_id = ? AND status = 'PENDING' LIMIT 1").get(profileId)) statuses.delete('PENDING');
  return {
    networks: [...byType.keys()]
      .sort((a, b) => rank(TYPE_ORDER, a) - rank(TYPE_ORDER, b) || a.localeCompare(b))
      .map((type) => ({ type: type as MirrorType, networks: byType.get(type) ?? [] })),
    statuses: STATUS_ORDER.filter((s) => statuses.has(s)),
  };
}

function rank(order: readonly string[], value: string): number {
  const i = order.indexOf(value);
  return i < 0 ? order.length : i;
}
