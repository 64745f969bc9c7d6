import type { Migration } from './migration';

/**
 * - `sync_checkpoints.run_plan`: how the sync in progress reads the log with several pages in
 *   flight (JSON, see src/main/transactions/syncCheckpoint.ts): its parts (date ranges), the page size
 *   and numbering, the pass, the records the pass started with and the pages committed, written
 *   in the same transaction as those pages' rows.
 * - `log_entry_changes`: the rowid of every mirror row whose place in a sort or whose filter
 *   columns changed (a status that settled, a corrected amount or time) or that was deleted, in
 *   order. The in-process position index of the Transactions table (logPositionIndex.ts) reads it
 *   to stay in step with writes of any connection or process; inserts it finds by rowid. Only
 *   the last 50,000 changes are kept (an index further behind is rebuilt).
 */
export const syncPlanAndPositionsMigration: Migration = {
  version: 12,
  name: 'concurrent sync plan; changes the mirror position index follows',
  up: `
    ALTER TABLE sync_checkpoints ADD COLUMN run_plan TEXT;

    CREATE TABLE log_entry_changes (seq INTEGER PRIMARY KEY, entry_rowid INTEGER NOT NULL);
    CREATE TRIGGER log_entries_position_update AFTER UPDATE OF profile_id, id, created_at, amount_kobo, status, type, network ON log_entries
      WHEN old.profile_id IS NOT new.profile_id OR old.id IS NOT new.id OR old.created_at IS NOT new.created_at OR old.amount_kobo IS NOT new.amount_kobo
        OR old.status IS NOT new.status OR old.type IS NOT new.type OR old.network IS NOT new.network
    BEGIN
      INSERT INTO log_entry_changes (entry_rowid) VALUES (new.rowid);
      DELETE FROM log_entry_changes WHERE seq <= (SELECT MAX(seq) FROM log_entry_changes) - 50000;
    END;
    CREATE TRIGGER log_entries_position_delete AFTER DELETE ON log_entries BEGIN
      INSERT INTO log_entry_changes (entry_rowid) VALUES (old.rowid);
      DELETE FROM log_entry_changes WHERE seq <= (SELECT MAX(seq) FROM log_entry_changes) - 50000;
    END;
  `,
};
