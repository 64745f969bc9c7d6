import { LOG_DAY_TOTALS_INSERT_TRIGGER, LOG_DAY_TOTALS_OTHER_TRIGGERS, RECOUNT_LOG_DAY_TOTALS } from '../logDayTotals';
import type { Migration } from './migration';

/**
 * The mirror's totals per Lagos day (`log_day_totals`): for each connection, Lagos day, type,
 * network and status, how many entries and their face value, wallet cost and commission. The
 * Dashboard's today, week, month and 30-day figures and its daily chart read these few hundred
 * rows a month instead of summing every entry (a month of a ten-million-entry log is over three
 * million rows). Kept exact by triggers on `log_entries` (src/main/store/logDayTotals.ts).
 */
export const logDayTotalsMigration: Migration = {
  version: 32,
  name: 'log mirror totals per Lagos day, kept by triggers',
  up: `
    CREATE TABLE log_day_totals (
      profile_id TEXT NOT NULL,
      day TEXT NOT NULL,
      type TEXT NOT NULL,
      network TEXT NOT NULL,
      status TEXT NOT NULL,
      entries INTEGER NOT NULL,
      face_kobo INTEGER NOT NULL,
      cost_kobo INTEGER NOT NULL,
      commission_kobo INTEGER NOT NULL,
      PRIMARY KEY (profile_id, day, type, network, status)
    ) WITHOUT ROWID;
    ${RECOUNT_LOG_DAY_TOTALS}
    ${LOG_DAY_TOTALS_INSERT_TRIGGER.sql}
    ${LOG_DAY_TOTALS_OTHER_TRIGGERS}
  `,
};
