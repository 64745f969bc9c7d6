/**
 * Every mirrored log entry's cost centre: the SQL view `log_cost_centres` (made by schema step 36,
 * src/main/store/migrations/036_cost_centres.ts), and the reads built on it.
 *
 * `log_cost_centres` has one row per row of `log_entries` (every entry of every connection; filter
 * on `profile_id`), with these columns:
 *
 * | column | meaning |
 * |---|---|
 * | `entry_rowid` | the entry's `log_entries.rowid` |
 * | `profile_id`, `id`, `transaction_id`, `created_at`, `type`, `network`, `status`, `phone_number` | the entry's own (`created_at` UTC ISO) |
 * | `amount_kobo`, `cost_kobo`, `commission_kobo` | face value, wallet cost, commission: integer kobo |
 * | `cost_centre` | never NULL: see the rule below |
 * | `cost_centre_source` | `purchase`, `recipient` or `unassigned`: which part of the rule gave it |
 * | `recipient_name` | the recipients list's name for the entry's meter, smartcard or phone, else NULL |
 * | `job_id`, `item_seq` | vendesk's own purchase (bulk item) the entry is, else NULL |
 *
 * The rule, first that applies:
 * 1. the cost centre recorded on vendesk's own purchase: the bulk item (a spreadsheet's row or a
 *    single purchase's one item) whose service reference is the entry's `transaction_id`, of a job
 *    of the same connection, when it has one;
 * 2. the recipients list: for ELECTRICITY the meter and for CABLETV the smartcard the entry's
 *    description names ("… for meter N", "… for smartcard N"), then for any type the entry's phone;
 * 3. `'Unassigned'` (UNASSIGNED).
 *
 * It is a join, not code run per row: each entry is found in `bulk_items` by the unique index on
 * `reference`, its job by primary key, and the recipients by their primary key (kind, identifier),
 * so a filter on (`profile_id`, `created_at`) reads the month through `log_entries_created` and
 * groups it in one query; bench/costCentres.bench.ts prints the time for a 1,000,000-entry month
 * beside a plain scan of it.
 */
import type { ReadableDB } from '../store/readableDb';
import type { CostCentreSpend } from '../../shared/contract/reports';

/** The view's name, for a query that joins or reads it. */
export const LOG_COST_CENTRES = 'log_cost_centres';

/** What an entry with no cost centre of its own and no recipient rule is charged to. */
export const UNASSIGNED = 'Unassigned';

/** Spend of one cost centre and type: the statuses counted are the caller's (spend counts SUCCESS and PENDING). */
export type CostCentreSpendLine = CostCentreSpend;

/**
 * Spend by cost centre and type of a connection's entries created in [fromIso, untilIso) (UTC ISO)
 * with one of `statuses` — what left the wallet is SUCCESS and PENDING, as every spend figure
 * counts it. Ordered by cost centre (Unassigned last), then type. The query and its parameters,
 * for a reader of its own (the Dashboard's, on a worker thread: src/main/store/readOnWorker.ts).
 */
export function spendByCostCentreQuery(
  profileId: string,
  fromIso: string,
  untilIso: string,
  statuses: readonly string[] = ['SUCCESS', 'PENDING'],
): { sql: string; params: string[] } {
  const marks = statuses.map(() => '?').join(', ');
  return {
    sql: `SELECT cost_centre AS costCentre, type, count(*) AS purchases, COALESCE(sum(amount_kobo), 0) AS faceKobo,
         COALESCE(sum(cost_kobo), 0) AS costKobo, COALESCE(sum(commission_kobo), 0) AS commissionKobo
       FROM ${LOG_COST_CENTRES}
       WHERE profile_id = ? AND created_at >= ? AND created_at < ? AND status IN (${marks})
       GROUP BY cost_centre, type
       ORDER BY cost_centre = '${UNASSIGNED}', cost_centre, type`,
    params: [profileId, fromIso, untilIso, ...statuses],
  };
}

/** {@link spendByCostCentreQuery}'s lines, read on `db`. */
export function spendByCostCentre(
  db: ReadableDB,
  profileId: string,
  fromIso: string,
  untilIso: string,
  statuses: readonly string[] = ['SUCCESS', 'PENDING'],
): CostCentreSpendLine[] {
  const { sql, params } = spendByCostCentreQuery(profileId, fromIso, untilIso, statuses);
  return db.prepare(sql).all(...params) as CostCentreSpendLine[];
}

/** The cost centre of each mirrored entry of `rows` (by rowid), read through the view in one query: what the Transactions table and its detail show. */
export function withCostCentres<R extends { rowid: number }>(
  db: ReadableDB,
  rows: readonly R[],
): (R & { costCentre: string; costCentreSource: 'purchase' | 'recipient' | 'unassigned'; vendeskPurchase: boolean })[] {
  if (rows.length === 0) return [];
  const found = db
    .prepare(
      `SELECT entry_rowid AS rowid, cost_centre AS costCentre, cost_centre_source AS source, job_id IS NOT NULL AS own FROM ${LOG_COST_CENTRES} WHERE entry_rowid IN (SELECT value FROM json_each(?))`,
    )
    .all(JSON.stringify(rows.map((r) => r.rowid))) as { rowid: number; costCentre: string; source: 'purchase' | 'recipient' | 'unassigned'; own: number }[];
  const byRowid = new Map(found.map((f) => [f.rowid, f]));
  return rows.map((r) => {
    const f = byRowid.get(r.rowid);
    return { ...r, costCentre: f?.costCentre ?? UNASSIGNED, costCentreSource: f?.source ?? 'unassigned', vendeskPurchase: (f?.own ?? 0) === 1 };
  });
}

/**
 * The cost centres in use on a connection, sorted: those kept on its purchases and those of the
 * recipients list (which applies to every connection). Read from those two small tables, not from
 * the log, so the choices cost a few rows however long the log is; `Unassigned` is not among them.
 */
export function costCentresInUse(db: ReadableDB, profileId: string): string[] {
  return db
    .prepare(
      `SELECT DISTINCT i.cost_centre FROM bulk_items i JOIN bulk_jobs j ON j.id = i.job_id WHERE j.profile_id = ? AND i.cost_centre IS NOT NULL
       UNION SELECT cost_centre FROM recipients
       ORDER BY 1 COLLATE NOCASE`,
    )
    .pluck()
    .all(profileId) as string[];
}
