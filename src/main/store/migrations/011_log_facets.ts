import type { Migration } from './migration';

/**
 * The filter choices of the Transactions page, from the data: each (type, network, status) present
 * in a connection's mirror, once. Reading them from `log_entries` itself means walking every row
 * (about 0.4 s for 1,000,000), so they are kept as rows are written: the mirror's writer
 * (logStore.ts) adds those of the rows it inserts, and a trigger those of rows whose profile, type,
 * network or status changes (a PENDING entry that settles). Rows are never deleted from the mirror,
 * so a choice here always has rows; a PENDING choice is checked against the mirror when read, as its
 * rows settle. Filled from the mirror once, here.
 */
export const logFacetsMigration: Migration = {
  version: 11,
  name: 'filter choices of the log mirror',
  up: `
    CREATE TABLE log_facets (
      profile_id TEXT NOT NULL,
      type TEXT NOT NULL,
      network TEXT NOT NULL,
      status TEXT NOT NULL,
      PRIMARY KEY (profile_id, type, network, status)
    ) WITHOUT ROWID;
    INSERT OR IGNORE INTO log_facets (profile_id, type, network, status)
      SELECT DISTINCT profile_id, type, network, status FROM log_entries;
    CREATE TRIGGER log_entries_facets_update AFTER UPDATE OF profile_id, type, network, status ON log_entries
      WHEN old.profile_id IS NOT new.profile_id OR old.type IS NOT new.type OR old.network IS NOT new.network OR old.status IS NOT new.status
    BEGIN
      -- Not INSERT OR IGNORE: the upsert's own ON CONFLICT would override the trigger's.
      INSERT INTO log_facets (profile_id, type, network, status)
        SELECT new.profile_id, new.type, new.network, new.status
        WHERE NOT EXISTS (SELECT 1 FROM log_facets WHERE profile_id = new.profile_id AND type = new.type AND network = new.network AND status = new.status);
    END;
  `,
};
