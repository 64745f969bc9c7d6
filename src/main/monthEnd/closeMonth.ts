/**
 * Closing and reopening a month on this desktop (migration 38). A close keeps what it counted of
 * every entry of the month (its state and cost centre), the adjustments it counted (changes to
 * entries of the closed months before it), and the wallet's and messaging's figures; from then on
 * the month's close pack and journal are made from what it kept, and any later change to one of its
 * entries is an adjustment of the next open month. A reopen is explicit, says why, and is audited
 * like a close; a month is closed and reopened in order (never one before a later closed month).
 */
import { AppError } from '../../shared/appError';
import { lagosDayOf } from '../../shared/localDates';
import { monthDays } from '../../shared/months';
import type { Db } from '../store/database';
import { messagingSpend } from '../messaging/messagingSpend';
import { adjustmentsSql, monthQuery, monthWallet, ownEntriesSql } from './monthFigures';
import { closedMonths, type KeptFigures } from './monthCloses';

export interface CloseWho {
  /** Who closes or reopens (a person's name on this desktop, a member in a team). */
  by: string;
  /** Now on the service's clock, epoch ms: the day a close belongs to is the service's. */
  serviceNowMs: number;
}

/** Refusals shared by the desktop and the team: a month not over, closed out of order. */
export function checkCanClose(month: string, closed: readonly string[], serviceNowMs: number): void {
  const { to } = monthDays(month);
  const today = lagosDayOf(serviceNowMs);
  if (today <= to) {
    throw new AppError(
      'month_not_over',
      `${month} is not over yet: its last day is ${to} and today is ${today} (Lagos, on the service's clock).`,
      `Close ${month} on or after the first day of the next month.`,
    );
  }
  if (closed.includes(month))
    throw new AppError(
      'month_already_closed',
      `${month} is already closed.`,
      `Its close pack and journal are kept as closed; reopen it first (vendesk month reopen ${month} --reason …) to change it.`,
    );
  const later = closed.filter((m) => m > month);
  if (later.length > 0) {
    throw new AppError(
      'month_later_closed',
      `${month} cannot be closed while a later month is closed (${later.join(', ')}).`,
      `Months close in order: reopen ${later[later.length - 1]} first.`,
    );
  }
}

export function checkCanReopen(month: string, closed: readonly string[]): void {
  if (!closed.includes(month)) throw new AppError('month_not_closed', `${month} is not closed.`, 'Only a closed month can be reopened.');
  const later = closed.filter((m) => m > month);
  if (later.length > 0) {
    throw new AppError('month_later_closed', `${month} cannot be reopened while a later month is closed (${later.join(', ')}).`, `Reopen ${later[later.length - 1]} first.`);
  }
}

export function closeMonthHere(db: Db, profileId: string, month: string, who: CloseWho): void {
  db.transaction(() => {
    checkCanClose(month, closedMonths(db, profileId), who.serviceNowMs);
    const q = monthQuery(db, profileId, month);
    const figures: KeptFigures = { messaging: messagingSpend(db, profileId, q.fromIso, q.untilIso), wallet: monthWallet(db, q) };
    const now = new Date().toISOString();
    const serviceNow = new Date(who.serviceNowMs).toISOString();
    db.prepare(
      `INSERT INTO month_closes (profile_id, month, state, closed_at, service_closed_at, closed_by, figures) VALUES (@profile, @month, 'closed', @now, @serviceNow, @by, @figures)
       ON CONFLICT (profile_id, month) DO UPDATE SET state = 'closed', closed_at = excluded.closed_at, service_closed_at = excluded.service_closed_at, closed_by = excluded.closed_by, figures = excluded.figures`,
    ).run({ profile: profileId, month, now, serviceNow, by: who.by, figures: JSON.stringify(figures) });
    db.prepare('DELETE FROM month_close_entries WHERE profile_id = ? AND month = ?').run(profileId, month);
    // The adjustments first: they are found against the closes before this one.
    db.prepare(
      `INSERT INTO month_close_entries (profile_id, month, log_id, own, status, cost_centre, was_status, was_cost_centre, was_month)
       SELECT @profile, @month, logId, 0, status, costCentre, wasStatus, wasCostCentre, wasMonth FROM (${adjustmentsSql(false)})`,
    ).run(q);
    db.prepare(
      `INSERT INTO month_close_entries (profile_id, month, log_id, own, status, cost_centre) SELECT @profile, @month, logId, 1, status, costCentre FROM (${ownEntriesSql(false)})`,
    ).run(q);
    db.prepare(`INSERT INTO month_close_events (profile_id, month, action, at, service_at, by, reason) VALUES (?, ?, 'close', ?, ?, ?, NULL)`).run(
      profileId,
      month,
      now,
      serviceNow,
      who.by,
    );
  }).immediate();
}

export function reopenMonthHere(db: Db, profileId: string, month: string, who: CloseWho, reason: string): void {
  db.transaction(() => {
    checkCanReopen(month, closedMonths(db, profileId));
    const now = new Date().toISOString();
    db.prepare(`UPDATE month_closes SET state = 'reopened' WHERE profile_id = ? AND month = ?`).run(profileId, month);
    db.prepare('DELETE FROM month_close_entries WHERE profile_id = ? AND month = ?').run(profileId, month);
    db.prepare(`INSERT INTO month_close_events (profile_id, month, action, at, service_at, by, reason) VALUES (?, ?, 'reopen', ?, ?, ?, ?)`).run(
      profileId,
      month,
      now,
      new Date(who.serviceNowMs).toISOString(),
      who.by,
      reason,
    );
  }).immediate();
}
