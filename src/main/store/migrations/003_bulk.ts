import type { Migration } from './migration';

/**
 * Bulk purchase jobs. A job and every one of its items are written here before anything is
 * sent; an item's state only advances from what the service answered (or from its log), and an
 * item is marked `sending` in a committed transaction before its request leaves, so a crash at
 * any moment leaves a record of everything that may have been bought.
 */
export const bulkMigration: Migration = {
  version: 3,
  name: 'bulk purchase jobs, their items and the rows excluded from them',
  up: `
    CREATE TABLE bulk_jobs (
      id TEXT PRIMARY KEY,
      kind TEXT NOT NULL CHECK (kind IN ('airtime', 'data', 'electricity', 'cable')),
      state TEXT NOT NULL,
      profile_id TEXT NOT NULL,
      connection_kind TEXT NOT NULL CHECK (connection_kind IN ('sandbox', 'live')),
      base_url TEXT NOT NULL,
      file_name TEXT NOT NULL,
      file_hash TEXT NOT NULL,
      sheet_name TEXT,
      headers_json TEXT NOT NULL,
      mapping_json TEXT NOT NULL,
      rows_total INTEGER NOT NULL,
      invalid_count INTEGER NOT NULL,
      batch_size INTEGER NOT NULL,
      concurrency INTEGER NOT NULL,
      message TEXT,
      runner_pid INTEGER,
      lease_until_ms INTEGER,
      created_at TEXT NOT NULL,
      confirmed_at TEXT,
      started_at TEXT,
      finished_at TEXT,
      updated_at TEXT NOT NULL
    );
    CREATE INDEX bulk_jobs_created ON bulk_jobs (created_at);

    CREATE TABLE bulk_items (
      job_id TEXT NOT NULL REFERENCES bulk_jobs (id) ON DELETE CASCADE,
      seq INTEGER NOT NULL,
      row_number INTEGER NOT NULL,
      phone TEXT NOT NULL,
      network TEXT NOT NULL,
      product_code TEXT NOT NULL,
      voucher_code TEXT NOT NULL DEFAULT '',
      operator TEXT NOT NULL DEFAULT '',
      region TEXT NOT NULL DEFAULT '',
      data_value REAL,
      description TEXT NOT NULL DEFAULT '',
      amount_kobo INTEGER NOT NULL CHECK (amount_kobo > 0),
      name TEXT NOT NULL DEFAULT '',
      note TEXT NOT NULL DEFAULT '',
      given_network TEXT,
      prefix_network TEXT,
      duplicate_of TEXT,
      state TEXT NOT NULL,
      solo INTEGER NOT NULL DEFAULT 0,
      attempts INTEGER NOT NULL DEFAULT 0,
      holds INTEGER NOT NULL DEFAULT 0,
      reference TEXT,
      reason TEXT,
      settled_by TEXT,
      sent_ms INTEGER,
      not_before_ms INTEGER,
      final_at TEXT,
      updated_at TEXT NOT NULL,
      PRIMARY KEY (job_id, seq)
    );
    CREATE INDEX bulk_items_state ON bulk_items (job_id, state);
    CREATE INDEX bulk_items_key ON bulk_items (phone, amount_kobo);
    CREATE INDEX bulk_items_sent ON bulk_items (sent_ms);
    CREATE UNIQUE INDEX bulk_items_reference ON bulk_items (reference) WHERE reference IS NOT NULL;

    CREATE TABLE bulk_invalid_rows (
      job_id TEXT NOT NULL REFERENCES bulk_jobs (id) ON DELETE CASCADE,
      row_number INTEGER NOT NULL,
      field TEXT NOT NULL,
      message TEXT NOT NULL
    );
    CREATE INDEX bulk_invalid_rows_job ON bulk_invalid_rows (job_id, row_number);
  `,
};
