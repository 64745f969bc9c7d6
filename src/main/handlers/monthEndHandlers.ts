import type { MonthStatus, monthEndOperations } from '../../shared/contract/monthEnd';
import { lagosDayOf } from '../../shared/localDates';
import { monthDays, monthOfDay, shiftMonth } from '../../shared/months';
import { createServiceClock } from '../api/serviceClock';
import { learnServiceClock } from '../api/walletReading';
import { exportPath } from '../files';
import { AccountResolver, listAccounts, removeAccount, setAccount } from '../monthEnd/accountMap';
import { checkCanClose, closeMonthHere, reopenMonthHere } from '../monthEnd/closeMonth';
import { writeClosePack } from '../monthEnd/closePack';
import { buildJournal, requireMapped, writeJournalCsv } from '../monthEnd/journal';
import { closedMonths, closeEvents } from '../monthEnd/monthCloses';
import { deskUser, learnMonthClock, monthSummary, readMonth } from '../monthEnd/monthEndService';
import { monthFigures } from '../monthEnd/monthFigures';
import { createReconcileRunner } from '../reconcile/reconcileService';
import { exported } from '../reports/reconcileWorkbook';
import { auditReconcileRun } from '../team/teamAuditHooks';
import { monthApprovals } from '../team/teamMonthApprovals';
import { closeMonthInTeam, followTeamCloses, reopenMonthInTeam, teamMonthStates, usesTeamCloses } from '../team/teamMonthCloses';
import { ensureDaysRead } from '../transactions/readMissingDays';
import type { HandlersOf } from './handlerTypes';

export const monthEndHandlers: HandlersOf<typeof monthEndOperations> = {
  'monthEnd.summary': async (input, app, call) => {
    await followTeamCloses(app, input.unread, call.signal);
    const { figures, coverage } = await readMonth(app, input.month, input.unread, 'report', call.signal);
    return { summary: monthSummary(figures), coverage };
  },
  'monthEnd.closePack': async (input, app, call) => {
    const { from, to } = monthDays(input.month);
    // The reconciliation first: it reads the month's days itself (or refuses) and saves its run.
    let reconciliation = null;
    if (input.exportFile) {
      reconciliation = await app
        .service(createReconcileRunner)
        .start({ file: input.exportFile, from, to, matchWindowMinutes: 15, duplicateWindowMinutes: 10, unread: input.unread }, { signal: call.signal });
      await auditReconcileRun(app, reconciliation);
    }
    await followTeamCloses(app, input.unread, call.signal);
    const { figures, coverage } = await readMonth(app, input.month, input.unread, 'closePack', call.signal);
    const file = exportPath(app, `Close pack ${input.month}`, 'xlsx');
    const result = await writeClosePack(app.db, app.connection.profileId, { figures, coverage, reconciliation, approvals: await monthApprovals(app, figures) }, file, {
      signal: call.signal,
    });
    return { ...exported(file, result), sheets: result.sheets, summary: monthSummary(figures), coverage, reconciliationRunId: reconciliation?.id ?? null };
  },
  'monthEnd.journal': async (input, app, call) => {
    // Checked before anything is written: the account map must name every account the journal posts to.
    await followTeamCloses(app, input.unread, call.signal);
    const { figures } = await readMonth(app, input.month, input.unread, 'journal', call.signal);
    const journal = buildJournal(figures, new AccountResolver(listAccounts(app.db, app.connection.profileId)));
    requireMapped(journal);
    const file = exportPath(app, `Journal ${input.month} ${input.format}`, 'csv');
    const result = await writeJournalCsv(journal, input.format, file);
    return { ...exported(file, result), format: input.format, date: journal.date, debitKobo: journal.debitKobo, creditKobo: journal.creditKobo, lines: journal.lines.length };
  },
  'monthEnd.months': async (input, app, call) => {
    const profile = app.connection.profileId;
    // The current month is the service's (a fresh command has not heard its clock yet).
    if (input.ask) await learnServiceClock(app.client(), call.signal);
    const team = usesTeamCloses(app) ? await teamMonthStates(app) : null;
    const span = app.db.prepare('SELECT min(created_at) AS first, max(created_at) AS last FROM log_entries WHERE profile_id = ?').get(profile) as {
      first: string | null;
      last: string | null;
    };
    const rows = app.db.prepare('SELECT month, state, closed_at AS closedAt, closed_by AS closedBy FROM month_closes WHERE profile_id = ?').all(profile) as {
      month: string;
      state: 'closed' | 'reopened';
      closedAt: string;
      closedBy: string;
    }[];
    const known = new Map<string, MonthStatus>(
      rows.map((r) => [r.month, { month: r.month, state: r.state, closedAt: r.state === 'closed' ? r.closedAt : null, closedBy: r.state === 'closed' ? r.closedBy : null }]),
    );
    const states = team?.states ?? known;
    const months = new Set(states.keys());
    const today = monthOfDay(lagosDayOf(app.service(createServiceClock).now()));
    if (span.first && span.last) {
      const last = monthOfDay(lagosDayOf(span.last)) > today ? monthOfDay(lagosDayOf(span.last)) : today;
      for (let m = monthOfDay(lagosDayOf(span.first)); m <= last; m = shiftMonth(m, 1)) months.add(m);
    } else months.add(today);
    return {
      months: [...months]
        .sort()
        .reverse()
        .map((month) => states.get(month) ?? { month, state: 'open' as const, closedAt: null, closedBy: null }),
      events: team?.events ?? closeEvents(app.db, profile),
      team: team !== null,
    };
  },
  'monthEnd.close': async (input, app, call) => {
    if (usesTeamCloses(app)) return { month: input.month, summary: await closeMonthInTeam(app, input.month, input.unread, call.signal) };
    const profile = app.connection.profileId;
    const clock = app.service(createServiceClock);
    await learnMonthClock(app, input.unread, call.signal);
    // Refused before anything is read when it cannot be closed at all; then every day of it read completely.
    checkCanClose(input.month, closedMonths(app.db, profile), clock.now());
    await ensureDaysRead(app, monthDays(input.month), input.unread, { purpose: 'close', signal: call.signal });
    closeMonthHere(app.db, profile, input.month, { by: deskUser(), serviceNowMs: clock.now() });
    return { month: input.month, summary: monthSummary(monthFigures(app.db, profile, input.month)) };
  },
  'monthEnd.reopen': async (input, app) => {
    if (usesTeamCloses(app)) await reopenMonthInTeam(app, input.month, input.reason);
    else reopenMonthHere(app.db, app.connection.profileId, input.month, { by: deskUser(), serviceNowMs: app.service(createServiceClock).now() }, input.reason);
    return { month: input.month };
  },
  'accounts.list': (_input, app) => listAccounts(app.db, app.connection.profileId),
  'accounts.check': async (input, app, call) => {
    // The journal's own check, without writing it: the month's lines looked up in the map as export would.
    const { figures } = await readMonth(app, input.month, input.unread, 'journal', call.signal);
    const journal = buildJournal(figures, new AccountResolver(listAccounts(app.db, app.connection.profileId)));
    return { month: input.month, lines: journal.lines.length, unmapped: journal.unmapped };
  },
  'accounts.set': (input, app) => setAccount(app.db, app.connection.profileId, input),
  'accounts.remove': (input, app) => ({ removed: removeAccount(app.db, app.connection.profileId, input) }),
};
