import type { Migration } from './migration';

/**
 * Single electricity and cable TV purchases and the requery loop that settles the pending ones.
 * A row is written in state `sending` (and committed) before the purchase request leaves, and
 * only moves on from what the service answered, a requery, the transaction log or a person's
 * decision. The requery columns live on the same row: a purchase and its pending tracking are
 * one record, so the receipt, the Pending page and the duplicate guard read one place.
 *
 * Times ending in `_ms` are epoch milliseconds on the service clock (see src/main/pending).
 */
export const pendingMigration: Migration = {
  version: 6,
  name: 'electricity and cable purchases with their pending and requery state',
  up: `
    CREATE TABLE purchases (
      id TEXT PRIMARY KEY,
      kind TEXT NOT NULL CHECK (kind IN ('electricity', 'cable')),
      source TEXT NOT NULL DEFAULT 'single',
      state TEXT NOT NULL,
      profile_id TEXT NOT NULL,
      connection_kind TEXT NOT NULL CHECK (connection_kind IN ('sandbox', 'live')),
      base_url TEXT NOT NULL,
      provider_code TEXT NOT NULL,
      provider_name TEXT NOT NULL,
      account TEXT NOT NULL,
      vend_type TEXT,
      bouquet_code TEXT NOT NULL DEFAULT '',
      bouquet_name TEXT NOT NULL DEFAULT '',
      amount_kobo INTEGER NOT NULL CHECK (amount_kobo > 0),
      phone TEXT NOT NULL,
      customer_name TEXT NOT NULL DEFAULT '',
      customer_address TEXT NOT NULL DEFAULT '',
      customer_type TEXT NOT NULL DEFAULT '',
      reference TEXT,
      token TEXT,
      units REAL,
      receipt_no TEXT,
      commission_kobo INTEGER,
      reason TEXT,
      hint TEXT,
      refund_state TEXT NOT NULL DEFAULT 'not_applicable',
      balance_before_kobo INTEGER,
      balance_after_kobo INTEGER,
      sent_ms INTEGER,
      purchased_ms INTEGER,
      requery_attempts INTEGER NOT NULL DEFAULT 0,
      requery_tries INTEGER NOT NULL DEFAULT 0,
      next_requery_ms INTEGER,
      last_requery_at TEXT,
      last_requery_note TEXT,
      settled_by TEXT,
      note TEXT,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      final_at TEXT
    );
    CREATE INDEX purchases_state ON purchases (state, next_requery_ms);
    CREATE INDEX purchases_key ON purchases (kind, account, amount_kobo);
    CREATE INDEX purchases_created ON purchases (created_at);
    CREATE UNIQUE INDEX purchases_reference ON purchases (reference) WHERE reference IS NOT NULL;
  `,
};
