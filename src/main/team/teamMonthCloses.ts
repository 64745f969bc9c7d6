/**
 * A team's month closes (team schema 9): on a desktop joined to a team and connected LIVE, a month
 * is closed and reopened in the team database — by an approver or admin, audited there — and the
 * desktop's own closes (SQLite, migration 38) follow the team's. The month-end code keeps asking
 * SQLite whether a month is closed: every figure of a month (its adjustments above all) is one SQL
 * query over the mirror joined with `month_closes`, so the team's closes are mirrored into that
 * table rather than asked of PostgreSQL on each read. A sandbox connection keeps its closes on
 * this desktop (a practice wallet is not the team's).
 *
 * The team's closes are per organisation: the service's address and its NGN wallet's account
 * number, as `/accountBalance` gives them, so every desktop of the team on that wallet sees them.
 */
import { AppError } from '../../shared/appError';
import type { MonthCloseEventView, MonthStatus, MonthSummary } from '../../shared/contract/monthEnd';
import type { UnreadDays } from '../../shared/contract/logs';
import { monthDays } from '../../shared/months';
import type { App } from '../appContext';
import { createServiceClock } from '../api/serviceClock';
import { checkCanClose, checkCanReopen, closeMonthHere, reopenMonthHere } from '../monthEnd/closeMonth';
import { closedMonths } from '../monthEnd/monthCloses';
import { learnMonthClock, monthSummary } from '../monthEnd/monthEndService';
import { monthFigures } from '../monthEnd/monthFigures';
import { ensureDaysRead } from '../transactions/readMissingDays';
import { callTeam } from './teamCall';
import { serviceIdentity } from './teamRunSpec';
import { teamWorkspace } from './teamWorkspace';

interface TeamClose {
  month: string;
  state: 'closed' | 'reopened';
  closedBy: string;
  closedAt: string;
  serviceClosedAt: string;
}

interface TeamMonths {
  organisation: string;
  closes: TeamClose[];
  events: MonthCloseEventView[];
}

/** Whether this desktop's months are the team's: joined, and connected LIVE. */
export function usesTeamCloses(app: App): boolean {
  return teamWorkspace(app).link() !== null && app.connection.kind === 'live';
}

/** The organisation the team's closes are kept for: the service's address and the wallet's account number. */
async function organisationOf(app: App): Promise<string> {
  const here = await serviceIdentity(app.session());
  if (here.accountNumber === null) {
    throw new AppError(
      'team_organisation_unknown',
      "The service's wallet could not be read, so vendesk cannot tell which organisation's months to read in the team database.",
      'Check the connection (vendesk status) and try again.',
    );
  }
  return `${here.baseUrl} ${here.accountNumber}`;
}

async function readTeamMonths(app: App): Promise<TeamMonths> {
  const organisation = await organisationOf(app);
  return teamWorkspace(app).withClient(async (client) => {
    const closes = await client.query<TeamClose>(
      `SELECT month, state, closed_by::text AS "closedBy", to_json(closed_at)#>>'{}' AS "closedAt", to_json(service_closed_at)#>>'{}' AS "serviceClosedAt"
         FROM vendesk.month_closes WHERE organisation = $1 ORDER BY month`,
      [organisation],
    );
    const events = await client.query<MonthCloseEventView>(
      `SELECT month, action, to_json(at)#>>'{}' AS at, to_json(service_at)#>>'{}' AS "serviceAt", actor::text AS by, reason
         FROM vendesk.month_close_events WHERE organisation = $1 ORDER BY id`,
      [organisation],
    );
    return { organisation, closes: closes.rows, events: events.rows };
  }, 'read');
}

const teamClosed = (t: TeamMonths) => t.closes.filter((c) => c.state === 'closed').map((c) => c.month);
const iso = (at: string) => new Date(at).toISOString();

/**
 * Makes this desktop's closes the team's: from the first month where they differ, the desktop's
 * closes are reopened (latest first) and the team's closed again here (earliest first), each
 * month's days read first (`unread`) so that what the close keeps is complete.
 */
async function followTeam(app: App, team: TeamMonths, unread: UnreadDays, signal?: AbortSignal): Promise<void> {
  const profile = app.connection.profileId;
  const here = closedMonths(app.db, profile);
  const there = teamClosed(team);
  const differ = [...new Set([...here, ...there])].sort().find((m) => here.includes(m) !== there.includes(m));
  if (differ === undefined) return;
  const lastEvent = (month: string, action: 'close' | 'reopen') => team.events.filter((e) => e.month === month && e.action === action).at(-1);
  for (const month of here.filter((m) => m >= differ).reverse()) {
    const reopen = lastEvent(month, 'reopen');
    reopenMonthHere(
      app.db,
      profile,
      month,
      { by: reopen?.by ?? 'the team', serviceNowMs: reopen ? Date.parse(reopen.serviceAt) : app.service(createServiceClock).now() },
      reopen?.reason ?? 'not closed in the team database',
    );
  }
  for (const close of team.closes.filter((c) => c.state === 'closed' && c.month >= differ)) {
    await ensureDaysRead(app, monthDays(close.month), unread, { purpose: 'close', signal });
    closeMonthHere(app.db, profile, close.month, { by: close.closedBy, serviceNowMs: Date.parse(close.serviceClosedAt) });
  }
}

/** Before a month's figures are read on a team desktop: this desktop's closes made the team's. */
export async function followTeamCloses(app: App, unread: UnreadDays, signal?: AbortSignal): Promise<void> {
  if (!usesTeamCloses(app)) return;
  await learnMonthClock(app, unread, signal);
  await followTeam(app, await readTeamMonths(app), unread, signal);
}

/** The team's months for `month list` and the Month-end page: its closes and every close and reopen, who and when. */
export async function teamMonthStates(app: App): Promise<{ states: Map<string, MonthStatus>; events: MonthCloseEventView[] }> {
  const team = await readTeamMonths(app);
  const states = new Map<string, MonthStatus>(
    team.closes.map((c) => [
      c.month,
      { month: c.month, state: c.state, closedAt: c.state === 'closed' ? iso(c.closedAt) : null, closedBy: c.state === 'closed' ? c.closedBy : null },
    ]),
  );
  return { states, events: team.events.map((e) => ({ ...e, at: iso(e.at), serviceAt: iso(e.serviceAt) })) };
}

/** What the team's audit row of a close says of the month: its spend and counts, in kobo. */
function closeSummary(s: MonthSummary): Record<string, number> {
  return {
    purchases: s.purchases.purchases,
    spendKobo: s.purchases.costKobo + s.adjustments.costKobo + s.messaging.costKobo,
    faceKobo: s.purchases.faceKobo,
    pending: s.pending.count,
    refunds: s.refunds.count,
    adjustments: s.adjustments.entries,
  };
}

/** Closes `month` in the team database (refused there unless this member approves or administers), then here. */
export async function closeMonthInTeam(app: App, month: string, unread: UnreadDays, signal?: AbortSignal): Promise<MonthSummary> {
  const profile = app.connection.profileId;
  const clock = app.service(createServiceClock);
  const team = teamWorkspace(app);
  await learnMonthClock(app, unread, signal);
  const months = await readTeamMonths(app);
  await followTeam(app, months, unread, signal);
  checkCanClose(month, teamClosed(months), clock.now());
  await ensureDaysRead(app, monthDays(month), unread, { purpose: 'close', signal });
  const serviceNowMs = clock.now();
  const desktop = team.desktop();
  const r = await team.withClient(
    (client) =>
      callTeam<'close_month', { closed_by: string }>(
        client,
        'close_month',
        {
          organisation: months.organisation,
          month,
          serviceAt: new Date(serviceNowMs).toISOString(),
          summary: JSON.stringify(closeSummary(monthSummary(monthFigures(app.db, profile, month)))),
          desktopId: desktop.id,
          desktopName: desktop.name,
        },
        { columns: 'closed_by::text' },
      ),
    'month',
  );
  closeMonthHere(app.db, profile, month, { by: r.rows[0].closed_by, serviceNowMs });
  return monthSummary(monthFigures(app.db, profile, month));
}

/** Reopens `month` in the team database (an approver or admin, with the reason), then here. */
export async function reopenMonthInTeam(app: App, month: string, reason: string): Promise<void> {
  const team = teamWorkspace(app);
  const months = await readTeamMonths(app);
  await followTeam(app, months, 'read');
  checkCanReopen(month, teamClosed(months));
  const serviceNowMs = app.service(createServiceClock).now();
  const desktop = team.desktop();
  const r = await team.withClient(
    (client) =>
      callTeam<'reopen_month', { closed_by: string }>(
        client,
        'reopen_month',
        { organisation: months.organisation, month, reason, serviceAt: new Date(serviceNowMs).toISOString(), desktopId: desktop.id, desktopName: desktop.name },
        { columns: 'session_user::text AS closed_by' },
      ),
    'month',
  );
  reopenMonthHere(app.db, app.connection.profileId, month, { by: r.rows[0].closed_by, serviceNowMs }, reason);
}
