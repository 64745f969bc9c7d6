/**
 * Writing the vending log mirror: upsert of parsed log entries by (profile, id). An entry that
 * comes back unchanged costs an index probe and no write; a status that moved (PENDING →
 * SUCCESS/FAILED) or a corrected field is updated in place and its search row kept in step.
 */
import type { ParsedLogEntry } from '../api/parseLogEntry';
import type { Statement } from 'better-sqlite3';
import type { Db } from '../store/database';

export interface UpsertCounts {
  inserted: number;
  updated: number;
}

const COLUMNS = [
  'profile_id', 'id', 'transaction_id', 'partner_reference', 'phone_number', 'amount_kobo', 'cost_kobo', 'commission_kobo',
  'type', 'network', 'operator', 'region', 'description', 'data_plan', 'status', 'time_text', 'created_at', 'updated_at', 'synced_at',
] as const;
const CHANGING = COLUMNS.filter((c) => c !== 'profile_id' && c !== 'id' && c !== 'synced_at');

const UPSERT_SQL = `INSERT INTO log_entries (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map(() => '?').join(', ')})
  ON CONFLICT (profile_id, id) DO UPDATE SET ${[...CHANGING, 'synced_at'].map((c) => `${c} = excluded.${c}`).join(', ')}
  WHERE ${CHANGING.map((c) => `${c} IS NOT excluded.${c}`).join(' OR ')}`;

type Param = string | number;

interface Statements {
  upsert: Statement<Param[]>;
  exists: Statement<Param[]>;
}

const cache = new WeakMap<Db, Statements>();

function statements(db: Db): Statements {
  let s = cache.get(db);
  if (!s) {
    s = {
      upsert: db.prepare<Param[]>(UPSERT_SQL),
      exists: db.prepare<Param[]>('SELECT 1 FROM log_entries WHERE profile_id = ? AND id = ?').pluck(),
    };
    cache.set(db, s);
  }
  return s;
}

/**
 * Upserts `entries` for `profileId` in the caller's transaction (wrap a page in one). Counts
 * what was new and what changed; entries identical to the mirror are neither.
 */
export function upsertLogEntries(db: Db, profileId: string, entries: readonly ParsedLogEntry[], syncedAt: string): UpsertCounts {
  const { upsert, exists } = statements(db);
  let inserted = 0;
  let updated = 0;
  for (const e of entries) {
    const known = exists.get(profileId, e.id) !== undefined;
    const info = upsert.run(
      profileId, e.id, e.transactionId, e.partnerReference, e.phoneNumber, e.amountKobo, e.costKobo, e.commissionKobo,
      e.type, e.network, e.operator, e.region, e.description, e.dataPlan, e.status, e.time, e.createdAt, e.updatedAt, syncedAt,
    );
    if (info.changes > 0) {
      if (known) updated++;
      else inserted++;
    }
  }
  return { inserted, updated };
}

/** Upserts in one transaction (benchmarks, tests, imports of many pages at once). */
export function upsertLogEntriesInTransaction(db: Db, profileId: string, entries: readonly ParsedLogEntry[], syncedAt: string): UpsertCounts {
  return db.transaction(() => upsertLogEntries(db, profileId, entries, syncedAt))();
}
