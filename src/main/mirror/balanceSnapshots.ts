/**
 * Wallet balance history: every sync records one snapshot (`source` 'sync'); reconciliation rolls
 * the wallet forward between two of them.
 */
import type { Db } from '../store/database';

export interface BalanceSnapshotRow {
  id: number;
  takenAt: string;
  balanceKobo: number;
  source: string;
}

export function recordBalanceSnapshot(db: Db, profileId: string, balanceKobo: number, source: string, takenAt = new Date().toISOString()): BalanceSnapshotRow {
  const info = db
    .prepare('INSERT INTO balance_snapshots (profile_id, taken_at, balance_kobo, source) VALUES (?, ?, ?, ?)')
    .run(profileId, takenAt, balanceKobo, source);
  return { id: Number(info.lastInsertRowid), takenAt, balanceKobo, source };
}

/** The newest snapshots of a profile, newest first. */
export function latestBalanceSnapshots(db: Db, profileId: string, limit = 10): BalanceSnapshotRow[] {
  return db
    .prepare(
      `SELECT id, taken_at AS takenAt, balance_kobo AS balanceKobo, source FROM balance_snapshots
        WHERE profile_id = ? ORDER BY taken_at DESC, id DESC LIMIT ?`,
    )
    .all(profileId, limit) as BalanceSnapshotRow[];
}

/** Snapshots taken in [fromIso, toIso], oldest first. */
export function balanceSnapshotsBetween(db: Db, profileId: string, fromIso: string, toIso: string): BalanceSnapshotRow[] {
  return db
    .prepare(
      `SELECT id, taken_at AS takenAt, balance_kobo AS balanceKobo, source FROM balance_snapshots
        WHERE profile_id = ? AND taken_at >= ? AND taken_at <= ? ORDER BY taken_at, id`,
    )
    .all(profileId, fromIso, toIso) as BalanceSnapshotRow[];
}
