/**
 * Changing a purchase's cost centre after it was bought (docs/cost-centres.md): the item's
 * `cost_centre` is set and the change recorded in `cost_centre_changes` in one transaction — which
 * purchase, from what, to what, who and when (the service's clock, so a month's close can tell a
 * change made after it). A purchase is named by its service reference (the log's transaction id,
 * what Transactions and every receipt show), on the connection in use. The item is written by its
 * one writer (buying/itemMoves.ts, `setCostCentre`); the record of the change is this module's own.
 */
import os from 'node:os';
import { AppError } from '../../shared/appError';
import type { Db } from '../store/database';
import { ItemMoves } from '../buying/itemMoves';
import type { CostCentreChangeView } from '../../shared/contract/costCentres';

export type CostCentreChange = CostCentreChangeView;

/** Who changes it on this desktop: the operating system's user. */
export function desktopActor(): string {
  try {
    return os.userInfo().username || 'this desktop';
  } catch {
    return 'this desktop';
  }
}

/** Sets the cost centre of the purchase `reference` of `profileId` to `to` (null: none) and records the change; unchanged: nothing recorded. */
export function changeCostCentre(
  db: Db,
  profileId: string,
  reference: string,
  to: string | null,
  who: { actor: string; actorKind: 'desktop' | 'team' },
  changedAt: string,
): CostCentreChange {
  return db.transaction(() => {
    const item = db
      .prepare(
        `SELECT i.job_id AS jobId, i.seq AS seq, i.cost_centre AS costCentre FROM bulk_items i JOIN bulk_jobs j ON j.id = i.job_id
         WHERE i.reference = ? AND j.profile_id = ?`,
      )
      .get(reference, profileId) as { jobId: string; seq: number; costCentre: string | null } | undefined;
    if (!item) {
      throw new AppError(
        'purchase_not_found',
        `No purchase of vendesk on this connection has the reference ${reference}.`,
        'Copy the transaction id from Transactions or the receipt. A purchase vendesk did not make takes its cost centre from the recipients list: import a list that names its phone, meter or smartcard.',
      );
    }
    const change: CostCentreChange = { reference, jobId: item.jobId, seq: item.seq, from: item.costCentre, to, ...who, changedAt };
    if (item.costCentre === to) return change;
    new ItemMoves(db).setCostCentre(item.jobId, item.seq, to);
    db.prepare(
      `INSERT INTO cost_centre_changes (profile_id, job_id, seq, reference, from_centre, to_centre, actor, actor_kind, changed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(profileId, item.jobId, item.seq, reference, item.costCentre, to, who.actor, who.actorKind, changedAt);
    return change;
  })();
}

/** The recorded changes of the purchase `reference` of `profileId`, oldest first. */
export function costCentreHistory(db: Pick<Db, 'prepare'>, profileId: string, reference: string): CostCentreChange[] {
  return db
    .prepare(
      `SELECT reference, job_id AS jobId, seq, from_centre AS "from", to_centre AS "to", actor, actor_kind AS actorKind, changed_at AS changedAt
       FROM cost_centre_changes WHERE profile_id = ? AND reference = ? ORDER BY id`,
    )
    .all(profileId, reference) as CostCentreChange[];
}
