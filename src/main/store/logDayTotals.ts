/**
 * The mirror's totals per Lagos day (`log_day_totals`, migration 32): the SQL that keeps them,
 * written once for the migration that creates them and for a first sync, which writes its rows
 * without the insert trigger and counts the table once at its end (src/main/transactions/logStore.ts).
 *
 * Exact by construction: every insert, delete, and change of a summed column of `log_entries` moves
 * its day's row in the transaction of the write. A day's row whose entries all moved elsewhere
 * stays with zeros (it sums to nothing).
 */
import { lagosDaySql } from '../../shared/localDates';

const ADD_NEW = `INSERT INTO log_day_totals VALUES (NEW.profile_id, ${lagosDaySql('NEW.created_at')}, NEW.type, NEW.network, NEW.status, 1, NEW.amount_kobo, NEW.cost_kobo, NEW.commission_kobo)
        ON CONFLICT DO UPDATE SET entries = entries + 1, face_kobo = face_kobo + excluded.face_kobo, cost_kobo = cost_kobo + excluded.cost_kobo,
          commission_kobo = commission_kobo + excluded.commission_kobo;`;
const TAKE_OLD = `UPDATE log_day_totals SET entries = entries - 1, face_kobo = face_kobo - OLD.amount_kobo, cost_kobo = cost_kobo - OLD.cost_kobo, commission_kobo = commission_kobo - OLD.commission_kobo
        WHERE profile_id = OLD.profile_id AND day = ${lagosDaySql('OLD.created_at')} AND type = OLD.type AND network = OLD.network AND status = OLD.status;`;

/** The insert trigger, apart: a first sync drops it while it loads and creates it again after counting the table. */
export const LOG_DAY_TOTALS_INSERT_TRIGGER = {
  name: 'log_day_totals_insert',
  sql: `CREATE TRIGGER IF NOT EXISTS log_day_totals_insert AFTER INSERT ON log_entries BEGIN
      ${ADD_NEW}
    END;`,
} as const;

export const LOG_DAY_TOTALS_OTHER_TRIGGERS = `
    CREATE TRIGGER log_day_totals_delete AFTER DELETE ON log_entries BEGIN
      ${TAKE_OLD}
    END;
    CREATE TRIGGER log_day_totals_update AFTER UPDATE OF profile_id, created_at, type, network, status, amount_kobo, cost_kobo, commission_kobo ON log_entries
      WHEN OLD.profile_id IS NOT NEW.profile_id OR OLD.created_at IS NOT NEW.created_at OR OLD.type IS NOT NEW.type OR OLD.network IS NOT NEW.network
        OR OLD.status IS NOT NEW.status OR OLD.amount_kobo IS NOT NEW.amount_kobo OR OLD.cost_kobo IS NOT NEW.cost_kobo OR OLD.commission_kobo IS NOT NEW.commission_kobo
    BEGIN
      ${TAKE_OLD}
      ${ADD_NEW}
    END;`;

/** Counts every connection's totals again from the table (the caller's transaction). */
export const RECOUNT_LOG_DAY_TOTALS = `
    DELETE FROM log_day_totals;
    INSERT INTO log_day_totals
      SELECT profile_id, ${lagosDaySql('created_at')}, type, network, status, COUNT(*), SUM(amount_kobo), SUM(cost_kobo), SUM(commission_kobo)
        FROM log_entries GROUP BY 1, 2, 3, 4, 5;`;
