/**
 * Which months of a connection are closed (migration 38): reads only. Closing and reopening are
 * closeMonth.ts.
 */
import type { MessagingSpend } from '../../shared/contract/dashboard';
import type { RollForward } from '../../shared/contract/reconcile';
import { shiftMonth } from '../../shared/months';
import type { ReadableDB } from '../store/readableDb';

/** What a close keeps beyond each entry's state: the figures the log alone cannot make again. */
export interface KeptFigures {
  messaging: MessagingSpend;
  wallet: RollForward;
}

export interface ClosedMonth {
  month: string;
  /** This computer's clock, and the service's (the day a close belongs to is the service's). */
  closedAt: string;
  serviceClosedAt: string;
  closedBy: string;
  figures: KeptFigures;
}

interface CloseRow {
  month: string;
  state: 'closed' | 'reopened';
  closed_at: string;
  service_closed_at: string;
  closed_by: string;
  figures: string;
}

const toClosed = (r: CloseRow): ClosedMonth => ({
  month: r.month,
  closedAt: r.closed_at,
  serviceClosedAt: r.service_closed_at,
  closedBy: r.closed_by,
  figures: JSON.parse(r.figures) as KeptFigures,
});

export function closedMonth(db: ReadableDB, profileId: string, month: string): ClosedMonth | null {
  const row = db.prepare(`SELECT * FROM month_closes WHERE profile_id = ? AND month = ? AND state = 'closed'`).get(profileId, month) as CloseRow | undefined;
  return row ? toClosed(row) : null;
}

/** The months closed on this connection, oldest first. */
export function closedMonths(db: ReadableDB, profileId: string): string[] {
  return (db.prepare(`SELECT month FROM month_closes WHERE profile_id = ? AND state = 'closed' ORDER BY month`).all(profileId) as { month: string }[]).map((r) => r.month);
}

/**
 * The first of the closed months just before `month` (none open between them and it): changes to
 * their entries are adjustments of `month` when it is open, since it is the next open month. When
 * the month before is open, `month` itself (nothing before it adjusts into it).
 */
export function adjustmentRunStart(db: ReadableDB, profileId: string, month: string): string {
  const closed = new Set(closedMonths(db, profileId));
  let start = month;
  while (closed.has(shiftMonth(start, -1))) start = shiftMonth(start, -1);
  return start;
}

/**
 * Where a change to an entry of `month` is counted: null while `month` is open (it is counted in
 * the month itself); once it is closed, the first open month after it — the adjustment's month.
 */
export function adjustmentMonthFor(db: ReadableDB, profileId: string, month: string): string | null {
  const closed = new Set(closedMonths(db, profileId));
  if (!closed.has(month)) return null;
  let next = shiftMonth(month, 1);
  while (closed.has(next)) next = shiftMonth(next, 1);
  return next;
}

export interface MonthCloseEvent {
  month: string;
  action: 'close' | 'reopen';
  at: string;
  serviceAt: string;
  by: string;
  reason: string | null;
}

export function closeEvents(db: ReadableDB, profileId: string, month?: string): MonthCloseEvent[] {
  return db
    .prepare(`SELECT month, action, at, service_at AS serviceAt, by, reason FROM month_close_events WHERE profile_id = ? AND (? IS NULL OR month = ?) ORDER BY id`)
    .all(profileId, month ?? null, month ?? null) as MonthCloseEvent[];
}
