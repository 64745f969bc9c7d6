import type { Migration } from './migration';

/**
 * The local mirror of the service's vending log, per connection profile (a sandbox's ids and a
 * live service's ids must never mix), plus the wallet balance snapshots that reconciliation
 * rolls forward. Money in integer kobo, times in UTC ISO-8601.
 */
export const logMirrorMigration: Migration = {
  version: 2,
  name: 'log mirror and balance snapshots',
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

    CREATE TABLE balance_snapshots (
      id INTEGER PRIMARY KEY,
      profile_id TEXT NOT NULL,
      taken_at TEXT NOT NULL,
      balance_kobo INTEGER NOT NULL,
      source TEXT NOT NULL
    );
    CREATE INDEX balance_snapshots_time ON balance_snapshots (profile_id, taken_at);
  `,
};
