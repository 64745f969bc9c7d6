/**
 * Month-end for the connection in use: a month's figures read complete (its days read first, or
 * refused naming them), its close pack and journal, and its summary for the window and the CLI.
 * A closed month is made from what its close kept and reads nothing from the service.
 */
import os from 'node:os';
import type { App } from '../appContext';
import type { MirrorCoverage, UnreadDays } from '../../shared/contract/logs';
import type { MonthSummary, MonthTotals } from '../../shared/contract/monthEnd';
import { monthDays } from '../../shared/months';
import { ensureDaysRead } from '../transactions/readMissingDays';
import { closedMonth } from './monthCloses';
import { monthFigures, totalOf, type CentreTypeLine, type MonthFigures } from './monthFigures';
import type { ReadPurpose } from '../../shared/contract/logs';

/**
 * A month's days are Lagos days on the service's clock: when vendesk may read the service, one
 * answer first teaches this process that clock (a command starts without it), so "today" and the
 * days still to read are the service's.
 */
export async function learnMonthClock(app: App, unread: UnreadDays, signal?: AbortSignal): Promise<void> {
  if (unread === 'read') await app.client().accountBalance({ signal });
}

/** The month's figures, its days read first when it is open (or refused, naming them). */
export async function readMonth(
  app: App,
  month: string,
  unread: UnreadDays,
  purpose: ReadPurpose,
  signal?: AbortSignal,
): Promise<{ figures: MonthFigures; coverage: MirrorCoverage | null }> {
  const closed = closedMonth(app.db, app.connection.profileId, month);
  if (!closed) await learnMonthClock(app, unread, signal);
  const coverage = closed ? null : await ensureDaysRead(app, monthDays(month), unread, { purpose, signal });
  return { figures: monthFigures(app.db, app.connection.profileId, month), coverage };
}

const totals = (t: Omit<CentreTypeLine, 'costCentre' | 'type'>): MonthTotals => ({
  purchases: t.purchases,
  faceKobo: t.faceKobo,
  costKobo: t.costKobo,
  commissionKobo: t.commissionKobo,
});

export function monthSummary(f: MonthFigures): MonthSummary {
  const byType = new Map<string, CentreTypeLine[]>();
  for (const l of f.spend) byType.set(l.type, [...(byType.get(l.type) ?? []), l]);
  return {
    month: f.month,
    from: f.from,
    to: f.to,
    closed: f.closed ? { closedAt: f.closed.closedAt, serviceClosedAt: f.closed.serviceClosedAt, closedBy: f.closed.closedBy } : null,
    purchases: totals(totalOf(f.spend)),
    byType: [...byType.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([type, lines]) => ({ type, ...totals(totalOf(lines)) })),
    byCostCentre: f.spend.map((l) => ({ costCentre: l.costCentre, type: l.type, ...totals(l) })),
    pending: { count: f.pending.count, costKobo: f.pending.costKobo },
    refunds: { count: f.refunds.count, costKobo: f.refunds.costKobo },
    adjustments: { entries: f.adjustmentCount, ...totals(totalOf(f.adjustments)), lines: f.adjustments.map((l) => ({ costCentre: l.costCentre, type: l.type, ...totals(l) })) },
    messaging: { messages: f.messaging.messages, costKobo: f.messaging.costKobo },
    wallet: f.wallet,
  };
}

/** Who closes on this desktop: the computer's user (a team names its member). */
export function deskUser(): string {
  try {
    return os.userInfo().username || 'this desktop';
  } catch {
    return 'this desktop';
  }
}
