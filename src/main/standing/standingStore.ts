/**
 * SQLite access for standing orders: the orders, their versions (append-only once confirmed:
 * migration 31) and reading their occurrences. An occurrence's state is written only by
 * `occurrenceMoves.ts`; an order's state only by `setState` here, along `ORDER_MOVES`.
 */
import { randomUUID } from 'node:crypto';
import { AppError } from '../../shared/appError';
import type { BulkKind } from '../../shared/contract/bulk';
import type { OccurrenceState, StandingOrderState, WaitingReason, WeekendMove } from '../../shared/contract/standing';
import type { Connection } from '../appContext';
import type { Db } from '../store/database';

/** One row of an order, as its versions keep it: what each occurrence buys (a bulk item's fields). */
export interface StoredRow {
  rowNumber: number;
  phone: string;
  network: string;
  productCode: string;
  amountKobo: number;
  name: string;
  note: string;
  description: string;
  account: string | null;
  vendType: string | null;
  accountName: string | null;
}

export interface OrderRow {
  id: string;
  name: string;
  kind: BulkKind;
  profile_id: string;
  connection_kind: 'sandbox' | 'live';
  base_url: string;
  state: StandingOrderState;
  version: number | null;
  team: number;
  created_by: string;
  created_at: string;
  state_by: string | null;
  state_at: string | null;
  state_day: string | null;
}

export interface VersionRow {
  order_id: string;
  version: number;
  name: string;
  rule: string;
  weekend: WeekendMove;
  grace_days: number;
  effective_from: string;
  rows_json: string;
  rows_digest: string | null;
  item_count: number;
  total_kobo: number;
  source: string;
  change: string;
  changed_by: string;
  changed_at: string;
  confirmed_by: string | null;
  confirmed_at: string | null;
}

export interface OccurrenceRow {
  order_id: string;
  scheduled_day: string;
  due_day: string;
  state: OccurrenceState;
  reason_code: WaitingReason | 'skipped' | null;
  reason: string | null;
  version: number | null;
  job_id: string | null;
  team_job_id: string | null;
  claimed_here: number;
  waiting_rows_json: string | null;
  missing_kobo: number | null;
  decided_by: string | null;
  created_at: string;
  updated_at: string;
}

/** What a new version is written from. */
export interface NewVersion {
  name: string;
  rule: string;
  weekend: WeekendMove;
  graceDays: number;
  effectiveFrom: string;
  rows: readonly StoredRow[];
  rowsDigest: string | null;
  source: string;
  change: string;
  changedBy: string;
}

/** The moves of an order's own state, by name: where each comes from. */
export const ORDER_MOVES = {
  confirm: { from: ['draft'], to: 'active' },
  pause: { from: ['active'], to: 'paused' },
  resume: { from: ['paused'], to: 'active' },
  end: { from: ['active', 'paused'], to: 'ended' },
} as const satisfies Record<string, { from: readonly StandingOrderState[]; to: StandingOrderState }>;

export type OrderMoveName = keyof typeof ORDER_MOVES;

const now = (): string => new Date().toISOString();

export class StandingStore {
  constructor(readonly db: Db) {}

  // ------------------------------------------------------------------ orders

  /** A new order, a draft, with its first version (not confirmed). Returns its id. */
  createOrder(
    order: { id?: string; name: string; kind: BulkKind; connection: Pick<Connection, 'profileId' | 'kind' | 'baseUrl'>; team: boolean; createdBy: string },
    first: NewVersion,
  ): string {
    const id = order.id ?? randomUUID();
    const at = now();
    this.db.transaction(() => {
      this.db
        .prepare(
          `INSERT INTO standing_orders (id, name, kind, profile_id, connection_kind, base_url, state, version, team, created_by, created_at)
           VALUES (?, ?, ?, ?, ?, ?, 'draft', NULL, ?, ?, ?)`,
        )
        .run(id, order.name, order.kind, order.connection.profileId, order.connection.kind, order.connection.baseUrl, order.team ? 1 : 0, order.createdBy, at);
      this.insertVersion(id, 1, first, at);
    })();
    return id;
  }

  private insertVersion(orderId: string, version: number, v: NewVersion, at: string): void {
    const total = v.rows.reduce((s, r) => s + r.amountKobo, 0);
    this.db
      .prepare(
        `INSERT INTO standing_order_versions (order_id, version, name, rule, weekend, grace_days, effective_from, rows_json, rows_digest, item_count, total_kobo,
           source, change, changed_by, changed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        orderId,
        version,
        v.name,
        v.rule,
        v.weekend,
        v.graceDays,
        v.effectiveFrom,
        JSON.stringify(v.rows),
        v.rowsDigest,
        v.rows.length,
        total,
        v.source,
        v.change,
        v.changedBy,
        at,
      );
  }

  /** A new version of an order, not confirmed yet; the one prepared before and not confirmed is replaced. Returns its number. */
  addVersion(orderId: string, v: NewVersion): number {
    return this.db.transaction(() => {
      this.db.prepare('DELETE FROM standing_order_versions WHERE order_id = ? AND confirmed_at IS NULL').run(orderId);
      const last = this.db.prepare('SELECT MAX(version) AS v FROM standing_order_versions WHERE order_id = ?').get(orderId) as { v: number | null };
      const version = (last.v ?? 0) + 1;
      this.insertVersion(orderId, version, v, now());
      return version;
    })();
  }

  /**
   * The version prepared last is the order's from now on: confirmed by `by`, its dates its own
   * from `effectiveFrom`; a draft order becomes active. False when there is no version to confirm.
   */
  confirmVersion(orderId: string, version: number, by: string, effectiveFrom: string, rowsDigest: string | null): boolean {
    return this.db.transaction(() => {
      const at = now();
      const r = this.db
        .prepare(
          `UPDATE standing_order_versions SET confirmed_by = ?, confirmed_at = ?, effective_from = MAX(effective_from, ?), rows_digest = COALESCE(?, rows_digest)
           WHERE order_id = ? AND version = ? AND confirmed_at IS NULL`,
        )
        .run(by, at, effectiveFrom, rowsDigest, orderId, version);
      if (r.changes !== 1) return false;
      // The order is called as its version in force is.
      this.db
        .prepare('UPDATE standing_orders SET version = ?, name = (SELECT name FROM standing_order_versions WHERE order_id = ? AND version = ?) WHERE id = ?')
        .run(version, orderId, version, orderId);
      this.move('confirm', orderId, by, effectiveFrom, { quiet: true });
      return true;
    })();
  }

  /** Forgets a version never confirmed (and the order, when it never had one). */
  discardUnconfirmed(orderId: string): 'order' | 'version' | null {
    return this.db.transaction(() => {
      const order = this.order(orderId);
      if (!order) return null;
      if (order.state === 'draft') {
        this.db.prepare('DELETE FROM standing_orders WHERE id = ?').run(orderId);
        return 'order';
      }
      return this.db.prepare('DELETE FROM standing_order_versions WHERE order_id = ? AND confirmed_at IS NULL').run(orderId).changes > 0 ? 'version' : null;
    })();
  }

  /** Moves an order's own state by `name`; false when it was not where the move comes from (`quiet`: a draft that is already active is fine). */
  move(name: OrderMoveName, orderId: string, by: string, day: string, options: { quiet?: boolean } = {}): boolean {
    const m = ORDER_MOVES[name];
    const from = m.from.map((s) => `'${s}'`).join(', ');
    const r = this.db
      .prepare(`UPDATE standing_orders SET state = ?, state_by = ?, state_at = ?, state_day = ? WHERE id = ? AND state IN (${from})`)
      .run(m.to, by, now(), day, orderId);
    return r.changes === 1 || options.quiet === true;
  }

  order(id: string): OrderRow | undefined {
    return this.db.prepare('SELECT * FROM standing_orders WHERE id = ?').get(id) as OrderRow | undefined;
  }

  /** An order of the connection in use. */
  ownOrder(id: string, connection: Connection): OrderRow {
    const order = this.order(id);
    if (!order) throw new AppError('standing_not_found', `There is no standing order ${id}.`, 'List the standing orders of this connection with `vendesk standing list`.');
    if (order.profile_id !== connection.profileId) {
      throw new AppError(
        'standing_other_connection',
        `Standing order ${id} buys on another connection (${order.connection_kind.toUpperCase()} ${order.base_url}); vendesk is now connected to ${connection.kind.toUpperCase()} ${connection.profileName}.`,
        'Switch to the connection the order was made on (Settings → Connection profiles, or the same --base-url) to see or run it.',
      );
    }
    return order;
  }

  /** The orders of one connection profile (of these states), newest first. */
  orders(profileId: string, states?: readonly StandingOrderState[]): OrderRow[] {
    const all = this.db.prepare('SELECT * FROM standing_orders WHERE profile_id = ? ORDER BY created_at DESC').all(profileId) as OrderRow[];
    return states ? all.filter((o) => states.includes(o.state)) : all;
  }

  // ------------------------------------------------------------------ versions

  /** Every version of an order, oldest first (the one not confirmed yet last). */
  versions(orderId: string): VersionRow[] {
    return this.db.prepare('SELECT * FROM standing_order_versions WHERE order_id = ? ORDER BY version').all(orderId) as VersionRow[];
  }

  version(orderId: string, version: number): VersionRow | undefined {
    return this.db.prepare('SELECT * FROM standing_order_versions WHERE order_id = ? AND version = ?').get(orderId, version) as VersionRow | undefined;
  }

  /** The version prepared and not confirmed yet, if any. */
  pendingVersion(orderId: string): VersionRow | undefined {
    return this.db.prepare('SELECT * FROM standing_order_versions WHERE order_id = ? AND confirmed_at IS NULL').get(orderId) as VersionRow | undefined;
  }

  // ------------------------------------------------------------------ occurrences (read; written by occurrenceMoves.ts)

  occurrence(orderId: string, scheduledDay: string): OccurrenceRow | undefined {
    return this.db.prepare('SELECT * FROM standing_occurrences WHERE order_id = ? AND scheduled_day = ?').get(orderId, scheduledDay) as OccurrenceRow | undefined;
  }

  /** The occurrences of an order, newest first (`limit` of them). */
  occurrences(orderId: string, limit = -1): OccurrenceRow[] {
    return this.db.prepare('SELECT * FROM standing_occurrences WHERE order_id = ? ORDER BY scheduled_day DESC LIMIT ?').all(orderId, limit) as OccurrenceRow[];
  }

  /** The occurrence whose job is `jobId`, if any. */
  occurrenceOfJob(jobId: string): OccurrenceRow | undefined {
    return this.db.prepare('SELECT * FROM standing_occurrences WHERE job_id = ?').get(jobId) as OccurrenceRow | undefined;
  }

  /** Occurrences of one connection's orders in `state`. */
  occurrencesIn(profileId: string, state: OccurrenceState): OccurrenceRow[] {
    return this.db
      .prepare('SELECT c.* FROM standing_occurrences c JOIN standing_orders o ON o.id = c.order_id WHERE o.profile_id = ? AND c.state = ? ORDER BY c.scheduled_day')
      .all(profileId, state) as OccurrenceRow[];
  }

  /**
   * Started occurrences of one connection's orders whose run is not over here: their job is running
   * (perhaps left so by a vendesk that stopped) or waits for approval, or their team job was claimed
   * here and has no job on this desktop yet.
   */
  unfinishedStarted(profileId: string): OccurrenceRow[] {
    return this.db
      .prepare(
        `SELECT c.* FROM standing_occurrences c JOIN standing_orders o ON o.id = c.order_id LEFT JOIN bulk_jobs j ON j.id = c.job_id
          WHERE o.profile_id = ? AND c.state = 'started'
            AND ((c.job_id IS NULL AND c.team_job_id IS NOT NULL AND c.claimed_here = 1) OR j.state IN ('running', 'awaiting_approval'))
          ORDER BY c.scheduled_day`,
      )
      .all(profileId) as OccurrenceRow[];
  }

  /** The local bulk jobs of an order's occurrences (its earlier runs). */
  jobsOfOrder(orderId: string): string[] {
    return (this.db.prepare('SELECT job_id FROM standing_occurrences WHERE order_id = ? AND job_id IS NOT NULL').all(orderId) as { job_id: string }[]).map((r) => r.job_id);
  }
}

export function rowsOf(v: Pick<VersionRow, 'rows_json'>): StoredRow[] {
  return JSON.parse(v.rows_json) as StoredRow[];
}
