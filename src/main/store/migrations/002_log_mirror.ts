import type { Migration } from './migration';

/**
 * The local mirror of the service's vending log, per connection profile (a sandbox's ids and a
 * live service's ids must never mix), plus the wallet balance snapshots that reconciliation
 * rolls forward, the sync checkpoint and the catalog cache. Money in integer kobo, times in UTC
 * ISO-8601.
 *
 * Few indexes, because each one costs on every insert of a 1,000,000-entry sync: one covering index
 * in time order holds every filter column (status, type, network) and the three amounts, so a
 * filtered list is read in time order and its totals summed from the index alone; one serves the
 * amount sort; a partial one holds only PENDING rows. Partial search on phone number and
 * transaction id is not in SQLite: an in-process index (src/main/transactions/logSearchIndex.ts) scans
 * packed buffers of both columns and hands the matching rowids to SQL.
 */
export const logMirrorMigration: Migration = {
  version: 2,
  name: 'log mirror, balance snapshots, sync checkpoint, catalog cache',
  up: `
    CREATE TABLE log_entries (
      rowid INTEGER PRIMARY KEY,
      profile_id TEXT NOT NULL,
      id INTEGER NOT NULL,
      transaction_id TEXT NOT NULL,
      partner_reference TEXT NOT NULL,
      phone_number TEXT NOT NULL,
      amount_kobo INTEGER NOT NULL,
      cost_kobo INTEGER NOT NULL,
      commission_kobo INTEGER NOT NULL,
      type TEXT NOT NULL,
      network TEXT NOT NULL,
      operator TEXT NOT NULL,
      region TEXT NOT NULL,
      description TEXT NOT NULL,
      data_plan TEXT NOT NULL,
      status TEXT NOT NULL,
      time_text TEXT NOT NULL,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      synced_at TEXT NOT NULL,
      UNIQUE (profile_id, id)
    );
    -- Default order, every filter but search, and the totals, all from one covering index.
    CREATE INDEX log_entries_created ON log_entries (profile_id, created_at, id, status, type, network, amount_kobo, cost_kobo, commission_kobo);
    CREATE INDEX log_entries_amount ON log_entries (profile_id, amount_kobo, id);
    -- Only the (few) PENDING rows: where an incremental sync must start re-reading.
    CREATE INDEX log_entries_pending ON log_entries (profile_id, created_at) WHERE status = 'PENDING';

    -- Bumped when a row's searchable text changes or a row goes away, so the in-process search
    -- index (logSearchIndex.ts) knows to rebuild; inserts are picked up by rowid without it.
    CREATE TABLE log_search_state (one INTEGER PRIMARY KEY CHECK (one = 1), generation INTEGER NOT NULL);
    INSERT INTO log_search_state (one, generation) VALUES (1, 0);
    CREATE TRIGGER log_entries_search_update AFTER UPDATE OF phone_number, transaction_id, profile_id ON log_entries
      WHEN old.phone_number IS NOT new.phone_number OR old.transaction_id IS NOT new.transaction_id OR old.profile_id IS NOT new.profile_id
    BEGIN
      UPDATE log_search_state SET generation = generation + 1;
    END;
    CREATE TRIGGER log_entries_search_delete AFTER DELETE ON log_entries BEGIN
      UPDATE log_search_state SET generation = generation + 1;
    END;

    CREATE TABLE balance_snapshots (
      id INTEGER PRIMARY KEY,
      profile_id TEXT NOT NULL,
      taken_at TEXT NOT NULL,
      balance_kobo INTEGER NOT NULL,
      source TEXT NOT NULL
    );
    CREATE INDEX balance_snapshots_time ON balance_snapshots (profile_id, taken_at);

    -- One row per profile: the last finished sync, and the run in progress (its date range and
    -- the NextPage URL after the last committed page) so a crash or cancel resumes where it was.
    CREATE TABLE sync_checkpoints (
      profile_id TEXT PRIMARY KEY,
      last_finished_at TEXT,
      last_result TEXT,
      run_started_at TEXT,
      run_startdate TEXT,
      run_enddate TEXT,
      run_next_url TEXT,
      run_pages INTEGER NOT NULL DEFAULT 0,
      run_fetched INTEGER NOT NULL DEFAULT 0,
      run_inserted INTEGER NOT NULL DEFAULT 0,
      run_updated INTEGER NOT NULL DEFAULT 0,
      run_total INTEGER
    );

    CREATE TABLE catalog_cache (
      profile_id TEXT NOT NULL,
      kind TEXT NOT NULL,
      read_at TEXT NOT NULL,
      body TEXT NOT NULL,
      PRIMARY KEY (profile_id, kind)
    );
  `,
};
