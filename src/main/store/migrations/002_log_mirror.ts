import type { Migration } from './migration';

/**
 * The local mirror of the service's vending log, per connection profile (a sandbox's ids and a
 * live service's ids must never mix), plus the wallet balance snapshots that reconciliation
 * rolls forward, the sync checkpoint and the catalog cache. Money in integer kobo, times in UTC
 * ISO-8601.
 *
 * Indexes follow the filters of the log endpoint (date, status, type, network) and the two sorts
 * of the Transactions page (time, amount); each ends with `created_at, id` so a filtered list is
 * read in time order straight from the index. Partial search on phone number and transaction id
 * uses an external-content FTS5 table with the trigram tokenizer keyed by `log_entries.rowid`
 * (searches of 3 characters or more); shorter searches fall back to LIKE.
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
    CREATE INDEX log_entries_created ON log_entries (profile_id, created_at, id);
    CREATE INDEX log_entries_transaction ON log_entries (profile_id, transaction_id);
    CREATE INDEX log_entries_status ON log_entries (profile_id, status, created_at, id);
    CREATE INDEX log_entries_type ON log_entries (profile_id, type, created_at, id);
    CREATE INDEX log_entries_network ON log_entries (profile_id, network, created_at, id);
    CREATE INDEX log_entries_amount ON log_entries (profile_id, amount_kobo, id);

    CREATE VIRTUAL TABLE log_search USING fts5(
      phone_number, transaction_id,
      content = 'log_entries', content_rowid = 'rowid', tokenize = 'trigram', detail = 'none'
    );
    CREATE TRIGGER log_entries_search_insert AFTER INSERT ON log_entries BEGIN
      INSERT INTO log_search (rowid, phone_number, transaction_id) VALUES (new.rowid, new.phone_number, new.transaction_id);
    END;
    CREATE TRIGGER log_entries_search_delete AFTER DELETE ON log_entries BEGIN
      INSERT INTO log_search (log_search, rowid, phone_number, transaction_id) VALUES ('delete', old.rowid, old.phone_number, old.transaction_id);
    END;
    CREATE TRIGGER log_entries_search_update AFTER UPDATE OF phone_number, transaction_id ON log_entries BEGIN
      INSERT INTO log_search (log_search, rowid, phone_number, transaction_id) VALUES ('delete', old.rowid, old.phone_number, old.transaction_id);
      INSERT INTO log_search (rowid, phone_number, transaction_id) VALUES (new.rowid, new.phone_number, new.transaction_id);
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
