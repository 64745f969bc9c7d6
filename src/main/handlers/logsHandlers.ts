/** Handlers of the mirror operations: sync, the Transactions table, export. */
import { AppError } from '../../shared/appError';
import type { logsOperations } from '../../shared/contract/logs';
import { periodNotes, periodText } from '../../shared/coverageText';
import { withCostCentres } from '../costCentres/logCostCentres';
import { exportLogs } from '../transactions/logExport';
import { logFacets } from '../transactions/logFacets';
import { logRow, logTotals, queryLogRows } from '../transactions/logQuery';
import { autoSync } from '../transactions/autoSync';
import { logSync } from '../transactions/logSync';
import { readSyncSettings, writeSyncSettings } from '../transactions/syncSettings';
import { coverageAsked, coverageNow, ensureDaysRead } from '../transactions/readMissingDays';
import type { HandlersOf } from './handlerTypes';

export const logsHandlers: HandlersOf<typeof logsOperations> = {
  'sync.start': (input, app) => logSync(app).start(input),
  'sync.run': (input, app, call) => logSync(app).runAfterCurrent({ ...input, signal: call.signal }),
  'sync.cancel': (_input, app) => ({ cancelled: logSync(app).cancel() }),
  'sync.status': (_input, app) => ({ ...logSync(app).status(), auto: autoSync(app).view() }),
  'sync.settings.get': (_input, app) => readSyncSettings(app.settings),
  'sync.settings.set': (input, app) => {
    const next = writeSyncSettings(app.settings, input);
    autoSync(app).settingsChanged();
    return next;
  },
  'logs.query': (input, app) => ({
    offset: input.offset,
    rows: withCostCentres(app.db, queryLogRows(app.db, app.connection.profileId, input.filter, input.sort, input.offset, input.limit)),
  }),
  'logs.totals': (input, app) => logTotals(app.db, app.connection.profileId, input.filter),
  'logs.facets': (_input, app) => logFacets(app.db, app.connection.profileId),
  'logs.get': (input, app) => {
    const row = logRow(app.db, app.connection.profileId, input.rowid);
    if (!row)
      throw new AppError('log_row_missing', 'That transaction is not in the mirror of this connection.', 'Sync again, or clear the filters and look for it by its transaction id.');
    return withCostCentres(app.db, [row])[0];
  },
  'logs.export': async ({ unread, ...input }, app, call) => {
    // A filter over days: never a file silently short of the days the mirror has not read.
    const ranged = input.filter.from !== undefined || input.filter.to !== undefined;
    const range = { from: input.filter.from, to: input.filter.to };
    const coverage = ranged ? await ensureDaysRead(app, range, unread, { purpose: 'export', signal: call.signal }) : null;
    // The workbook states what its rows cover (the whole mirror, without a range: read from the log's start or not).
    const stated = coverage ?? coverageNow(app, range);
    const period = [`Period: ${periodText(stated)}.`, ...periodNotes(stated)];
    return { ...(await exportLogs(app, { ...input, period, signal: call.signal })), coverage };
  },
  'logs.coverage': ({ ask, ...range }, app, call) => coverageAsked(app, range, ask, call.signal),
  'logs.readMissing': ({ unread, for: purpose, ...range }, app, call) => ensureDaysRead(app, range, unread, { purpose, signal: call.signal }),
};
