/**
 * The wallet, read from the service, and its history: every reading is kept as a snapshot of its
 * connection (`source` says who read it: 'sync', 'purchase', 'balance', …), placed on the
 * service's clock by the answer's `Date` header as a window `[taken_at, taken_to]` (see
 * src/main/api/serviceTime.ts). Reconciliation rolls the wallet forward between two of them.
 */
import type { ServiceWindow } from '../api/serviceTime';
import { readNgnWallet, type WalletReading } from '../api/walletReading';
import type { AppPart, Session } from '../appContext';
import type { Db } from '../store/database';
import { prepared } from '../store/prepared';

export interface BalanceSnapshotRow {
  id: number;
  /** Earliest moment of the reading, service clock (ISO). */
  takenAt: string;
  /** Latest moment of the reading, service clock (ISO). */
  takenTo: string;
  balanceKobo: number;
  source: string;
  clock: 'service' | 'local';
}

const COLUMNS = 'id, taken_at AS takenAt, coalesce(taken_to, taken_at) AS takenTo, balance_kobo AS balanceKobo, source, clock';

/** `local`: when the request left and the answer arrived on this computer's clock. */
export function recordBalanceSnapshot(
  db: Db,
  profileId: string,
  balanceKobo: number,
  source: string,
  at: ServiceWindow,
  local?: { fromMs: number; toMs: number },
): BalanceSnapshotRow {
  const takenAt = new Date(at.fromMs).toISOString();
  const takenTo = new Date(at.toMs).toISOString();
  const info = prepared(
    db,
    'INSERT INTO balance_snapshots (profile_id, taken_at, taken_to, balance_kobo, source, clock, local_from_ms, local_to_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  ).run(profileId, takenAt, takenTo, balanceKobo, source, at.clock, local?.fromMs ?? null, local?.toMs ?? null);
  return { id: Number(info.lastInsertRowid), takenAt, takenTo, balanceKobo, source, clock: at.clock };
}

/** The newest snapshots of a profile, newest first. */
export function latestBalanceSnapshots(db: Db, profileId: string, limit = 10): BalanceSnapshotRow[] {
  return db.prepare(`SELECT ${COLUMNS} FROM balance_snapshots WHERE profile_id = ? ORDER BY taken_at DESC, id DESC LIMIT ?`).all(profileId, limit) as BalanceSnapshotRow[];
}

/** Snapshots taken in [fromIso, toIso], oldest first. */
export function balanceSnapshotsBetween(db: Db, profileId: string, fromIso: string, toIso: string): BalanceSnapshotRow[] {
  return db
    .prepare(`SELECT ${COLUMNS} FROM balance_snapshots WHERE profile_id = ? AND taken_at >= ? AND taken_at <= ? ORDER BY taken_at, id`)
    .all(profileId, fromIso, toIso) as BalanceSnapshotRow[];
}

export type { WalletReading } from '../api/walletReading';

/**
 * Reads the NGN wallet of the session's connection (`api/walletReading.ts`, the one reader) and
 * keeps the reading as a snapshot of that connection. Throws what the client throws; `no_wallet`
 * when the service reports no wallet.
 */
export async function readWallet(app: AppPart<'db'>, source: string, session: Session, signal?: AbortSignal): Promise<WalletReading> {
  const reading = await readNgnWallet(session.client, signal);
  if (source !== 'check' || !recentlyTheSame(app.db, session.connection.profileId, reading)) keepWalletReading(app, session, reading, source);
  return reading;
}

/** Keeps a reading of `session`'s wallet as a snapshot of its connection: a purchase keeps the wallet it read in its own write. */
export function keepWalletReading(app: AppPart<'db'>, session: Session, reading: WalletReading, source: string): void {
  recordBalanceSnapshot(app.db, session.connection.profileId, reading.balanceKobo, source, reading.at, reading.local);
}

/** The periodic connection check keeps a reading only when the wallet moved or 10 minutes passed. */
function recentlyTheSame(db: Db, profileId: string, reading: WalletReading): boolean {
  const last = latestBalanceSnapshots(db, profileId, 1)[0];
  return last !== undefined && last.balanceKobo === reading.balanceKobo && reading.at.fromMs - Date.parse(last.takenAt) < 10 * 60_000;
}

/** The wallet of `session`'s connection read now and kept as a snapshot, or null when it cannot be read. */
export async function walletKoboOrNull(app: AppPart<'db'>, source: string, session: Session): Promise<number | null> {
  try {
    return (await readWallet(app, source, session)).balanceKobo;
  } catch {
    return null;
  }
}
